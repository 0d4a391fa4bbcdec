#!/usr/bin/env python3
"""What a decision against a stored MinHash-LSH index costs in bytes per document,
and what it is worth in strict precision and recall (issue 37, item 3; docs/minhash.md,
"Against a stored index").

Against an index the texts are gone: `simdex dedup --against INDEX` decides on the
estimate of the signatures the index stores (--num-perm values of --signature-bits
bits each). For every corpus, the odd documents are indexed and the even ones are the
batch; for every configuration (num_perm, bits, estimate filter) the script builds the
index, runs the batch against it, and scores each batch document's reported match
strictly: a match whose exact word 5-shingle Jaccard (the default word-chars
shingles, the definition `--confirm jaccard-shingles` checks and the indexes are
built with; and the space-split ones, beside) is below T is a false positive; a batch document with a stored document at J >= T
that is not matched to one at J >= T is a miss. Bytes per document: the index file's
size over the documents it holds.

  bench/against_quality.py [--threshold 0.8] [--configs 128x4,256x8:0.8,...] \\
      --simdex build/bin/simdex corpus.jsonl ...

A configuration is NUMPERMxBITS, optionally :FILTER (an --estimate-filter J; without
it the command's default for --against, two standard errors below T).

--sketches K,... adds the built sketch section (format version 6): the index is built from
the stored texts with `--sketch K` and the batch run `--against` it without --approximate,
so that each match is decided on the bottom-k estimate (estimate >= T). Its query cost is the
median time of one `LshIndex.search_texts` call (one text, one thread, signing included)
against the same documents' index without sketches (`--sketch 0`), alternating query by
query in the same run (--timed batch documents).
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def jaccard(x, y):
    return len(x & y) / len(x | y) if x or y else 0.0

DEFAULT_CONFIGS = "128x4,128x8,128x16,256x8,512x8,128x4:0.8,256x8:0.8,512x8:0.8"


def read_documents(path, text_field):
    docs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                record = json.loads(line)
                docs.append((str(record["id"]), record[text_field]))
    return docs


def cross_truth(shingles, stored, batch, low):
    """(batch ordinal, stored ordinal) -> J for every cross pair at J >= low, through an
    inverted index of the stored documents' shingles."""
    index = collections.defaultdict(list)
    for s in stored:
        for h in shingles[s]:
            index[h].append(s)
    out = {}
    for b in batch:
        shared = collections.Counter()
        for h in shingles[b]:
            postings = index.get(h)
            if postings is not None and len(postings) <= 2000:
                shared.update(postings)
        for s, n in shared.items():
            j = n / (len(shingles[b]) + len(shingles[s]) - n)
            if j >= low:
                out[(b, s)] = j
    return out


def run(binary, args):
    r = subprocess.run([binary] + args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"against_quality.py: simdex {' '.join(args)}: {r.stderr.strip()}")
    return r


def score(matches, truth_j, positives, t):
    """Strict precision, recall, F1 of matches {batch: stored} against J."""
    tp = sum(1 for b, s in matches.items() if truth_j(b, s) >= t)
    fp = len(matches) - tp
    found = sum(1 for b in positives if b in matches and truth_j(b, matches[b]) >= t)
    p = tp / (tp + fp) if tp + fp else 1.0
    r = found / len(positives) if positives else 1.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f1, fp


def varint_bytes(values):
    """Bytes of the sorted values delta-coded as LEB128 varints."""
    total, last = 0, 0
    for v in sorted(values):
        delta, last = v - last, v
        total += max(1, (delta.bit_length() + 6) // 7)
    return total


def exact_set_row(ours, stored, truth_ours, t):
    """The option of storing each document's shingle hashes (low 32 bits, sorted,
    delta-coded): its bytes per document, and the matches an exact check of the
    band candidates gives, simulated as the best stored document by exact J among
    those at J >= T (the exact mode's bands, tuned for T - 0.1, find them)."""
    per_doc = statistics.mean(varint_bytes({h & 0xFFFFFFFF for h in ours[s]}) for s in stored)
    best = {}
    for (b, s), j in truth_ours.items():
        if j >= t and (b not in best or j > best[b][1]):
            best[b] = (s, j)
    return per_doc, {b: s for b, (s, _) in best.items()}


def bottom_k(hashes, k):
    """The k smallest distinct low-32-bit hashes of a shingle set (all of them when it has fewer)."""
    return sorted({h & 0xFFFFFFFF for h in hashes})[:k]


def bottom_k_row(ours, stored, truth_ours, k, t):
    """The option of storing each document's bottom-k sketch (the k smallest 32-bit shingle
    hashes, delta-coded): its bytes per document and the matches it decides, the best stored
    document among those whose estimate |S(A u B) n S(A) n S(B)| / |S(A u B)| is >= T, S(A u B)
    the k smallest of the two sketches' union (exact when the union has at most k hashes).
    Candidates: every cross pair at J >= 0.3 (bands tuned for T - 0.1 find them; below 0.3 an
    estimate >= 0.8 is vanishingly rare)."""
    sketches = {}

    def sketch(d):
        if d not in sketches:
            sketches[d] = bottom_k(ours[d], k)
        return sketches[d]

    per_doc = statistics.mean(varint_bytes(sketch(s)) for s in stored)
    best = {}
    for (b, s) in truth_ours:
        x, y = sketch(b), sketch(s)
        union = sorted(set(x) | set(y))[:k]
        if not union:
            continue
        sx, sy = set(x), set(y)
        estimate = sum(1 for h in union if h in sx and h in sy) / len(union)
        if estimate >= t and (b not in best or estimate > best[b][1]):
            best[b] = (s, estimate)
    return per_doc, {b: s for b, (s, _) in best.items()}


def read_matches(out, batch, ordinal):
    """{batch ordinal: stored ordinal} of the records a `dedup --against` run wrote."""
    matches = {}
    with open(out, encoding="utf-8") as f:
        for n, line in enumerate(f):
            record = json.loads(line)
            if "against" in record:
                matches[batch[n]] = ordinal[str(record["against"]["id"])]
    return matches


def query_p50(with_sketches, without, texts):
    """Median microseconds of one search_texts call (one text, one thread) on each index,
    alternating query by query."""
    a, b = simdex.LshIndex.open(with_sketches), simdex.LshIndex.open(without)
    times = ([], [])
    for text in texts:
        for i, index in enumerate((a, b)):
            start = time.perf_counter()
            index.search_texts([text])
            times[i].append(time.perf_counter() - start)
    return statistics.median(times[0]) * 1e6, statistics.median(times[1]) * 1e6


def main():
    import simdex  # here, so that its helpers import without it (bench/against_datasketch.py's timed runs)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threshold", type=float, default=0.8)
    parser.add_argument("--configs", default=DEFAULT_CONFIGS)
    parser.add_argument("--text-field", default="text")
    parser.add_argument("--simdex", default="build/bin/simdex")
    parser.add_argument("--bottom-k", default="",
                        help="also bottom-k sketches of these sizes, e.g. 128,256 (sizes measured, matches simulated)")
    parser.add_argument("--exact-sets", action="store_true",
                        help="also the option of storing exact shingle sets (sizes measured, matches simulated)")
    parser.add_argument("--sketches", default="",
                        help="also the built sketch section at these k, e.g. 256,512 (real indexes, real runs)")
    parser.add_argument("--timed", type=int, default=2000, help="batch documents timed per sketch index")
    parser.add_argument("corpora", nargs="+")
    args = parser.parse_args()
    t = args.threshold
    configs = []
    for c in filter(None, args.configs.split(",")):
        shape, _, filt = c.partition(":")
        num_perm, bits = (int(x) for x in shape.split("x"))
        configs.append((num_perm, bits, filt))
    confirmer = simdex.Confirmer(f"jaccard-shingles:{t}")  # the default words: word-chars
    space_split = simdex.Confirmer(f"jaccard-shingles/space-split:{t}")
    print("| corpus | stored / batch documents | positives (word-chars / space-split) | configuration | bytes per document | "
          "strict P / R / F1 (word-chars shingles) | below T | strict P / R / F1 (space-split shingles) |")
    print("|---|---|---|---|---|---|---|---|")
    totals = collections.defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        for path in args.corpora:
            docs = read_documents(path, args.text_field)
            stored = list(range(0, len(docs), 2))
            batch = list(range(1, len(docs), 2))
            stored_path, batch_path = os.path.join(tmp, "stored.jsonl"), os.path.join(tmp, "batch.jsonl")
            for part, p in ((stored, stored_path), (batch, batch_path)):
                with open(p, "w", encoding="utf-8") as f:
                    for i in part:
                        f.write(json.dumps({"id": docs[i][0], "text": docs[i][1]}, ensure_ascii=False) + "\n")
            ours = [set(confirmer.shingles(text).tolist()) for _, text in docs]
            common = [set(space_split.shingles(text).tolist()) for _, text in docs]
            truth_ours = cross_truth(ours, stored, batch, 0.3)
            truth_common = cross_truth(common, stored, batch, 0.3)

            def j_of(truth, sets):
                """J of a cross pair: from the truth at J >= 0.3, else from the sets."""
                return lambda b, s: truth[(b, s)] if (b, s) in truth else jaccard(sets[b], sets[s])

            j_ours, j_common = j_of(truth_ours, ours), j_of(truth_common, common)

            pos_ours = {b for (b, _), j in truth_ours.items() if j >= t}
            pos_common = {b for (b, _), j in truth_common.items() if j >= t}
            ordinal = {docs[i][0]: i for i in range(len(docs))}
            name = os.path.basename(path).rsplit(".", 1)[0]
            simulated = [(f"bottom-{k} sketch (simulated), + the index", int(k))
                         for k in filter(None, args.bottom_k.split(","))]
            if args.exact_sets:
                simulated.append(("exact shingle sets (simulated), + the index", 0))
            for label, k in simulated:
                if k:
                    per_doc, matches = bottom_k_row(ours, stored, truth_ours, k, t)
                else:
                    per_doc, matches = exact_set_row(ours, stored, truth_ours, t)
                po, ro, fo, below = score(matches, j_ours, pos_ours, t)
                pc, rc, fc, _ = score(matches, j_common, pos_common, t)
                totals[label].append((per_doc, fo, fc))
                print(f"| {name} | {len(stored):,} / {len(batch):,} | {len(pos_ours):,} / {len(pos_common):,} | "
                      f"{label} | +{per_doc:.1f} | {po:.3f} / {ro:.3f} / {fo:.3f} | {below} | "
                      f"{pc:.3f} / {rc:.3f} / {fc:.3f} |")
            if args.sketches:
                plain = os.path.join(tmp, "plain.sdx")
                run(args.simdex, ["build", "--method", "minhash", "-q", "--sketch", "0", "--threshold", str(t),
                                  "--out", plain, stored_path])
            for k in [int(x) for x in filter(None, args.sketches.split(","))]:
                index = os.path.join(tmp, f"sketch{k}.sdx")
                run(args.simdex, ["build", "--method", "minhash", "-q", "--sketch", str(k), "--threshold", str(t),
                                  "--out", index, stored_path])
                out = os.path.join(tmp, "out.jsonl")
                run(args.simdex, ["dedup", "-q", "--method", "minhash", "--threshold", str(t), "--against", index,
                                  "-o", out, batch_path])
                matches = read_matches(out, batch, ordinal)
                po, ro, fo, below = score(matches, j_ours, pos_ours, t)
                pc, rc, fc, _ = score(matches, j_common, pos_common, t)
                p50_sketch, p50_plain = query_p50(index, plain, [docs[b][1] for b in batch[:args.timed]])
                label = f"bottom-{k} sketch section (built), estimate >= T"
                per_doc = os.path.getsize(index) / len(stored)
                plain_per_doc = os.path.getsize(plain) / len(stored)
                totals[label].append((per_doc, fo, fc))
                print(f"| {name} | {len(stored):,} / {len(batch):,} | {len(pos_ours):,} / {len(pos_common):,} | "
                      f"{label} | {per_doc:.1f} (+{per_doc - plain_per_doc:.1f}) | {po:.3f} / {ro:.3f} / {fo:.3f} | "
                      f"{below} | {pc:.3f} / {rc:.3f} / {fc:.3f} | query p50 {p50_sketch:.1f} us against "
                      f"{p50_plain:.1f} us without sketches ({p50_sketch / p50_plain:.2f}x) |")
                sys.stdout.flush()
            for num_perm, bits, filt in configs:
                index = os.path.join(tmp, "stored.sdx")
                run(args.simdex, ["build", "--method", "minhash", "-q", "--num-perm", str(num_perm),
                                  "--signature-bits", str(bits), "--sketch", "0", "--threshold", str(t), "--out", index,
                                  stored_path])
                size = os.path.getsize(index)
                out = os.path.join(tmp, "out.jsonl")
                extra = ["--estimate-filter", filt] if filt else []
                run(args.simdex, ["dedup", "-q", "--method", "minhash", "--approximate", "--num-perm", str(num_perm),
                                  "--signature-bits", str(bits), "--threshold", str(t), "--against", index,
                                  "-o", out] + extra + [batch_path])
                matches = read_matches(out, batch, ordinal)
                po, ro, fo, below = score(matches, j_ours, pos_ours, t)
                pc, rc, fc, _ = score(matches, j_common, pos_common, t)
                label = f"{num_perm} x {bits} bits" + (f", filter {filt}" if filt else "")
                per_doc = size / len(stored)
                totals[label].append((per_doc, fo, fc))
                print(f"| {name} | {len(stored):,} / {len(batch):,} | {len(pos_ours):,} / {len(pos_common):,} | "
                      f"{label} | {per_doc:.1f} | {po:.3f} / {ro:.3f} / {fo:.3f} | {below} | "
                      f"{pc:.3f} / {rc:.3f} / {fc:.3f} |")
                sys.stdout.flush()
    print()
    print("| configuration | median bytes per document | median strict F1 (word-chars / space-split shingles) |")
    print("|---|---|---|")
    for label, rows in totals.items():
        print(f"| {label} | {statistics.median(r[0] for r in rows):.1f} | "
              f"{statistics.median(r[1] for r in rows):.3f} / {statistics.median(r[2] for r in rows):.3f} |")


if __name__ == "__main__":
    main()
