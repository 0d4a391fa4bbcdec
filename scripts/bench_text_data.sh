#!/usr/bin/env bash
# Makes the fingerprints of simdex-bench's "text" data set, once, in a cache
# directory, and prints the fingerprint file's path.
#
# Usage: scripts/bench_text_data.sh [CACHE_DIR]
#   CACHE_DIR defaults to $SIMDEX_BENCH_CACHE, else build/bench-data.
#   Writes CACHE_DIR/text.fp (text form: "<id>\t<16 hex digits>", ids are
#   record numbers from 1) and CACHE_DIR/text.sources (documents per source).
#   Nothing is redone when text.fp exists; delete it to rebuild.
#
# The corpus, one document per line of JSONL piped into
# `build/bin/simdex fingerprint` (the default profile: words, NFKC + case
# folding, tf weights; ICU dictionary segmentation for Chinese):
#   - Chinese: every poem, ci, qu and classic text of the npm tarball
#     chinese-poetry@2.0.1 (MIT; /tmp/chinese-poetry-2.0.1.tgz when present,
#     else `npm pack chinese-poetry@2.0.1` into CACHE_DIR): each JSON object
#     with a "paragraphs" or "content" list is one document (title, author,
#     then the lines); the "strains" (tone patterns) and "rank" directories
#     hold no text and are left out. Several collections hold the same poem
#     in other editions, which gives real near-duplicates.
#   - English: every entry of /usr/share/doc/*/changelog.Debian.gz and every
#     paragraph of at least 200 characters of /usr/share/doc/*/copyright, in
#     path order. These depend on the packages installed, so the English
#     part (and N) differ between machines; text.sources records the counts.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=${1:-${SIMDEX_BENCH_CACHE:-build/bench-data}}
out="$cache/text.fp"
if [ -s "$out" ]; then
  echo "$out"
  exit 0
fi
mkdir -p "$cache"
simdex=build/bin/simdex
if [ ! -x "$simdex" ]; then
  echo "scripts/bench_text_data.sh: $simdex is missing: build first (cmake --build build)" >&2
  exit 1
fi
tarball=/tmp/chinese-poetry-2.0.1.tgz
if [ ! -s "$tarball" ]; then
  tarball="$cache/chinese-poetry-2.0.1.tgz"
  if [ ! -s "$tarball" ]; then
    echo "scripts/bench_text_data.sh: npm pack chinese-poetry@2.0.1 into $cache" >&2
    (cd "$cache" && npm pack --silent chinese-poetry@2.0.1 >/dev/null)
  fi
fi

/usr/bin/python3 - "$tarball" "$cache/text.sources" <<'PY' |
import glob, gzip, json, re, sys, tarfile

tarball, sources_path = sys.argv[1], sys.argv[2]
out = sys.stdout
counts = {}


def emit(source, text):
    text = text.strip()
    if not text:
        return
    counts[source] = counts.get(source, 0) + 1
    out.write(json.dumps({'text': text}, ensure_ascii=False) + '\n')


def lines(value):
    """The strings of a (possibly nested) list of lines."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for v in value for s in lines(v)]
    if isinstance(value, dict):
        return lines(value.get('paragraphs') or value.get('content') or [])
    return []


def documents(node, source):
    if isinstance(node, list):
        for item in node:
            documents(item, source)
    elif isinstance(node, dict):
        body = node.get('paragraphs', node.get('content'))
        if isinstance(body, list) and body and all(isinstance(x, str) for x in lines(body)):
            head = [str(node.get(k)) for k in ('title', 'chapter', 'rhythmic', 'author') if node.get(k)]
            nested = any(isinstance(x, (list, dict)) for x in body)
            if nested and not all(isinstance(x, str) for x in body):
                # A collection of sections: one document per section.
                for item in body:
                    documents(item, source)
            else:
                emit(source, '\n'.join(head + lines(body)))
        else:
            for value in node.values():
                if isinstance(value, (list, dict)):
                    documents(value, source)


with tarfile.open(tarball, 'r:gz') as tar:
    members = sorted((m for m in tar if m.isfile() and m.name.endswith('.json')), key=lambda m: m.name)
    for m in members:
        parts = m.name.split('/')
        if 'strains' in parts or 'rank' in parts:
            continue
        source = 'chinese-poetry ' + '/'.join(parts[2:-1] or ['.'])
        documents(json.load(tar.extractfile(m)), source)

for path in sorted(glob.glob('/usr/share/doc/*/changelog.Debian.gz')):
    try:
        text = gzip.open(path, 'rt', encoding='utf-8', errors='replace').read()
    except OSError:
        continue
    # An entry starts with "package (version) distribution; urgency=...".
    for entry in re.split(r'\n(?=\S+ \([^)]*\) [^;\n]*;)', text):
        emit('debian changelog entries', entry)

for path in sorted(glob.glob('/usr/share/doc/*/copyright')):
    try:
        text = open(path, encoding='utf-8', errors='replace').read()
    except OSError:
        continue
    for paragraph in re.split(r'\n\s*\n', text):
        if len(paragraph.strip()) >= 200:
            emit('debian copyright paragraphs', paragraph)

with open(sources_path, 'w') as f:
    for source in sorted(counts):
        f.write('%d\t%s\n' % (counts[source], source))
    f.write('%d\ttotal\n' % sum(counts.values()))
PY
  "$simdex" fingerprint --format jsonl --id ordinal --quiet --threads 2 -o "$out" -
echo "$out"
