#!/usr/bin/env bash
# Installs the Debian 12 packages simdex needs to build, test and benchmark.
# Idempotent and quiet: apt is only called for packages that are missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libboost-iostreams-dev libxxhash-dev libicu-dev
  libsimdjson-dev libcli11-dev libzstd-dev libbz2-dev zlib1g-dev
  libgtest-dev libbenchmark-dev libfaiss-dev
  librocksdb-dev wrk
  curl procps util-linux  # the README's blocks (tests/cli/readme_test.sh): curl; ps, setsid
  clang libclang-rt-14-dev
  python3-matplotlib
  python3-dev pybind11-dev python3-numpy python3-pytest python3-dask python3-distributed
  python3-wheel python3-venv
  groff-base
  mold
  python3-icu python3-xxhash
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "scripts/deps.sh: installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
