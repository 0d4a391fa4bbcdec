#!/usr/bin/env python3
"""Builds the real corpora of docs/corpora.md from Debian packages.

Usage:
  make_corpora.py select DUMPAVAIL > packages.txt
      Chooses the sampled packages (one binary package per source package,
      deb <= 400,000 bytes, the first 2,600 sources in order of the SHA-1 of
      their name) from `apt-cache dumpavail` output. Run once; the list is
      kept in tests/data/corpora/packages.txt so that every run takes the same
      packages.
  make_corpora.py build DEB_DIR DUMPAVAIL OUT_DIR
      Reads the .deb files of DEB_DIR (the sampled packages and the document
      packages of DOC_PACKAGES, fetched by scripts/corpora.sh) and writes one
      JSONL file per corpus to OUT_DIR ({"id", "text", "source", "lang"} per
      line) and OUT_DIR/manifest.json (packages and versions, documents and
      bytes, SHA-256 of every file).

Python 3 standard library, groff (man pages are rendered as `man` shows them,
80 columns) and dpkg-deb. The output depends only on the .deb files and the
dumpavail text: running it twice gives the same bytes.
"""
import collections
import concurrent.futures
import gzip
import hashlib
import html.parser
import io
import json
import os
import re
import subprocess
import sys
import tarfile

SAMPLE_SOURCES = 2600
SAMPLE_MAX_DEB_BYTES = 400000
# Newest entries taken from each sampled package's changelog.Debian.gz.
CHANGELOG_ENTRIES = 3
# Man pages taken from each sampled package (its first ones by path).
MAN_PAGES_PER_PACKAGE = 2

# The document packages, by corpus (scripts/corpora.sh fetches them too).
DOC_PACKAGES = ['manpages', 'manpages-dev', 'python3.11-doc', 'debian-handbook', 'manpages-zh',
                'debian-reference-zh-cn', 'debian-reference-zh-tw', 'manpages-de', 'manpages-de-dev',
                'debian-reference-de', 'developers-reference-de', 'maint-guide-de']
# Packages of one program in several versions: every English man page of
# each goes to the man pages corpus (the near-duplicates of software
# documentation: llvm-14's pages against llvm-15's, gcc-11's against gcc-12's).
VERSIONED_MAN = ['llvm-13', 'llvm-14', 'llvm-15', 'llvm-16', 'clang-13', 'clang-14', 'clang-15', 'clang-16',
                 'cpp-11', 'cpp-12', 'gcc-11', 'gcc-12']
DOC_PACKAGES += VERSIONED_MAN
# Manuals cut into sections at their headings, by corpus.
SECTIONED = {'debian-reference-zh-cn': 'zh', 'debian-reference-zh-tw': 'zh', 'debian-reference-de': 'de',
             'developers-reference-de': 'de', 'maint-guide-de': 'de'}

CORPORA = ['changelog', 'copyright', 'manpages', 'web', 'titles', 'zh', 'de']


def parse_dumpavail(path):
    """The stanzas of `apt-cache dumpavail`: dicts of their first-line fields."""
    stanzas, cur = [], {}
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            if line == '\n':
                if cur:
                    stanzas.append(cur)
                cur = {}
            elif line[0] not in ' \t':
                key, _, value = line.partition(':')
                cur[key] = value.strip()
    if cur:
        stanzas.append(cur)
    return [s for s in stanzas if 'Filename' in s and 'Size' in s]


def source_of(stanza):
    return stanza.get('Source', stanza['Package']).split()[0]


def select(dumpavail):
    by_source = collections.defaultdict(list)
    for s in parse_dumpavail(dumpavail):
        by_source[source_of(s)].append(s)
    chosen = []
    for source, stanzas in by_source.items():
        same = [s for s in stanzas if s['Package'] == source]
        pick = same[0] if same else min(stanzas, key=lambda s: s['Package'])
        if int(pick['Size']) <= SAMPLE_MAX_DEB_BYTES:
            chosen.append((hashlib.sha1(source.encode()).hexdigest(), pick['Package']))
    chosen.sort()
    for _, package in chosen[:SAMPLE_SOURCES]:
        print(package)


# --- reading .deb files --------------------------------------------------

def deb_members(path):
    """(name, bytes or None for links, link target) of a .deb's data."""
    data = subprocess.run(['dpkg-deb', '--fsys-tarfile', path], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for m in tar:
            name = m.name[2:] if m.name.startswith('./') else m.name
            if m.isfile():
                yield name, tar.extractfile(m).read(), None
            elif m.issym():
                yield name, None, m.linkname


def deb_field(path, field):
    return subprocess.run(['dpkg-deb', '-f', path, field], check=True, capture_output=True,
                          text=True).stdout.strip()


def text_of(data, name):
    if name.endswith('.gz'):
        data = gzip.decompress(data)
    return data.decode('utf-8', errors='replace')


# --- man pages -----------------------------------------------------------

def render_man(job):
    """A man page as `man` shows it at 80 columns, without overstrikes; job is
    (roff source, cache directory): renderings are kept there by the source's
    SHA-256, so that a second build renders nothing it has rendered."""
    source, cache = job
    key = os.path.join(cache, hashlib.sha256(source.encode()).hexdigest() + '.txt')
    if os.path.exists(key):
        with open(key, encoding='utf-8') as f:
            return f.read()
    env = dict(os.environ, LC_ALL='C.UTF-8')
    pre = subprocess.run(['preconv', '-e', 'UTF-8'], input=source.encode(), capture_output=True, env=env).stdout
    out = subprocess.run(['groff', '-mandoc', '-t', '-Tutf8', '-rLL=80n', '-rHY=0'], input=pre,
                         capture_output=True, env=env).stdout
    text = re.sub(r'.\x08', '', out.decode('utf-8', errors='replace'))  # bold and underline overstrikes
    text = re.sub(r'\x1b\[[0-9;]*m', '', text)
    text = '\n'.join(line.rstrip() for line in text.split('\n')).strip('\n')
    with open(key + '.tmp', 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(key + '.tmp', key)
    return text


def render_all(pages, cache):
    """pages: [(id, source, lang, roff)] -> docs, rendered on every core."""
    os.makedirs(cache, exist_ok=True)
    with concurrent.futures.ProcessPoolExecutor(max_workers=os.cpu_count()) as pool:
        texts = list(pool.map(render_man, [(p[3], cache) for p in pages], chunksize=16))
    return [doc(i, t, s, lang) for (i, s, lang, _), t in zip(pages, texts) if t.strip()]


def is_man_page(name, lang_dir):
    m = re.match(r'usr/share/man/' + lang_dir + r'man[1-8][^/]*/[^/]+$', name)
    return m is not None


# --- HTML ----------------------------------------------------------------

class TextExtractor(html.parser.HTMLParser):
    """The visible text of a page, a section per heading (h1-h4)."""
    BLOCK = {'p', 'div', 'br', 'li', 'tr', 'pre', 'dt', 'dd', 'table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
             'blockquote', 'section', 'title'}
    HEADING = {'h1', 'h2', 'h3', 'h4'}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.sections = [[]]
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ('script', 'style'):
            self.skip += 1
        elif tag in self.HEADING:
            self.sections.append([])
        elif tag in self.BLOCK:
            self.sections[-1].append('\n')

    def handle_endtag(self, tag):
        if tag in ('script', 'style') and self.skip:
            self.skip -= 1
        elif tag in self.BLOCK:
            self.sections[-1].append('\n')

    def handle_data(self, data):
        if not self.skip:
            self.sections[-1].append(data)


def html_sections(page):
    p = TextExtractor()
    p.feed(page)
    out = []
    for parts in p.sections:
        text = re.sub(r'[ \t\r\f\v]+', ' ', ''.join(parts))
        text = re.sub(r'\n\s*\n+', '\n\n', '\n'.join(line.strip() for line in text.split('\n'))).strip()
        if text:
            out.append(text)
    return out


def html_text(page):
    return '\n\n'.join(html_sections(page))


# --- corpora -------------------------------------------------------------

def doc(doc_id, text, source, lang):
    return {'id': doc_id, 'text': text, 'source': source, 'lang': lang}


CHANGELOG_HEAD = re.compile(r'^\S.*\(.*\).*;.*urgency=', re.M)


def changelog_entries(text):
    """Entries from a header line to its ' -- ' trailer, newest first."""
    starts = [m.start() for m in CHANGELOG_HEAD.finditer(text)]
    out = []
    for i, s in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        entry = text[s:end]
        trailer = entry.find('\n -- ')
        if trailer < 0:
            continue
        line_end = entry.find('\n', trailer + 1)
        out.append((entry if line_end < 0 else entry[:line_end]).rstrip())
    return out


def build(deb_dir, dumpavail, out_dir):
    sampled = [line.strip() for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                          'packages.txt')) if line.strip()]
    debs = {}
    for f in sorted(os.listdir(deb_dir)):
        if f.endswith('.deb'):
            debs.setdefault(f.split('_')[0], os.path.join(deb_dir, f))
    missing = [p for p in sampled + DOC_PACKAGES if p not in debs]
    if missing:
        sys.exit('make_corpora.py: missing .deb files in %s: %s' % (deb_dir, ' '.join(missing[:20])))
    versions = {}
    corpora = {c: [] for c in CORPORA}
    sampled_man = []

    # Sampled packages: changelog entries, copyright files, man pages.
    for package in sampled:
        path = debs[package]
        versions[package] = deb_field(path, 'Version')
        man = []
        for name, data, link in deb_members(path):
            if data is None:
                continue
            if name == 'usr/share/doc/%s/changelog.Debian.gz' % package:
                for n, entry in enumerate(changelog_entries(text_of(data, name))[:CHANGELOG_ENTRIES]):
                    corpora['changelog'].append(doc('changelog:%s:%d' % (package, n), entry, package, 'en'))
            elif name == 'usr/share/doc/%s/copyright' % package:
                corpora['copyright'].append(doc('copyright:%s' % package, text_of(data, name), package, 'en'))
            elif is_man_page(name, ''):
                man.append((name, data))
        for name, data in sorted(man)[:MAN_PAGES_PER_PACKAGE]:
            sampled_man.append(('manpages:%s:%s' % (package, name.rsplit('/', 1)[1]), package, 'en',
                                text_of(data, name)))

    # Document packages.
    zh_pages, de_pages, en_pages = [], [], []
    for package in DOC_PACKAGES:
        path = debs[package]
        versions[package] = deb_field(path, 'Version')
        for name, data, link in sorted(deb_members(path), key=lambda m: m[0]):
            if data is None:
                continue
            base = name.rsplit('/', 1)[1]
            if (package in ('manpages', 'manpages-dev') or package in VERSIONED_MAN) and is_man_page(name, ''):
                en_pages.append(('manpages:%s:%s' % (package, base), package, 'en', text_of(data, name)))
            elif package == 'manpages-zh' and is_man_page(name, r'zh_(CN|TW)/'):
                lang = 'zh-' + name.split('/')[3][3:].lower()
                zh_pages.append(('zh:%s:%s:%s' % (package, lang, base), package, lang, text_of(data, name)))
            elif package.startswith('manpages-de') and is_man_page(name, 'de/'):
                de_pages.append(('de:%s:%s' % (package, base), package, 'de', text_of(data, name)))
            elif package == 'python3.11-doc' and name.endswith('.html') and '/html/' in name:
                rel = name.split('/html/', 1)[1]
                corpora['web'].append(doc('web:python3.11-doc:' + rel, text_of(data, name), package, 'en'))
            elif package == 'debian-handbook' and name.endswith('.html') and '/html/' in name:
                rel = name.split('/html/', 1)[1]
                lang = rel.split('/')[0]
                page = text_of(data, name)
                corpora['web'].append(doc('web:debian-handbook:' + rel, page, package, lang))
                if lang in ('zh-CN', 'zh-TW'):
                    corpora['zh'].append(doc('zh:debian-handbook:' + rel, html_text(page), package, lang.lower()))
                elif lang == 'de-DE':
                    corpora['de'].append(doc('de:debian-handbook:' + rel, html_text(page), package, 'de'))
            elif package in SECTIONED and name.endswith('.html'):
                corpus = SECTIONED[package]
                lang = 'de' if corpus == 'de' else package[len('debian-reference-'):]
                for n, section in enumerate(html_sections(text_of(data, name))):
                    corpora[corpus].append(doc('%s:%s:%s:%d' % (corpus, package, base, n), section, package, lang))
    cache = os.path.join(out_dir, 'rendered')
    corpora['manpages'] = render_all(en_pages + sampled_man, cache)
    corpora['zh'] = render_all(zh_pages, cache) + corpora['zh']
    corpora['de'] = render_all(de_pages, cache) + corpora['de']

    # Short texts: the one-line descriptions of every binary package built
    # from a sampled package's source.
    sources = set()
    stanzas = parse_dumpavail(dumpavail)
    by_package = {s['Package']: s for s in stanzas}
    for package in sampled:
        if package in by_package:
            sources.add(source_of(by_package[package]))
    seen = set()
    for s in sorted(stanzas, key=lambda s: (source_of(s), s['Package'])):
        if source_of(s) in sources and s['Package'] not in seen and s.get('Description'):
            seen.add(s['Package'])
            corpora['titles'].append(doc('titles:' + s['Package'], s['Description'], s['Package'], 'en'))

    os.makedirs(out_dir, exist_ok=True)
    manifest = {'packages': versions, 'corpora': {}}
    for name, docs in corpora.items():
        docs = [d for d in docs if d['text'].strip()]
        ids = set()
        for d in docs:
            assert d['id'] not in ids, d['id']
            ids.add(d['id'])
        body = ''.join(json.dumps(d, ensure_ascii=False) + '\n' for d in docs).encode()
        with open(os.path.join(out_dir, name + '.jsonl'), 'wb') as w:
            w.write(body)
        manifest['corpora'][name] = {'documents': len(docs), 'text_bytes': sum(len(d['text'].encode()) for d in docs),
                                     'sha256': hashlib.sha256(body).hexdigest(),
                                     'languages': dict(collections.Counter(d['lang'] for d in docs))}
        print('%-10s %6d documents' % (name, len(docs)), file=sys.stderr)
    with open(os.path.join(out_dir, 'manifest.json'), 'w') as w:
        json.dump(manifest, w, indent=1, sort_keys=True)
        w.write('\n')


if __name__ == '__main__':
    if len(sys.argv) == 3 and sys.argv[1] == 'select':
        select(sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == 'build':
        build(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
