#!/usr/bin/env python3
"""The first pass of `--idf auto` / `simdex idf`, two builds side by side (docs/benchmarks.md).

Usage: bench/idf_first_pass.py BEFORE_SIMDEX AFTER_SIMDEX CORPUS.jsonl [ROUNDS] [DEADLINE_SECONDS]

Runs, interleaved, `simdex idf` (BEFORE at --threads 2, AFTER at 1 and 2) and `simdex fingerprint
--idf auto --threads 2` (both builds) on CORPUS, one round whenever the machine is at least 95%
idle over 4 s (the machine is shared), until ROUNDS rounds (default 5) or DEADLINE seconds
(default 1800). Prints each command's median wall and CPU time and the first pass's time (from
the command's summary line, "..., N spilled runs, T s"), with every round's figures and the load.
"""
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def cpu_and_idle():
    v = list(map(int, open('/proc/stat').readline().split()[1:9]))
    return sum(v), v[3]


def idle_percent(seconds=4):
    t1, i1 = cpu_and_idle()
    time.sleep(seconds)
    t2, i2 = cpu_and_idle()
    return 100 * (i2 - i1) / max(1, t2 - t1)


def main():
    before, after, corpus = sys.argv[1:4]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    deadline = time.time() + (float(sys.argv[5]) if len(sys.argv) > 5 else 1800)
    out = os.path.join(tempfile.mkdtemp(), 'terms.idf')  # simdex idf writes a temporary name, then renames
    idf = lambda b, t: [b, 'idf', '--threads', t, '-o', out, corpus]  # noqa: E731
    fingerprint = lambda b: [b, 'fingerprint', '--idf', 'auto', '--threads', '2', '-o', os.devnull, corpus]  # noqa
    variants = [('before: simdex idf --threads 2', idf(before, '2')),
                ('after: simdex idf --threads 1', idf(after, '1')),
                ('after: simdex idf --threads 2', idf(after, '2')),
                ('before: simdex fingerprint --idf auto --threads 2', fingerprint(before)),
                ('after: simdex fingerprint --idf auto --threads 2', fingerprint(after))]
    results, loads, done = {}, [], 0
    while done < rounds and time.time() < deadline:
        if idle_percent() < 95:
            time.sleep(10)
            continue
        loads.append(os.getloadavg()[0])
        for name, cmd in variants:
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            r = subprocess.run(cmd, capture_output=True, text=True, check=True)
            wall = time.perf_counter() - start
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
            first = float(re.search(r'spilled runs?, ([\d.]+) s', r.stderr).group(1))
            results.setdefault(name, []).append((wall, cpu, first))
        done += 1
        print(time.strftime('%T'), 'round', done, 'load', loads[-1], flush=True)
    for name, _ in variants:
        v = results.get(name, [])
        if v:
            med = lambda i: statistics.median(x[i] for x in v)  # noqa: E731
            print(f'{name:50s} wall {med(0):.2f} s  cpu {med(1):.2f} s  first pass {med(2):.2f} s  '
                  f'(first passes {[round(x[2], 2) for x in v]})')
    print('rounds', done, 'load at their start', [round(x, 1) for x in loads])


if __name__ == '__main__':
    main()
