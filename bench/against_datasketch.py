#!/usr/bin/env python3
"""simdex against datasketch, the field's reference MinHash-LSH library, at T = 0.8 scored
strictly (issue 37: "at least the strict F1 of datasketch's best configuration at 128
permutations ... at >= 10x its speed"; docs/quality.md, "Against datasketch").

Per corpus:
  1. the truth: every pair whose exact Jaccard of word 5-shingles, the field's common
     definition (docs/minhash.md: the library's word-chars shingles), is >= T
     (`simdex eval --truth jaccard --shingles word-chars --truth-pairs`, as in
     bench/shingle_definitions.py); every reported pair's J is computed again in Python
     from the shingle sets (bench/against_quality.py's `jaccard`) and checked against it;
  2. datasketch at 128 permutations, as its users run it: each text NFKC-normalised and
     lower-cased, tokens the `\\w+` runs (of the `regex` module, whose \\w is Unicode's,
     when it is installed; else of `re`), the distinct 5-token windows joined by a space,
     or, for a text mostly of scripts written without spaces (the library's rule, in
     Python), the 5-code-point windows of the text without its white space; a MinHash per
     document (MinHash.bulk, its default SHA-1 hash), all inserted into a MinHashLSH at
     each threshold of --lsh-thresholds (datasketch's own band choice), every document
     queried, the candidates the pairs that share a bucket; then either every candidate
     (LSH only) or those whose MinHash.jaccard estimate is >= T. The best configuration
     by strict F1 is then timed alone, in a process of its own (reading the corpus,
     shingling, signing, inserting, querying and the estimate filter: its wall time);
  3. `simdex dedup` at its defaults (`--pairs`), wall time of the process, at its default
     thread count and with `--threads 1`;
  4. timings: --repeat rounds, each running simdex (default threads), datasketch's best
     configuration and simdex --threads 1 in turn; the medians are reported.

Strict scoring: a reported pair below T is a false positive; a pair at or above T not
reported is a miss.

datasketch is not a dependency of simdex: it is a peer, run for this measurement only.
Put a copy on PYTHONPATH (the figures in docs/quality.md: github.com/ekzhu/datasketch at
the commit named there, with numpy and scipy from Debian); without it the script says so
and stops.

  PYTHONPATH=build/python:/tmp/datasketch python3 bench/against_datasketch.py \\
      [--threshold 0.8] [--repeat 3] [--work DIR] [--max-docs N] [NAME=]corpus.jsonl ...
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from against_quality import jaccard, read_documents  # noqa: E402
from shingle_definitions import ROOT, pair_set, run, string_ids  # noqa: E402

NUM_PERM = 128
LSH_THRESHOLDS = "0.5,0.6,0.7,0.8"
BATCH = 50000  # shingles per MinHash.update_batch call: bounds numpy's memory, same result

try:
    import regex as word_re
except ImportError:  # the common definition's own `re`, whose \w leaves out marks
    import re as word_re

WORDS = word_re.compile(r"\w+")


def unspaced_rule():
    """The library's spaced-or-unspaced rule (include/simdex/shingles.h, step 2) as a
    predicate on a normalised text, or None without the `regex` module (no scripts in
    `re`): letters of the scripts written without spaces count one unit each, runs of
    other letters one unit each; unspaced when the former are at least half."""
    if word_re.__name__ != "regex":
        return None
    scripts = r"\p{Han}\p{Hiragana}\p{Katakana}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}\p{Tibetan}"
    unspaced = word_re.compile(rf"(?=\p{{L}})[{scripts}]")
    other_runs = word_re.compile(rf"(?:(?![{scripts}])\p{{L}})+")

    def is_unspaced(text):
        u = len(unspaced.findall(text))
        return u > 0 and u >= len(other_runs.findall(text))

    return is_unspaced


def datasketch_shingles(text, is_unspaced):
    """A text's set of shingles as datasketch's users make them (the field's common
    definition), as UTF-8 bytes."""
    text = unicodedata.normalize("NFKC", text).lower()
    if is_unspaced is not None and is_unspaced(text):
        chars = "".join(text.split())
        return {chars[i:i + 5].encode() for i in range(max(1, len(chars) - 4))} if chars else set()
    tokens = WORDS.findall(text)
    return {" ".join(tokens[i:i + 5]).encode() for i in range(max(1, len(tokens) - 4))} if tokens else set()


def import_datasketch():
    try:
        import datasketch
    except ImportError as e:
        sys.exit(f"against_datasketch.py: datasketch is not importable ({e}): put a copy of "
                 "github.com/ekzhu/datasketch on PYTHONPATH (it needs numpy and scipy); skipped")
    return datasketch


def datasketch_version(datasketch):
    """Its version: the package's, or a source copy's pyproject.toml's (and git commit, if any)."""
    version = getattr(datasketch, "__version__", "0.0.0")
    source = os.path.dirname(os.path.dirname(os.path.abspath(datasketch.__file__)))
    if version == "0.0.0" and os.path.exists(os.path.join(source, "pyproject.toml")):
        with open(os.path.join(source, "pyproject.toml")) as f:
            version = next((line.split('"')[1] for line in f if line.startswith("version")), version)
    return version


def sign(docs, datasketch):
    """(ids, MinHashes) of the documents with at least one shingle (datasketch gives two
    empty sets the estimate 1: its users leave them out; the truth has no pair of them)."""
    is_unspaced = unspaced_rule()
    ids, sets = [], []
    for doc_id, text in docs:
        s = datasketch_shingles(text, is_unspaced)
        if s:
            ids.append(doc_id)
            sets.append(list(s))

    def batched():
        for s in sets:
            yield s[:BATCH]

    minhashes = datasketch.MinHash.bulk(batched(), num_perm=NUM_PERM)
    for m, s in zip(minhashes, sets):
        for start in range(BATCH, len(s), BATCH):
            m.update_batch(s[start:start + BATCH])
    return ids, minhashes


def lsh_candidates(ids, minhashes, lsh_threshold, datasketch):
    """The pairs (by ordinal, i < j) that share a bucket of a MinHashLSH at lsh_threshold."""
    lsh = datasketch.MinHashLSH(threshold=lsh_threshold, num_perm=NUM_PERM)
    with lsh.insertion_session() as session:
        for i, m in enumerate(minhashes):
            session.insert(i, m)
    pairs = set()
    for i, m in enumerate(minhashes):
        for j in lsh.query(m):
            if j > i:
                pairs.add((i, j))
    return pairs, (lsh.b, lsh.r)


def configurations(lsh_thresholds):
    """(name, LSH threshold, estimate filter or None) of every datasketch configuration."""
    out = []
    for t in lsh_thresholds:
        out.append((f"LSH {t:g}", t, None))
        out.append((f"LSH {t:g} + estimate", t, True))
    return out


def datasketch_pairs(ids, minhashes, lsh_threshold, estimate, threshold, datasketch):
    candidates, shape = lsh_candidates(ids, minhashes, lsh_threshold, datasketch)
    if estimate:
        candidates = {(i, j) for i, j in candidates if minhashes[i].jaccard(minhashes[j]) >= threshold}
    return {tuple(sorted((ids[i], ids[j]))) for i, j in candidates}, shape


def write_pairs(path, pairs):
    with open(path, "w") as f:
        for a, b in sorted(pairs):
            f.write(json.dumps({"a": a, "b": b}) + "\n")


def timed_run(args):
    """The child process of one timing: one datasketch configuration, end to end."""
    datasketch = import_datasketch()
    docs = read_documents(args.corpora[0], "text")
    ids, minhashes = sign(docs, datasketch)
    pairs, _ = datasketch_pairs(ids, minhashes, args.lsh_threshold, args.estimate, args.threshold, datasketch)
    write_pairs(args.out, pairs)


def subsample(path, work, name, max_docs):
    """path, or the first max_docs documents of it in a copy under work."""
    with open(path) as f:
        lines = [line for line in f if line.strip()]
    if len(lines) <= max_docs:
        return path, len(lines)
    copy = os.path.join(work, f"{name}.first{max_docs}.jsonl")
    with open(copy, "w") as f:
        f.writelines(lines[:max_docs])
    return copy, len(lines)


def strict(reported, truth):
    tp = len(reported & truth)
    p = tp / len(reported) if reported else 1.0
    r = tp / len(truth) if truth else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def normalised(path):
    """The pairs of a file, ids as strings (simdex writes a string id of digits as a number)."""
    return {tuple(sorted((str(a), str(b)))) for a, b in pair_set(path)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threshold", type=float, default=0.8)
    parser.add_argument("--lsh-thresholds", default=LSH_THRESHOLDS)
    parser.add_argument("--simdex", default=os.path.join(ROOT, "build", "bin", "simdex"))
    parser.add_argument("--work", default="/tmp/simdex-against-datasketch")
    parser.add_argument("--repeat", type=int, default=3, help="timing rounds (medians)")
    parser.add_argument("--max-docs", type=int, default=0,
                        help="score every corpus on its first N documents only (0: all)")
    parser.add_argument("--timed-run", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--lsh-threshold", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--estimate", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("corpora", nargs="+", help="[NAME=]PATH (NAME: the file name before its first dot)")
    args = parser.parse_args()
    if args.timed_run:
        return timed_run(args)
    datasketch = import_datasketch()
    import simdex
    os.makedirs(args.work, exist_ok=True)
    t = args.threshold
    confirmer = simdex.Confirmer(f"jaccard-shingles/word-chars:{t}")
    is_unspaced = unspaced_rule()
    version = datasketch_version(datasketch)
    print(f"datasketch {version} from {os.path.dirname(datasketch.__file__)}; words: {word_re.__name__} \\w+; "
          f"T = {t:g}; {NUM_PERM} permutations; {args.repeat} timing rounds", file=sys.stderr)
    table = ["| corpus | documents | pairs >= T | datasketch's best configuration (bands x rows) | "
             "datasketch strict P / R / F1 | datasketch s | simdex strict P / R / F1 | simdex s (2 threads / 1) | "
             "speed-up (2 threads / 1) | target met |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    cpu_table = ["| corpus | datasketch CPU s | simdex CPU s (2 threads / 1) | CPU ratio (2 threads / 1) |",
                 "|---|---|---|---|"]
    every = ["| corpus | configuration | bands x rows | pairs | strict P / R / F1 |", "|---|---|---|---|---|"]
    results = {}
    for spec in args.corpora:
        name, _, path = spec.rpartition("=")
        name = name or os.path.basename(path).split(".")[0]
        corpus = string_ids(path, args.work)
        total = None
        if args.max_docs:
            corpus, total = subsample(corpus, args.work, name, args.max_docs)
        stem = os.path.join(args.work, name)
        truth_path = f"{stem}.truth.jsonl"
        run(args.simdex, ["eval", "-q", "--truth", "jaccard", "--shingles", "word-chars", "--positive", f"{t:g}",
                          "--truth-pairs", truth_path, "-o", f"{stem}.eval.jsonl", corpus])
        truth = normalised(truth_path)
        docs = read_documents(corpus, "text")
        ours = {doc_id: set(confirmer.shingles(text).tolist()) for doc_id, text in docs}

        def check(pairs, label):
            """Every pair's J from the sets, against the truth file: (pairs that disagree, pairs below 0.5)."""
            j = {p: jaccard(ours[p[0]], ours[p[1]]) for p in pairs}
            disagree = sum(1 for p, x in j.items() if (x >= t) != (p in truth))
            if disagree:
                print(f"{name}: {label}: {disagree} pairs whose J disagrees with the truth file", file=sys.stderr)
            return disagree, sum(1 for x in j.values() if x < 0.5)

        # The documents the peer's spaced-or-unspaced rule decides otherwise than the library
        # (whose sets are character shingles, XXH3-64 seed 2, when it finds a text unspaced).
        rule_differs = 0
        if is_unspaced is not None:
            import xxhash
            for doc_id, text in docs:
                normal = unicodedata.normalize("NFKC", text)
                chars = "".join(normal.casefold().split())
                by_chars = {xxhash.xxh3_64_intdigest(chars[i:i + 5].encode(), seed=2)
                            for i in range(max(1, len(chars) - 4))}
                library = bool(ours[doc_id]) and 2 * len(ours[doc_id] & by_chars) >= len(ours[doc_id])
                rule_differs += library != is_unspaced(normal.lower())
            if rule_differs:
                print(f"{name}: the unspaced rule differs from the library's on {rule_differs} documents",
                      file=sys.stderr)

        # Every datasketch configuration, signatures once.
        start = time.monotonic()
        ids, minhashes = sign(docs, datasketch)
        sign_seconds = time.monotonic() - start
        scored = []
        for label, lsh_t, estimate in configurations(float(x) for x in args.lsh_thresholds.split(",")):
            pairs, shape = datasketch_pairs(ids, minhashes, lsh_t, estimate, t, datasketch)
            p, r, f1 = strict(pairs, truth)
            disagree, below = check(pairs, label)
            scored.append({"label": label, "lsh_threshold": lsh_t, "estimate": bool(estimate), "bands_rows": shape,
                           "pairs": len(pairs), "strict": (p, r, f1), "disagree": disagree, "below_0.5": below,
                           "pair_set": pairs})
            every.append(f"| {name} | {label} | {shape[0]} x {shape[1]} | {len(pairs):,} | {p:.3f} / {r:.3f} / {f1:.3f} |")
        # Best by strict F1; of equals, the fastest (the higher LSH threshold, no estimate).
        best = max(scored, key=lambda c: (round(c["strict"][2], 6), c["lsh_threshold"], not c["estimate"]))
        del minhashes

        # Timings, interleaved.
        times = {"simdex": [], "datasketch": [], "simdex1": []}
        cpu = {key: [] for key in times}  # user + system seconds of the process
        dedup = [args.simdex, "dedup", "-q", "-o", os.devnull]
        child = [sys.executable, os.path.abspath(__file__), "--timed-run", "--threshold", f"{t:g}",
                 "--lsh-threshold", f"{best['lsh_threshold']:g}", "--out", f"{stem}.datasketch.jsonl"] + (
                     ["--estimate"] if best["estimate"] else []) + [corpus]
        for _ in range(args.repeat):
            for key, command in (("simdex", dedup + ["--pairs", f"{stem}.simdex.jsonl", corpus]),
                                 ("datasketch", child),
                                 ("simdex1", dedup + ["--threads", "1", "--pairs", f"{stem}.simdex1.jsonl", corpus])):
                before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
                subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                times[key].append(time.monotonic() - start)
                cpu[key].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        seconds = {k: statistics.median(v) for k, v in times.items()}
        cpu_seconds = {k: statistics.median(v) for k, v in cpu.items()}
        if normalised(f"{stem}.datasketch.jsonl") != best["pair_set"]:
            sys.exit(f"against_datasketch.py: {name}: the timed datasketch run reported other pairs than the scored one")
        ours_pairs = normalised(f"{stem}.simdex.jsonl")
        if normalised(f"{stem}.simdex1.jsonl") != ours_pairs:
            print(f"{name}: simdex --threads 1 reported other pairs than at the default threads", file=sys.stderr)
        sp, sr, sf1 = strict(ours_pairs, truth)
        s_disagree, s_below = check(ours_pairs, "simdex")
        bp, br, bf1 = best["strict"]
        speed = (seconds["datasketch"] / seconds["simdex"], seconds["datasketch"] / seconds["simdex1"])
        met = sf1 >= bf1 and speed[0] >= 10
        met1 = sf1 >= bf1 and speed[1] >= 10
        documents = f"{len(docs):,}" + (f" (first of {total:,})" if total and total > len(docs) else "")
        table.append(
            f"| {name} | {documents} | {len(truth):,} | {best['label']} ({best['bands_rows'][0]} x {best['bands_rows'][1]}) | "
            f"{bp:.3f} / {br:.3f} / {bf1:.3f} | {seconds['datasketch']:.2f} | {sp:.3f} / {sr:.3f} / {sf1:.3f} | "
            f"{seconds['simdex']:.2f} / {seconds['simdex1']:.2f} | {speed[0]:.0f}x / {speed[1]:.0f}x | "
            f"{'yes' if met else 'no'} / {'yes' if met1 else 'no'} |")
        cpu_table.append(f"| {name} | {cpu_seconds['datasketch']:.2f} | {cpu_seconds['simdex']:.2f} / "
                         f"{cpu_seconds['simdex1']:.2f} | {cpu_seconds['datasketch'] / cpu_seconds['simdex']:.1f}x / "
                         f"{cpu_seconds['datasketch'] / cpu_seconds['simdex1']:.1f}x |")
        results[name] = {
            "documents": len(docs), "of": total, "truth": len(truth), "signing_seconds_in_process": sign_seconds,
            "unspaced_rule_differs": rule_differs, "times": times, "seconds": seconds,
            "cpu": cpu, "cpu_seconds": cpu_seconds,
            "simdex": {"pairs": len(ours_pairs), "strict": (sp, sr, sf1), "disagree": s_disagree, "below_0.5": s_below},
            "datasketch": [{k: v for k, v in c.items() if k != "pair_set"} for c in scored],
            "best": best["label"]}
        print(f"{name}: done ({len(docs):,} documents, datasketch {seconds['datasketch']:.1f} s)", file=sys.stderr,
              flush=True)
        with open(os.path.join(args.work, "results.json"), "w") as f:
            json.dump(results, f, indent=1)
    print(f"Strict scoring at T = {t:g}; datasketch {version} at {NUM_PERM} permutations, best configuration "
          f"per corpus; seconds: medians of {args.repeat} interleaved runs:\n")
    print("\n".join(table))
    print("\nCPU seconds (user + system) of the same runs, medians:\n")
    print("\n".join(cpu_table))
    print("\nEvery datasketch configuration:\n")
    print("\n".join(every))


if __name__ == "__main__":
    main()
