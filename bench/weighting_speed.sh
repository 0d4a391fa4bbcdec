#!/bin/bash
# Fingerprinting time of each weighting per corpus, one thread, three
# alternating runs each (docs/benchmarks.md, "log-tf-idf with the idf capped"):
# tf (the default), --idf auto (two passes), log-tf-idf --idf auto --idf-cap
# 0.693 (two passes), and log-tf-idf by the capped file `simdex idf --idf-cap`
# writes (one pass, a service's case). Prints "corpus weighting run seconds"
# lines, then the medians.
#
#   bench/weighting_speed.sh build/bin/simdex build/corpora changelog copyright manpages web titles zh de
set -euo pipefail
simdex=$1 corpora=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
uptime
for c in "$@"; do
  "$simdex" idf -q --idf-cap 0.693 -o "$work/$c.idf" "$corpora/$c.jsonl"
  for run in 1 2 3; do
    for weighting in tf idf-auto capped-auto capped-file; do
      case $weighting in
        tf) args=() ;;
        idf-auto) args=(--idf auto) ;;
        capped-auto) args=(--weighting log-tf-idf --idf auto --idf-cap 0.693) ;;
        capped-file) args=(--weighting log-tf-idf --idf "$work/$c.idf") ;;
      esac
      start=$(date +%s.%N)
      "$simdex" fingerprint -q --threads 1 "${args[@]}" -o "$work/out.fp" "$corpora/$c.jsonl"
      end=$(date +%s.%N)
      echo "$c $weighting $run $(echo "$end - $start" | bc)"
    done
  done
done | tee "$work/times"
uptime
python3 - "$work/times" <<'PY'
import collections, statistics, sys
times = collections.defaultdict(list)
for line in open(sys.argv[1]):
    corpus, weighting, _, seconds = line.split()
    times[(corpus, weighting)].append(float(seconds))
print('| corpus | tf | --idf auto | log-tf-idf --idf auto --idf-cap 0.693 | log-tf-idf, the capped file | file / tf |')
print('|---|---|---|---|---|---|')
for corpus in dict.fromkeys(c for c, _ in times):
    m = {w: statistics.median(times[(corpus, w)]) for w in ('tf', 'idf-auto', 'capped-auto', 'capped-file')}
    print(f"| {corpus} | {m['tf']:.3f} s | {m['idf-auto']:.3f} s | {m['capped-auto']:.3f} s | {m['capped-file']:.3f} s | "
          f"{m['capped-file'] / m['tf']:.2f} |")
PY
