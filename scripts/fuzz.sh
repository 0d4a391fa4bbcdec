#!/usr/bin/env bash
# Long fuzzing: runs every libFuzzer target the build defines for HOURS hours
# in total (split evenly, one target after another), each with a persistent
# corpus that grows from run to run, and records what ran in
# docs/reliability.md ("Fuzzing runs", a row as each target finishes): date, commit, target, seconds,
# executions, corpus size before and after, and what was found.
#
# Usage: scripts/fuzz.sh HOURS          e.g. scripts/fuzz.sh 1   (0.1 = six minutes)
#   SIMDEX_FUZZ_CORPUS=DIR   the corpora (default build-fuzz/corpus: one directory
#                            per target, the ones scripts/test.sh's short runs use)
#   SIMDEX_FUZZ_RECORD=0     do not append to docs/reliability.md
# A crash, leak or sanitizer report is kept in build-fuzz/artifacts/TARGET/;
# the script goes on with the other targets and exits 1 at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
hours=${1:?usage: scripts/fuzz.sh HOURS}
if ! awk -v h="$hours" 'BEGIN { exit !(h + 0 > 0) }'; then
  echo "scripts/fuzz.sh: HOURS must be a number above 0, not '$hours'" >&2
  exit 2
fi
corpora=${SIMDEX_FUZZ_CORPUS:-build-fuzz/corpus}
record=${SIMDEX_FUZZ_RECORD:-1}
doc=docs/reliability.md
marker='<!-- scripts/fuzz.sh appends its rows below this line -->'
if [ "$record" = 1 ] && ! grep -qF -- "$marker" "$doc"; then
  echo "scripts/fuzz.sh: $doc has no line '$marker' to record the runs under" >&2
  exit 1
fi

fuzzer_list=$(scripts/fuzzers.sh build-fuzz)
mapfile -t fuzzers <<<"$fuzzer_list"
seconds=$(awk -v h="$hours" -v n="${#fuzzers[@]}" 'BEGIN { s = int(h * 3600 / n); print (s < 1 ? 1 : s) }')
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then commit="$commit+changes"; fi
echo "scripts/fuzz.sh: ${#fuzzers[@]} targets, ${seconds} s each, corpora in $corpora" >&2

# Puts one row right under the table's header (newest first), as soon as its
# target has run, so that an interrupted run keeps the rows of what finished.
record_row() {
  [ "$record" = 1 ] || return 0
  python3 - "$doc" "$marker" "$1" <<'PY'
import sys
path, marker, row = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(path, encoding="utf-8").read()
at = text.index(marker) + len(marker)
at = text.index("\n", at) + 1
for _ in range(2):  # the header line and its separator
    at = text.index("\n", at) + 1
open(path, "w", encoding="utf-8").write(text[:at] + row + "\n" + text[at:])
PY
}

count_files() { find "$1" -maxdepth 1 -type f | wc -l; }
failed=0
for target in "${fuzzers[@]}"; do
  name=$(basename "$target")
  corpus="$corpora/$name"
  artifacts="build-fuzz/artifacts/$name/"
  log="build-fuzz/$name.fuzz.log"
  mkdir -p "$corpus" "$artifacts"
  before=$(count_files "$corpus")
  started=$(date -u +%Y-%m-%dT%H:%MZ)
  load=$(cut -d' ' -f1 /proc/loadavg)
  echo "-- $name: ${seconds} s from $before inputs (load $load)" >&2
  status=0
  dict=()  # tests/fuzz/NAME.dict: the target's dictionary, when it has one
  [ -f "tests/fuzz/$name.dict" ] && dict=(-dict="tests/fuzz/$name.dict")
  "build-fuzz/$target" "${dict[@]}" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$artifacts" \
    "$corpus" >"$log" 2>&1 || status=$?
  after=$(count_files "$corpus")
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  found=nothing
  if ((status != 0)); then
    failed=1
    artifact=$(grep -oE 'Test unit written to [^ ]+' "$log" | tail -n 1 | sed 's/^Test unit written to //')
    reason=$(grep -m 1 -oE 'ERROR: [A-Za-z]+Sanitizer: [^ ]+|ERROR: libFuzzer: [^ ]+|runtime error: .*' "$log" || true)
    found="exit $status: ${reason:-see $log}${artifact:+, input $artifact}"
    tail -n 30 "$log" >&2
  fi
  echo "   ${executions:-?} executions, $before -> $after inputs, $found" >&2
  record_row "| $started | $commit | \`$name\` | $seconds | ${executions:-?} | $before → $after | $load | $found |"
done

exit $failed
