#!/usr/bin/env bash
# The full side-by-side study of issue 4, then docs/generated/side-by-side.md
# and docs/generated/plots/ from its results. One command:
#
#   scripts/bench_all.sh [RESULTS_DIR]      (default build/bench-results)
#
# Builds simdex-bench and simdex (Release, in build/), makes the text data
# set's fingerprints once (scripts/bench_text_data.sh), runs the steps below,
# each writing RESULTS_DIR/<step>.jsonl, and runs scripts/bench_report.py over
# all of them. Index builds use 2 threads in every step, so build times
# compare across steps. A step whose JSON file already ends with its footer record is
# not run again, so an interrupted study resumes where it stopped (delete
# RESULTS_DIR to start over). Every step but "restarts" builds with the
# default restart points (BuildOptions().restarts). Index files go to $SIMDEX_BENCH_DIR (default
# /tmp): the 10^8 step needs about 6 GB there.
#
# Steps, with the time each should take on the project's 2-core machine
# (estimated from measured parts: the 10^6 slice of "dense" took 141 s and a
# 10^7 t4/t10 sample 241 s at load average ~6; about 55 minutes in all;
# measured in session 3 at load ~1.5: dense 7.4 min, threads 2, datasets 3.8,
# large 7.1, restarts 13.5; 34 min in all):
#   dense     uniform, N 10^5..10^7: every scheme (t4, t10, t20, the k = 2
#             scheme 16,16,16,16:2 and the k = 4 scheme 11,11,11,11,10,10:4)
#             x block sizes 512 B..64 KiB, k 0..4 (each scheme to its own k),
#             one thread, all baselines, 2,000 queries per set. ~15 min.
#   threads   uniform, N 10^6 and 10^7: t4 and t10 at 1, 2 and 4 KiB, k 0..3,
#             1 and 2 threads (single and batch), warm and cold, 10,000
#             queries per set. ~4 min.
#   datasets  clusters, skewed and text (capped at the corpus, ~450,000
#             fingerprints here), N 10^5..10^7: t4, t10 and 16,16,16,16:2 at
#             1 and 4 KiB, k 0..3, one thread, all baselines. ~9 min.
#   large     uniform, N 10^8: t10 and t4 at the default 4 KiB, k 0..3, 1 and 2
#             threads, warm and cold, 20,000 queries per set, the scan on 50
#             of them; permuted tables and faiss-multihash when they fit in
#             memory (simdex-bench records a skip otherwise); faiss-hash is
#             left out (four builds, one per nflip, of a ~12 GB structure: about
#             120 bytes per entry at its 24 key bits). Builder: 2 GiB, 2 threads.
#             ~17 min (the builds are ~2 min each, the scan ~0.25 s a query).
#
#   restarts  uniform, N 10^7, t10 at 1, 2, 4 and 8 KiB, k = 3, one run per
#             restart count R in 0, 1, 3, 6, 7, 15 (same data and queries), all
#             twice (the report keeps each point's faster run: the machine is
#             shared); the first R = 3 run also with block checksum
#             verification on. Then N 10^8, t10, for the settings whose
#             segments are 512 B (2 KiB with R = 3, 4 KiB with R = 7, 8 KiB
#             with R = 15) and 4 KiB with R = 6. The study behind the default
#             block size and R. ~20 min.
#
# Not run: N = 10^9. It would need, for simdex t10 alone, an index of about
# 50 GB (~10 tables x 37 bits + 30-bit ids per entry) on disk, the harness's
# 8 GB input array in memory, a build of 20 to 30 minutes (10 x the 10^8
# build, with more external merging) and a brute-force scan of ~2.5 s per query;
# permuted t10 tables (12 bytes x 10 tables per entry: 120 GB) and
# faiss-multihash (~70 bytes per entry: 70 GB) do not fit in 24 GiB at all.
set -euo pipefail
cd "$(dirname "$0")/.."
results=${1:-build/bench-results}
dir=${SIMDEX_BENCH_DIR:-/tmp}
mkdir -p "$results"

scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j2 --target simdex_bench_tool simdex_cli >/dev/null
text=$(scripts/bench_text_data.sh)
bench=build/bin/simdex-bench

# step NAME ARGS...: runs simdex-bench unless NAME's results are complete.
step() {
  local name=$1
  shift
  local out="$results/$name.jsonl"
  if [ -s "$out" ] && tail -n 1 "$out" | grep -q '"type": "footer"'; then
    echo "== $name: done before ($out)" >&2
    return
  fi
  echo "== $name: $bench $*" >&2
  "$bench" --dir "$dir" --json "$out" "$@"
}

step dense --datasets uniform --n 1e5,1e6,1e7 \
  --scheme t4 --scheme t10 --scheme t20 --scheme 16,16,16,16:2 --scheme 11,11,11,11,10,10:4 \
  --block-sizes 512,1K,2K,4K,16K,64K --k 0,1,2,3,4 --threads 1 --queries 2000 --build-threads 2

step threads --datasets uniform --n 1e6,1e7 --scheme t4 --scheme t10 --block-sizes 1K,2K,4K \
  --k 0,1,2,3 --threads 1,2 --cold --queries 10000 --baselines scan --build-threads 2

step datasets --datasets clusters,skewed,text --text-fingerprints "$text" --n 1e5,1e6,1e7 \
  --scheme t4 --scheme t10 --scheme 16,16,16,16:2 --block-sizes 1K,4K --k 0,1,2,3 --threads 1 --queries 2000 \
  --build-threads 2

step large --datasets uniform --n 1e8 --scheme t10 --scheme t4 --block-sizes 4K --k 0,1,2,3 \
  --threads 1,2 --cold --queries 20000 --scan-queries 50 --baselines scan,permuted,faiss-multihash \
  --memory-mib 2048 --build-threads 2

restart_study=()
for rep in a b; do
  for r in 0 1 3 6 7 15; do
    checksums=()
    [ "$r$rep" = 3a ] && checksums=(--checksums)  # the price of verifying block checksums
    step "restarts-$r-$rep" --datasets uniform --n 1e7 --scheme t10 --block-sizes 1K,2K,4K,8K --restarts "$r" \
      --k 3 --queries 10000 --baselines scan --build-threads 2 "${checksums[@]}"
    restart_study+=(--restart-study "$results/restarts-$r-$rep.jsonl")
  done
done
for setting in 2K:3 4K:6 4K:7 8K:15; do
  block=${setting%:*} r=${setting#*:}
  step "large-$block-r$r" --datasets uniform --n 1e8 --scheme t10 --block-sizes "$block" --restarts "$r" --k 3 \
    --queries 20000 --scan-queries 50 --baselines scan --memory-mib 2048 --build-threads 2
  restart_study+=(--restart-study "$results/large-$block-r$r.jsonl")
done

/usr/bin/python3 scripts/bench_report.py --doc docs/generated/side-by-side.md --plots docs/generated/plots "${restart_study[@]}" \
  "$results/dense.jsonl" "$results/threads.jsonl" "$results/datasets.jsonl" "$results/large.jsonl"
