#!/usr/bin/env bash
# Builds simdex's Debian packages with CPack (packaging/debian.cmake):
#   libsimdex0_<version>_<arch>.deb      the shared library
#   libsimdex-dev_<version>_<arch>.deb   headers, CMake package, simdex.pc, static library
#   simdex_<version>_<arch>.deb          the CLI and the docs
# into BUILD/packages/. Install them with `apt-get install ./BUILD/packages/*.deb`
# (apt fetches what their Depends name); docs/library.md says more.
# Usage: scripts/package.sh [BUILD]   (default: build/, configured as scripts/test.sh does
#        if it is not configured yet; an existing build is reused as it is)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
scripts/deps.sh
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSIMDEX_PYTHON=OFF >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target simdex_shared simdex simdex_cli
rm -rf "$build/packages"
(cd "$build" && cpack -G DEB -B packages >packages.log 2>&1) || { cat "$build/packages.log" >&2; exit 1; }
rm -rf "$build/packages/_CPack_Packages"
ls "$build"/packages/*.deb
