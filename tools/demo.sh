#!/usr/bin/env bash
# The main job on the bundled sample: installs what is missing, builds simdex,
# and shows it at work.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target simdex_cli >/dev/null

simdex=build/bin/simdex
sample=tests/data/sample/docs.jsonl
out=build/demo
mkdir -p "$out"

echo "== 1. Fingerprint the bundled sample: $(wc -l <"$sample") documents, licence texts and"
echo "      classical Chinese poems from several editions (docs/sample.md)"
echo "\$ $simdex fingerprint --text-field text -o $out/sample.fp $sample"
"$simdex" fingerprint --text-field text -o "$out/sample.fp" "$sample"
echo "first lines of $out/sample.fp (id, fingerprint):"
head -n 3 "$out/sample.fp" | sed 's/^/    /'

echo
echo "== 2. Near-duplicate pairs: fingerprints at Hamming distance <= 3"
echo "\$ $simdex pairs --max-distance 3 --names $sample $out/sample.fp > $out/pairs.tsv"
"$simdex" pairs --max-distance 3 --names "$sample" "$out/sample.fp" >"$out/pairs.tsv"
echo "pairs per distance:"
awk -F'\t' '{ n[$1]++ } END { for (d = 0; d <= 3; d++) printf "    distance %d: %d pairs\n", d, n[d] }' "$out/pairs.tsv"

echo
echo "A few pairs at each distance (distance, ids, titles; all in $out/pairs.tsv):"
awk -F'\t' '
  NR == FNR { n[$1]++; next }
  {
    i = seen[$1]++
    step = n[$1] / 5
    if (i < 5 * step && i == int(int(i / step) * step + 0.5)) {
      a = $4; b = $5
      if (length(a) > 60) a = substr(a, 1, 57) "..."
      if (length(b) > 60) b = substr(b, 1, 57) "..."
      printf "    %s  %5s %5s  %s  |  %s\n", $1, $2, $3, a, b
    }
  }' "$out/pairs.tsv" "$out/pairs.tsv"

echo
echo "== 3. The distance between two fingerprints"
read -r d id1 id2 _ < <(awk -F'\t' '$1 == 2 { print $1, $2, $3; exit }' "$out/pairs.tsv")
fp1=$(awk -F'\t' -v id="$id1" '$1 == id { print $2 }' "$out/sample.fp")
fp2=$(awk -F'\t' -v id="$id2" '$1 == id { print $2 }' "$out/sample.fp")
echo "\$ $simdex distance $fp1 $fp2    # documents $id1 and $id2"
"$simdex" distance "$fp1" "$fp2"

echo
echo "== 4. Build a compressed index of the fingerprints (scheme t10: 10 permuted tables, k <= 3)"
echo "\$ $simdex build --quiet --out $out/sample.sdx $out/sample.fp"
"$simdex" build --quiet --out "$out/sample.sdx" "$out/sample.fp"
echo "\$ $simdex verify $out/sample.sdx"
"$simdex" verify "$out/sample.sdx"
echo "\$ $simdex inspect $out/sample.sdx    # a few of its fields"
"$simdex" inspect "$out/sample.sdx" |
  grep -E '"(entries|scheme|block_size|total_bytes|entropy_bound_bits_per_entry|bits_per_entry_total)"' | sed 's/^ */    /'

echo
echo "== 5. Query the index with every document's fingerprint: its near-duplicates within 3 bits"
echo "\$ awk '\$2 != \"-\" { print \$2 }' $out/sample.fp | $simdex query --k 3 $out/sample.sdx > $out/matches.jsonl"
awk -F'\t' '$2 != "-" { print $2 }' "$out/sample.fp" | "$simdex" query --k 3 "$out/sample.sdx" >"$out/matches.jsonl"
# Line i of matches.jsonl answers the i-th fingerprinted document; count the
# matches other than the document itself.
awk -F'\t' '$2 != "-" { print $1 }' "$out/sample.fp" >"$out/query_ids.txt"
paste -d'\t' "$out/query_ids.txt" "$out/matches.jsonl" | awk -F'\t' '
  {
    n = gsub(/"id":/, "&", $2) - 1
    if (n > 0) { with++; total += n }
  }
  END { printf "%d of %d documents have near-duplicates in the index (%d matches besides themselves)\n", with, NR, total }'
echo "Some of them (document id: near-duplicate ids with distances):"
paste -d'\t' "$out/query_ids.txt" "$out/matches.jsonl" | awk -F'\t' '
  {
    line = $2; out = ""
    while (match(line, /"id":[0-9]+,"fingerprint":"[0-9a-f]+","distance":[0-9]+/)) {
      m = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
      split(m, f, /[:,]/)
      if (f[2] != $1) out = out " " f[2] " (d=" f[6] ")"
    }
    if (out != "" && shown < 12 && NR % 29 == 0) { printf "    %5d:%s\n", $1, out; shown++ }
  }'
echo "(all answers: $out/matches.jsonl, one JSON line per query)"
