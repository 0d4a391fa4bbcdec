#!/usr/bin/env python3
"""Generates the bundled sample tests/data/sample/docs.jsonl and docs.txt.

Usage: tests/data/make_sample.py CHINESE_POETRY_TGZ [LICENSE_DIR] [OUT_DIR]

  CHINESE_POETRY_TGZ  the npm tarball of chinese-poetry 2.0.1
                      (`cd /tmp && npm pack chinese-poetry@2.0.1`)
  LICENSE_DIR         default /usr/share/common-licenses
  OUT_DIR             default: the sample/ directory next to this script

Python 3 standard library only; the output depends only on the inputs, so
running it twice gives the same bytes. docs/sample.md describes the result.
"""
import collections
import json
import os
import re
import sys
import tarfile

# English: one document per licence, plus one per paragraph of at least this
# many characters, so that paragraphs kept across licence versions pair up.
MIN_PARAGRAPH_CHARS = 300
# Chinese: every TANG_STRIDE-th poem of the Complete Tang Poems (quantangshi)
# is taken as a background poem, and its Imperial edition twin when there is one.
TANG_STRIDE = 50
SONGCI_STRIDE = 100
# A twin from another edition must be of similar length, so that a single
# part is not paired with a whole multi-part group.
MIN_TWIN_LENGTH_RATIO = 0.8

PKG = 'package/dist/'


def read_tarball(path):
    """Returns {member name: parsed JSON} for the collections used."""
    wanted = re.compile(PKG + r'(quantangshi/poet\.tang\.\d+\.json|quantangshi/唐诗三百首\.json|'
                        r'mengxue/tangshisanbaishou\.json|mengxue/qianjiashi\.json|'
                        r'shuimotangshi/shuimotangshi\.json|yudingquantangshi/json/\d+\.json|'
                        r'songci/ci\.song\.\d+\.json)$')
    out = {}
    with tarfile.open(path, 'r:gz') as tar:
        for member in tar:
            if member.isfile() and wanted.match(member.name):
                out[member.name[len(PKG):]] = json.load(tar.extractfile(member))
    return out


def numbered(prefix, files):
    """Members 'prefix<N>.json' in order of N, concatenated."""
    names = [n for n in files if n.startswith(prefix)]
    names.sort(key=lambda n: int(re.search(r'(\d+)\.json$', n).group(1)))
    poems = []
    for n in names:
        poems += [(n, p) for p in files[n]]
    return poems


def mengxue_poems(collection):
    """(author, title, paragraphs) of a mengxue collection; a poem whose
    paragraphs are its numbered parts gives one poem per part."""
    out = []
    for group in collection['content']:
        for c in group['content']:
            title = c['chapter'] + (' ' + c['subchapter'] if c.get('subchapter') else '')
            if all(isinstance(x, str) for x in c['paragraphs']):
                out.append((c['author'], title, c['paragraphs']))
            else:
                for part in c['paragraphs']:
                    out.append((c['author'], title + ' ' + part['subchapter'], part['paragraphs']))
    return out


def poem_doc(source, author, title, paragraphs):
    return {'lang': 'zh', 'source': 'chinese-poetry 2.0.1 ' + source,
            'title': '《%s》 %s' % (title, author), 'text': '\n'.join(paragraphs)}


def chinese_docs(files, stats):
    docs = []
    tang = numbered('quantangshi/poet.tang.', files)
    yuding = numbered('yudingquantangshi/json/', files)
    by_key = collections.defaultdict(list)
    for name, p in yuding:
        by_key[(p['author'], p['title'])].append((name, p))
    tang_keys = collections.defaultdict(list)
    for name, p in tang:
        tang_keys[(p['author'], p['title'])].append((name, p))

    def twin(p, index):
        """(file, poem) of the unique poem of index with the same author and
        title and a similar length, or None."""
        found = index.get((p['author'], p['title']), [])
        if len(found) != 1:
            return None
        a, b = len(''.join(p['paragraphs'])), len(''.join(found[0][1]['paragraphs']))
        return found[0] if min(a, b) >= MIN_TWIN_LENGTH_RATIO * max(a, b) else None

    # Three Hundred Tang Poems, two editions in the package.
    q300 = files['quantangshi/唐诗三百首.json']
    for p in q300:
        docs.append(poem_doc('dist/quantangshi/唐诗三百首.json', p['author'], p['title'], p['paragraphs']))
    q300_keys = {(p['author'], p['title']) for p in q300}
    m300 = mengxue_poems(files['mengxue/tangshisanbaishou.json'])
    for author, title, paragraphs in m300:
        docs.append(poem_doc('dist/mengxue/tangshisanbaishou.json', author, title, paragraphs))
    stats['mengxue 唐詩三百首 poems with the same author+title in quantangshi 唐诗三百首'] = sum(
        1 for author, title, _ in m300 if (author, title) in q300_keys)

    # Poems for Thousands of Families; authors carry a dynasty prefix "（唐）".
    qianjia = mengxue_poems(files['mengxue/qianjiashi.json'])
    for author, title, paragraphs in qianjia:
        docs.append(poem_doc('dist/mengxue/qianjiashi.json', author, title, paragraphs))
    qianjia_twins = 0
    for author, title, _ in qianjia:
        key = (re.sub(r'^（.*?）', '', author), title)
        if len(tang_keys.get(key, [])) == 1 and key not in q300_keys:
            name, p = tang_keys[key][0]
            docs.append(poem_doc('dist/' + name, p['author'], p['title'], p['paragraphs']))
            qianjia_twins += 1
    stats['qianjiashi poems with their quantangshi twin included'] = qianjia_twins

    # Ink-wash Tang poems: simplified characters, with a prose introduction.
    for p in files['shuimotangshi/shuimotangshi.json']:
        docs.append(poem_doc('dist/shuimotangshi/shuimotangshi.json', p['author'], p['title'], p['paragraphs']))

    # Background: every TANG_STRIDE-th Complete Tang poem (not already in the
    # 300), with its Imperial edition twin.
    yuding_twins = 0
    for i, (name, p) in enumerate(tang):
        if i % TANG_STRIDE or (p['author'], p['title']) in q300_keys:
            continue
        docs.append(poem_doc('dist/' + name, p['author'], p['title'], p['paragraphs']))
        t = twin(p, by_key)
        if t is not None:
            docs.append(poem_doc('dist/' + t[0], t[1]['author'], t[1]['title'], t[1]['paragraphs']))
            yuding_twins += 1
    stats['quantangshi background poems with their yudingquantangshi twin included'] = yuding_twins

    # Song lyrics in simplified characters, unrelated to the rest.
    for i, (name, p) in enumerate(numbered('songci/ci.song.', files)):
        if i % SONGCI_STRIDE == 0:
            docs.append(poem_doc('dist/' + name, p['author'], p['rhythmic'], p['paragraphs']))
    return docs


def english_docs(license_dir):
    docs = []
    for name in sorted(os.listdir(license_dir)):
        path = os.path.join(license_dir, name)
        if os.path.islink(path) or not os.path.isfile(path):
            continue  # GPL, LGPL, GFDL point to the newest version, kept once
        with open(path, encoding='utf-8') as f:
            text = f.read().replace('\r\n', '\n').strip('\n')
        source = path
        docs.append({'lang': 'en', 'source': source, 'title': name, 'text': text})
        blocks = [b.strip('\n') for b in re.split(r'\n[ \t]*\n', text)]
        for n, block in enumerate(blocks, 1):
            if len(block) >= MIN_PARAGRAPH_CHARS:
                first = ' '.join(block.split())[:60]
                docs.append({'lang': 'en', 'source': source,
                             'title': '%s paragraph %d: %s' % (name, n, first), 'text': block})
    return docs


def main(argv):
    if len(argv) < 2 or len(argv) > 4:
        sys.exit(__doc__)
    license_dir = argv[2] if len(argv) > 2 else '/usr/share/common-licenses'
    out_dir = argv[3] if len(argv) > 3 else os.path.join(os.path.dirname(os.path.abspath(__file__)), 'sample')
    stats = {}
    docs = english_docs(license_dir) + chinese_docs(read_tarball(argv[1]), stats)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, 'docs.jsonl'), 'w', encoding='utf-8', newline='\n') as jf, \
         open(os.path.join(out_dir, 'docs.txt'), 'w', encoding='utf-8', newline='\n') as tf:
        for i, d in enumerate(docs, 1):
            record = {'id': i, 'lang': d['lang'], 'source': d['source'], 'title': d['title'], 'text': d['text']}
            jf.write(json.dumps(record, ensure_ascii=False) + '\n')
            tf.write(' '.join(d['text'].split('\n')) + '\n')
    for k, v in stats.items():
        print('%s: %d' % (k, v), file=sys.stderr)
    by_lang = collections.Counter(d['lang'] for d in docs)
    print('documents: %d (en %d, zh %d)' % (len(docs), by_lang['en'], by_lang['zh']), file=sys.stderr)


if __name__ == '__main__':
    main(sys.argv)
