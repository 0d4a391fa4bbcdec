"""Batch calls release the GIL: another Python thread runs while one is inside a batch
(checked structurally, not by timing), and threads give the same answers as one."""

import sys
import threading
import time

import numpy as np

import simdex


def python_progress_during(call):
    """Runs call() on a thread and returns how many times this thread ran Python code
    in the first half of the call. The call starts holding the GIL, and the switch
    interval (0.05 s) is less than half the call: had the call kept the GIL, this
    thread could not run before it returned (it may run after the return, before the
    worker reads the clock, for at most one switch interval), so the count would be 0."""
    inside = threading.Event()
    span = []

    def worker():
        inside.set()
        start = time.perf_counter()
        call()
        span.extend([start, time.perf_counter()])

    old = sys.getswitchinterval()
    sys.setswitchinterval(0.05)
    try:
        t = threading.Thread(target=worker)
        t.start()
        inside.wait()
        stamps = []
        while t.is_alive():
            stamps.append(time.perf_counter())
            for _ in range(100):
                pass
        t.join()
    finally:
        sys.setswitchinterval(old)
    begin, end = span
    assert end - begin > 0.2, "the call is too short to tell"
    return sum(begin <= s <= begin + (end - begin) / 2 for s in stamps)


def random_index(path, n, seed):
    fps = np.random.default_rng(seed).integers(0, 2**64 - 1, n, dtype=np.uint64)
    with simdex.IndexBuilder(str(path)) as b:
        b.add(np.arange(len(fps), dtype=np.uint64), fps)
    return simdex.Index.open(str(path)), fps


def test_fingerprint_batch_releases_the_gil():
    texts = [" ".join(f"word{(i * 7 + j) % 997}" for j in range(300)) for i in range(12000)]
    fp = simdex.Fingerprinter()
    assert python_progress_during(lambda: fp.fingerprint_batch(texts)) > 50


def test_index_search_releases_the_gil(tmp_path):
    index, fps = random_index(tmp_path / "g.sdx", 100_000, 2)
    assert python_progress_during(lambda: index.search(fps, 3)) > 50


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
        t.join()
    for g in got:
        for a, b in zip(g, want):
            np.testing.assert_array_equal(a, b)
