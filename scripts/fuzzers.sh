#!/usr/bin/env bash
# Configures (unless it is configured already: scripts/test.sh's sanitizer
# build, build-san, has them beside the tests) and builds the libFuzzer
# targets (clang, ASan + UBSan) in BUILD_DIR, then prints the fuzzers the build defines, one path per line
# (relative to BUILD_DIR): every executable that building the simdex_fuzzers
# target links, read from ninja's commands for the target, so that a fuzzer
# added to tests/fuzz/CMakeLists.txt is picked up and one the build leaves out
# is noticed. Fails when the target links none, or one was not built.
# Usage: scripts/fuzzers.sh [BUILD_DIR]   (default build-fuzz; used by scripts/test.sh and scripts/fuzz.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-fuzz}
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSIMDEX_FUZZ=ON -DBUILD_TESTING=OFF -DSIMDEX_BUILD_BENCH=OFF -DSIMDEX_PYTHON=OFF >/dev/null
elif ! grep -q '^SIMDEX_FUZZ:BOOL=ON$' "$build/CMakeCache.txt"; then
  echo "scripts/fuzzers.sh: $build is configured without -DSIMDEX_FUZZ=ON" >&2
  exit 1
fi
cmake --build "$build" -j"$(nproc)" --target simdex_fuzzers >&2
mapfile -t fuzzers < <(ninja -C "$build" -t commands simdex_fuzzers | grep -oE -- ' -o [^ ]+' |
                       sed 's/^ -o //' | grep -v '\.o$' | sort -u)
if ((${#fuzzers[@]} == 0)); then
  echo "scripts/fuzzers.sh: the simdex_fuzzers target of $build links no fuzzer" >&2
  exit 1
fi
for target in "${fuzzers[@]}"; do
  if [ ! -x "$build/$target" ]; then
    echo "scripts/fuzzers.sh: $build/$target, which simdex_fuzzers defines, was not built" >&2
    exit 1
  fi
done
printf '%s\n' "${fuzzers[@]}"
