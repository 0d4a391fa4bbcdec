#!/usr/bin/env bash
# The main job on the bundled sample: installs what is missing, builds simdex
# (and simdex-bench, the space/latency benchmark: 16 more files, about 30 s
# of one core), de-duplicates the sample and shows its clusters, then builds an
# index of it and queries the index; then does the same from Python.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSIMDEX_PYTHON=ON \
  -DPython_EXECUTABLE="$(command -v python3)" >/dev/null
cmake --build build -j"$(nproc)" --target simdex_cli _simdex simdex_bench_tool >/dev/null
scripts/python.sh build 2>/dev/null  # import simdex for python3 on PATH and /usr/bin/python3

simdex=build/bin/simdex
sample=tests/data/sample/docs.jsonl
out=build/demo
mkdir -p "$out"

echo "== 1. De-duplicate the bundled sample: $(wc -l <"$sample") documents, licence texts and classical"
echo "      Chinese poems from several editions (docs/sample.md); near-duplicates share >= 0.8 of their"
echo "      word 5-shingles (MinHash-LSH, the default for documents; the summary says so)"
echo "\$ $simdex dedup --text-field text --clusters $out/clusters.jsonl --keep-list $out/keep.txt \\"
echo "      -o $out/dedup.jsonl $sample"
"$simdex" dedup --text-field text --clusters "$out/clusters.jsonl" --keep-list "$out/keep.txt" \
  -o "$out/dedup.jsonl" "$sample"
echo "One JSON line per document ($out/dedup.jsonl), e.g.:"
grep -m 2 '"duplicate":true' "$out/dedup.jsonl" | sed 's/^/    /'
echo "$(wc -l <"$out/keep.txt") ids to keep in $out/keep.txt"

echo
echo "== 2. Some of the clusters ($out/clusters.jsonl): each member's estimated Jaccard with the"
echo "      cluster's representative (the first seen) and the first words of its text"
# Prints clusters of several sizes and both languages: the largest, then
# every 60th line. Each member: "<id> e=<estimate> <text>", the
# representative marked with '*'.
awk '
  function member(m,    id, d, text) {
    match(m, /"id":[0-9]+/); id = substr(m, RSTART + 5, RLENGTH - 5)
    match(m, /"estimate":[0-9.]+/); d = substr(m, RSTART + 11, RLENGTH - 11)
    text = ""
    if (match(m, /"text":"([^"\\]|\\.)*"/)) text = substr(m, RSTART + 8, RLENGTH - 9)
    gsub(/\\"/, "\"", text)
    printf "    %s %5s  e=%-5s  %s\n", (m ~ /"representative":true/ ? "*" : " "), id, d, text
  }
  {
    match($0, /"size":[0-9]+/); size = substr($0, RSTART + 7, RLENGTH - 7) + 0
    if (size > best) { best = size; largest = $0 }
    if (NR % 60 == 1) shown[++n] = $0
  }
  END {
    shown[0] = largest
    for (i = 0; i <= n && i <= 5; i++) {
      line = shown[i]
      match(line, /"size":[0-9]+/)
      print "  cluster of " substr(line, RSTART + 7, RLENGTH - 7) ":"
      rest = substr(line, index(line, "\"members\":[") + 11)
      while (match(rest, /\{"id":[0-9]+,"estimate":[0-9.]+(,"representative":true)?,"text":"([^"\\]|\\.)*"\}/)) {
        member(substr(rest, RSTART, RLENGTH))
        rest = substr(rest, RSTART + RLENGTH)
      }
    }
  }' "$out/clusters.jsonl"
echo "(near-duplication is not transitive: a member's estimate with its representative may be below 0.8)"

echo
echo "== 3. Fingerprint the sample and build a compressed index (scheme t10: 10 permuted tables, k <= 3)"
echo "\$ $simdex fingerprint --quiet --text-field text -o $out/sample.fp $sample"
"$simdex" fingerprint --quiet --text-field text -o "$out/sample.fp" "$sample"
echo "\$ $simdex build --quiet --out $out/sample.sdx $out/sample.fp && $simdex verify $out/sample.sdx"
"$simdex" build --quiet --out "$out/sample.sdx" "$out/sample.fp"
"$simdex" verify "$out/sample.sdx"
echo "\$ $simdex inspect $out/sample.sdx    # a few of its fields"
"$simdex" inspect "$out/sample.sdx" |
  grep -E '"(entries|scheme|block_size|total_bytes|entropy_bound_bits_per_entry|bits_per_entry_total)"' | sed 's/^ */    /'

echo
echo "== 4. Query the SimHash index with the first cluster's members: what lies within 3 bits of each"
ids=$(awk 'NR == 1 { while (match($0, /"id":[0-9]+/)) { printf "%s ", substr($0, RSTART + 5, RLENGTH - 5); $0 = substr($0, RSTART + RLENGTH) } }' "$out/clusters.jsonl")
for id in $ids; do
  fp=$(awk -F'\t' -v id="$id" '$1 == id { print $2 }' "$out/sample.fp")
  echo "\$ $simdex query --k 3 $out/sample.sdx $fp    # document $id"
  "$simdex" query --k 3 "$out/sample.sdx" "$fp" | sed 's/^/    /'
done

echo
echo "== 5. A new batch against a stored corpus (the source documents' second step): the documents with"
echo "      odd ids are the stored corpus (a SimHash index, so dedup matches by SimHash), those with even"
echo "      ids the new batch"
awk -F'\t' 'NR == 1 || $1 % 2 == 1' "$out/sample.fp" >"$out/stored.fp"
awk 'NR % 2 == 0' "$sample" >"$out/batch.jsonl"  # line N holds id N
echo "\$ $simdex build --quiet --out $out/stored.sdx $out/stored.fp"
"$simdex" build --quiet --out "$out/stored.sdx" "$out/stored.fp"
echo "\$ $simdex dedup --text-field text --against $out/stored.sdx --keep-list $out/new.txt -o $out/against.jsonl \\"
echo "      $out/batch.jsonl"
"$simdex" dedup --text-field text --against "$out/stored.sdx" --keep-list "$out/new.txt" -o "$out/against.jsonl" \
  "$out/batch.jsonl"
echo "Batch documents that a stored one already covers, e.g.:"
grep -m 3 '"against"' "$out/against.jsonl" | sed 's/^/    /'
echo "$(wc -l <"$out/new.txt") of $(wc -l <"$out/batch.jsonl") batch documents are new ($out/new.txt)"

echo
echo "== 6. From Python (docs/python.md): import simdex; SimHash, as \`simdex dedup --method simhash\` (MinHash-LSH on a cluster: simdex.dask, docs/distributed.md)"
python3 - "$sample" "$out/sample.sdx" <<'PY'
import sys
import simdex
sample, index_path = sys.argv[1:]
part = simdex.fingerprint_file(sample, keep="first", threads=2)    # as `simdex dedup --method simhash` reads it
result = simdex.dedup(part["fingerprints"], empty=part["reasons"], pairs=True)
print(f"simdex.dedup: {len(result)} documents, {result.stats['pairs']} pairs, "
      f"{result.stats['clusters']} clusters, {int(result.duplicate.sum())} duplicates")
index = simdex.Index.open(index_path)
lims, ids, fps, distances = index.search(part["fingerprints"][part["reasons"] == 0][:5], 3)
print(f"Index.search of 5 fingerprints: lims={lims.tolist()} ids={ids.tolist()} distances={distances.tolist()}")
PY
