#!/usr/bin/python3
"""Turns simdex-bench JSON Lines into a report with plots: standalone, or the generated section of docs/generated/side-by-side.md.

Usage: scripts/bench_report.py --out DIR [--title TEXT] FILE.jsonl [FILE.jsonl ...]
       scripts/bench_report.py [--doc docs/generated/side-by-side.md] [--plots docs/generated/plots]
                             [--title TEXT] [--restart-study FILE.jsonl]...
                             FILE.jsonl [FILE.jsonl ...]

With --out, writes DIR/report.md (created with its parents) and its plots
beside it: the runs, how the figures are taken, the tables and the plots,
and nothing else is touched. Otherwise it

Reads the records simdex-bench writes (bench/harness/json_writer.h lists the
fields; every searcher: the baselines, simdex's codecs "simdex" (card),
"simdex-ef" and "simdex-auto", and any it does not know, after the known
baselines) and rewrites the part of --doc between

    <!-- BEGIN GENERATED: simdex-bench -->
    <!-- END GENERATED: simdex-bench -->

(everything else in the file is kept), with the issue's targets and an
extrapolation to 10^9 besides, and writes the plots to --plots. The plots:
space_latency_<dataset>.png (bytes per entry against median latency, one
panel per N), latency_vs_n.png, build_vs_n.png and warm_vs_cold.png.
Records of simdex-bench --repeat R give each figure as the median of R
runs; the tables then add the range of the medians and the space/latency
plot draws it as an error bar.
When a measurement appears in several files, the last file wins.
--restart-study files (one simdex-bench run per restart count R, same data)
feed only the "Block size and restart points" section, which argues the
default block size and R. The output
depends only on the input records: the same JSON gives the same Markdown and
the same PNG bytes.

Run it with Debian's /usr/bin/python3 and python3-matplotlib (scripts/deps.sh).
Without matplotlib, --out writes the report's tables and says that the plots
were skipped and why; the doc's section, whose plots the page links, is then
refused rather than rewritten without them.
"""
import argparse
import collections
import json
import math
import os
import re
import sys

matplotlib = plt = None  # imported by import_matplotlib() once the arguments are checked (it takes a second)

BEGIN = '<!-- BEGIN GENERATED: simdex-bench -->'
END = '<!-- END GENERATED: simdex-bench -->'
BASELINE_ORDER = ['scan', 'permuted', 'faiss-hash', 'faiss-multihash']
MARKERS = {'scan': 'X', 'permuted': 's', 'faiss-hash': '^', 'faiss-multihash': 'D'}
# simdex's records name the searcher by codec: "simdex" (card), "simdex-ef", "simdex-auto".
CODEC_MARKERS = {'simdex': 'o', 'simdex-ef': 'v', 'simdex-auto': '*'}
# Targets of issue 4.
TARGET_SPEEDUP_T10_1E8 = 10000
TARGET_RATIO = 1.06
DEFAULT_BLOCK = 4096  # BuildOptions().block_size
DEFAULT_RESTARTS = 6  # BuildOptions().restarts


def import_matplotlib():
    """Imports matplotlib for the plots (Agg backend); None, or why it cannot be imported. The tables do not
    need it: without it the report says that its plots were skipped, and why."""
    global matplotlib, plt
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
        import matplotlib.ticker  # noqa: F401 (an attribute of matplotlib from here on)
    except ImportError as e:
        return str(e)
    return None


def read_lines(path):
    """The lines of a text file; one line on standard error and exit 1 if it cannot be read."""
    try:
        with open(path, encoding='utf-8') as f:
            return f.readlines()
    except OSError as e:
        sys.exit('bench_report.py: %s: %s' % (path, e.strerror))


def load(paths):
    """(headers, footers, points by key, skips) from the JSON Lines files."""
    headers, footers, skips = [], [], []
    points = collections.OrderedDict()
    for path in paths:
        for lineno, line in enumerate(read_lines(path), 1):
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit('bench_report.py: %s:%d: not JSON: %s' % (path, lineno, e))
            t = r.get('type')
            if t == 'header':
                headers.append(r)
            elif t == 'footer':
                footers.append(r)
            elif t == 'skip':
                skips.append(r)
            elif t == 'point':
                key = tuple(r.get(k) for k in ('dataset', 'n', 'searcher', 'scheme', 'config', 'block_size',
                                               'k', 'threads', 'cache', 'api', 'readahead'))
                points[key] = r
    return headers, footers, list(points.values()), skips


def median_or_inf(r):
    """The near median (batch records have none)."""
    p50 = r['near'].get('p50_us')
    return p50 if p50 is not None else float('inf')


def load_restart_study(paths):
    """The simdex points of --restart-study files; R is part of their key.
    When a point was measured in several runs, the run with the lower near
    median is kept (on a shared machine the slower run is the disturbed one)."""
    points = collections.OrderedDict()
    for path in paths:
        for r in load([path])[2]:
            if r['searcher'] != 'simdex':
                continue
            key = (r['dataset'], r['n'], r['scheme'], r['block_size'], r.get('restarts'), r['k'], r['threads'],
                   r['cache'], r['api'])
            if key not in points or median_or_inf(r) < median_or_inf(points[key]):
                points[key] = r
    return list(points.values())


def is_simdex(r):
    """A simdex index of any codec (the others are the baselines)."""
    return r['searcher'] == 'simdex' or r['searcher'].startswith('simdex-')


def label(r):
    """How a point is named in tables and legends."""
    s = r['searcher']
    if is_simdex(r):
        return '%s %s' % (s, r['scheme'])
    if s in ('faiss-hash', 'faiss-multihash'):
        return '%s (%s)' % (s, r.get('config'))
    if s == 'permuted':
        return 'permuted %s' % r['scheme']
    return s


def scheme_text(r):
    """A simdex point where a column names the scheme: the scheme alone for
    card, as before there were other codecs; the searcher too otherwise."""
    return r['scheme'] if r['searcher'] == 'simdex' else label(r)


def sort_key(r):
    """The baselines in BASELINE_ORDER, any other baseline after them, then
    simdex by scheme and block size, its codecs side by side."""
    s = r['searcher']
    if is_simdex(r):
        order = len(BASELINE_ORDER) + 1
    else:
        order = BASELINE_ORDER.index(s) if s in BASELINE_ORDER else len(BASELINE_ORDER)
    return (order, r.get('scheme') or '', r.get('config') or '', r.get('block_size') or 0, s)


def fmt_int(x):
    return '{:,}'.format(int(round(x)))


def fmt_ratio(x):
    return ('%sx' % fmt_int(x)) if x >= 10 else '%.1fx' % x


def fmt_us(x):
    if x is None:
        return '-'
    if x >= 1000:
        return fmt_int(x)
    if x >= 10:
        return '%.1f' % x
    return '%.2f' % x


def fmt_n(n):
    e = len(str(n)) - 1
    return '10^%d' % e if n == 10 ** e else fmt_int(n)


def block_text(b):
    if not b:
        return '-'
    return '%d KiB' % (b // 1024) if b >= 1024 and b % 1024 == 0 else '%d B' % b


def select(points, **want):
    return [p for p in points if all(p.get(k) == v for k, v in want.items())]


def warm_single(points, dataset, n, k, threads=1):
    return select(points, dataset=dataset, n=n, k=k, threads=threads, cache='warm', api='single')


def scan_p50(points, dataset, n, k, threads=1):
    rows = select(points, dataset=dataset, n=n, k=k, threads=threads, cache='warm', api='single', searcher='scan')
    return rows[0]['near']['p50_us'] if rows else None


def table(header, rows):
    out = ['| ' + ' | '.join(header) + ' |', '|' + '|'.join('---' for _ in header) + '|']
    out += ['| ' + ' | '.join(str(c) for c in row) + ' |' for row in rows]
    return out


def datasets_and_ns(points):
    pairs = sorted({(p['dataset'], p['n']) for p in points},
                   key=lambda x: (['uniform', 'clusters', 'skewed', 'text'].index(x[0])
                                  if x[0] in ('uniform', 'clusters', 'skewed', 'text') else 9, x[1]))
    return pairs


def main_k(points):
    ks = sorted({p['k'] for p in points})
    return 3 if 3 in ks else ks[-1]


METHOD = """### How these figures are taken

- Every simdex index is built in a forked child process; "build MiB" is the
  child's peak resident set (`ru_maxrss`) less what it started with (the
  harness's pages it shares, such as its input array).
- Warm: every page of the index file read and mapped first (`IndexReader::Preload`, as
  `simdex serve --preload read` does: a server's steady state; since commit cf98d4a), then
  a warm-up pass, then each query is timed on its own (steady_clock);
  with 2 threads each thread sends single queries and the percentiles are
  over both; the batch API is timed as a whole. A slow searcher answers as
  many queries of a set as fit in about a second (`--seconds-per-set`), never
  fewer than the ones the scan answered.
- Cold: the reader is closed, the file dropped from the page cache
  (`posix_fadvise(POSIX_FADV_DONTNEED)`, checked with `mincore`), reopened
  without re-verifying the head checksums, dropped again, and one batch is
  sent. Major faults and `/proc/self/io` `read_bytes` per query are recorded
  twice: with the mapping advised `MADV_RANDOM` (a fault reads its own page)
  and with the kernel's default read-around, which on a disk with a large
  `read_ahead_kb` (8192 on the project's machine) reads megabytes per fault.
- Correctness: every searcher's answer to every query the scan answered (all
  of them up to 5 x 10^8 / N, at least 50) is compared with the scan's; a
  difference stops the run naming the point and the query.
"""

# How the figures of records with "runs" > 1 (simdex-bench --repeat) are taken.
METHOD_REPEAT = """- Repeated (`--repeat R`): every figure is the median of R runs of its
  point (the mean of the middle two for an even R); "p50 range" is the
  smallest and the largest of the runs' medians. A baseline's runs follow
  one another; the scan and simdex's indexes (every scheme, block size and
  codec; before 2026-12-02, the indexes of one scheme, and the scan apart)
  are measured round by round, all indexes built first, so that a change
  in the machine's speed falls on each of them alike.
"""

# The study's own note (docs/generated/side-by-side.md only).
METHOD_STUDY = """- N = 10^9 is not run in this grid: the permuted tables (120 GB) and
  faiss-multihash (~70 GB) do not fit in 24 GiB (`scripts/bench_all.sh` gives
  the arithmetic). simdex alone is measured at 10^9 by
  `simdex-dedup-bench` ("10^9 entries, measured").
"""


def runs(r):
    """How many runs a record's figures are the medians of (1 before --repeat)."""
    return r['near'].get('runs', 1)


def p50_range(r):
    """The smallest and largest near median over a record's runs, as text."""
    lo, hi = r['near'].get('spread', {}).get('p50_us') or (r['near']['p50_us'],) * 2
    return '%s-%s' % (fmt_us(lo), fmt_us(hi))


def section_runs(headers, footers):
    out = ['### Runs', '']
    for i, h in enumerate(headers):
        foot = footers[i] if i < len(footers) else {}
        load_start = '/'.join('%.1f' % x for x in h.get('load_average_start', []))
        load_end = '/'.join('%.1f' % x for x in foot.get('load_average_end', [])) or '?'
        wall = foot.get('wall_seconds')
        out.append('- `%s` (%s, commit %s%s; %s, %d cores; load average %s at start, %s at end; %s)' % (
            ' '.join(h.get('command', [])), h.get('date'), (h.get('git_commit') or '?')[:10],
            ', with uncommitted changes' if h.get('git_dirty') else '', h.get('cpu_model'), h.get('cores', 0),
            load_start, load_end, ('%.0f s' % wall) if wall is not None else 'did not finish'))
    if headers:
        h = headers[0]
        out += ['', 'Build: %s, %s, `%s`.' % (h.get('compiler'), h.get('build_type'), h.get('cxx_flags', '').strip())]
    return out + ['']


def section_tables(points):
    k = main_k(points)
    out = ['### Warm, one thread, k = %d, near queries' % k, '',
           'Per data set and N: every searcher on the same fingerprints and queries. Bytes per entry are '
           'the whole structure (simdex: the index file); "x bound" is the worst table\'s bits per entry '
           'over the entropy bound log2 C(2^64, N)/N (below 1 where the set holds duplicates: the bound is '
           'that of N distinct values); speed-up is the scan\'s median over the searcher\'s, both from the '
           'same run; "build MiB": the simdex build child\'s peak resident set less what it started with '
           '(the harness\'s pages it shares); "checked": queries whose answers were compared with the scan\'s. '
           'Searchers answer as '
           'many queries as fit in about a second per set (simdex-bench --seconds-per-set).', '']
    repeated = any(runs(r) > 1 for r in points)
    for dataset, n in datasets_and_ns(points):
        rows = sorted(warm_single(points, dataset, n, k), key=sort_key)
        if not rows:
            continue
        scan = scan_p50(points, dataset, n, k)
        capped = rows[0].get('n_requested', n) != n
        out.append('#### %s, N = %s%s' % (dataset, fmt_n(n),
                                          ' (capped at the corpus size)' if capped else ''))
        out.append('')
        body = []
        for r in rows:
            near = r['near']
            ratio = r.get('worst_ratio_to_bound')
            build = r.get('build_seconds')
            rss = r.get('build_peak_rss_bytes')
            if rss:
                rss -= r.get('build_start_rss_bytes', 0)
            space = '8 (the input)' if r['searcher'] == 'scan' else '%.2f' % r.get('bytes_per_entry', 0)
            body.append([label(r), block_text(r.get('block_size')), space,
                         '%.4f' % ratio if ratio else '-', fmt_us(near['p50_us'])] +
                        (['%s (%d)' % (p50_range(r), runs(r))] if repeated else []) +
                        [fmt_us(near['p99_us']), fmt_int(near['qps']),
                         fmt_ratio(scan / near['p50_us']) if scan and near['p50_us'] else '-',
                         '%.2f' % build if build is not None and r['searcher'] != 'scan' else '-',
                         fmt_int(rss / 2 ** 20) if rss else '-', near['checked']])
        out += table(['searcher', 'block', 'bytes/entry', 'x bound', 'p50 us'] +
                     (['p50 range (runs)'] if repeated else []) +
                     ['p99 us', 'queries/s', 'speed-up vs scan', 'build s', 'build MiB', 'checked'], body)
        out.append('')
    return out


def section_by_k(points):
    ks = sorted({p['k'] for p in points})
    if len(ks) < 2:
        return []
    out = ['### Median latency (us) by k, warm, one thread', '']
    header = ['data set', 'N', 'searcher', 'block'] + ['k=%d' % k for k in ks]
    body = []
    for dataset, n in datasets_and_ns(points):
        groups = collections.OrderedDict()
        for r in sorted(select(points, dataset=dataset, n=n, threads=1, cache='warm', api='single'), key=sort_key):
            groups.setdefault((label(r), r.get('block_size')), {})[r['k']] = r['near']['p50_us']
        for (name, block), by_k in groups.items():
            body.append([dataset, fmt_n(n), name, block_text(block)] + [fmt_us(by_k.get(k)) for k in ks])
    return out + table(header, body) + ['']


def section_threads(points):
    threads = sorted({p['threads'] for p in points})
    if len(threads) < 2:
        return []
    k = main_k(points)
    out = ['### Throughput by threads (queries/s, warm, k = %d)' % k, '',
           '"single": each thread sends one query at a time; "batch": IndexReader\'s batch call.', '']
    header = ['data set', 'N', 'searcher', 'block'] + ['%s, %d thr' % (api, t) for api in ('single', 'batch')
                                                      for t in threads]
    body = []
    for dataset, n in datasets_and_ns(points):
        groups = collections.OrderedDict()
        for r in sorted(select(points, dataset=dataset, n=n, k=k, cache='warm'), key=sort_key):
            groups.setdefault((label(r), r.get('block_size')), {})[(r['api'], r['threads'])] = r['near']['qps']
        for (name, block), qps in groups.items():
            body.append([dataset, fmt_n(n), name, block_text(block)] +
                        [fmt_int(qps[(a, t)]) if (a, t) in qps else '-' for a in ('single', 'batch') for t in threads])
    return out + table(header, body) + ['']


def section_cold(points):
    cold = sorted(select(points, cache='cold', threads=1), key=lambda r: (r['dataset'], r['n'], sort_key(r), r['k']))
    if not cold:
        return []
    out = ['### Cold batches (one thread)', '',
           'The index file evicted from the page cache (head indexes included) and reopened before each batch. '
           '"none": the mapping advised MADV_RANDOM, so a page fault reads its own page; "default": the kernel\'s '
           'read-around (this machine\'s read_ahead_kb). Blocks per query include those of table 0 decoded to '
           'find the ids of each match (at least one per id lookup); "key blocks per table" leaves one block per '
           'id lookup out and divides by the tables probed.', '']
    header = ['data set', 'N', 'searcher', 'block', 'k', 'read-ahead', 'queries', 'queries/s', 'major faults/query',
              'KiB read/query', 'blocks/query', 'id lookups/query', 'key blocks per table', 'warm batch queries/s']
    body = []
    for r in cold:
        near = r['near']
        warm = select(points, dataset=r['dataset'], n=r['n'], searcher=r['searcher'], scheme=r['scheme'],
                      block_size=r['block_size'], k=r['k'], threads=1, cache='warm', api='batch')
        tables = near.get('tables_probed_per_query') or 0
        body.append([r['dataset'], fmt_n(r['n']), label(r), block_text(r['block_size']), r['k'], r.get('readahead'),
                     near['queries'], fmt_int(near['qps']), '%.2f' % near['major_faults_per_query'],
                     '%.1f' % (near.get('read_bytes_per_query', 0) / 1024), '%.2f' % near['blocks_per_query'],
                     '%.2f' % near.get('id_lookups_per_query', 0),
                     '%.2f' % key_blocks_per_table(near) if tables else '-',
                     fmt_int(warm[0]['near']['qps']) if warm else '-'])
    return out + table(header, body) + ['']


def key_blocks_per_table(near):
    """Blocks decoded per table probed, less one block per id lookup."""
    tables = near.get('tables_probed_per_query') or 0
    return (near['blocks_per_query'] - near.get('id_lookups_per_query', 0)) / tables if tables else 0


def section_skips(skips):
    if not skips:
        return []
    out = ['### Not measured', '']
    seen = set()
    for s in skips:
        line = '- %s, N = %s%s, %s%s: %s' % (
            s['dataset'], fmt_n(s['n']), ' (asked %s)' % fmt_n(s['n_requested']) if s['n_requested'] != s['n'] else '',
            s['searcher'], (' ' + s['scheme']) if s.get('scheme') else '', s['reason'])
        if line not in seen:
            seen.add(line)
            out.append(line)
    return out + ['']


def section_targets(points):
    """The issue's targets, as far as the records measure them."""
    out = ['### Targets (issue 4), as measured here', '']
    k = main_k(points)
    rows = select(points, searcher='simdex', scheme='t10', n=10 ** 8, k=k, threads=1, cache='warm', api='single')
    lines = []
    for r in sorted(rows, key=lambda r: (r['dataset'], r['block_size'])):
        scan = scan_p50(points, r['dataset'], r['n'], k)
        if scan:
            speedup = scan / r['near']['p50_us']
            lines.append('- t10, N = 10^8, %s, %s blocks: median %s us, scan %s us: **%sx** (target >= %sx: %s)' % (
                r['dataset'], block_text(r['block_size']), fmt_us(r['near']['p50_us']), fmt_us(scan), fmt_int(speedup),
                fmt_int(TARGET_SPEEDUP_T10_1E8), 'met' if speedup >= TARGET_SPEEDUP_T10_1E8 else 'MISSED'))
    if not rows:
        lines.append('- t10 at N = 10^8 vs the scan: not in these records.')
    for dataset, n in datasets_and_ns(points):
        faiss = [r for r in warm_single(points, dataset, n, k)
                 if r['searcher'] == 'faiss-multihash' and r.get('config') == '4 x 16 bits']
        t4 = [r for r in warm_single(points, dataset, n, k) if r['searcher'] == 'simdex' and r['scheme'] == 't4']
        if not faiss or not t4:
            continue
        f = faiss[0]
        best = min(t4, key=lambda r: r['near']['p50_us'])
        faster = best['near']['p50_us'] < f['near']['p50_us']
        half = best['bytes_per_entry'] <= f['bytes_per_entry'] / 2
        lines.append('- t4 vs faiss-multihash (4 x 16 bits), %s, N = %s: simdex %s blocks median %s us vs %s us (%s), '
                     '%.2f vs %.2f bytes/entry (%.2fx; at most half: %s)' % (
                         dataset, fmt_n(n), block_text(best['block_size']), fmt_us(best['near']['p50_us']),
                         fmt_us(f['near']['p50_us']), 'faster' if faster else 'SLOWER', best['bytes_per_entry'],
                         f['bytes_per_entry'], best['bytes_per_entry'] / f['bytes_per_entry'],
                         'met' if half else 'MISSED'))
    cold = [r for r in select(points, cache='cold', readahead='none', threads=1, k=k)
            if r['near'].get('tables_probed_per_query')]
    # Per scheme: the key blocks per table at each N and block size, so that
    # a scheme whose key range outgrows a block is not hidden behind another.
    for scheme in sorted({r['scheme'] for r in cold}):
        rows = sorted((r for r in cold if r['scheme'] == scheme),
                      key=lambda r: (r['dataset'], r['n'], r['block_size']))
        worst = max(key_blocks_per_table(r['near']) for r in rows)
        lines.append('- Cold queries, %s, k = %d: key blocks read per table probed %s (target <= 1 on average: %s)' % (
            scheme, k, '; '.join('%s N = %s %s: %.2f' % (r['dataset'], fmt_n(r['n']), block_text(r['block_size']),
                                                        key_blocks_per_table(r['near'])) for r in rows),
            'met' if worst <= 1 else 'MISSED where above 1'))
    big = select(points, searcher='simdex', block_size=DEFAULT_BLOCK, k=k, threads=1, cache='warm', api='single')
    big = [r for r in big if r['n'] >= 10 ** 7]
    if big:
        worst = max(big, key=lambda r: r['worst_ratio_to_bound'])
        lines.append('- Space at the default block size (%s), N >= 10^7: worst table %.4f x the bound (%s, N = %s, %s; '
                     'target <= %.2f: %s)' % (block_text(DEFAULT_BLOCK), worst['worst_ratio_to_bound'], worst['dataset'],
                                              fmt_n(worst['n']), worst['scheme'], TARGET_RATIO,
                                              'met' if worst['worst_ratio_to_bound'] <= TARGET_RATIO else 'MISSED'))
    # Candidates for the default: per N (uniform), the fastest block size of
    # each scheme whose every table stays within the space target.
    for n in sorted({p['n'] for p in points if p['dataset'] == 'uniform'}):
        rows = [r for r in warm_single(points, 'uniform', n, k) if r['searcher'] == 'simdex'
                and r['worst_ratio_to_bound'] <= TARGET_RATIO]
        by_scheme = {}
        for r in rows:
            if r['scheme'] not in by_scheme or r['near']['p50_us'] < by_scheme[r['scheme']]['near']['p50_us']:
                by_scheme[r['scheme']] = r
        if by_scheme:
            lines.append('- Uniform, N = %s, fastest block size within %.2f x the bound: %s' % (
                fmt_n(n), TARGET_RATIO, '; '.join('%s %s (%s us, %.2f bytes/entry)' % (
                    s, block_text(r['block_size']), fmt_us(r['near']['p50_us']), r['bytes_per_entry'])
                    for s, r in sorted(by_scheme.items()))))
    return out + lines + ['']


def section_restart_study(points):
    """Block size x restart points R for one scheme and N: the space each
    costs and the latency it buys, and the fastest setting within the space
    target, which is where the default should sit."""
    rows = [r for r in points if r['searcher'] == 'simdex' and r['cache'] == 'warm' and r['api'] == 'single'
            and r['threads'] == 1]
    if not rows:
        return []
    k = max(r['k'] for r in rows)
    rows = sorted(select(rows, k=k), key=lambda r: (r['dataset'], r['n'], r['scheme'], r['block_size'], r['restarts']))
    out = ['### Block size and restart points (the default)', '',
           'One simdex-bench run per restart count R on the same fingerprints and queries (warm, one thread, '
           'k = %d); where a point was measured in more than one run, the faster run\'s figures. "x bound": the '
           'worst table\'s bits per entry over the entropy bound; "entries/query": values decoded per near query, '
           'restart probes and id lookups included. Settings with equal segments (block size / (R + 1)) decode '
           'about as much per query; the larger block spends fewer bits on heads, counts, checksums and padding.'
           % k, '']
    body = []
    for r in rows:
        near, rnd = r['near'], r['random']
        body.append([r['dataset'], fmt_n(r['n']), r['scheme'], block_text(r['block_size']), r['restarts'],
                     '%.4f' % r['worst_ratio_to_bound'], '%.2f' % r['bytes_per_entry'], fmt_us(near['p50_us']),
                     fmt_us(near['p90_us']), fmt_us(near['p99_us']), fmt_us(rnd['p50_us']),
                     '%.0f' % near['entries_per_query'], '%.2f' % r['build_seconds']])
    out += table(['data set', 'N', 'scheme', 'block', 'R', 'x bound', 'bytes/entry', 'near p50 us', 'p90', 'p99',
                  'random p50 us', 'entries/query', 'build s'], body)
    out.append('')
    for dataset, n, scheme in sorted({(r['dataset'], r['n'], r['scheme']) for r in rows}):
        group = [r for r in rows if (r['dataset'], r['n'], r['scheme']) == (dataset, n, scheme)]
        within = [r for r in group if r['worst_ratio_to_bound'] <= TARGET_RATIO]
        default = [r for r in group if r['block_size'] == DEFAULT_BLOCK and r['restarts'] == DEFAULT_RESTARTS]
        if not within:
            out.append('- %s, N = %s, %s: no setting keeps every table within %.2f x the bound.' % (
                dataset, fmt_n(n), scheme, TARGET_RATIO))
            continue
        best = min(within, key=lambda r: r['near']['p50_us'])
        line = '- %s, N = %s, %s: fastest setting within %.2f x the bound: %s blocks, R = %d (%s us median, %.4f x)' % (
            dataset, fmt_n(n), scheme, TARGET_RATIO, block_text(best['block_size']), best['restarts'],
            fmt_us(best['near']['p50_us']), best['worst_ratio_to_bound'])
        if default:
            d = default[0]
            line += '; the default (%s, R = %d): %s us median, %.4f x, %.2fx the fastest\'s median' % (
                block_text(DEFAULT_BLOCK), DEFAULT_RESTARTS, fmt_us(d['near']['p50_us']), d['worst_ratio_to_bound'],
                d['near']['p50_us'] / best['near']['p50_us'])
        out.append(line + '.')
    return out + ['']


def entropy_bound_bits(n):
    """log2 C(2^64, n) / n, by lgamma (as IndexInfo computes it)."""
    u = 2.0 ** 64
    return (math.lgamma(u + 1) - math.lgamma(n + 1) - math.lgamma(u - n + 1)) / math.log(2) / n


def section_extrapolation(points, target_n=10 ** 9):
    """N = 10^9 from the two largest measured N of each simdex scheme at the
    default block size (uniform, warm, one thread): stated as extrapolated."""
    k = main_k(points)
    rows = select(points, dataset='uniform', searcher='simdex', block_size=DEFAULT_BLOCK, k=k, threads=1,
                  cache='warm', api='single')
    schemes = sorted({r['scheme'] for r in rows})
    body = []
    for scheme in schemes:
        by_n = {r['n']: r for r in rows if r['scheme'] == scheme}
        if len(by_n) < 2 or max(by_n) >= target_n:
            continue
        n1, n2 = sorted(by_n)[-2:]
        a, b = by_n[n1], by_n[n2]
        decades = math.log10(target_n / n2) / math.log10(n2 / n1)

        def per_decade(x1, x2):  # linear in log N from the last two points
            return x2 + (x2 - x1) * decades

        def growth(x1, x2):  # the per-decade factor of x continued
            return x2 * (x2 / x1) ** decades if x1 > 0 else None

        ratio = per_decade(a['worst_ratio_to_bound'], b['worst_ratio_to_bound'])
        bound = entropy_bound_bits(target_n)
        ids = b['id_bytes_per_entry'] + (math.log2(target_n) - math.log2(n2)) / 8  # ids take log2 N bits
        tables = b['tables'] * ratio * bound / 8
        p50 = growth(a['near']['p50_us'], b['near']['p50_us'])
        per_entry = growth(a['build_seconds'] / n1, b['build_seconds'] / n2) if a.get('build_seconds') else None
        build = per_entry * target_n if per_entry else None
        scan = scan_p50(points, 'uniform', n2, k)
        scan_x = scan * target_n / n2 if scan else None
        body.append([scheme, '%s, %s' % (fmt_n(n1), fmt_n(n2)), '%.4f' % ratio, '%.2f' % (tables + ids),
                     '%.0f' % ((tables + ids) * target_n / 1e9), fmt_us(p50),
                     fmt_int(build) if build else '-', fmt_us(scan_x) if scan_x else '-',
                     fmt_ratio(scan_x / p50) if scan_x and p50 else '-'])
    if not body:
        return []
    out = ['### N = %s, extrapolated (not measured by this grid)' % fmt_n(target_n), '',
           'N = 10^9 was measured apart since (docs/benchmarks.md, "10^9 entries, measured"); the extrapolation '
           'is kept for comparison. From the two largest N measured per scheme (uniform, %s blocks, warm, one thread, k = %d): the worst '
           'table\'s ratio to the bound continued linearly in log N; bytes per entry from it and the exact bound at '
           '%s (%.2f bits per entry) plus ids of log2 N bits; the median and the build time per entry continued '
           'by their growth per decade; the scan linearly in N. A run at this N needs, for t10, an index of about '
           'the size shown plus ~32 GB of sort runs and scratch copies on disk, and the harness\'s 8 GB input '
           'array in memory, which this machine\'s disk (~74 GB free) and 24 GiB do not hold together; the '
           'measured curves are in the plots.' % (block_text(DEFAULT_BLOCK), k, fmt_n(target_n),
                                                    entropy_bound_bits(target_n)), '']
    out += table(['scheme', 'from N', 'x bound', 'bytes/entry', 'index GB', 'p50 us', 'build s', 'scan p50 us',
                  'speed-up vs scan'], body)
    return out + ['']


def warm_single_p50(points, r):
    """The warm single-query near median of r's searcher at r's point, one thread."""
    warm = select(points, dataset=r['dataset'], n=r['n'], searcher=r['searcher'], scheme=r['scheme'],
                  block_size=r['block_size'], restarts=r.get('restarts'), k=r['k'], threads=1, cache='warm',
                  api='single')
    return warm[0]['near']['p50_us'] if warm else None


def section_against_warm(points, cache, title, prose, header, cells):
    """A section of one row per record of `cache` (by data set, N, scheme, block size and k): its point, then
    cells(r, p50, warm p50) under `header` (p50: r's near median; warm p50: warm_single_p50)."""
    rows = sorted(select(points, cache=cache),
                  key=lambda r: (r['dataset'], r['n'], r['scheme'], r['block_size'], r['k']))
    if not rows:
        return []
    body = [[r['dataset'], fmt_n(r['n']), scheme_text(r), block_text(r['block_size']), r['k']] +
            cells(r, r['near']['p50_us'], warm_single_p50(points, r)) for r in rows]
    return ['### ' + title, '', prose, ''] + table(['data set', 'N', 'scheme', 'block', 'k'] + header, body) + ['']


def section_checksums(points):
    """Single-query medians with and without block checksum verification."""
    return section_against_warm(
        points, 'warm-checksums', 'Block checksum verification on every read (before issue 18)',
        'The same near queries (warm, one thread) with `ReaderOptions::verify_block_checksums` off (then the '
        'default) and on, as that option was before issue 18: verifying hashed every probed block whole on every '
        'read, where a scan decodes from a restart point to its key. Since issue 18 every block is checked the '
        'first time a reader decodes it and the option checks everything in Open() instead (next table; '
        'docs/benchmarks.md, "Checked reads").', ['p50 us, off', 'p50 us, on', 'on / off'],
        lambda r, on, off: [fmt_us(off), fmt_us(on), '%.2fx' % (on / off) if off else '-'])


def section_first_use(points):
    """The first queries of a freshly opened reader, against the warm ones."""
    return section_against_warm(
        points, 'first-use', 'First queries of a freshly opened reader',
        'A reader checks each block against its checksum the first time it decodes it, and the id section the '
        'first time it reads an id (docs/format.md, "What a reader checks, and when"). The first 1,000 near '
        'queries (one thread) on a reader opened just before, the file in the page cache, beside the warm '
        'queries of the same run; "open, all" is an Open() with `ReaderOptions::verify_block_checksums`, which '
        'checks every block and section.',
        ['open us', 'first query us', 'p50 us, first 1,000', 'p99 us, first 1,000', 'p50 us, warm', 'first / warm',
         'open, all us'],
        lambda r, p50, warm_p50: [fmt_us(r['open_micros']), fmt_us(r['first_query_micros']), fmt_us(p50),
                                  fmt_us(r['near']['p99_us']), fmt_us(warm_p50),
                                  '%.2fx' % (p50 / warm_p50) if warm_p50 else '-', fmt_us(r['open_verify_all_micros'])])


def style_for(r, schemes):
    """simdex: a filled marker in its scheme's colour, by codec (card: a
    circle, ef: a triangle); permuted: a hollow square in the same colour;
    faiss and scan: black, by marker."""
    if (is_simdex(r) or r['searcher'] == 'permuted') and r['scheme'] in schemes:
        colour = 'C%d' % (schemes.index(r['scheme']) % 10)
        if is_simdex(r):
            return dict(marker=CODEC_MARKERS.get(r['searcher'], 'h'), color=colour)
        return dict(marker='s', facecolors='none', edgecolors=colour)
    return dict(marker=MARKERS.get(r['searcher'], 'P'), color='black')


def plain_log_axes(ax):
    """Log axes labelled 20, 50, 100 rather than 2 x 10^1."""
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(matplotlib.ticker.LogLocator(base=10, subs=(1, 2, 5)))
        axis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: '%g' % v))
        axis.set_minor_formatter(matplotlib.ticker.NullFormatter())


def save(fig, plots, name):
    """Writes the figure to plots/name (the same bytes for the same records), closes it and returns name."""
    fig.tight_layout()
    fig.savefig(os.path.join(plots, name), dpi=100, metadata={'Software': None})
    plt.close(fig)
    return name


def plot_space_latency(points, plots, k):
    files = []
    schemes = sorted({p['scheme'] for p in points if is_simdex(p) or p['searcher'] == 'permuted'})
    for dataset in sorted({p['dataset'] for p in points}):
        ns = sorted({p['n'] for p in points if p['dataset'] == dataset})
        fig, axes = plt.subplots(1, len(ns), figsize=(5 * len(ns), 4.2), squeeze=False)
        for ax, n in zip(axes[0], ns):
            rows = sorted((r for r in warm_single(points, dataset, n, k) if r['searcher'] != 'scan'), key=sort_key)
            done = set()
            for r in rows:
                name = label(r)
                ax.scatter(r['bytes_per_entry'], r['near']['p50_us'], label=None if name in done else name,
                           **style_for(r, schemes))
                if runs(r) > 1:  # the range of the runs' medians
                    lo, hi = r['near']['spread']['p50_us']
                    y = r['near']['p50_us']
                    ax.errorbar(r['bytes_per_entry'], y, yerr=[[y - lo], [hi - y]], fmt='none', ecolor='grey',
                                elinewidth=0.8, capsize=2)
                done.add(name)
                if is_simdex(r):
                    ax.annotate(block_text(r['block_size']).replace(' ', ''), (r['bytes_per_entry'], r['near']['p50_us']),
                                fontsize=6, xytext=(3, 2), textcoords='offset points')
            ax.set_xscale('log')
            ax.set_yscale('log')
            plain_log_axes(ax)
            ax.set_title('%s, N = %s, k = %d' % (dataset, fmt_n(n), k))
            ax.set_xlabel('bytes per entry')
            ax.set_ylabel('median latency (us), warm, 1 thread')
            ax.grid(True, which='both', alpha=0.3)
            if rows:
                ax.legend(fontsize=6)
        files.append(save(fig, plots, 'space_latency_%s.png' % dataset))
    return files


def plot_vs_n(points, plots, k, field, ylabel, name, dataset='uniform'):
    """One line per searcher (simdex: per scheme at the default block size, or the smallest measured)."""
    rows = [r for r in select(points, dataset=dataset, k=k, threads=1, cache='warm', api='single')]
    if not rows:
        return None
    blocks = sorted({r['block_size'] for r in rows if is_simdex(r)})
    block = DEFAULT_BLOCK if DEFAULT_BLOCK in blocks else (blocks[0] if blocks else None)
    lines = collections.defaultdict(list)
    for r in sorted(rows, key=lambda r: (sort_key(r), r['n'])):
        if is_simdex(r) and r['block_size'] != block:
            continue
        value = field(r)
        if value is None:
            continue
        lines[label(r) + (' %s' % block_text(block) if is_simdex(r) else '')].append((r['n'], value))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for line_name in sorted(lines):
        xy = sorted(lines[line_name])
        ax.plot([x for x, _ in xy], [y for _, y in xy], marker='o', label=line_name)
    ax.set_xscale('log')
    ax.set_yscale('log')
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: '%g' % v))
    ax.set_xlabel('N (%s)' % dataset)
    ax.set_ylabel(ylabel)
    ax.grid(True, which='both', alpha=0.3)
    ax.legend(fontsize=7)
    return save(fig, plots, name)


def plot_warm_cold(points, plots, k):
    cold = sorted(select(points, cache='cold', threads=1, k=k), key=lambda r: (r['dataset'], r['n'], sort_key(r)))
    groups = collections.OrderedDict()
    for r in cold:
        key = '%s %s\n%s %s' % (r['dataset'], fmt_n(r['n']), scheme_text(r), block_text(r['block_size']))
        kind = 'cold, no read-ahead' if r['readahead'] == 'none' else 'cold, default read-ahead'
        groups.setdefault(key, {})[kind] = 1e6 / r['near']['qps']
        warm = select(points, dataset=r['dataset'], n=r['n'], searcher=r['searcher'], scheme=r['scheme'],
                      block_size=r['block_size'], k=k, threads=1, cache='warm', api='batch')
        if warm:
            groups[key]['warm'] = 1e6 / warm[0]['near']['qps']
    if not groups:
        return None
    kinds = ['warm', 'cold, default read-ahead', 'cold, no read-ahead']
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(groups)), 4.5))
    width = 0.8 / len(kinds)
    for i, kind in enumerate(kinds):
        xs = [j + i * width for j in range(len(groups))]
        ax.bar(xs, [g.get(kind, 0) for g in groups.values()], width, label=kind)
    ax.set_xticks([j + width for j in range(len(groups))])
    ax.set_xticklabels(list(groups), fontsize=7)
    ax.set_yscale('log')
    ax.set_ylabel('us per query (batch, 1 thread, k = %d)' % k)
    ax.legend(fontsize=7)
    ax.grid(True, axis='y', which='both', alpha=0.3)
    return save(fig, plots, 'warm_vs_cold.png')


def draw_plots(points, plots, k):
    """Draws every plot into the directory `plots` (made if missing); the file names, None for a plot without data."""
    os.makedirs(plots, exist_ok=True)
    images = plot_space_latency(points, plots, k)
    images.append(plot_vs_n(points, plots, k, lambda r: r['near']['p50_us'],
                            'median latency (us), warm, 1 thread, k = %d' % k, 'latency_vs_n.png'))
    images.append(plot_vs_n(points, plots, k,
                            lambda r: r.get('build_seconds') if r['searcher'] != 'scan' else None,
                            'build time (s)', 'build_vs_n.png'))
    images.append(plot_warm_cold(points, plots, k))
    return images


def report_sections(points, skips, restart_study, standalone):
    """The tables of the report; the doc's section adds the study's own."""
    lines = [] if standalone else section_targets(points)
    lines += section_tables(points)
    lines += section_by_k(points)
    lines += section_threads(points)
    lines += section_cold(points)
    if restart_study:
        study = load_restart_study(restart_study)
        lines += section_restart_study(study)
        lines += section_checksums(study)
    lines += section_checksums(points)
    lines += section_first_use(points)
    if not standalone:
        lines += section_extrapolation(points)
    return lines + section_skips(skips)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--out', metavar='DIR',
                        help='write a standalone report, DIR/report.md, with its plots in DIR (instead of --doc)')
    parser.add_argument('--doc', help='the document whose generated section is rewritten (default docs/generated/side-by-side.md)')
    parser.add_argument('--plots', help='where the document\'s plots go (default docs/generated/plots)')
    parser.add_argument('--title', default='', help='a line shown above the generated tables')
    parser.add_argument('--restart-study', action='append', default=[], metavar='FILE',
                        help='a run that differs from the others only in --restarts (repeat for each; '
                             'the block size and R section)')
    parser.add_argument('files', nargs='+')
    args = parser.parse_args()

    # The output is checked (or made) before any work.
    standalone = args.out is not None
    if standalone:
        if args.doc or args.plots:
            sys.exit('bench_report.py: --out writes a standalone report and its plots; --doc and --plots update a '
                     'document: give one or the other')
        try:
            os.makedirs(args.out, exist_ok=True)
        except OSError as e:
            sys.exit('bench_report.py: --out %s: %s' % (args.out, e.strerror))
        target, plots = os.path.join(args.out, 'report.md'), args.out
    else:
        target, plots = args.doc or 'docs/generated/side-by-side.md', args.plots or 'docs/generated/plots'
        no_plots = import_matplotlib()
        if no_plots:
            sys.exit('bench_report.py: %s needs its plots, and matplotlib cannot be imported (%s): install '
                     'python3-matplotlib, or write a report without plots with --out DIR' % (target, no_plots))
        doc = ''.join(read_lines(target))
        pattern = re.compile(re.escape(BEGIN) + '.*?' + re.escape(END), re.S)
        if not pattern.search(doc):
            sys.exit('bench_report.py: %s has no %s ... %s section' % (target, BEGIN, END))
    headers, footers, points, skips = load(args.files)
    if not points:
        sys.exit('bench_report.py: no measurements in %s' % ', '.join(args.files))
    if standalone:
        no_plots = import_matplotlib()
    k = main_k(points)
    images = [] if no_plots else draw_plots(points, plots, k)
    rel = os.path.relpath(plots, os.path.dirname(os.path.abspath(target)) or '.')

    lines = [args.title, ''] if args.title else []
    lines += section_runs(headers, footers)
    method = METHOD + (METHOD_REPEAT if any(runs(r) > 1 for r in points) else '')
    lines += (method if standalone else method + METHOD_STUDY).split('\n')
    lines += report_sections(points, skips, args.restart_study, standalone)
    lines += ['### Plots', '']
    if no_plots:
        lines += ['Skipped: matplotlib cannot be imported (%s). Install python3-matplotlib (scripts/deps.sh) and '
                  'run scripts/bench_report.py again for them.' % no_plots]
    lines += ['![%s](%s)' % (img[:-4].replace('_', ' '), os.path.join(rel, img) if rel != '.' else img)
              for img in images if img]

    if standalone:
        # The doc's sections sit under a second-level heading; here they are the top.
        lines = [line[1:] if line.startswith('###') else line for line in lines]
        text = '\n'.join(['# simdex-bench report', '',
                          'Written by scripts/bench_report.py from %s.' % ', '.join('`%s`' % f for f in args.files),
                          ''] + lines) + '\n'
    else:
        lines = [BEGIN, '', '<!-- Written by scripts/bench_report.py from simdex-bench JSON; edits here are '
                 'overwritten. -->', ''] + lines + ['', END]
        text = pattern.sub(lambda _: '\n'.join(lines), doc, count=1)
    with open(target, 'w', encoding='utf-8') as f:
        f.write(text)
    if no_plots:
        print('bench_report.py: wrote %s without plots: matplotlib cannot be imported (%s)' % (target, no_plots),
              file=sys.stderr)
    else:
        print('bench_report.py: wrote %s and %d plots in %s' % (target, len([i for i in images if i]), plots),
              file=sys.stderr)


if __name__ == '__main__':
    main()
