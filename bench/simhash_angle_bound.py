#!/usr/bin/env python3
"""What a 64-bit SimHash of given weighted features can find, against what simdex's fingerprints find.

docs/quality.md, "What no weighting of a 64-bit SimHash reaches". A SimHash bit
differs between two documents with probability theta / pi, theta the angle
between their weighted feature vectors (Charikar), so the chance that a pair is
within k bits is the binomial tail P(Binomial(64, theta / pi) <= k). For every
long (500 code points or more) J >= 0.8 pair of a corpus this computes that
chance from the vectors the Python Fingerprinter's features() gives, and prints
its mean (the recall the angles allow) beside the recall the fingerprints give,
with the pairs' median cosine and the share at cosine >= 0.994 (what recall
0.74 at k = 3 needs).

The pairs come from `simdex eval --list-beyond -1` (every positive pair):

    simdex eval -q --truth jaccard --config default --max-k 3 --list-within -1 \\
        --list-beyond -1 --list pos_copyright.jsonl -o /dev/null build/corpora/copyright.jsonl
    PYTHONPATH=build/python python3 bench/simhash_angle_bound.py build/corpora copyright tf,capped

Weightings: tf (the default), log-tf, binary, and capped (log-tf-idf with the
idf learned from the corpus and capped at ln 2).
"""
import json
import math
import os
import statistics
import sys

import simdex


def tail(k, n, p):
    """P(Binomial(n, p) <= k)."""
    return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k + 1))


def fingerprinter(weighting, texts):
    if weighting == "capped":
        idf = simdex.Fingerprinter().learn_idf(texts, idf_cap=math.log(2))
        return simdex.Fingerprinter(weighting="log-tf-idf", idf=idf)
    return simdex.Fingerprinter(weighting=weighting)


def vector(fp, text):
    v = {}
    for feature, weight in fp.features(text):
        v[feature] = v.get(feature, 0.0) + weight
    return v, math.sqrt(sum(w * w for w in v.values()))


def cosine(a, b):
    (va, na), (vb, nb) = a, b
    if len(va) > len(vb):
        va, vb = vb, va
    return sum(w * vb.get(f, 0.0) for f, w in va.items()) / (na * nb)


def main(corpus_dir, corpus, weightings):
    docs, order = {}, []
    with open(os.path.join(corpus_dir, corpus + ".jsonl"), encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            docs[d["id"]] = d["text"]
            order.append(d["id"])
    with open(f"pos_{corpus}.jsonl", encoding="utf-8") as f:
        pairs = [json.loads(line) for line in f]
    pairs = [p for p in pairs if min(len(docs[p["a"]]), len(docs[p["b"]])) >= 500]
    if not pairs:
        return
    needed = {p["a"] for p in pairs} | {p["b"] for p in pairs}
    for weighting in weightings:
        fp = fingerprinter(weighting, [docs[i] for i in order])
        vectors = {i: vector(fp, docs[i]) for i in needed}
        fingerprints = {i: fp.fingerprint(docs[i]) for i in needed}
        cosines, allowed, found = [], {3: 0.0, 8: 0.0}, {3: 0, 8: 0}
        for p in pairs:
            c = cosine(vectors[p["a"]], vectors[p["b"]])
            cosines.append(c)
            theta = math.acos(max(-1.0, min(1.0, c))) / math.pi
            d = bin(fingerprints[p["a"]] ^ fingerprints[p["b"]]).count("1")
            for k in allowed:
                allowed[k] += tail(k, 64, theta)
                found[k] += d <= k
        n = len(pairs)
        print(f"| {corpus} | {n:,} | {weighting} | {statistics.median(cosines):.3f} | "
              f"{100 * sum(c >= 0.994 for c in cosines) / n:.1f} % | "
              f"{allowed[3] / n:.3f} / {found[3] / n:.3f} | {allowed[8] / n:.3f} / {found[8] / n:.3f} |", flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3].split(","))
