#!/usr/bin/env python3
"""Thresholds chosen at query time against indexes built for them (issue 37, item 4's targets;
docs/minhash.md, "Thresholds and top-k at query time").

For every corpus, the even documents are indexed twice over: once for a low threshold T0 (its
bands chosen for T0) and once for each higher T' (a fresh index, bands chosen for T'); the odd
documents' signatures query both, the first with `thresholds=[T']`, the second at its own
threshold. Per T': the recall of the cross pairs at exact J >= T' (simdex's shingles) by each,
whether every answer of the first passes T' by the stated rule (estimate >= DefaultEstimateFilter
(T')), and the median time of one query (one signature, one thread, alternating query by query):
the low index at T', the same index at its own threshold T0, and the fresh index at T'.

  PYTHONPATH=build/python bench/query_thresholds.py [--low 0.5] [--thresholds 0.6,0.7,0.8,0.9] corpus.jsonl ...
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np
import simdex

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from against_quality import cross_truth, read_documents  # noqa: E402


def build(path, ids, signatures, threshold):
    builder = simdex.LshIndexBuilder(path, threshold=threshold)
    builder.add(ids, signatures)
    builder.finish()
    return simdex.LshIndex.open(path)


def found_pairs(lims, ids, batch):
    out = set()
    for q, b in enumerate(batch):
        for i in range(lims[q], lims[q + 1]):
            out.add((b, int(ids[i])))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--low", type=float, default=0.5)
    parser.add_argument("--thresholds", default="0.6,0.7,0.8,0.9")
    parser.add_argument("--text-field", default="text")
    parser.add_argument("corpora", nargs="+")
    args = parser.parse_args()
    highs = [float(x) for x in args.thresholds.split(",")]
    hasher = simdex.MinHasher()
    confirmer = simdex.Confirmer("jaccard-shingles:0.8")
    print(f"| corpus | T' | pairs at J >= T' | recall, index for {args.low} queried at T' | recall, index for T' | "
          f"answers failing T's rule | p50 us: index for {args.low} at T' / at {args.low} / index for T' | "
          f"ratio to the same index at {args.low} / to the index for T' |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for path in args.corpora:
            docs = read_documents(path, args.text_field)
            stored = list(range(0, len(docs), 2))
            batch = list(range(1, len(docs), 2))
            signatures, _ = hasher.sign_batch([text for _, text in docs])  # (n, num_perm), which are banded
            ours = [set(confirmer.shingles(text).tolist()) for _, text in docs]
            truth = cross_truth(ours, stored, batch, min(highs))
            queries = signatures[batch]
            low = build(os.path.join(tmp, "low.sdx"), np.array(stored, dtype=np.uint64), signatures[stored], args.low)
            name = os.path.basename(path).rsplit(".", 1)[0]
            for t in highs:
                fresh = build(os.path.join(tmp, f"t{t}.sdx"), np.array(stored, dtype=np.uint64), signatures[stored], t)
                lims, ids, estimates, _ = low.search(queries, thresholds=[t])
                filt = simdex.parts.default_estimate_filter(t, hasher.num_perm)
                failing = int(np.sum(estimates < filt))
                by_low = found_pairs(lims, ids, batch)
                lims2, ids2, _ = fresh.search(queries)
                by_fresh = found_pairs(lims2, ids2, batch)
                positives = {p for p, j in truth.items() if j >= t}
                r_low = len(positives & by_low) / len(positives) if positives else 1.0
                r_fresh = len(positives & by_fresh) / len(positives) if positives else 1.0
                runs = {"at_t": lambda one: low.search(one, thresholds=[t]), "at_t0": low.search,
                        "fresh": fresh.search}
                times = {key: [] for key in runs}
                for q in range(len(queries)):
                    one = queries[q:q + 1]
                    for key, run in runs.items():
                        start = time.perf_counter()
                        run(one)
                        times[key].append(time.perf_counter() - start)
                p = {key: statistics.median(v) * 1e6 for key, v in times.items()}
                print(f"| {name} | {t} | {len(positives):,} | {r_low:.3f} | {r_fresh:.3f} | {failing} | "
                      f"{p['at_t']:.1f} / {p['at_t0']:.1f} / {p['fresh']:.1f} | "
                      f"{p['at_t'] / p['at_t0']:.2f}x / {p['at_t'] / p['fresh']:.2f}x |")
                sys.stdout.flush()
                fresh.close()
            low.close()


if __name__ == "__main__":
    main()
