#!/usr/bin/env python3
"""Reference values for simdex's python-simhash profile (engine/compat/python_simhash.h).

This re-implements, with Python's own str.lower(), `re` and hashlib, what the Python `simhash`
package (module simhash, class Simhash, f = 64) computes for Simhash(text).value and
Simhash(features).value. The package itself is on PyPI only, which this build environment cannot
reach, so it cannot be installed here. The `check` command (CTest compat_python_simhash_reference)
shows that this re-implementation reproduces every value and relation the package's own tests
(tests/test_simhash.py) assert, for features and for text (test_value, test_large_inputs,
test_sparse_features with scikit-learn's tf-idf weights recomputed here, test_distance,
test_chinese, test_short, test_equality_comparison), and that the committed fixtures, which the
C++ tests read, are exactly what this reference makes.

Commands (run from the repository root; output is deterministic for a given Python version):
  python3 tests/compat/python_simhash_reference.py check
  python3 tests/compat/python_simhash_reference.py features TEXT
  python3 tests/compat/python_simhash_reference.py vectors > tests/compat/python_simhash_vectors.tsv
  python3 tests/compat/python_simhash_reference.py unicode > tests/compat/python_unicode_tables.tsv

The committed fixtures were made with Python 3.11 (Unicode 14.0).
"""

import hashlib
import json
import math
import os
import random
import re
import sys
import unicodedata
from itertools import groupby

F = 64
FIXTURE_UNICODE_VERSION = '14.0.0'  # the Unicode of the Python that made the committed fixtures
TOKEN_RE = r'[\w\u4e00-\u9fcc]+'


def hashfunc(data):
    """int(md5(data).hexdigest(), 16): only its low F bits are ever read."""
    return int(hashlib.md5(data).hexdigest(), 16)


def slide(content, width=4):
    return [content[i:i + width] for i in range(max(len(content) - width + 1, 1))]


def tokenize(content):
    content = content.lower()
    content = ''.join(re.findall(TOKEN_RE, content))
    return slide(content)


def counted_features(text):
    """build_by_text's grouping: distinct features (sorted) with their counts."""
    return {k: sum(1 for _ in g) for k, g in groupby(sorted(tokenize(text)))}


def value_of_features(features):
    """build_by_features: a list of str (weight 1) or (str, weight) pairs, or a dict."""
    if isinstance(features, dict):
        features = list(features.items())
    v = [0] * F
    masks = [1 << i for i in range(F)]
    for f in features:
        if isinstance(f, str):
            h, w = hashfunc(f.encode('utf-8')), 1
        else:
            h, w = hashfunc(f[0].encode('utf-8')), f[1]
        for i in range(F):
            v[i] += w if h & masks[i] else -w
    ans = 0
    for i in range(F):
        if v[i] > 0:
            ans |= masks[i]
    return ans


def value_of_text(text):
    return value_of_features(counted_features(text))


def tfidf_rows(documents):
    """What scikit-learn's TfidfVectorizer() gives with its defaults (lower-case, tokens
    (?u)\\b\\w\\w+\\b, raw counts, idf = ln((1 + n) / (1 + df)) + 1, rows scaled to unit
    length), as token -> weight dicts: the features of the package's test_sparse_features."""
    tokens = [re.findall(r'(?u)\b\w\w+\b', d.lower()) for d in documents]
    df = {}
    for ts in tokens:
        for t in set(ts):
            df[t] = df.get(t, 0) + 1
    n = len(documents)
    rows = []
    for ts in tokens:
        row = {t: ts.count(t) * (math.log((1 + n) / (1 + df[t])) + 1) for t in set(ts)}
        norm = math.sqrt(sum(w * w for w in row.values()))
        rows.append({t: w / norm for t, w in row.items()})
    return rows


def distance(a, b):
    return bin(a ^ b).count('1')


def check_published():
    """The values and relations the package's own tests (tests/test_simhash.py) assert, for
    features and for text. Returns the list of failures."""
    value, text = value_of_features, value_of_text
    sparse = tfidf_rows(['How are you? I Am fine. blar blar blar blar blar Thanks.',
                         'How are you i am fine. blar blar blar blar blar than',
                         'This is simhash test.',
                         'How are you i am fine. blar blar blar blar blar thank1'])
    sparse_values = [value(row) for row in sparse]
    short = [text(t) for t in ('aa', 'aaa', 'aaaa', 'aaaab', 'aaaaabb', 'aaaaabbb')]
    checks = [
        ('test_value', value(['aaa', 'bbb']) == 57087923692560392),
        ('test_large_inputs: unit weights', value([str(i) for i in range(500)]) == 7984652473404407437),
        ('test_large_inputs: weights 50 * i',
         value([(str(i), 50 * i) for i in range(500)]) == 3372825719632739723),
        ('test_distance: different texts differ',
         distance(text('How are you? I AM fine. Thanks. And you?'),
                  text('How old are you ? :-) i am fine. Thanks. And you?')) > 0),
        ('test_distance: 1 and 2 differ', distance(text('1'), text('2')) != 0),
        ('test_chinese: punctuation and spaces do not count',
         text('你好　世界！　　呼噜。') == text('你好，世界　呼噜')),
        ('test_chinese: sh4 near sh6',
         distance(text('How are you? I Am fine. ablar ablar xyz blar blar blar blar blar blar blar Thanks.'),
                  text('How are you i am fine.ablar ablar xyz blar blar blar blar blar blar blar thank'))
         < 3),
        ('test_chinese: sh5 near sh6',
         distance(text('How are you i am fine.ablar ablar xyz blar blar blar blar blar blar blar than'),
                  text('How are you i am fine.ablar ablar xyz blar blar blar blar blar blar blar thank'))
         < 3),
        ('test_short: all different', len(set(short)) == len(short)),
        ('test_sparse_features: distances',
         0 < distance(*sparse_values[0:2]) < distance(*sparse_values[2:4])),
        ('test_sparse_features: dict value', sparse_values[0] == 17583409636488780916),
        ('test_sparse_features: not the text value', sparse_values[0] != text(
            'How are you? I Am fine. blar blar blar blar blar Thanks.')),
        ('test_equality_comparison',
         text('My name is John') == text('My name is John') != text('My name actually is Jane')),
    ]
    for name, ok in checks:
        print('%s %s' % ('ok  ' if ok else 'FAIL', name))
    return [name for name, ok in checks if not ok]


def check_fixture(name, lines):
    """The committed fixture holds the rows (not the comments) this reference makes."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
    with open(path, encoding='utf-8') as f:
        committed = [line.rstrip('\n') for line in f if not line.startswith('#')]
    made = [line for line in lines if not line.startswith('#')]
    ok = committed == made
    print('%s %s: %d rows committed, %d made%s' % (
        'ok  ' if ok else 'FAIL', name, len(committed), len(made),
        '' if ok else ', first difference at row %d' % next(
            i + 1 for i in range(max(len(committed), len(made)))
            if i >= len(committed) or i >= len(made) or committed[i] != made[i])))
    return [] if ok else [name]


def check():
    """The published values and relations, and both committed fixtures, which the C++ tests read
    (python_simhash_vectors.tsv: the text path; python_unicode_tables.tsv: \\w and lower())."""
    failures = check_published()
    failures += check_fixture('python_simhash_vectors.tsv', vector_lines())
    if unicodedata.unidata_version == FIXTURE_UNICODE_VERSION:
        failures += check_fixture('python_unicode_tables.tsv', unicode_table_lines())
    else:
        print('FAIL python_unicode_tables.tsv: made with Unicode %s, this Python has %s'
              % (FIXTURE_UNICODE_VERSION, unicodedata.unidata_version))
        failures.append('unicode version')
    return 1 if failures else 0


# Named cases: (label, UTF-8 bytes). Bytes rather than str so that invalid UTF-8 can be included;
# Python decodes them with errors='replace', as simdex does with ICU's substitution.
def named_cases():
    s = lambda text: text.encode('utf-8')
    return [
        ('english', s('How are you? I am fine. Thanks.')),
        ('english-variant', s('How are u? I am fine.     Thanks.')),
        ('english-sentence', s('The quick brown fox jumps over the lazy dog; THE QUICK BROWN FOX!')),
        ('chinese', s('你好，世界！今天天气很好，我们去公园散步吧。')),
        ('chinese-numbers', s('一二三四五六七八九十百千万亿')),
        ('mixed-en-zh', s('Hello世界, simhash 算法 is used for 近似 duplicate detection 2024')),
        ('japanese', s('日本語のテキストです。カタカナとひらがな、漢字を含む。')),
        ('korean', s('안녕하세요 세계! 한국어 텍스트입니다.')),
        ('greek-final-sigma', s('ΟΔΟΣ')),
        ('greek-sigma-words', s('ΣΑΣ ΣΑΣ')),
        ('greek-sentence', s('ΟΔΥΣΣΕΥΣ ΚΑΙ ΣΟΦΟΣ. Σ ΑΣ')),
        ('greek-sigma-apostrophe', s("ΑΣ'Β ΑΣ' Σ'Α")),
        ('greek-sigma-modifier', s('ʰΣ AʰΣ AʰʰΣ AΣʰ AΣʰB')),
        ('greek-sigma-ypogegrammeni', s('\u0345Σ A\u0345Σ AΣ\u0345')),
        ('greek-sigma-soft-hyphen', s('A\u00adΣ\u00adB AΣ\u00ad')),
        ('turkish-dotted-i', s('İSTANBUL İzmir DİYARBAKIR ıi')),
        ('german-sharp-s', s('Straße STRASSE ẞ groß')),
        ('digits', s('0123456789 ٠١٢٣٤٥٦٧٨٩ ०१२३')),
        ('superscripts-fractions', s('x² y³ ½ ¼ ¾ Ⅻ ⅻ ① ⑴ ⒈ 𝟘')),
        ('underscores', s('snake_case __init__ _ __ a_b_c')),
        ('emoji', s('I ❤️ simhash 😀👍🏽 🇫🇷 family 👨‍👩‍👧')),
        ('emoji-only', s('😀😀😀😀')),
        ('combining-marks', s('Cafe\u0301 re\u0301sume\u0301 na\u0308ive n\u0303 a\u0300\u0301\u0302b')),
        ('devanagari-marks', s('नमस्ते दुनिया हिन्दी')),
        ('thai', s('สวัสดีชาวโลก ภาษาไทย')),
        ('arabic-hebrew', s('مرحبا بالعالم שלום עולם')),
        ('cyrillic', s('Привет, МИР! Ёжик в тумане')),
        ('cjk-range-end', s('\u9fcb\u9fcc\u9fcd\u9fce\u9fd5\u9fea')),
        ('cjk-compat', s('\uf900\uf901\ufa0e\ufa6d')),
        ('cjk-ext-a', s('\u3400\u3401\u4db5\u4db6\u4dbf')),
        ('cjk-ext-b', s('\U00020000\U00020001\U0002a6d6\U0002a6dd')),
        ('cjk-mixed-planes', s('中\U00020000文\u3400字\U0002B740')),
        ('short-1', s('a')),
        ('short-2', s('Ab')),
        ('short-3', s('abc')),
        ('short-4', s('abcd')),
        ('short-5', s('abcde')),
        ('short-cjk', s('中文')),
        ('short-astral', s('\U00020000x')),
        ('short-after-filter', s('a.b-c!')),
        ('repeated-4grams', s('abcabcabcabcabc')),
        ('repeated-char', s('aaaaaaaaaaaaaaaaaaaaaaaaaaaa')),
        ('repeated-words', s('the the the the the the')),
        ('fullwidth', s('ＦＵＬＬ　ＷＩＤＴＨ ０１２３ ｶﾀｶﾅ')),
        ('ligatures-roman', s('ﬁ ﬂ Ⅷ ⅷ ǅ Ǆ ǆ')),
        ('letterlike', s('ℌ ℍ ℵ Å K ™ ℃')),
        ('cased-symbols', s('Ⓐ Ⓑ ⓐ 🄰')),
        ('whitespace-controls', s('a\tb\nc\rd\x00e\x7ff\u2028g\u00a0h')),
        ('punctuation-only', s('...,,,!!! ??? --- ()[]{}')),
        ('empty', s('')),
        ('only-spaces', s('   \t\n ')),
        ('only-marks', s('\u0301\u0302\u0303\u0304')),
        ('invalid-lone-continuation', b'abc\x80def'),
        ('invalid-truncated', b'abc\xe4\xb8def\xf0\x9f\x98'),
        ('invalid-overlong', b'ab\xc0\xafcd\xe0\x80\xafef'),
        ('invalid-surrogate', b'x\xed\xa0\x80y\xed\xbf\xbfz'),
        ('invalid-beyond-max', b'pq\xf4\x90\x80\x80rs\xf5\x80\x80\x80'),
        ('invalid-ff-fe', b'\xff\xfeh\x00i\x00'),
        ('literal-replacement-char', s('ab\ufffdcd')),
        ('long-text', s(' '.join('Word%d %s%s' % (i, chr(0x4E00 + 7 * i), chr(0x3041 + i % 80))
                                 for i in range(400)))),
        ('long-repetitive', s('ΣΟΦΟΣ abc ' * 300)),
    ]


# Scripts for the random strings: (name, first, last) code point ranges.
RANDOM_POOLS = [
    ('ascii-letters', 0x41, 0x7A), ('ascii-digits', 0x30, 0x39), ('ascii-punct', 0x20, 0x2F),
    ('latin1', 0xC0, 0xFF), ('latin-ext', 0x100, 0x24F), ('ipa-modifiers', 0x250, 0x2FF),
    ('combining', 0x300, 0x36F), ('greek', 0x370, 0x3FF), ('cyrillic', 0x400, 0x4FF),
    ('armenian', 0x531, 0x58A), ('hebrew', 0x591, 0x5F4), ('arabic', 0x600, 0x6FF),
    ('devanagari', 0x900, 0x97F), ('thai', 0xE01, 0xE5B), ('georgian', 0x10A0, 0x10FF),
    ('hangul', 0xAC00, 0xD7A3), ('hiragana', 0x3041, 0x309F), ('katakana', 0x30A0, 0x30FF),
    ('cjk', 0x4E00, 0x9FFF), ('cjk-ext-a', 0x3400, 0x4DBF), ('cjk-ext-b', 0x20000, 0x2A6DF),
    ('general-punct', 0x2000, 0x206F), ('number-forms', 0x2150, 0x218B),
    ('super-sub', 0x2070, 0x209C), ('enclosed', 0x2460, 0x24FF), ('emoji', 0x1F300, 0x1F64F),
    ('math-alnum', 0x1D400, 0x1D7FF), ('fullwidth', 0xFF01, 0xFF9F), ('cherokee', 0x13A0, 0x13FD),
    ('deseret', 0x10400, 0x1044F), ('glagolitic', 0x2C00, 0x2C5F), ('spaces', 0x20, 0x20),
]


def random_text(rng):
    pools = rng.sample(RANDOM_POOLS, rng.randint(1, 4))
    length = rng.randint(0, 40)
    chars = []
    while len(chars) < length:
        _, lo, hi = rng.choice(pools)
        ch = chr(rng.randint(lo, hi))
        # Unassigned in this Python's database: the fixture must not depend on code points
        # that a newer Unicode version assigns (ICU 72 has Unicode 15.0).
        if unicodedata.category(ch) != 'Cn':
            chars.append(ch)
    return ''.join(chars)


def vector_lines():
    lines = [
        '# Simhash(text).value of the Python simhash package (f = 64), made by',
        '# tests/compat/python_simhash_reference.py vectors with Python %s (Unicode %s).'
        % (sys.version.split()[0], unicodedata.unidata_version),
        '# Columns (tab-separated): label; expected value in decimal, or "empty" when nothing is',
        '# kept (simdex reports no fingerprint; the package would hash the empty string);',
        '# U+FFFD substitutions made while decoding; the UTF-8 input in hex; the decoded text as',
        '# JSON, for the reader only.',
    ]
    cases = named_cases()
    rng = random.Random(20240601)
    for i in range(50):
        cases.append(('random-%02d' % i, random_text(rng).encode('utf-8')))
    for label, data in cases:
        text = data.decode('utf-8', errors='replace')
        substitutions = text.count('\ufffd') - data.count('\ufffd'.encode('utf-8'))
        kept = ''.join(re.findall(TOKEN_RE, text.lower()))
        expected = str(value_of_text(text)) if kept else 'empty'
        lines.append('\t'.join([label, expected, str(substitutions), data.hex(),
                                json.dumps(text, ensure_ascii=False)]))
    return lines


def unicode_table_lines():
    lines = []
    lines.append('# Python %s (Unicode %s): code points matched by [\\w\\u4e00-\\u9fcc] and str.lower() of'
                 % (sys.version.split()[0], unicodedata.unidata_version))
    lines.append('# each code point alone where it is not the code point itself. Made by')
    lines.append('# tests/compat/python_simhash_reference.py unicode. Lines (hex, space-separated):')
    lines.append('#   W FIRST LAST          a range of code points the token pattern matches')
    lines.append('#   L CP LOWER...         str.lower(chr(CP)) when it differs from chr(CP)')
    lines.append('#   S FIRST LAST FLAGS    for each code point c of the range, whether Σ lowers to ς in')
    lines.append('#                         A+c+Σ, c+Σ, A+Σ+c and A+Σ+c+B (f: some Σ became ς, n: none),')
    lines.append('#                         listed where the flags are not nnff')
    token = re.compile(TOKEN_RE)
    start = None
    for cp in range(0x110001):
        matched = (cp < 0x110000 and not 0xD800 <= cp <= 0xDFFF
                   and token.fullmatch(chr(cp)) is not None)
        if matched and start is None:
            start = cp
        elif not matched and start is not None:
            lines.append('W %X %X' % (start, cp - 1))
            start = None
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        lower = chr(cp).lower()
        if lower != chr(cp):
            lines.append('L %X %s' % (cp, ' '.join('%X' % ord(c) for c in lower)))
    runs = []
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        c = chr(cp)
        flags = ''.join('f' if '\u03c2' in s.lower() else 'n'
                        for s in ('A' + c + '\u03a3', c + '\u03a3', 'A\u03a3' + c, 'A\u03a3' + c + 'B'))
        if runs and runs[-1][2] == flags and runs[-1][1] == cp - 1:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp, flags])
    for first, last, flags in runs:
        if flags != 'nnff':
            lines.append('S %X %X %s' % (first, last, flags))
    return lines


def main(argv):
    if len(argv) == 2 and argv[1] == 'check':
        return check()
    if len(argv) == 3 and argv[1] == 'features':
        for feature, count in counted_features(argv[2]).items():
            print(json.dumps(feature, ensure_ascii=False), count)
        print('value', value_of_text(argv[2]))
        return 0
    if len(argv) == 2 and argv[1] in ('vectors', 'unicode'):
        print('\n'.join(vector_lines() if argv[1] == 'vectors' else unicode_table_lines()))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
