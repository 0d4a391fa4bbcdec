#!/usr/bin/env bash
# Regenerates docs/generated/quality.md and docs/generated/plots/quality-*.png: checks that the
# bundled labelled sets are what tests/data/make_eval_sets.py makes, builds
# simdex, builds the real corpora from Debian packages (scripts/corpora.sh,
# docs/corpora.md), then runs scripts/quality_report.py (simdex eval over every
# configuration, the second stage's cost, the corpora against the Jaccard
# truth and the MinHash-LSH baseline). Raw results: build/quality/, among
# them defects.md (the pairs that show SimHash's text defects).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target simdex_cli >/dev/null
out=build/quality
mkdir -p "$out/sets"
python3 tests/data/make_eval_sets.py tests/data/sample/docs.jsonl "$out/sets" 2>"$out/sets.log"
for f in edits heavy natural; do
  cmp -s "$out/sets/$f.jsonl" "tests/data/eval/$f.jsonl" ||
    { echo "scripts/quality.sh: tests/data/eval/$f.jsonl differs from what make_eval_sets.py makes" >&2; exit 1; }
done
scripts/corpora.sh build/corpora
python3 scripts/quality_report.py "$out"
