#!/usr/bin/env bash
# Fetches the Debian packages the real corpora are made of (docs/corpora.md)
# and builds the corpora: build/corpora/*.jsonl and manifest.json. The .deb
# files stay in build/corpora/debs/ (about 350 MB; a second run fetches only
# what is missing). Needs apt's package lists (apt-get update) and network
# access to the Debian archive; run by scripts/quality.sh, never by the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/corpora}
debs="$out/debs"
mkdir -p "$debs"
for tool in groff preconv dpkg-deb; do
  command -v "$tool" >/dev/null || { echo "scripts/corpora.sh: $tool is missing (scripts/deps.sh installs it)" >&2; exit 1; }
done
if ! apt-cache show manpages >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
fi
doc_packages=$(python3 -c 'import sys; sys.path.insert(0, "tests/data/corpora"); import make_corpora; print(" ".join(make_corpora.DOC_PACKAGES))')
missing=()
for p in $(cat tests/data/corpora/packages.txt) $doc_packages; do
  compgen -G "$debs/${p}_*.deb" >/dev/null || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "scripts/corpora.sh: fetching ${#missing[@]} packages into $debs" >&2
  # apt-get download writes into the current directory; as root it warns that
  # the download is not sandboxed, which is expected here.
  (cd "$debs" && printf '%s\n' "${missing[@]}" | xargs apt-get download -q 2>&1 | grep -v '^Get:\|unsandboxed' >&2 || true)
fi
apt-cache dumpavail > "$out/dumpavail.txt"
python3 tests/data/corpora/make_corpora.py build "$debs" "$out/dumpavail.txt" "$out"
