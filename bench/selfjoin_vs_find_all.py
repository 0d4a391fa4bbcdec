#!/usr/bin/env python3
"""The SimHash batch self-join, whole process, against seomoz simhash-find-all.

Issue 39 item 2: `simdex dedup --method simhash` over N fingerprints with 10 %
planted near copies (each a copy of another fingerprint with 1 to 3 bits
flipped) against simhash-find-all (5 blocks, distance 3) on the same
fingerprints, both writing their pairs to a file. Each run is one process,
timed from fork to exit (wall, and user + system CPU from wait4); the
programs (simhash-find-all, then simdex at each --threads count, and the
same for --simdex-old) alternate, the order reversed every other run, and
the medians of --runs runs are reported with their ratios. The load average
is printed at the start and at the end: the figures mean little on a loaded
machine.

The peer (a measurement baseline, never a dependency) is built with:

    git clone https://github.com/seomoz/simhash-cpp /tmp/simhash-cpp
    git -C /tmp/simhash-cpp checkout 1eb4a0a
    make -C /tmp/simhash-cpp release/bin/simhash-find-all

What each writes. simhash-find-all reads one decimal fingerprint per line,
makes them a set and writes each pair of distinct fingerprints within 3 bits
("[a, b]"). simdex reads a text fingerprint file ("id<TAB>hex") and writes
--pairs (one JSON line per pair of documents) and its per-document output
(-o, one JSON line per document; /dev/null here, but still formatted and
written), with -q (no progress, no summary). The data has no exact
duplicates, so both write the same number of pairs; the script checks that.

Usage:
    bench/selfjoin_vs_find_all.py --simdex build/bin/simdex \\
        --find-all /tmp/simhash-cpp/release/bin/simhash-find-all [--n 10000000] \\
        [--runs 3] [--threads 1,2] [--simdex-old /tmp/simdex.old] [--dir /tmp/selfjoin]
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np


def generate(n, seed, directory):
    """Writes fp.txt (simdex) and fp.dec (the peer) unless they exist."""
    simdex_path = os.path.join(directory, f"fp-{n}-{seed}.txt")
    peer_path = os.path.join(directory, f"fp-{n}-{seed}.dec")
    if os.path.exists(simdex_path) and os.path.exists(peer_path):
        return simdex_path, peer_path
    rng = np.random.default_rng(seed)
    copies = n // 10
    fps = rng.integers(0, 2**64, size=n, dtype=np.uint64)
    # The last tenth become near copies of fingerprints among the first
    # nine tenths, 1 to 3 distinct bits flipped, then everything is shuffled.
    sources = rng.choice(n - copies, size=copies, replace=False)
    flips = rng.integers(1, 4, size=copies)
    masks = np.zeros(copies, dtype=np.uint64)
    for bit in range(3):
        chosen = np.uint64(1) << rng.integers(0, 64, size=copies).astype(np.uint64)
        # Redraw bits already set so that exactly `flips` bits differ.
        while True:
            clash = (masks & chosen) != 0
            if not clash.any():
                break
            chosen[clash] = np.uint64(1) << rng.integers(
                0, 64, size=int(clash.sum())).astype(np.uint64)
        masks |= np.where(flips > bit, chosen, np.uint64(0))
    fps[n - copies:] = fps[sources] ^ masks
    rng.shuffle(fps)
    if len(np.unique(fps)) != n:
        sys.exit("generated fingerprints are not distinct; try another --seed")
    with open(simdex_path + ".tmp", "w") as out:
        out.write("".join(f"{i}\t{int(f):016x}\n" for i, f in enumerate(fps)))
    with open(peer_path + ".tmp", "w") as out:
        out.write("".join(f"{int(f)}\n" for f in fps))
    os.rename(simdex_path + ".tmp", simdex_path)
    os.rename(peer_path + ".tmp", peer_path)
    return simdex_path, peer_path


def timed(argv):
    """Runs argv; returns (wall seconds, CPU seconds, peak RSS MiB)."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{argv[0]} failed: {err.strip()}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def count_lines(path):
    with open(path, "rb") as f:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simdex", required=True)
    parser.add_argument("--find-all", required=True, help="simhash-find-all binary")
    parser.add_argument("--simdex-old", help="a second simdex (before/after)")
    parser.add_argument("--n", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", default="1",
                        help="simdex's thread counts, comma-separated (e.g. 1,2)")
    parser.add_argument("--seed", type=int, default=39)
    parser.add_argument("--dir", default="/tmp/selfjoin")
    args = parser.parse_args()

    os.makedirs(args.dir, exist_ok=True)
    simdex_input, peer_input = generate(args.n, args.seed, args.dir)
    programs = {
        "find-all": [args.find_all, "--blocks", "5", "--distance", "3",
                     "--input", peer_input, "--output", os.path.join(args.dir, "find-all.out")],
    }
    for threads in args.threads.split(","):
        for label, binary in (("simdex", args.simdex), ("simdex-old", args.simdex_old)):
            if binary:
                name = f"{label}-t{threads}"
                programs[name] = [binary, "dedup", "--method", "simhash", "-q",
                                  "--threads", threads,
                                  "--pairs", os.path.join(args.dir, name + ".pairs"),
                                  "-o", "/dev/null", simdex_input]
    print(f"n={args.n} threads={args.threads} runs={args.runs} "
          f"loadavg at start {os.getloadavg()}", flush=True)
    results = {name: [] for name in programs}
    for run in range(args.runs):
        # Alternate the order from run to run so that no program always goes first.
        order = list(programs) if run % 2 == 0 else list(reversed(programs))
        for name in order:
            results[name].append(timed(programs[name]))
            wall, cpu, rss = results[name][-1]
            print(f"run {run + 1} {name}: wall {wall:.2f} s, cpu {cpu:.2f} s, "
                  f"peak RSS {rss:.0f} MiB", flush=True)
    pairs = {name: count_lines(os.path.join(args.dir, name + (".out" if name == "find-all" else ".pairs")))
             for name in programs}
    print(f"pairs written: {pairs}")
    if len(set(pairs.values())) != 1:
        sys.exit("the programs wrote different numbers of pairs")
    medians = {name: (statistics.median(r[0] for r in runs),
                      statistics.median(r[1] for r in runs),
                      statistics.median(r[2] for r in runs))
               for name, runs in results.items()}
    peer_wall, peer_cpu, _ = medians["find-all"]
    for name, (wall, cpu, rss) in medians.items():
        print(f"median {name}: wall {wall:.2f} s, cpu {cpu:.2f} s, peak RSS {rss:.0f} MiB; "
              f"find-all / {name}: {peer_wall / wall:.1f}x wall, {peer_cpu / cpu:.1f}x cpu")
    print(f"loadavg at end {os.getloadavg()}")


if __name__ == "__main__":
    main()
