#!/usr/bin/env python3
"""The scheme planner's figures from simdex-bench runs (JSON Lines).

Reads every run given (several runs of the same grid: their medians are
taken; simdex-dedup-bench's "queries" records too, for the N that
simdex-bench does not run: their near medians, warm, one thread) and prints
  - the Markdown tables of docs/benchmarks.md, "Scheme planner: the measured
    crossovers" (--markdown, the default), or
  - engine/simhash/plan/measured_figures.cc (--cxx).

Usage: bench/plan_figures.py [--cxx] RUN.jsonl...
"""
import json
import statistics
import sys


def points(paths):
    for path in paths:
        with open(path) as f:
            for line in f:
                p = json.loads(line)
                if p.get("type") == "point" and p.get("searcher", "").startswith("simdex") and p.get("cache") == "warm" \
                        and p.get("threads") == 1 and p.get("api") == "single" and p.get("dataset") == "uniform":
                    yield path, p


def dedup_bench_queries(paths):
    """simdex-dedup-bench's warm near queries on one thread, as (path, scheme, k, record)."""
    for path in paths:
        config = None
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if r.get("type") == "header" and "simdex-dedup-bench" in " ".join(r.get("command", [])):
                    config = r["config"]
                elif config and r.get("type") == "query" and r.get("set") == "near" and r.get("state") == "warm" \
                        and r.get("threads") == 1 and r.get("data") == "uniform":
                    yield path, config["scheme"], config["k"], r


def collect(paths):
    speed, space, build = {}, {}, {}
    for path, scheme, k, r in dedup_bench_queries(paths):
        key = (scheme, r["codec"], r["block_size"], k, r["index_n"])
        speed.setdefault(key, []).append((path, r["p50_micros"], r["p99_micros"]))
    for path, p in points(paths):
        key = (p["scheme"], p["codec"], p["block_size"], p["k"], p["n"])
        speed.setdefault(key, []).append((path, p["near"]["p50_us"], p["near"]["p99_us"]))
        skey = (p["codec"], p["block_size"], p["n"])
        space.setdefault(skey, []).append(p["worst_ratio_to_bound"])
        bkey = (p["scheme"], p["codec"], p["block_size"], p["n"])
        build.setdefault(bkey, {})[path] = (p["bytes_per_entry"], p["build_seconds"])
    return speed, space, build


def median(values):
    return statistics.median(values)


def n_text(n):
    e = len(str(n)) - 1
    return f"10^{e}" if n == 10 ** e else f"{n:,}"


def size_text(b):
    return f"{b // 1024} KiB" if b >= 1024 else f"{b} B"


def run_ratios(speed, a, b, codec, block, k, n):
    """Each run's ratio of scheme a's near p50 to scheme b's, where both ran."""
    ra = {path: p50 for path, p50, _ in speed.get((a, codec, block, k, n), [])}
    rb = {path: p50 for path, p50, _ in speed.get((b, codec, block, k, n), [])}
    return [ra[path] / rb[path] for path in ra if path in rb]


def crossovers(speed, pairs):
    print("| N | k | codec | block | " + " | ".join(f"{a} / {b}" for a, b, _ in pairs) + " |")
    print("|---|---|---|---|" + "---|" * len(pairs))
    cells = sorted({(k[4], k[1], k[2]) for k in speed})
    for n, codec, block in cells:
        for k in sorted({key[3] for key in speed}):
            row = []
            for a, b, pair_k in pairs:
                r = run_ratios(speed, a, b, codec, block, pair_k, n) if pair_k == k else []
                row.append(f"{median(r):.2f} ({', '.join(f'{x:.2f}' for x in r)})" if r else "")
            if any(row):
                print(f"| {n_text(n)} | {k} | {codec} | {size_text(block)} | " + " | ".join(row) + " |")


def markdown(speed, space, build):
    crossovers(speed, [("t4", "t10", 3), ("11,11,11,11,10,10:4", "t10", 3),
                       ("11,11,11,11,10,10:4", "10,9,9,9,9,9,9:4", 4)])
    print()
    print("<!-- every figure -->")
    print()
    print("| N | k | scheme | codec | block | near p50 us (median of runs) | runs | near p99 us | bytes/entry | build s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for key in sorted(speed, key=lambda k: (k[4], k[3], k[0], k[1], k[2])):
        scheme, codec, block, k, n = key
        runs = speed[key]
        p50 = median([r[1] for r in runs])
        p99 = median([r[2] for r in runs])
        b = build.get((scheme, codec, block, n))  # none for simdex-dedup-bench's
        bpe = f"{median([v[0] for v in b.values()]):.2f}" if b else "-"
        secs = f"{median([v[1] for v in b.values()]):.2f}" if b else "-"
        print(f"| {n_text(n)} | {k} | {scheme} | {codec} | {size_text(block)} | {p50:.2f} | "
              f"{', '.join(f'{r[1]:.2f}' for r in runs)} | {p99:.1f} | {bpe} | {secs} |")


CXX_HEAD = """// The scheme planner's figures (measured_figures.h). Written by
// bench/plan_figures.py --cxx from the simdex-bench runs (and, at 10^9,
// simdex-dedup-bench's) that docs/benchmarks.md, "Scheme planner: the
// measured crossovers", lists: the median over the runs of each figure.
// Uniform fingerprints, warm, one thread, restart points 6.
#include "engine/simhash/plan/measured_figures.h"

namespace simdex::simhash {
namespace {

// codec, block size, N, the worst table's bits per entry over the bound
constexpr SpaceFigure kSpace[] = {"""

CXX_TAIL = """};

}  // namespace

std::span<const SpaceFigure> SpaceFigures() { return kSpace; }
std::span<const SpeedFigure> SpeedFigures() { return kSpeed; }

}  // namespace simdex::simhash"""


def cxx(speed, space):
    print(CXX_HEAD)
    for (codec, block, n), xs in sorted(space.items()):
        print(f'    {{"{codec}", {block}, {n}, {median(xs):.4f}}},')
    print("};")
    print()
    print("// scheme, codec, block size, k, N, median near-query time in us")
    print("constexpr SpeedFigure kSpeed[] = {")
    for key in sorted(speed):
        scheme, codec, block, k, n = key
        print(f'    {{"{scheme}", "{codec}", {block}, {k}, {n}, {median([r[1] for r in speed[key]]):.2f}}},')
    print(CXX_TAIL)


def main(argv):
    want_cxx = "--cxx" in argv
    paths = [a for a in argv if not a.startswith("--")]
    if not paths:
        sys.exit(__doc__)
    speed, space, build = collect(paths)
    if want_cxx:
        cxx(speed, space)
    else:
        markdown(speed, space, build)


if __name__ == "__main__":
    main(sys.argv[1:])
