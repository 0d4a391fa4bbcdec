#!/usr/bin/env bash
# The Debian packages as a user gets them: builds them (scripts/package.sh),
# installs them with apt-get on this machine, checks the install under /usr
# with the C and C++ consumers (consumers_test.sh --installed /usr), installs
# a newer version over them (the same packages repacked) under a program
# linked before, removes them, and checks that nothing of them is left. Needs root; run by
# scripts/test.sh (CI's machine is fresh and discarded).
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
scripts/package.sh "$build" >/dev/null
export DEBIAN_FRONTEND=noninteractive
cleanup() { apt-get purge -y -qq "${packages[@]}" >/dev/null 2>&1 || true; }
trap cleanup EXIT
apt-get install -y -qq "./$build"/packages/*.deb >"$build/packages/install.log" 2>&1 ||
  { cat "$build/packages/install.log" >&2; fail "apt-get install of the packages failed"; }
for p in "${packages[@]}"; do
  echo "deb_test: $p Depends: $(dpkg-query -W -f='${Depends}' "$p")" >&2
done
tests/package/consumers_test.sh --installed /usr .

# An upgrade installed over them: the same packages repacked as a newer
# version. A program linked before the upgrade must still load and answer.
work=$(mktemp -d "${TMPDIR:-/tmp}/simdex-deb-test.XXXXXX")
trap 'rm -rf "$work"; cleanup' EXIT
# shellcheck disable=SC2046
cc -std=c11 -o "$work/consumer" tests/package/consumer.c $(pkg-config --cflags --libs simdex)
/usr/bin/simdex fingerprint -q --text-field text -o "$work/sample.fp" tests/data/sample/docs.jsonl
/usr/bin/simdex build --quiet --out "$work/sample.sdx" "$work/sample.fp"
query=$(awk -F'\t' 'NR == 2 { print $2 }' "$work/sample.fp")  # line 1: the profile
before=$("$work/consumer" "$work/sample.sdx" "$query")
old=$(dpkg-query -W -f='${Version}' libsimdex0)
new=$old+upgrade1
mkdir "$work/up" "$work/unpacked"
for deb in "$build"/packages/*.deb; do
  dir=$work/unpacked/$(basename "$deb" .deb)
  dpkg-deb -R "$deb" "$dir"
  sed -i "s/^Version: .*/Version: $new/; s/(= $old)/(= $new)/" "$dir/DEBIAN/control"
  dpkg-deb -b "$dir" "$work/up/$(basename "$deb")" >/dev/null
done
apt-get install -y -qq "$work"/up/*.deb >"$work/upgrade.log" 2>&1 || { cat "$work/upgrade.log" >&2; fail "the upgrade failed"; }
for p in "${packages[@]}"; do
  [ "$(dpkg-query -W -f='${Version}' "$p")" = "$new" ] || fail "$p was not upgraded to $new"
done
[ "$("$work/consumer" "$work/sample.sdx" "$query")" = "$before" ] || fail "a program linked before the upgrade answers differently"
[ -n "$before" ] || fail "the consumer found nothing for $query"

apt-get purge -y -qq "${packages[@]}" >/dev/null
trap 'rm -rf "$work"' EXIT
for p in "${packages[@]}"; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "installed"; then fail "$p is still installed"; fi
done
for f in /usr/bin/simdex /usr/include/simdex /usr/lib/libsimdex.so.0 /usr/lib/pkgconfig/simdex.pc /usr/lib/cmake/simdex; do
  [ ! -e "$f" ] || fail "$f is left after removal"
done
echo "deb_test: the packages installed, served both consumers, upgraded to $new under a running consumer and were removed cleanly"
