#!/usr/bin/env bash
# Installs what is missing, then builds and runs the whole test suite twice:
# a Release build (with the Debian packages installed, used and removed), and
# an AddressSanitizer + UndefinedBehaviorSanitizer build with clang, which
# also holds the libFuzzer targets (one instrumented library for both: the
# fuzzers' coverage hooks cost the tests little), each given a short run.
# Usage: scripts/test.sh            (from anywhere; builds in build/ and build-san/)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh

jobs=$(nproc)
# Each stage's header says when it started (seconds since the start): the
# durations docs/testing.md records.
stage() { echo "== [${SECONDS}s] $*" >&2; }
fuzz_seconds=${SIMDEX_FUZZ_SECONDS:-10}

stage "Release build and tests (the Python package's pytest suite included)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSIMDEX_PYTHON=ON \
  -DPython_EXECUTABLE="$(command -v python3)" >/dev/null
cmake --build build -j"$jobs"
scripts/python.sh build  # import simdex for python3 on PATH and /usr/bin/python3
ctest --test-dir build --output-on-failure -j"$jobs"

stage "Debian packages: built, installed with apt-get, linked by both consumers, removed"
tests/package/deb_test.sh build

stage "Python package as installed, with Debian's /usr/bin/python3"
if [ -x /usr/bin/python3 ]; then
  (cd /tmp && SIMDEX_BINARY_DIR="$OLDPWD/build" /usr/bin/python3 -m pytest -q -p no:cacheprovider "$OLDPWD/python/tests")
fi

stage "AddressSanitizer + UndefinedBehaviorSanitizer build (clang, with the fuzzers) and tests"
CC=clang CXX=clang++ cmake -S . -B build-san -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSIMDEX_SANITIZE=ON -DSIMDEX_FUZZ=ON -DSIMDEX_BUILD_BENCH=OFF -DSIMDEX_PYTHON=OFF >/dev/null
cmake --build build-san -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-san --output-on-failure -j"$jobs"

stage "libFuzzer targets (clang), ${fuzz_seconds}s each"
# Every fuzzer the build defines (scripts/fuzzers.sh), so that one the build leaves out, or none
# at all, fails this stage instead of being skipped.
fuzzer_list=$(scripts/fuzzers.sh build-san)
mapfile -t fuzzers <<<"$fuzzer_list"
ran=0
for target in "${fuzzers[@]}"; do
  binary="build-san/$target"
  name=$(basename "$target")
  corpus="build-san/corpus/$name"
  mkdir -p "$corpus"
  echo "-- $name" >&2
  dict=()  # tests/fuzz/NAME.dict: the target's dictionary, when it has one
  [ -f "tests/fuzz/$name.dict" ] && dict=(-dict="tests/fuzz/$name.dict")
  "$binary" "${dict[@]}" -max_total_time="$fuzz_seconds" -print_final_stats=0 "$corpus" 2>"build-san/$name.log" ||
    { tail -n 40 "build-san/$name.log" >&2; echo "fuzz target $name failed" >&2; exit 1; }
  ran=$((ran + 1))
done
echo "-- $ran fuzz targets ran: every one simdex_fuzzers defines" >&2
stage "all test stages passed in ${SECONDS} s"
