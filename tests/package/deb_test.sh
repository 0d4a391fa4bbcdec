#!/usr/bin/env bash
# The Debian packages as a user gets them: builds them (tools/package.sh),
# installs them with apt-get on this machine, checks the install under /usr
# with the C and C++ consumers (consumers_test.sh --installed /usr), removes
# them, and checks that nothing of them is left. Needs root; run by
# tools/test.sh (CI's machine is fresh and discarded).
# Usage: tests/package/deb_test.sh BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
build=$1
fail() { echo "deb_test: $*" >&2; exit 1; }
packages=(simdex libsimdex-dev libsimdex0)
[ "$(id -u)" -eq 0 ] || fail "must run as root (apt-get install)"
for p in "${packages[@]}"; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    fail "$p is already installed: remove it first"
  fi
done
tools/package.sh "$build" >/dev/null
export DEBIAN_FRONTEND=noninteractive
cleanup() { apt-get remove -y -qq "${packages[@]}" >/dev/null 2>&1 || true; }
trap cleanup EXIT
apt-get install -y -qq "./$build"/packages/*.deb >"$build/packages/install.log" 2>&1 ||
  { cat "$build/packages/install.log" >&2; fail "apt-get install of the packages failed"; }
for p in "${packages[@]}"; do
  echo "deb_test: $p Depends: $(dpkg-query -W -f='${Depends}' "$p")" >&2
done
tests/package/consumers_test.sh --installed /usr .
apt-get remove -y -qq "${packages[@]}" >/dev/null
trap - EXIT
for p in "${packages[@]}"; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "installed"; then fail "$p is still installed"; fi
done
for f in /usr/bin/simdex /usr/include/simdex /usr/lib/libsimdex.so.0 /usr/lib/pkgconfig/simdex.pc /usr/lib/cmake/simdex; do
  [ ! -e "$f" ] || fail "$f is left after removal"
done
echo "deb_test: the packages installed, served both consumers and were removed cleanly"
