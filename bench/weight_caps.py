#!/usr/bin/env python3
"""SimHash weight caps against raw tf on real corpora (issue 37, item 6; docs/quality.md,
"One token's fingerprints: weight caps", whose table this prints).

Runs one `simdex eval --truth jaccard` over every corpus with raw tf (profile 3's default),
each candidate weighting and profile 4's default (max-share 0.1), then tabulates per corpus,
from the exact truth (word 5-shingle Jaccard, every pair scored):
  - strict F1 at T = 0.8 (a reported pair with J < 0.8 is false) at k = 3, the default k of
    `simdex dedup --method simhash`, over all buckets, and the best F1 over k = 0..MAX_K;
  - the unrelated pairs (J < UNRELATED): how many are within 3 bits (what k = 3 would
    report), per million, and their mean Hamming distance (32 for random fingerprints).
Every unrelated pair of each corpus is counted (the eval's distance histogram), not a sample.
With --times it also times `simdex fingerprint --threads 1` per weighting on each corpus
(CPU seconds of the process, median of 3 alternating runs: the machine is shared).

  bench/weight_caps.py [--work DIR] [--times] [NAME=]corpus.jsonl ...

Corpora are JSON Lines with "id" and "text" (ids that are not strings are made strings in
a copy under --work).
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIMDEX = os.path.join(ROOT, 'build', 'bin', 'simdex')
# (eval configuration, label, `simdex fingerprint` flags)
# Raw tf is profile 3's default (max-share 0); profile 4's is tf with max-share 0.1.
RAW = ['--max-share', '0']
CONFIGS = [('default,max-share0', 'raw tf (profile 3)', RAW),
           ('default,max-share0,tf-cap2', 'tf-cap 2', RAW + ['--tf-cap', '2']),
           ('default,max-share0,tf-cap3', 'tf-cap 3', RAW + ['--tf-cap', '3']),
           ('default,max-share0,tf-cap5', 'tf-cap 5', RAW + ['--tf-cap', '5']),
           ('default,max-share0.5', 'max-share 0.5', ['--max-share', '0.5']),
           ('default,max-share0.2', 'max-share 0.2', ['--max-share', '0.2']),
           ('default', 'max-share 0.1 (profile 4)', []),
           ('default,max-share0.07', 'max-share 0.07', ['--max-share', '0.07']),
           ('default,max-share0.05', 'max-share 0.05', ['--max-share', '0.05']),
           ('default,max-share0.03', 'max-share 0.03', ['--max-share', '0.03']),
           ('default,max-share0.02', 'max-share 0.02', ['--max-share', '0.02']),
           ('default,max-share0,log-tf', 'log-tf (1 + ln tf)', RAW + ['--weighting', 'log-tf']),
           ('default,max-share0,idf-auto', 'tf-idf, idf auto', RAW + ['--idf', 'auto']),
           ('default,max-share0,idf-auto,tf-cap3', 'tf-idf, idf auto, tf-cap 3', RAW + ['--idf', 'auto', '--tf-cap', '3'])]
K = 3
MAX_K = 8
UNRELATED = 0.1


def string_ids(path, work):
    """path, or a copy under work whose ids are strings (simdex eval reads string ids)."""
    with open(path, encoding='utf-8') as f:
        first = json.loads(f.readline())
    if isinstance(first.get('id'), str):
        return path
    out = os.path.join(work, os.path.basename(path))
    with open(path, encoding='utf-8') as f, open(out, 'w', encoding='utf-8') as o:
        for line in f:
            d = json.loads(line)
            d['id'] = str(d['id'])
            o.write(json.dumps(d, ensure_ascii=False) + '\n')
    return out


def evaluate(sets, out):
    args = [SIMDEX, 'eval', '-q', '--truth', 'jaccard', '--unrelated', str(UNRELATED), '--max-k', str(MAX_K),
            '-o', out]
    for config, _, _ in CONFIGS:
        args += ['--config', config]
    subprocess.run(args + sets, check=True)
    return [json.loads(line) for line in open(out, encoding='utf-8')]


def table(rows, names):
    """The table of docs/quality.md: per weighting, strict F1 at k = K, the unrelated pairs within K bits and
    their mean distance, each per corpus in the order given; then the best strict F1 over k."""
    by = {(os.path.basename(r['set']), r['config']): r for r in rows if r['kind'] == 'simhash'}
    files = [os.path.basename(s) for s in names.values()]
    order = ' / '.join(names)
    print(f'| weighting | strict F1, k = {K}: {order} | unrelated (J < {UNRELATED}) within {K} bits, same order '
          f'(total) | mean unrelated distance, same order |')
    print('|---|---|---|---|')
    best = []
    for config, name, _ in CONFIGS:
        if not all((f, config) in by for f in files):
            continue
        alls = [next(x for x in by[(f, config)]['buckets'] if x['bucket'] == 'all') for f in files]
        near = [sum(b['distances']['unrelated'][:K + 1]) for b in alls]
        print(f'| {name} | ' + ' / '.join(f'{b["k"][K]["strict_f1"]:.3f}' for b in alls) + ' | ' +
              ' / '.join(f'{n:,}' for n in near) + f' ({sum(near):,}) | ' +
              ' / '.join(f'{b["mean_unrelated_distance"]:.2f}' if b['unrelated'] else '-' for b in alls) + ' |')
        tops = [max(b['k'], key=lambda x: (round(x['strict_f1'], 9), -x['k'])) for b in alls]
        best.append(f'| {name} | ' + ' / '.join(f'{t["strict_f1"]:.3f} ({t["k"]})' for t in tops) + ' |')
    print(f'\n| weighting | best strict F1 (k <= {MAX_K}): {order} |\n|---|---|')
    print('\n'.join(best))
    alls = [next(x for x in by[(f, CONFIGS[0][0])]['buckets'] if x['bucket'] == 'all') for f in files]
    print(f'\nunrelated pairs (J < {UNRELATED}): ' + ' / '.join(f'{b["unrelated"]:,}' for b in alls))


def cpu_seconds(args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def times(names, work, only):
    timed = [c for c in CONFIGS if only is None or c[1] in only]
    print(f'\n`simdex fingerprint --threads 1`, CPU seconds, median of 3 alternating runs; ratio to tf\n')
    print('| corpus | ' + ' | '.join(name for _, name, _ in timed) + ' |')
    print('|---' * (len(timed) + 1) + '|')
    for n, s in names.items():
        runs = {name: [] for _, name, _ in timed}
        for _ in range(3):
            for _, name, flags in timed:
                runs[name].append(cpu_seconds([SIMDEX, 'fingerprint', '-q', '--threads', '1', *flags, '-o',
                                               os.path.join(work, 'out.fp'), s]))
        base = statistics.median(runs[timed[0][1]])
        cells = [f'{statistics.median(r):.2f} s ({statistics.median(r) / base:.2f})' for r in runs.values()]
        print(f'| {n} | ' + ' | '.join(cells) + ' |')


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('corpora', nargs='+')
    p.add_argument('--work', default='/tmp/weight_caps')
    p.add_argument('--times', action='store_true')
    p.add_argument('--eval', help='read this eval output instead of running the eval')
    p.add_argument('--only', help='comma-separated labels of the weightings to time, e.g. '
                   '"raw tf (profile 3),max-share 0.1 (profile 4)" (default: all)')
    a = p.parse_args()
    os.makedirs(a.work, exist_ok=True)
    names = {}
    for c in a.corpora:
        name, _, path = c.rpartition('=')
        names[name or os.path.basename(path).split('.')[0]] = string_ids(path, a.work)
    rows = ([json.loads(line) for line in open(a.eval, encoding='utf-8')] if a.eval
            else evaluate(list(names.values()), os.path.join(a.work, 'eval.jsonl')))
    table(rows, names)
    if a.times:
        times(names, a.work, a.only.split(',') if a.only else None)


if __name__ == '__main__':
    sys.exit(main())
