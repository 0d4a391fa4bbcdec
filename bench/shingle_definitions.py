#!/usr/bin/env python3
"""How often simdex's two word definitions disagree about a pair at a threshold, and what
each does to `simdex dedup`'s answers (issue 37, item 5; docs/minhash.md, "Shingles").

The two definitions (include/simdex/shingles.h), both after NFKC + case folding with
white space collapsed, both 5-word windows for spaced text and 5-code-point windows of
the text without its spaces for unspaced text (Chinese, Japanese, ...):
  space-split  words are the runs between spaces; punctuation stays in its word
  word-chars   words are the runs of Unicode \\w characters; everything else separates
               them (the field's common definition: the tokens of re.findall(r"\\w+", t))

Per corpus, all exact and from simdex itself:
  1. the truth under each definition: every pair at J >= THRESHOLD
     (`simdex eval --truth jaccard --shingles D --truth-pairs FILE`), and the pairs that
     cross the threshold (at or above it by one definition, below it by the other);
  2. `simdex dedup` at its defaults with `--shingles D` for each D (`--pairs FILE`, wall
     time), its pairs scored strictly (a reported pair below THRESHOLD is false) against
     each truth (`simdex eval --truth jaccard --shingles D --reported FILE`);
  3. with --reference, the library's word-chars shingles checked against a Python
     reference of the common definition (NFKC, str.lower(), \\w+ of Python's `re` and of
     the `regex` module, XXH3-64 seed 1 of the 5-token windows joined by a space; the
     5-code-point windows, seed 2, for the texts the library finds unspaced): the
     documents whose sets differ, and the pairs that cross the threshold between the
     library's truth and the reference's. Needs the simdex, xxhash and regex modules.

  bench/shingle_definitions.py [--threshold 0.8] [--reference] [--work DIR] [NAME=]corpus.jsonl ...

Corpora are JSON Lines with "id" and "text" (ids that are not strings are made strings in
a copy under --work). Runs one command at a time (`--threads` each, default 1).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFINITIONS = ['space-split', 'word-chars']


def run(simdex, args):
    subprocess.run([simdex] + args, check=True, stdout=subprocess.DEVNULL)


def string_ids(path, work):
    """path, or a copy under work whose ids are strings (`simdex eval` reads string ids)."""
    with open(path) as f:
        first = json.loads(f.readline())
    if isinstance(first.get('id'), str):
        return path
    copy = os.path.join(work, os.path.basename(path))
    with open(path) as f, open(copy, 'w') as out:
        for line in f:
            if line.strip():
                doc = json.loads(line)
                doc['id'] = str(doc['id'])
                out.write(json.dumps(doc, ensure_ascii=False) + '\n')
    return copy


def pair_set(path):
    with open(path) as f:
        return {(p['a'], p['b']) for p in map(json.loads, f)}


def strict(row):
    """(P, R, F1) of a "reported" row's "all" bucket, strict scoring."""
    k0 = next(b for b in row['buckets'] if b['bucket'] == 'all')['k'][0]
    return k0['strict_precision'], k0['strict_recall'], k0['strict_f1']


def reference_differences(path, threshold, truth_path):
    """Per Python \\w (re, regex): the documents whose library word-chars set differs from the
    reference's, one of them, and the pairs that cross threshold between the library's truth
    (truth_path: its pairs at or above it) and the reference's."""
    import collections
    import re

    import regex
    import simdex
    import xxhash
    confirmer = simdex.Confirmer(f'jaccard-shingles/word-chars:{threshold}')
    words = {'re': re.compile(r'\w+'), 'regex': regex.compile(r'\w+')}
    ids, ours, references = [], [], {name: [] for name in words}
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            doc = json.loads(line)
            ids.append(doc['id'])
            text = unicodedata.normalize('NFKC', doc['text']).lower()
            ours.append(set(confirmer.shingles(doc['text']).tolist()))
            chars = ''.join(text.split())
            by_chars = {xxhash.xxh3_64_intdigest(chars[i:i + 5].encode(), seed=2)
                        for i in range(max(1, len(chars) - 4))} if chars else set()
            for name, pattern in words.items():
                tokens = pattern.findall(text)
                by_words = {xxhash.xxh3_64_intdigest(' '.join(tokens[i:i + 5]).encode(), seed=1)
                            for i in range(max(1, len(tokens) - 4))} if tokens else set()
                # The library decides spaced or unspaced; the reference follows it.
                references[name].append(by_chars if ours[-1] == by_chars else by_words)
    place = {doc_id: i for i, doc_id in enumerate(ids)}
    library = {tuple(sorted((place[a], place[b]))) for a, b in pair_set(truth_path)}
    out = {}
    for name, sets in references.items():
        differ = [i for i in range(len(ids)) if sets[i] != ours[i]]
        index = collections.defaultdict(list)
        for i, s in enumerate(sets):
            for h in s:
                index[h].append(i)
        theirs = set()
        for d in differ:  # the pairs of two equal documents have the library's J
            shared = collections.Counter(o for h in sets[d] for o in index[h] if o != d)
            for o, n in shared.items():
                if n / (len(sets[d]) + len(sets[o]) - n) >= threshold:
                    theirs.add((min(d, o), max(d, o)))
        touched = set(differ)
        mine = {p for p in library if p[0] in touched or p[1] in touched}
        out[name] = {'documents': len(differ), 'example': ids[differ[0]] if differ else None,
                     'library_only': len(mine - theirs), 'reference_only': len(theirs - mine)}
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--threshold', type=float, default=0.8)
    parser.add_argument('--simdex', default=os.path.join(ROOT, 'build', 'bin', 'simdex'))
    parser.add_argument('--work', default='/tmp/simdex-shingle-definitions')
    parser.add_argument('--threads', type=int, default=1)
    parser.add_argument('--repeat', type=int, default=1,
                        help='dedup runs per definition, interleaved (median wall time)')
    parser.add_argument('--reference', action='store_true')
    parser.add_argument('--reuse', action='store_true', help='score the files of an earlier run in --work again')
    parser.add_argument('corpora', nargs='+', help='[NAME=]PATH (NAME: the file name before its first dot)')
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    t = f'{args.threshold:g}'
    crossing = ['| corpus | documents | pairs >= T, space-split | pairs >= T, word-chars | cross T: space-split >= T '
                '> word-chars | cross T: word-chars >= T > space-split |', '|---|---|---|---|---|---|']
    scores = ['| corpus | `dedup --shingles` | pairs reported | wall s | strict P / R / F1 vs word-chars truth | '
              'strict P / R / F1 vs space-split truth |', '|---|---|---|---|---|---|']
    reference = ['| corpus | documents | sets that differ: `re` / `regex` | pairs >= T by the library only: `re` / '
                 '`regex` | by the reference only: `re` / `regex` | a document that differs (re) |',
                 '|---|---|---|---|---|---|']
    results = {}
    for spec in args.corpora:
        name, _, path = spec.rpartition('=')
        name = name or os.path.basename(path).split('.')[0]
        corpus = string_ids(path, args.work)
        documents = sum(1 for line in open(corpus) if line.strip())
        stem = os.path.join(args.work, name)
        seconds = {}
        if args.reuse:
            with open(os.path.join(args.work, 'results.json')) as f:
                seconds = json.load(f)[name]['seconds']
        times = {d: [] for d in DEFINITIONS}
        for _ in range(0 if args.reuse else args.repeat):  # interleaved, so that both see the same load
            for d in DEFINITIONS:
                start = time.monotonic()
                run(args.simdex, ['dedup', '-q', '--method', 'minhash', '--shingles', d, '--threshold', t,
                                  '--threads', str(args.threads), '-o', os.devnull, '--pairs', f'{stem}.dedup-{d}.jsonl',
                                  corpus])
                times[d].append(time.monotonic() - start)
        if not args.reuse:
            seconds = {d: statistics.median(times[d]) for d in DEFINITIONS}
        rows = {}
        for truth in DEFINITIONS:
            out = f'{stem}.eval-{truth}.jsonl'
            if not args.reuse:
                run(args.simdex, ['eval', '-q', '--truth', 'jaccard', '--shingles', truth, '--positive', t,
                                  '--truth-pairs', f'{stem}.truth-{truth}.jsonl', '-o', out]
                    + [a for d in DEFINITIONS for a in ('--reported', f'{stem}.dedup-{d}.jsonl')] + [corpus])
            with open(out) as f:
                for row in map(json.loads, f):
                    if row['kind'] == 'reported':
                        rows[(truth, row['file'].rsplit('dedup-', 1)[1][:-len('.jsonl')])] = row
        ss, wc = pair_set(f'{stem}.truth-space-split.jsonl'), pair_set(f'{stem}.truth-word-chars.jsonl')
        crossing.append(f'| {name} | {documents:,} | {len(ss):,} | {len(wc):,} | {len(ss - wc):,} | {len(wc - ss):,} |')
        for d in DEFINITIONS:
            p = rows[('word-chars', d)]
            cells = [' / '.join(f'{x:.3f}' for x in strict(rows[(truth, d)])) for truth in ('word-chars', 'space-split')]
            scores.append(f'| {name} | {d} | {p["pairs"]:,} | {seconds[d]:.2f} | {cells[0]} | {cells[1]} |')
        results[name] = {'documents': documents, 'space_split': len(ss), 'word_chars': len(wc),
                         'space_split_only': len(ss - wc), 'word_chars_only': len(wc - ss), 'seconds': seconds,
                         'strict': {f'{d} vs {truth}': strict(rows[(truth, d)]) for d in DEFINITIONS
                                    for truth in DEFINITIONS}}
        if args.reference:
            ref = reference_differences(corpus, args.threshold, f'{stem}.truth-word-chars.jsonl')
            cells = [' / '.join(f'{ref[n][key]:,}' for n in ('re', 'regex'))
                     for key in ('documents', 'library_only', 'reference_only')]
            reference.append(f'| {name} | {documents:,} | {" | ".join(cells)} | {ref["re"]["example"] or "-"} |')
            results[name]['reference'] = ref
        print(f'{name}: done', file=sys.stderr, flush=True)
    print(f'Pairs at or above T = {t} by each definition, and those that cross it:\n')
    print('\n'.join(crossing))
    print(f'\n`simdex dedup` defaults (--threads {args.threads}) with each definition, scored strictly against each '
          'truth:\n')
    print('\n'.join(scores))
    if args.reference:
        print('\nThe library\'s word-chars sets against the Python reference of the common definition:\n')
        print('\n'.join(reference))
    if not args.reuse:
        with open(os.path.join(args.work, 'results.json'), 'w') as f:
            json.dump(results, f, indent=1)


if __name__ == '__main__':
    main()
