#!/usr/bin/env python3
"""Summarizes `simdex eval --baseline --minhash --seed S` runs over many seeds.

docs/quality.md, "Over many seeds": reads <corpus>-<seed>.jsonl in the
current directory (one eval run per corpus and seed) and prints, per corpus
and length bucket with 30 or more positive pairs, the mean F1 (and range)
of the MinHash-LSH baseline with and without its estimate filter and of
simdex's MinHash-LSH at its defaults, and in how many seeds simdex scored at
least as high as both baseline rows.

    python3 bench/quality_seeds.py [--scoring strict|lenient] changelog copyright manpages web titles zh de

F1 is strict by default (a reported pair with J < 0.8 is false); --scoring lenient leaves the pairs with
0.5 <= J < 0.8 out, as the table of docs/quality.md made before issue 37 did.
"""
import collections
import glob
import json
import statistics
import sys


def f1_by_seed(corpus, scoring):
    """(bucket, kind, filter) -> {seed: F1 under scoring}, and bucket -> positives."""
    rows = collections.defaultdict(dict)
    positives = {}
    for path in glob.glob(f"{corpus}-*.jsonl"):
        seed = int(path.rsplit("-", 1)[1].split(".")[0])
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if r["kind"] not in ("baseline", "minhash"):
                    continue
                for b in r["buckets"]:
                    positives[b["bucket"]] = b["positives"]
                    rows[(b["bucket"], r["kind"], r["filter"])][seed] = b["k"][0][scoring + "_f1"]
    return rows, positives


def main(args):
    scoring = "strict"
    if args[:1] == ["--scoring"]:
        scoring, args = args[1], args[2:]
    if scoring not in ("strict", "lenient"):
        sys.exit("bench/quality_seeds.py: --scoring is strict or lenient")
    print(f"| corpus | bucket | positives | seeds | baseline (9 x 13, no filter): mean {scoring} F1 (min-max) "
          f"| baseline + estimate | simdex defaults (16 x 8, 4-bit estimate): mean {scoring} F1 (min-max) "
          "| seeds where simdex >= both baseline rows | seed 1: simdex / best baseline row |")
    print("|---|---|---|---|---|---|---|---|---|")
    for corpus in args:
        rows, positives = f1_by_seed(corpus, scoring)
        for bucket in ("short", "medium", "long", "all"):
            if positives.get(bucket, 0) < 30:
                continue
            base = rows[(bucket, "baseline", "none")]
            filtered = rows[(bucket, "baseline", "estimate")]
            mine = rows[(bucket, "minhash", "estimate")]
            seeds = sorted(set(base) & set(filtered) & set(mine))

            def spread(d):
                values = [d[s] for s in seeds]
                return f"{statistics.mean(values):.4f} ({min(values):.3f}-{max(values):.3f})"

            wins = sum(1 for s in seeds if mine[s] >= max(base[s], filtered[s]))
            first = f"{mine[1]:.3f} / {max(base[1], filtered[1]):.3f}" if 1 in seeds else "-"
            print(f"| {corpus} | {bucket} | {positives[bucket]:,} | {len(seeds)} | {spread(base)} | "
                  f"{spread(filtered)} | {spread(mine)} | {wins} of {len(seeds)} | {first} |")


if __name__ == "__main__":
    main(sys.argv[1:])
