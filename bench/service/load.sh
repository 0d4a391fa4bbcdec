#!/usr/bin/env bash
# The docId service under load: `simdex serve` on loopback with a window
# preloaded by `simdex import`, driven by wrk with bench/service/docid.lua
# (~2 KB articles, 30% duplicates). Prints and appends JSON Lines records:
# import time, startup time (files only, then with a delta to replay after
# kill -9), requests/s and latency percentiles per connection count, the
# share of duplicates the service answered, the decision lock's mean hold
# and database reads under it per article (null for a binary without
# them), and the server's memory.
# Figures: docs/benchmarks.md, "The docId service under load".
#
# Usage: bench/service/load.sh [--window-n 1e7] [--seconds 30] [--connections 8,16,32]
#                              [--server-threads 2] [--compact-entries 4000000]
#                              [--dir /work/bench/service] [--json FILE] [--simdex BINARY]
#
# --compact-entries is the server's: at the default no compaction runs in a
# 30 s run; 50000 makes one run every few seconds at ~10k requests/s, so
# that the figures include compaction under way (the stats' compactions).
set -euo pipefail
cd "$(dirname "$0")/../.."

window_n=1e7
seconds=30
connections=8,16,32
server_threads=2
compact_entries=4000000
dir=/tmp/simdex-service-bench
json=""
simdex=build/bin/simdex  # --simdex: another binary (a copy of an old one, to compare)
while (($#)); do
  case "$1" in
    --window-n) window_n=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --server-threads) server_threads=$2; shift 2 ;;
    --compact-entries) compact_entries=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --json) json=$2; shift 2 ;;
    --simdex) simdex=$2; shift 2 ;;
    *) echo "bench/service/load.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
n=$(python3 -c "print(int(float('$window_n')))")
mkdir -p "$dir"
[ -x "$simdex" ] || { echo "build simdex first (scripts/demo.sh or cmake --build build)" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is missing (scripts/deps.sh installs it)" >&2; exit 1; }

emit() {
  echo "$1"
  if [ -n "$json" ]; then echo "$1" >>"$json"; fi
}

now() { date +%s.%N; }
elapsed() { python3 -c "print(round($(now) - $1, 3))"; }
rss_kib() { awk -v k="$2" '$1 == k":" { print $2 }' "/proc/$1/status"; }

emit "{\"type\":\"header\",\"tool\":\"bench/service/load.sh\",\"date\":\"$(date -u +%FT%TZ)\",\"git_commit\":\"$(git rev-parse HEAD)\",\"simdex\":\"$simdex\",\"cores\":$(nproc),\"load_average_start\":\"$(cut -d' ' -f1-3 /proc/loadavg)\",\"window_n\":$n,\"seconds\":$seconds,\"server_threads\":$server_threads,\"compact_entries\":$compact_entries}"

# 1. The preloaded window: n uniform random content fingerprints, imported once.
corpus="$dir/corpus-$n.fp"
state="$dir/state-$n"
if [ ! -s "$corpus" ]; then
  python3 - "$n" "$corpus" <<'EOF'
import random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(1)
with open(path, "w") as f:
    for start in range(0, n, 100000):
        f.write("".join(f"{i}\t{rng.getrandbits(64):016x}\n" for i in range(start, min(n, start + 100000))))
EOF
fi
if [ ! -d "$state" ]; then
  t0=$(now)
  "$simdex" import --quiet --data "$state.tmp" "$corpus"
  mv "$state.tmp" "$state"
  emit "{\"type\":\"import\",\"entries\":$n,\"seconds\":$(elapsed "$t0"),\"state_bytes\":$(du -sb "$state" | cut -f1)}"
fi

# 2. A copy of the imported state for this run; the server on it.
run="$dir/run"
rm -rf "$run" && cp -r "$state" "$run"
port_file="$dir/port"
start_server() {
  rm -f "$port_file"
  local t0
  t0=$(now)
  "$simdex" serve --quiet --data "$run" --port 0 --port-file "$port_file" --threads "$server_threads" \
    --compact-entries "$compact_entries" &
  server=$!
  while [ ! -s "$port_file" ]; do sleep 0.01; done
  startup=$(elapsed "$t0")
  port=$(cat "$port_file")
}
start_server
emit "{\"type\":\"startup\",\"delta_entries\":0,\"file_entries\":$n,\"seconds\":$startup,\"rss_kib\":$(rss_kib "$server" VmRSS),\"index_file_bytes\":$(du -cb "$run"/index/*.sdx | tail -1 | cut -f1),\"database_bytes\":$(du -sb "$run/db" | cut -f1)}"

stats() { curl -s "http://127.0.0.1:$port/v1/stats"; }
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])['$2'])" "$1"; }
# The decision lock's mean hold (us) and database reads under it per article
# between two stats, null where the binary does not count them.
per_article() {
  python3 -c "import json,sys; b,a=json.loads(sys.argv[1]),json.loads(sys.argv[2]); n=max(1,a['articles']-b['articles']); \
print(round((a['$3']-b['$3'])/n,3) if '$3' in a else 'null')" "$1" "$2"
}

# 3. A warm-up, then one run per connection count.
wrk -t1 -c8 -d5s -s bench/service/docid.lua "http://127.0.0.1:$port" -- 99 30 >/dev/null
seed=1
for c in ${connections//,/ }; do
  before=$(stats)
  result=$(wrk -t1 -c"$c" -d"${seconds}s" -s bench/service/docid.lua "http://127.0.0.1:$port" -- "$seed" 30 | tail -n 1)
  after=$(stats)
  articles=$(($(field "$after" articles) - $(field "$before" articles)))
  new=$(($(field "$after" reason_new) - $(field "$before" reason_new)))
  compactions=$(($(field "$after" compactions) - $(field "$before" compactions)))
  emit "{\"type\":\"load\",\"connections\":$c,\"compactions\":$compactions,\"wrk_threads\":1,\"server_threads\":$server_threads,\"wrk\":$result,\"articles\":$articles,\"duplicate_share\":$(python3 -c "print(round(1 - $new / max(1, $articles), 4))"),\"decision_lock_us_per_article\":$(per_article "$before" "$after" decision_lock_microseconds),\"decision_lock_reads_per_article\":$(per_article "$before" "$after" decision_lock_reads),\"delta_entries\":$(field "$after" delta_entries),\"rss_kib\":$(rss_kib "$server" VmRSS),\"peak_rss_kib\":$(rss_kib "$server" VmHWM),\"load_average\":\"$(cut -d' ' -f1-3 /proc/loadavg)\"}"
  seed=$((seed + 1))
done

# 4. kill -9, then a restart that replays the delta from the database.
delta=$(field "$(stats)" delta_entries)
kill -9 "$server"
wait "$server" 2>/dev/null || true
start_server
emit "{\"type\":\"startup\",\"delta_entries\":$delta,\"file_entries\":$n,\"seconds\":$startup,\"rss_kib\":$(rss_kib "$server" VmRSS),\"after\":\"kill -9\"}"
kill "$server"
wait "$server" 2>/dev/null || true
emit "{\"type\":\"footer\",\"load_average_end\":\"$(cut -d' ' -f1-3 /proc/loadavg)\"}"
