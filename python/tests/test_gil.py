"""Batch calls release the GIL: another Python thread runs while one is inside a call, shown
without measuring time, and threads give the same answers as one.

Two proofs:
- an overlap of profile callbacks: the calling thread's profile function is print() into an
  io.StringIO, C code throughout, so its c_call and c_return lines (frame, event, function) are written with no Python
  bytecode (hence no thread switch) between them and the C++ function. A second thread polls
  the log; seeing the c_call line without the c_return line means it ran Python code while
  the first thread was inside the C++ function, which it can only do if the function released
  the GIL. The control (sorted(), one C call that keeps the GIL) is never seen so. The poll
  ends when the call returns; whether it catches the call inside depends on scheduling, so up
  to ATTEMPTS calls are tried (a bounded count, no clock).
- a barrier: fingerprint_file reads a named pipe that only a Python thread writes, so the call
  cannot return unless that thread runs while the call is in progress; it runs in a child
  process with a timeout, so a call that keeps the GIL (and deadlocks) fails the test instead
  of hanging it.
"""

import functools
import io
import os
import re
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import simdex

ATTEMPTS = 5


def seen_inside(call, name):
    """Runs call() on a new thread and returns True iff this thread ran Python code while that
    thread was inside the C function `name` (between its c_call and c_return events)."""
    log = io.StringIO()
    entered = re.compile(r"\tc_call\t.*\b%s\b" % name)
    returned = re.compile(r"\tc_return\t.*\b%s\b" % name)

    def worker():
        sys.setprofile(functools.partial(print, sep="\t", file=log))
        try:
            call()
        finally:
            sys.setprofile(None)

    t = threading.Thread(target=worker)
    t.start()
    inside = False
    while t.is_alive():  # bounded by the call: the loop ends when the worker has returned
        text = log.getvalue()
        if returned.search(text):
            break
        if entered.search(text):
            inside = True
            break
    t.join(timeout=600)
    assert not t.is_alive()
    assert entered.search(log.getvalue()), f"the profile log shows no call of {name}"
    return inside


def overlaps(call, name):
    return any(seen_inside(call, name) for _ in range(ATTEMPTS))


def random_index(path, n, seed):
    fps = np.random.default_rng(seed).integers(0, 2**64 - 1, n, dtype=np.uint64)
    with simdex.IndexBuilder(str(path)) as b:
        b.add(np.arange(len(fps), dtype=np.uint64), fps)
    return simdex.Index.open(str(path)), fps


def test_fingerprint_batch_releases_the_gil():
    texts = [" ".join(f"word{(i * 7 + j) % 997}" for j in range(300)) for i in range(3000)]
    fp = simdex.Fingerprinter()
    assert overlaps(lambda: fp.fingerprint_batch(texts), "fingerprint_batch")


def test_index_search_releases_the_gil(tmp_path):
    index, fps = random_index(tmp_path / "g.sdx", 100_000, 2)
    assert overlaps(lambda: index.search(fps[:20_000], 3), "search")


def test_a_call_that_keeps_the_gil_is_never_seen_inside():
    # The control: sorted() of a long list is one C call that holds the GIL throughout.
    values = [(i * 7919) % 1_000_003 for i in range(300_000)]
    assert not any(seen_inside(lambda: sorted(values), "sorted") for _ in range(3))


# The barrier, run in a child process: the main thread fingerprints the named pipe, which only
# a second Python thread writes. Exit status 0 and "ok" when the documents came back.
BARRIER = textwrap.dedent("""
    import os, sys, threading
    import simdex
    fifo = sys.argv[1]
    lines = [f"document {i} about things" for i in range(1000)]

    def write():
        with open(fifo, "w") as f:   # blocks until the call opens the pipe for reading
            for line in lines:
                f.write(line + "\\n")

    writer = threading.Thread(target=write)
    writer.start()
    got = simdex.fingerprint_file(fifo, format="lines", threads=1)
    writer.join()
    want = simdex.Fingerprinter().fingerprint_batch(lines)[0]
    assert (got["fingerprints"] == want).all() and len(want) == len(lines)
    print("ok")
""")


def test_fingerprint_file_releases_the_gil_while_it_reads(tmp_path):
    fifo = tmp_path / "docs.pipe"
    os.mkfifo(fifo)
    try:
        done = subprocess.run([sys.executable, "-c", BARRIER, str(fifo)], capture_output=True, text=True,
                              timeout=120, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    except subprocess.TimeoutExpired:
        pytest.fail("fingerprint_file on a pipe did not return within 120 s: it holds the GIL while "
                    "it reads, so the Python thread that writes the pipe never ran")
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr


def test_two_python_threads_search_one_index_at_once_with_the_same_answers(tmp_path):
    index, fps = random_index(tmp_path / "t.sdx", 20_000, 4)
    want = index.search(fps, 3)
    got = [None, None]

    def run(i):
        got[i] = index.search(fps, 3, threads=2)
    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
        assert not t.is_alive()
    for g in got:
        for a, b in zip(g, want):
            np.testing.assert_array_equal(a, b)


def test_lsh_index_search_releases_the_gil(tmp_path):
    sigs = np.random.default_rng(5).integers(0, 2**32 - 1, (20_000, 64), dtype=np.uint32)
    with simdex.LshIndexBuilder(str(tmp_path / "l.sdx"), num_perm=64) as b:
        b.add(np.arange(len(sigs), dtype=np.uint64), sigs)
    index = simdex.LshIndex.open(str(tmp_path / "l.sdx"))
    assert overlaps(lambda: index.search(sigs, 0.0), "search")
