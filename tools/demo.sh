#!/usr/bin/env bash
# The main job on the bundled sample: installs what is missing, builds simdex,
# and shows it at work.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target simdex_cli >/dev/null
build/bin/simdex distance 00ff00ff00ff00ff 00ff00ff00ff00fe
