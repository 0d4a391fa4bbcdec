"""docs/generated/quality.md's section on today's defaults, scored strictly (run by scripts/quality_corpora.py).

From the rows of one `simdex eval --truth jaccard --baseline --minhash` run over the real corpora: per
corpus and length bucket, the pairs `simdex dedup` reports at its defaults (MinHash-LSH, candidates
from 21 x 6 bands and the 4-bit estimate filter at 0.694, each checked by its exact Jaccard: the
`--minhash` row "default") by the class of their exact Jaccard, their strict and lenient precision /
recall / F1, beside `--approximate` (16 x 8 bands, the estimate filter at 0.729: the row "estimate"),
the MinHash-LSH baseline with its estimate filter and SimHash at k = 3 (`--method simhash`); then
issue 37's targets for the defaults, checked on every bucket with enough positive pairs.
"""

STRICT, LENIENT = 'strict', 'lenient'
TARGET_F1, TARGET_PRECISION, TARGET_POSITIVES = 0.95, 0.98, 30
SIMHASH_K = 3


def scores(x, scoring):
    """'P / R / F1' of one k entry under a scoring."""
    return f'{x[scoring + "_precision"]:.3f} / {x[scoring + "_recall"]:.3f} / {x[scoring + "_f1"]:.3f}'


def buckets_with_positives(row):
    """The names of the buckets of a row that hold positive pairs, then "all"."""
    return [b['bucket'] for b in row['buckets'] if b['bucket'] != 'all' and b['positives']] + ['all']


def entry(row, name, k=0):
    return next(b for b in row['buckets'] if b['bucket'] == name)['k'][k]


def section(rows, corpora, before, after, default_config):
    """The markdown of the section: the prose before the table, the table, the prose after it (with
    {targets}: the line on issue 37's targets). corpora: (name, kind, role) in order; rows: every row of
    the run."""
    by = {}
    for r in rows:
        name = r['set'].rsplit('/', 1)[-1].split('.')[0]
        if r['kind'] == 'simhash' and r['config'] == default_config:
            by[(name, 'simhash')] = r
        elif r['kind'] in ('minhash', 'baseline'):
            by[(name, r['kind'], r['filter'])] = r
    md = [before,
          '| corpus | role | bucket | positives (J >= 0.8) | `simdex dedup` defaults: pairs reported with '
          'J >= 0.8 / 0.5-0.8 / < 0.5 | defaults: strict P / R / F1 | defaults: lenient P / R / F1 | '
          '`--approximate`: strict P / R / F1 | MinHash-LSH baseline + estimate: strict '
          f'P / R / F1 | SimHash k = {SIMHASH_K} (`--method simhash`): strict P / R / F1 |',
          '|---|---|---|---|---|---|---|---|---|---|']
    checked, low_f1, low_precision, below = 0, [], [], {}
    for c, _, role in corpora:
        mine = by[(c, 'minhash', 'default')]
        for name in buckets_with_positives(mine):
            x = entry(mine, name)
            positives = next(b for b in mine['buckets'] if b['bucket'] == name)['positives']
            md.append(f'| {c} | {role} | {name} | {positives:,} | {x["tp"]:,} / {x["between"]:,} / '
                      f'{x["lenient_fp"]:,} | **{scores(x, STRICT)}** | {scores(x, LENIENT)} | '
                      f'{scores(entry(by[(c, "minhash", "estimate")], name), STRICT)} | '
                      f'{scores(entry(by[(c, "baseline", "estimate")], name), STRICT)} | '
                      f'{scores(entry(by[(c, "simhash")], name, SIMHASH_K), STRICT)} |')
            if name == 'all' or positives < TARGET_POSITIVES:
                continue  # the targets are per bucket
            checked += 1
            if x['strict_f1'] < TARGET_F1:
                low_f1.append(f'{c} {name} {x["strict_f1"]:.3f}')
            if x['strict_precision'] < TARGET_PRECISION:
                low_precision.append(f'{c} {name} {x["strict_precision"]:.3f}')
        if entry(mine, 'all')['lenient_fp']:
            below[c] = entry(mine, 'all')['lenient_fp']
    targets = (f'strict F1 >= {TARGET_F1} in {checked - len(low_f1)} of the {checked} buckets with '
               f'{TARGET_POSITIVES} or more positive pairs (below it: {"; ".join(low_f1) or "none"}); strict '
               f'precision >= {TARGET_PRECISION} in {checked - len(low_precision)} of {checked} (below it: '
               f'{"; ".join(low_precision) or "none"}); pairs reported with J < 0.5: '
               + (', '.join(f'{c} {n:,}' for c, n in below.items()) if below else 'none'))
    md += ['', after.format(targets=targets)]
    return '\n'.join(md)
