#!/usr/bin/env python3
"""Generates the labelled evaluation sets tests/data/eval/*.jsonl.

Usage: tests/data/make_eval_sets.py [SAMPLE_JSONL] [OUT_DIR]

  SAMPLE_JSONL  default: tests/data/sample/docs.jsonl (the bundled sample:
                licence texts of Debian's /usr/share/common-licenses and
                classical poems of the npm package chinese-poetry 2.0.1)
  OUT_DIR       default: the eval/ directory next to this script

Python 3 standard library only; a fixed random seed, so the same sample
gives the same bytes. docs/generated/quality.md describes the sets and the rules that
label them. Every line is one document:

  {"id": "...", "set": "edits"|"heavy"|"natural", "lang": "en"|"zh",
   "cluster": "...", "topic": "...", "edit": "...", "rate": r, "text": "..."}

Two documents of one file are near-duplicates (a positive pair) iff they
have the same "cluster"; every other pair of the file is a negative. "topic"
is not empty for hard negatives: documents that share a template or a topic
but are not copies of each other.
"""
import collections
import difflib
import json
import os
import random
import re
import sys

SEED = 20261101
# Rates of the controlled edits: the headline set (edits.jsonl) and the
# heavy one (heavy.jsonl), kept apart so each can be read on its own.
EDIT_RATES = (0.01, 0.02, 0.05, 0.10)
HEAVY_RATES = (0.20, 0.30)
EDIT_KINDS = ('insert', 'delete', 'substitute', 'reorder', 'boilerplate', 'truncate')
# Sources per (language, length class) for each rate set.
COPIES_PER_COMBINATION = 2
HEAVY_COPIES_PER_COMBINATION = 1
TEMPLATE_PAIRS = 10
# Sources of one language are pairwise dissimilar: Jaccard of their
# character 5-gram sets below this (so that two sources are never themselves
# near-duplicates, as licence versions and poem editions would be).
MAX_SOURCE_JACCARD = 0.25
# Length classes in code points: short < 140, medium 140-500, long > 500.
CLASS_RANGES = {'short': (40, 135), 'medium': (160, 460), 'long': (600, 2600)}
# Natural duplicates of English: paragraphs of two versions of one licence
# whose difflib ratio (characters) is at least this.
NATURAL_EN_RATIO = 0.8
LICENCE_FAMILIES = {'GPL-1': 'GPL', 'GPL-2': 'GPL', 'GPL-3': 'GPL', 'LGPL-2': 'LGPL', 'LGPL-2.1': 'LGPL',
                    'LGPL-3': 'LGPL3', 'GFDL-1.2': 'GFDL', 'GFDL-1.3': 'GFDL', 'MPL-1.1': 'MPL', 'MPL-2.0': 'MPL'}
# Hard negatives of English by topic: paragraphs of different licence
# families on one subject.
EN_TOPICS = ('warranty', 'liability', 'patent', 'terminat', 'distribut')


def shingles(text, n=5):
    t = re.sub(r'\s+', '', text.lower())
    return {t[i:i + n] for i in range(max(1, len(t) - n + 1))}


class DissimilarPool:
    """Keeps texts whose 5-gram Jaccard with every kept text is below the bound."""

    def __init__(self):
        self.kept = []
        self.postings = collections.defaultdict(list)

    def admit(self, text):
        s = shingles(text)
        overlap = collections.Counter()
        for g in s:
            for k in self.postings.get(g, ()):
                overlap[k] += 1
        for k, inter in overlap.items():
            if inter / (len(s) + len(self.kept[k]) - inter) >= MAX_SOURCE_JACCARD:
                return False
        for g in s:
            self.postings[g].append(len(self.kept))
        self.kept.append(s)
        return True


def sentences(text, lang):
    if lang == 'zh':
        parts = re.split(r'(?<=[。！？；，])', text.replace('\n', ''))
    else:
        parts = re.split(r'(?<=[.;:!?])\s+', ' '.join(text.split()))
    return [p for p in parts if p.strip()]


def english_sources(docs):
    """(licence name, paragraph) of every whole licence, in order."""
    out = []
    for d in docs:
        if d['lang'] == 'en' and ' paragraph ' not in d['title']:
            for p in re.split(r'\n\s*\n', d['text']):
                p = ' '.join(p.split())
                if p:
                    out.append((d['title'], p))
    return out


def english_candidates(paragraphs, cls):
    lo, hi = CLASS_RANGES[cls]
    if cls == 'short':
        for _, p in paragraphs:
            for s in sentences(p, 'en'):
                if lo <= len(s) <= hi and len(s.split()) >= 8:
                    yield s
    elif cls == 'medium':
        for _, p in paragraphs:
            run = ''
            for s in sentences(p, 'en'):
                run = (run + ' ' + s).strip()
                if len(run) >= lo:
                    if len(run) <= hi:
                        yield run
                    run = ''
    else:
        run, name = [], None
        for licence, p in paragraphs:
            if licence != name:
                run, name = [], licence
            run.append(p)
            joined = '\n\n'.join(run)
            if len(joined) >= lo:
                if len(joined) <= hi:
                    yield joined
                run = []


def chinese_poems(docs):
    # The simplified-script edition is left out: its poems are the same as
    # traditional ones without sharing characters, and no rule here pairs them.
    return [d for d in docs if d['lang'] == 'zh' and 'shuimotangshi' not in d['source']]


def chinese_candidates(poems, cls):
    lo, hi = CLASS_RANGES[cls]
    per = {'short': 1, 'medium': 3, 'long': 9}[cls]
    stride = {'short': 1, 'medium': 3, 'long': 9}[cls]
    texts = [p['text'] for p in poems if 'songci' not in p['source']]
    offset = {'short': 0, 'medium': 1, 'long': 2}[cls]  # classes start at different poems
    for i in range(offset, len(texts) - per, stride):
        joined = '\n'.join(texts[i:i + per])
        if lo <= len(joined) <= hi:
            yield joined


def tokens(text, lang):
    return list(text) if lang == 'zh' else text.split(' ')


def join(toks, lang):
    return ''.join(toks) if lang == 'zh' else ' '.join(toks)


def edit(text, kind, rate, lang, rng, pool, boilerplate):
    """The copy of text with one controlled edit of the given rate."""
    if kind in ('insert', 'delete', 'substitute'):
        toks = tokens(' '.join(text.split()) if lang == 'en' else text, lang)
        m = max(1, round(rate * len(toks)))
        for _ in range(m):
            if kind == 'insert':
                toks.insert(rng.randrange(len(toks) + 1), rng.choice(pool))
            elif kind == 'delete' and len(toks) > 1:
                del toks[rng.randrange(len(toks))]
            elif kind == 'substitute':
                toks[rng.randrange(len(toks))] = rng.choice(pool)
        return join(toks, lang)
    if kind == 'reorder':
        parts = sentences(text, lang)
        if len(parts) < 2:
            toks = tokens(text, lang)
            cut = max(1, round(len(toks) * rate))
            return join(toks[cut:] + toks[:cut], lang)
        moved, target = 0, rate * len(text)
        while True:
            i = rng.randrange(len(parts))
            s = parts.pop(i)
            j = rng.randrange(len(parts) + 1)
            while j == i and len(parts) > 0:
                j = rng.randrange(len(parts) + 1)
            parts.insert(j, s)
            moved += len(s)
            if moved >= target:
                break
        return ('' if lang == 'zh' else ' ').join(parts)
    if kind == 'boilerplate':
        n = max(1, round(rate * len(text)))
        piece = boilerplate[:n]
        if lang == 'en':
            piece = piece.rsplit(' ', 1)[0] if ' ' in piece[1:] else piece
        return piece + ('\n' if lang == 'zh' else ' ') + text if rng.random() < 0.5 else text + ' ' + piece
    if kind == 'truncate':
        keep = text[:max(1, len(text) - max(1, round(rate * len(text))))]
        if lang == 'en' and ' ' in keep:
            keep = keep.rsplit(' ', 1)[0]
        return keep
    raise ValueError(kind)


def record(set_name, ident, lang, cluster, text, topic='', kind='', rate=0.0):
    return {'id': ident, 'set': set_name, 'lang': lang, 'cluster': cluster, 'topic': topic, 'edit': kind,
            'rate': rate, 'text': text}


def controlled_sets(docs, rng):
    """edits.jsonl and heavy.jsonl: sources, their edited copies, template pairs."""
    paragraphs = english_sources(docs)
    poems = chinese_poems(docs)
    # Boilerplate: the BSD licence (English) and the Song lyrics (Chinese),
    # neither of which gives sources.
    boiler = {'en': ' '.join(next(d['text'] for d in docs if d['title'] == 'BSD').split()),
              'zh': '\n'.join(p['text'] for p in poems if 'songci' in p['source'])}
    paragraphs = [(n, p) for n, p in paragraphs if n != 'BSD']
    pools = {'en': [w for _, p in paragraphs for w in p.split()],
             'zh': [c for p in poems for c in p['text'] if not c.isspace()]}
    edits, heavy = [], []
    for lang in ('en', 'zh'):
        pool = DissimilarPool()
        for cls in ('long', 'medium', 'short'):
            cands = list(english_candidates(paragraphs, cls) if lang == 'en' else chinese_candidates(poems, cls))
            rng.shuffle(cands)
            sources = [c for c in cands if pool.admit(c)]
            need_e = len(EDIT_KINDS) * len(EDIT_RATES) * COPIES_PER_COMBINATION
            need_h = len(EDIT_KINDS) * len(HEAVY_RATES) * HEAVY_COPIES_PER_COMBINATION
            need_t = 2 * TEMPLATE_PAIRS + 1
            if len(sources) < need_e + need_h + need_t:
                sys.exit(f'make_eval_sets.py: only {len(sources)} {lang} {cls} sources, '
                         f'{need_e + need_h + need_t} needed')
            print(f'{lang} {cls}: {len(cands)} candidates, {len(sources)} dissimilar sources', file=sys.stderr)
            it = iter(sources)
            for out, rates, copies, name in ((edits, EDIT_RATES, COPIES_PER_COMBINATION, 'edits'),
                                             (heavy, HEAVY_RATES, HEAVY_COPIES_PER_COMBINATION, 'heavy')):
                n = 0
                for kind in EDIT_KINDS:
                    for rate in rates:
                        for _ in range(copies):
                            src = next(it)
                            cluster = f'{lang}-{cls}-{name}-{n}'
                            out.append(record(name, cluster + '-a', lang, cluster, src))
                            out.append(record(name, cluster + '-b', lang, cluster,
                                              edit(src, kind, rate, lang, rng, pools[lang], boiler[lang]),
                                              kind=kind, rate=rate))
                            n += 1
            # Template pairs: two different sources inside one template
            # (a header and a footer cut from a third source, 30% of the
            # length together): the same page frame around different content.
            frame = ' '.join(next(it).split()) if lang == 'en' else next(it)
            for t in range(TEMPLATE_PAIRS):
                a, b = next(it), next(it)
                sep = '\n' if lang == 'zh' else ' '
                frame_tokens = tokens(frame, lang)
                start = (t * 7) % max(1, len(frame_tokens) // 2)
                for i, body in enumerate((a, b)):
                    n = max(1, round(0.15 * len(tokens(body, lang))))
                    head = join(frame_tokens[start:start + n], lang)
                    tail = join(frame_tokens[start + n:start + 2 * n], lang)
                    ident = f'{lang}-{cls}-template-{t}-{"ab"[i]}'
                    edits.append(record('edits', ident, lang, ident, head + sep + body + sep + tail,
                                        topic=f'{lang}-{cls}-template-{t}'))
    return edits, heavy


def natural_set(docs):
    """natural.jsonl: the sample's paragraphs and poems with their natural twins."""
    items = []  # (doc, key for twins, topic)
    for d in docs:
        if d['lang'] == 'en' and ' paragraph ' in d['title']:
            items.append(d)
    poems = chinese_poems(docs)
    items += [p for p in poems if 'songci' not in p['source']]
    parent = list(range(len(items)))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    # Chinese: one author and title in two collections, lengths within 80%.
    by_title = collections.defaultdict(list)
    for i, d in enumerate(items):
        if d['lang'] == 'zh':
            by_title[d['title']].append(i)
    zh_pairs = 0
    for group in by_title.values():
        for x in range(len(group)):
            for y in range(x + 1, len(group)):
                a, b = items[group[x]], items[group[y]]
                la, lb = len(a['text']), len(b['text'])
                if a['source'] != b['source'] and min(la, lb) >= 0.8 * max(la, lb):
                    parent[find(group[x])] = find(group[y])
                    zh_pairs += 1
    # English: paragraphs of two versions of one licence, difflib ratio >= 0.8.
    en = [(i, d) for i, d in enumerate(items) if d['lang'] == 'en']
    en_pairs = 0
    for x in range(len(en)):
        for y in range(x + 1, len(en)):
            (i, a), (j, b) = en[x], en[y]
            la, lb = a['title'].split(' paragraph ')[0], b['title'].split(' paragraph ')[0]
            if la == lb or LICENCE_FAMILIES.get(la) is None or LICENCE_FAMILIES.get(la) != LICENCE_FAMILIES.get(lb):
                continue
            m = difflib.SequenceMatcher(None, a['text'], b['text'], autojunk=False)
            if m.quick_ratio() >= NATURAL_EN_RATIO and m.ratio() >= NATURAL_EN_RATIO:
                parent[find(i)] = find(j)
                en_pairs += 1
    print(f'natural: {zh_pairs} Chinese twin pairs, {en_pairs} English version pairs', file=sys.stderr)
    out = []
    for i, d in enumerate(items):
        topic = ''
        if d['lang'] == 'en':
            lower = d['text'].lower()
            topic = next((t for t in EN_TOPICS if t in lower), '')
        out.append(record('natural', f'{d["lang"]}-{d["id"]}', d['lang'], f'c{find(i)}', d['text'],
                          topic=topic and 'en-topic-' + topic))
    return out


def write(path, records):
    with open(path, 'w', encoding='utf-8') as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False, separators=(',', ':')) + '\n')
    print(f'{path}: {len(records)} documents', file=sys.stderr)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    sample = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, 'sample', 'docs.jsonl')
    out_dir = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, 'eval')
    try:
        with open(sample, encoding='utf-8') as f:
            docs = [json.loads(line) for line in f]
    except (OSError, ValueError) as e:
        sys.exit(f'make_eval_sets.py: {sample}: {e}')
    rng = random.Random(SEED)
    edits, heavy = controlled_sets(docs, rng)
    os.makedirs(out_dir, exist_ok=True)
    write(os.path.join(out_dir, 'edits.jsonl'), edits)
    write(os.path.join(out_dir, 'heavy.jsonl'), heavy)
    write(os.path.join(out_dir, 'natural.jsonl'), natural_set(docs))


if __name__ == '__main__':
    main()
