#!/usr/bin/env python3
"""Many processes on one index: do they share its pages? (docs/library.md, "Many processes")

Builds an index of N uniform random fingerprints (t10, 4 KiB blocks), then for each process count P
starts P processes that each open it with simdex.Index.open(path, preload=True) (every page read
into memory), answer the same queries, and wait. With all P running, it reads each process's
/proc/PID/smaps entry for the index file's mapping: Rss (the pages the process maps) and Pss (its
proportional share: a page mapped by P processes counts 1/P in each). Shared pages give a Pss per
process of about file size / P while Rss stays the file size. Also checks that every process
answered the queries identically. Prints one JSON line per P.

Usage: PYTHONPATH=build/python python3 bench/python/shared_pages.py [--n 1e7] [--processes 1,2,4,8]
           [--queries 1000] [--dir /tmp]
"""

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

import simdex

CHILD = r"""
import hashlib, sys
import numpy as np
import simdex
index = simdex.Index.open(sys.argv[1], preload=True)
queries = np.load(sys.argv[2])
lims, ids, fps, distances = index.search(queries)
h = hashlib.sha256()
for a in (lims, ids, fps, distances):
    h.update(np.ascontiguousarray(a).tobytes())
print(h.hexdigest(), flush=True)
sys.stdin.read()  # hold the mapping until the parent has measured
"""


HEADER = re.compile(r"^[0-9a-f]+-[0-9a-f]+ ")


def mapping_kib(pid, path):
    """Rss and Pss in KiB of the process's mappings of `path`."""
    rss = pss = 0
    inside = False
    real = os.path.realpath(path)
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            fields = line.split()
            if HEADER.match(line):  # "start-end perms offset dev inode [path]" opens a mapping
                inside = len(fields) >= 6 and fields[5] == real
            elif inside and fields[0] == "Rss:":
                rss += int(fields[1])
            elif inside and fields[0] == "Pss:":
                pss += int(fields[1])
    return rss, pss


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=float, default=1e7)
    ap.add_argument("--processes", default="1,2,4,8")
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--dir", default=tempfile.gettempdir())
    args = ap.parse_args()
    n = int(args.n)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        path = os.path.join(tmp, "shared.sdx")
        rng = np.random.default_rng(1)
        fps = rng.integers(0, 2**64, size=n, dtype=np.uint64)
        with simdex.IndexBuilder(path) as builder:
            builder.add(np.arange(n, dtype=np.uint64), fps)
        queries_path = os.path.join(tmp, "queries.npy")
        np.save(queries_path, fps[: args.queries])
        size_kib = os.path.getsize(path) / 1024
        for p in [int(x) for x in args.processes.split(",")]:
            children = [subprocess.Popen([sys.executable, "-c", CHILD, path, queries_path],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                        for _ in range(p)]
            try:
                digests = [c.stdout.readline().strip() for c in children]
                sizes = [mapping_kib(c.pid, path) for c in children]
            finally:
                for c in children:
                    c.stdin.close()
                    c.wait(timeout=60)
            if len(set(digests)) != 1 or not digests[0]:
                sys.exit(f"shared_pages: the {p} processes answered differently: {digests}")
            rss = [r for r, _ in sizes]
            pss = [q for _, q in sizes]
            print(json.dumps({
                "bench": "shared_pages", "n": n, "processes": p, "file_mib": round(size_kib / 1024, 1),
                "rss_mib_per_process": round(sum(rss) / p / 1024, 1),
                "pss_mib_per_process": round(sum(pss) / p / 1024, 1),
                "pss_mib_total": round(sum(pss) / 1024, 1),
                "pss_per_process_over_file": round(sum(pss) / p / size_kib, 3),
                "answers_identical": True}), flush=True)


if __name__ == "__main__":
    main()
