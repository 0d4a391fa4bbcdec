#!/usr/bin/env bash
# Installs the simdex Python package laid out in BUILD/python/simdex (default
# build/; the _simdex target builds it) for the `python3` first on PATH and for
# Debian's /usr/bin/python3, so that `import simdex` works in both.
#
# numpy, dask and distributed come from Debian's packages (scripts/deps.sh). An
# interpreter that does not see Debian's /usr/lib/python3/dist-packages (a
# pyenv or self-built Python of the same 3.x version, hence the same ABI) gets
# a .pth file adding that folder at the end of its path: its own packages keep
# precedence. Usage: scripts/python.sh [BUILD]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
src="$build/python/simdex"
if [ ! -f "$src/__init__.py" ] || ! ls "$src"/_simdex*.so >/dev/null 2>&1; then
  echo "scripts/python.sh: $src is not built (cmake --build $build --target _simdex)" >&2
  exit 1
fi
so=$(basename "$(ls "$src"/_simdex*.so | head -n 1)")
debian_site=/usr/lib/python3/dist-packages

install_for() {
  local py=$1 site suffix version
  site=$("$py" -c 'import site; print(site.getsitepackages()[0])')
  suffix=$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
  if [ "_simdex$suffix" != "$so" ]; then
    echo "scripts/python.sh: $py wants _simdex$suffix but the build made $so; rebuild with -DPython_EXECUTABLE=$py" >&2
    return 1
  fi
  mkdir -p "$site"
  rm -rf "$site/simdex"
  cp -r "$src" "$site/simdex"
  version=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  if ! "$py" -c 'import numpy' 2>/dev/null && [ -d "$debian_site" ] &&
     [ "$version" = "$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')" ]; then
    echo "$debian_site" >"$site/simdex-debian-dist-packages.pth"
  fi
  "$py" -c 'import simdex, numpy, distributed, simdex.dask' ||
    { echo "scripts/python.sh: $py cannot import simdex with numpy and distributed" >&2; return 1; }
  echo "scripts/python.sh: simdex installed for $py ($version) in $site" >&2
}

status=0
install_for "$(command -v python3)" || status=1
if [ -x /usr/bin/python3 ] && [ "$(readlink -f "$(command -v python3)")" != "$(readlink -f /usr/bin/python3)" ]; then
  install_for /usr/bin/python3 || status=1
fi
exit $status
