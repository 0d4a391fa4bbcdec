#!/usr/bin/env python3
"""Golden fingerprints of simdex's text pipeline, from a reference written apart from the engine.

This follows docs/fingerprint.md step by step, with nothing from engine/text:
  0. clean: four regular-expression substitutions over the bytes (markup, character references,
     percent-escapes, links), as the spec's patterns read;
  1. decode: Python's UTF-8 decoder, one U+FFFD per maximal ill-formed subpart, counted;
  2. normalize: ICU's NFKC_Casefold normalizer (PyICU), applied to the whole window;
  3. features: ICU's root-locale word BreakIterator (PyICU), segments whose rule status is
     not UBRK_WORD_NONE (0); character n-grams over the code points whose general category
     is L*, M* or N* (ICU's u_charType); word shingles joined by one space;
  4. stop words: this folder's own copies of the built-in lists (stop_words_en.txt,
     stop_words_zh.txt), normalized like the text;
  5. weights: tf (count), binary (1), log-tf (1 + ln count) or tf-idf (count * idf, idf.tsv); with
     words, a word without a letter counts once;
  6. hash: XXH3-64 of the feature's UTF-8 bytes with the seed (python3-xxhash);
  7. combine: per bit, +w where the hash has a 1 and -w where it has a 0; bit set iff sum > 0.
Texts over 1 MiB are cut into windows as docs/fingerprint.md's paragraph on them says. It is
slow and plain on purpose: no fast path, and windows only where the spec has them.

Commands (run from anywhere with Debian's python3, which has python3-icu and python3-xxhash):
  /usr/bin/python3 tests/golden/make_golden.py vectors > tests/golden/fingerprints_v3.tsv
  /usr/bin/python3 tests/golden/make_golden.py check      # the committed file is what `vectors` prints
  /usr/bin/python3 tests/golden/make_golden.py features [OPTIONS] TEXT

OPTIONS is the options column of the vectors file ("-" for the defaults, else space-separated
key=value: tokenizer=words|chars|word-ngrams, ngram=N, stop-words=default|none, normalize=yes|no,
clean-text=yes|no, cap-numbers=yes|no, weighting=tf|binary|log-tf|tf-idf (tf-idf with this folder's
idf.tsv), max-share=S (0: none), seed=N).
`printf the | xxhsum -H3` gives the same hash as the `hash` rows with seed 0.

When the default profile changes on purpose (docs/fingerprint.md, "Changelog of the defaults"):
change this reference to the new rule, bump PROFILE_VERSION here and kDefaultFingerprintProfileVersion
in include/simdex/fingerprint.h, add the changelog entry, and write fingerprints_v<N>.tsv.
"""

import codecs
import html.entities
import json
import math
import os
import re
import sys

import icu
import xxhash

PROFILE_VERSION = 4
HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS_FILE = os.path.join(HERE, 'fingerprints_v%d.tsv' % PROFILE_VERSION)

WINDOW_BYTES = 1 << 20
ASCII_WHITE_SPACE = b' \t\n\v\f\r'
UBRK_WORD_NONE = 0
KEPT_CATEGORIES = {
    icu.UCharCategory.UPPERCASE_LETTER, icu.UCharCategory.LOWERCASE_LETTER,
    icu.UCharCategory.TITLECASE_LETTER, icu.UCharCategory.MODIFIER_LETTER,
    icu.UCharCategory.OTHER_LETTER, icu.UCharCategory.NON_SPACING_MARK,
    icu.UCharCategory.ENCLOSING_MARK, icu.UCharCategory.COMBINING_SPACING_MARK,
    icu.UCharCategory.DECIMAL_DIGIT_NUMBER, icu.UCharCategory.LETTER_NUMBER,
    icu.UCharCategory.OTHER_NUMBER,
}
LETTER_CATEGORIES = {
    icu.UCharCategory.UPPERCASE_LETTER, icu.UCharCategory.LOWERCASE_LETTER,
    icu.UCharCategory.TITLECASE_LETTER, icu.UCharCategory.MODIFIER_LETTER,
    icu.UCharCategory.OTHER_LETTER,
}

NORMALIZER = icu.Normalizer2.getNFKCCasefoldInstance()
WORDS = icu.BreakIterator.createWordInstance(icu.Locale.getRoot())


# --- the pipeline -------------------------------------------------------------------------------

class Options:
    def __init__(self, spec='-'):
        self.tokenizer, self.ngram, self.stop_words, self.normalize, self.weighting, self.seed = \
            'words', 3, 'default', True, 'tf', 0
        self.clean_text, self.cap_numbers = True, True
        self.max_share = 0.1  # since profile 4
        for item in ([] if spec == '-' else spec.split(' ')):
            key, value = item.split('=')
            if key == 'tokenizer' and value in ('words', 'chars', 'word-ngrams'):
                self.tokenizer = value
            elif key == 'ngram':
                self.ngram = int(value)
            elif key == 'stop-words' and value in ('default', 'none'):
                self.stop_words = value
            elif key == 'normalize' and value in ('yes', 'no'):
                self.normalize = value == 'yes'
            elif key == 'clean-text' and value in ('yes', 'no'):
                self.clean_text = value == 'yes'
            elif key == 'cap-numbers' and value in ('yes', 'no'):
                self.cap_numbers = value == 'yes'
            elif key == 'weighting' and value in ('tf', 'binary', 'log-tf', 'tf-idf'):
                self.weighting = value
            elif key == 'max-share':
                self.max_share = float(value)
            elif key == 'seed':
                self.seed = int(value)
            else:
                raise ValueError('bad option %r' % item)


def read_list(name):
    with open(os.path.join(HERE, name), encoding='utf-8') as f:
        return [line.rstrip('\n') for line in f if not line.startswith('#')]


DEFAULT_STOP_WORDS = read_list('stop_words_en.txt') + read_list('stop_words_zh.txt')


def read_idf(normalized):
    """idf.tsv: term<TAB>idf lines, the terms normalized when the text is."""
    table = {}
    for line in read_list('idf.tsv'):
        if line.strip():
            term, value = line.split('\t')
            table[normalize(term) if normalized else term] = float(value)
    return table


class _Substitutions:
    count = 0


def _count_and_replace(error):
    _Substitutions.count += 1
    return '\ufffd', error.end


codecs.register_error('simdex-golden-replace', _count_and_replace)


# Step 0, cleaning: each pattern is a Python bytes regular expression (\s is ASCII white space),
# applied with re.sub over the whole text, in this order.
MARKUP = re.compile(rb'<!--.*?(?:-->|\Z)'
                    rb'|<(script|style)(?=[\s/>]).*?(?:</\1[^>]*(?:>|\Z)|\Z)'
                    rb'|<[/!?]?[A-Za-z][A-Za-z0-9:_-]*(?=[\s/>])[^>]*>', re.S | re.I)
REFERENCE = re.compile(rb'&(?:#([0-9]{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));')
ENTITIES = dict(html.entities.name2codepoint, apos=0x27)  # HTML 4.01's 252 names and XML's apos
PERCENT = re.compile(rb'(?:%[0-9A-Fa-f]{2})+')
NOT_AFTER = rb'(?<![A-Za-z0-9._%+-])'
LINK = re.compile(NOT_AFTER + rb'(?P<url>(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)|(?=[Ww][Ww][Ww]\.[A-Za-z0-9]))'
                  rb'[^\s<>"\'`\x80-\xff]*)'
                  rb'|' + NOT_AFTER + rb'(?P<email>[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)')


def _reference(m):
    if m.group(3):
        if m.group(3).decode('ascii') not in ENTITIES:
            return m.group(0)
        cp = ENTITIES[m.group(3).decode('ascii')]
    else:
        cp = int(m.group(1)) if m.group(1) else int(m.group(2), 16)
    if cp == 0 or 0xD800 <= cp <= 0xDFFF or cp > 0x10FFFF:
        return b' '
    return chr(cp).encode('utf-8')


def _percent(m):
    raw = bytes.fromhex(m.group(0).replace(b'%', b'').decode('ascii'))
    try:
        raw.decode('utf-8')
    except UnicodeDecodeError:
        return m.group(0)
    return m.group(0) if any(b < 0x20 or b == 0x7F for b in raw) else raw


def _link(m):
    if m.group('email'):
        return re.sub(rb'[^A-Za-z0-9@]', b'_', m.group('email'))
    url = m.group('url').rstrip(b'.,;:!?)]}')
    tail = m.group('url')[len(url):]
    rest = url[len(m.group('scheme') or b''):]
    authority = re.split(rb'[/?#]', rest)[0]
    labels = authority.rsplit(b'@', 1)[-1].split(b':')[0].split(b'.')
    if len(labels) > 1 and labels[0].lower() == b'www':
        labels = labels[1:]
    if len(labels) > 1:
        labels = labels[:-1]
    host = re.sub(rb'[^A-Za-z0-9]', b'_', b'.'.join(labels))
    path = re.split(rb'[?#]', rest[len(authority):])[0].replace(b'/', b' ')
    return b' ' + host + b' ' + path + tail


def clean(data):
    """Step 0: markup, character references, percent-escapes, then URLs and e-mail addresses."""
    data = MARKUP.sub(b' ', data)
    data = REFERENCE.sub(_reference, data)
    data = PERCENT.sub(_percent, data)
    return LINK.sub(_link, data)


def has_letter(feature):
    return any(icu.Char.charType(c) in LETTER_CATEGORIES for c in feature)


def decode(data):
    """Step 1: (text, substitutions); each maximal ill-formed subpart becomes one U+FFFD."""
    _Substitutions.count = 0
    text = data.decode('utf-8', errors='simdex-golden-replace')
    return text, _Substitutions.count


def normalize(text):
    """Step 2: NFKC + full case folding, ICU's NFKC_Casefold."""
    return str(NORMALIZER.normalize(text))


def windows(data):
    """Cuts of a text over 1 MiB: before the last ASCII white-space byte at offsets
    (start + 512 KiB, start + 1 MiB] (the byte just after the window included), else at the
    start of the code point holding offset start + 1 MiB (stepping back over at most three
    continuation bytes)."""
    start = 0
    while start < len(data):
        if len(data) - start <= WINDOW_BYTES:
            yield data[start:]
            return
        limit = start + WINDOW_BYTES
        end = next((p for p in range(limit, start + WINDOW_BYTES // 2, -1)
                    if data[p] in ASCII_WHITE_SPACE), None)
        if end is None:
            end = limit
            for _ in range(3):
                if end > start + 1 and data[end] & 0xC0 == 0x80:
                    end -= 1
        yield data[start:end]
        start = end


def words_of(text):
    """Step 3, kWords: the segments of ICU's word break iterator with a rule status other than
    UBRK_WORD_NONE."""
    units = icu.UnicodeString(text)
    WORDS.setText(units)
    out = []
    previous = WORDS.first()
    for boundary in WORDS:
        if WORDS.getRuleStatus() != UBRK_WORD_NONE:
            out.append(str(units[previous:boundary]))
        previous = boundary
    return out


def kept_code_points(text):
    """Step 3, kCharNgrams: code points whose general category is L*, M* or N*."""
    return [c for c in text if icu.Char.charType(c) in KEPT_CATEGORIES]


def ngrams(units, n, joiner):
    if 0 < len(units) < n:
        return [joiner.join(units)]
    return [joiner.join(units[i:i + n]) for i in range(len(units) - n + 1)]


def is_white_space(c):
    return icu.Char.hasBinaryProperty(c, icu.UProperty.WHITE_SPACE)


def analyse(data, options):
    """Steps 1-5: a dict with the reason, the weighted features in first-occurrence order, the
    feature occurrences after stop words and the U+FFFD substitutions."""
    has_text, substitutions, units = False, 0, []
    if options.clean_text:
        cleaned = clean(data)
        has_text = cleaned != data  # what cleaning changed was text, whatever is left of it
        data = cleaned
    for window in windows(data):
        text, count = decode(window)
        substitutions += count
        has_text = has_text or any(not is_white_space(c) for c in text)
        if options.normalize:
            text = normalize(text)
        units += kept_code_points(text) if options.tokenizer == 'chars' else words_of(text)
    stop = set()
    if options.stop_words == 'default':
        stop = {normalize(w) if options.normalize else w for w in DEFAULT_STOP_WORDS} - {''}
    if options.tokenizer == 'words':
        candidates = units
        features = [f for f in units if f not in stop]
    elif options.tokenizer == 'chars':
        candidates = ngrams(units, options.ngram, '')
        features = [f for f in candidates if f not in stop]
    else:
        candidates = units  # the words: shingles are made of the words that are not stop words
        features = ngrams([w for w in units if w not in stop], options.ngram, ' ')
    counts = {}
    for f in features:
        counts[f] = counts.get(f, 0) + 1
        if options.tokenizer == 'words' and options.cap_numbers and not has_letter(f):
            counts[f] = 1
    if not has_text:
        reason = 'no-text'
    elif not candidates:
        reason = 'no-features'
    elif not features:
        reason = 'all-stop-words'
    else:
        reason = ''
    if options.weighting == 'tf':
        weight = lambda f, c: c
    elif options.weighting == 'binary':
        weight = lambda f, c: 1
    elif options.weighting == 'log-tf':
        weight = lambda f, c: 1 + math.log(c)
    else:
        idf = read_idf(options.normalize)
        weight = lambda f, c: c * idf.get(f, 1.0)
    weighted = [(f, weight(f, c)) for f, c in counts.items()]
    if options.max_share > 0 and weighted:
        weighted = list(zip([f for f, _ in weighted], cap_share([w for _, w in weighted], options.max_share)))
    contributing = [(f, w) for f, w in weighted if w != 0]
    if not reason and not any(w > 0 for _, w in weighted):
        reason = 'zero-weight'
    return {
        'reason': reason,
        'features': contributing if not reason else [],
        'occurrences': len(features),
        'invalid_utf8': substitutions,
    }


def cap_share(weights, share):
    """Step 5's share cap: the heaviest weights lowered to the level L = share x sum of min(w, L),
    found from the heaviest down (L = share x rest / (1 - share x m) with the m heaviest at L and
    the others summing to rest, the first m whose L is at least the next weight); equal weights
    when there is none. The doubles are computed in the order docs/fingerprint.md gives them
    (the total in first-occurrence order, rest as the total less the heaviest, one by one), so
    that a level that is an integer on paper is the same double here as in the engine."""
    total = 0.0
    for w in weights:
        total += w
    if max(weights) <= share * total:
        return weights
    ordered = sorted(weights, reverse=True)
    rest, level = total, None
    for m in range(1, len(ordered)):
        if ordered[m] <= 0:
            break
        rest -= ordered[m - 1]
        room = 1 - share * m
        if room <= 0:
            break
        if share * rest / room >= ordered[m]:
            level = share * rest / room
            break
    if level is None:
        return [1 if w > 0 else 0 for w in weights]
    return [min(w, level) for w in weights]


def feature_hash(feature, seed):
    """Step 6: XXH3-64 of the UTF-8 bytes."""
    return xxhash.xxh3_64_intdigest(feature.encode('utf-8'), seed=seed)


def combine(weighted_hashes):
    """Step 7: bit i is 1 iff the sum of +w (bit i of the hash set) and -w (clear) is > 0; the
    features are added in first-occurrence order (Python floats are doubles, as the engine's)."""
    sums = [0] * 64
    for h, w in weighted_hashes:
        for i in range(64):
            sums[i] += w if (h >> i) & 1 else -w
    return sum(1 << i for i in range(64) if sums[i] > 0)


def fingerprint(data, options):
    a = analyse(data, options)
    if a['reason']:
        a['fingerprint'] = None
    else:
        a['fingerprint'] = combine([(feature_hash(f, options.seed), w) for f, w in a['features']])
    return a


# --- the cases ----------------------------------------------------------------------------------

def s(text):
    return text.encode('utf-8')


ENGLISH = ('Near-duplicate detection finds documents that are almost the same: a web page '
           'copied with a new header, a press release lightly edited by each newspaper, or a '
           'contract whose date was changed. ')
CHINESE = ('近似重复检测用于发现几乎相同的文档，例如转载时只改了标题的网页、被各家报纸略加编辑的'
           '新闻稿，或者只修改了日期的合同。')
# CHINESE rotated by two characters: repeated without white space, its 1 MiB cut falls inside
# the word 例如, which the two windows then see as 例 and 如.
CHINESE_ROTATED = CHINESE[2:] + CHINESE[:2]

# (label, UTF-8 bytes, repeat): the input is the bytes repeated `repeat` times.
CASES = [
    ('english-sentence', s('The quick brown fox jumps over the lazy dog.'), 1),
    ('english-docs-example', s('The cat sat on THE mat.'), 1),
    ('english-paragraph', s(ENGLISH), 1),
    ('english-contractions', s("It's a dog's life; don't, won't, can't. O'Neill's rock'n'roll"), 1),
    ('english-numbers', s('3.14 1,000 1.000,5 e.g. foo_bar a-b 2024-06-01 10:30 $5 50% v1.2.3'), 1),
    ('english-case', s('HELLO Hello hello hElLo'), 1),
    ('chinese-sentence', s('我们是中国人'), 1),
    ('chinese-paragraph', s(CHINESE), 1),
    ('chinese-greeting', s('你好，世界！今天天气很好，我们去公园散步吧。'), 1),
    ('chinese-traditional', s('這是一個繁體中文的句子，用來測試斷詞。'), 1),
    ('japanese', s('日本語のテキストです。カタカナとひらがな、漢字を含む。'), 1),
    ('korean', s('안녕하세요 세계! 한국어 텍스트입니다.'), 1),
    ('thai', s('สวัสดีชาวโลก ภาษาไทยไม่มีช่องว่างระหว่างคำ'), 1),
    ('mixed-en-zh', s('Hello世界, simhash 算法 is used for 近似 duplicate detection 2024年'), 1),
    ('mixed-scripts', s('Привет мир, Γειά σου κόσμε, שלום עולם, مرحبا بالعالم, नमस्ते दुनिया'), 1),
    ('empty', b'', 1),
    ('ascii-white-space-only', s(' \t\n\r\v\f '), 1),
    ('unicode-white-space-only', s('\u3000\u00a0\u2028\u2003\u0085'), 1),
    ('english-stop-words-only', s('The of and to in it is was THE'), 1),
    ('english-the-only', s('The the THE'), 1),
    ('chinese-stop-words-only', s('的了是在和我们'), 1),
    ('punctuation-only', s('...,,,!!! ??? --- ()[]{} 。，、！？'), 1),
    ('emoji-only', s('😀😀 👍🏽 🇫🇷 ❤️'), 1),
    ('markup-html', s('<p class="lead">Hello <b>world</b>&nbsp;&amp; friends</p><br/>'), 1),
    ('markup-doctype', s('<!DOCTYPE html><html><head><title>Test page</title></head></html>'), 1),
    ('markup-markdown', s('# Title\n\n* first item\n* second **bold** item\n\n[link](http://x.org)'), 1),
    ('markup-json', s('{"id": 17, "title": "A title", "tags": ["x", "y"], "ok": true}'), 1),
    ('urls', s('See https://example.com/path/to?q=1&r=two#frag or www.example.org/a_b, '
               'mail me@example.net, ftp://files.example.com/pub/file.tar.gz'), 1),
    ('fullwidth', s('ＦＵＬＬ　ＷＩＤＴＨ ０１２３ Ｔｅｘｔ'), 1),
    ('fullwidth-plain', s('FULL WIDTH 0123 Text'), 1),
    ('halfwidth-katakana', s('ｶﾀｶﾅ ﾃｷｽﾄ'), 1),
    ('ligatures', s('ﬁnance ﬂow oﬀer ﬃ ﬆ Ĳssel'), 1),
    ('sharp-s', s('Straße STRASSE strasse ẞ groß GROSS'), 1),
    ('combining-marks', s('Cafe\u0301 café re\u0301sume\u0301 na\u0308ive n\u0303 a\u0300\u0301\u0302b'), 1),
    ('greek-sigma', s('ΟΔΟΣ οδος ὈΔΌΣ Σίσυφος'), 1),
    ('turkish-dotted-i', s('İSTANBUL İzmir DİYARBAKIR ıi'), 1),
    ('compatibility-digits', s('x² H₂O ½ ① ⑴ ⒈ Ⅻ ⅻ 𝟘𝟙 ٠١٢٣ ०१२३'), 1),
    ('letterlike', s('ℌilbert ℍ ℵ Å K ™ ℃ № ㎏ ㍻'), 1),
    ('soft-hyphen-and-zero-width', s('co\u00adoperate zero\u200bwidth join\u200dner bi\u2060directional'), 1),
    ('cjk-punctuation', s('「你好」。『书名』《论语》〈篇〉【注】——……・〜'), 1),
    ('cjk-fullwidth-mix', s('ＣＰＵ使用率１００％，内存：８ＧＢ。'), 1),
    ('emoji-in-text', s('I ❤️ simhash 😀👍🏽 🇫🇷 family 👨‍👩‍👧 done'), 1),
    ('controls', s('a\x00b\x01c\td\ne\rf\x7fg\x1bh'), 1),
    ('crlf-lines', s('first line\r\nsecond line\r\n\r\nthird'), 1),
    ('invalid-lone-continuation', b'abc\x80def \xbf ghi', 1),
    ('invalid-truncated', b'abc\xe4\xb8def \xf0\x9f\x98', 1),
    ('invalid-overlong', b'ab\xc0\xafcd \xe0\x80\xafef \xc1\xbf', 1),
    ('invalid-surrogate', b'x\xed\xa0\x80y \xed\xbf\xbfz', 1),
    ('invalid-beyond-max', b'pq\xf4\x90\x80\x80rs \xf5\x80\x80\x80 \xf8\x88\x80\x80\x80', 1),
    ('invalid-ff-fe', b'\xff\xfeh\x00i\x00', 1),
    ('invalid-only', b'\x80\x81\xff\xfe\xc0', 1),
    ('literal-replacement-char', s('ab\ufffdcd \ufffd'), 1),
    ('replacement-char-only', s('\ufffd\ufffd'), 1),
    # The text fixes of profile 3 (step 0 and the number weights).
    ('url-list', s('https://www.example.com/shop/cart.html?id=42&ref=nav#top\n'
                   'http://user:pw@Docs.Python.ORG:8080/3/library/re.html.\n'
                   '(see WWW.Debian-Handbook.info/get/), ftp://ftp.gnu.org/gnu/ file:///usr/share/doc '
                   'x_http://no.example/ 1http://nor.example/ http:// www. www.x '
                   'http://192.168.0.1/admin?x=1 https://zh.wikipedia.org/wiki/%E4%B8%AD%E6%96%87 '
                   '"http://q.example.net/a/b",https://t.example/[x]} 访问http://example.cn获取'), 1),
    ('emails', s('Helge Kreutzmann <debian@helgefjell.de>, john.doe-1@mail-server.co.uk; '
                 'mailto:Me+Tag@Example.ORG a@b x@y.z. _under_score@host.example-1.net '
                 'www.site.com@other.org 2@3.4'), 1),
    ('percent-escapes', s('%62a%6e%61%6e%61 caf%C3%A9 cr%c3%a8me %E4%B8%AD%E6%96%87 %E4%B8 100% '
                          '50%off %0Aline %7F %25 %2541 %20spaced%20out%20 %zz %4'), 1),
    ('markup-page', s('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8" />'
                      '<title>Caf&eacute; &amp; Bar &#8212; Menu</title>'
                      '<style type="text/css">body { font: serif; }</style>'
                      '<script src="x.js"></script><SCRIPT>var span = "<p>";</SCRIPT>'
                      '</head><body><!-- nav --><div class="nav" id=\'m\'><a href="/a">Home</a></div>'
                      '<p class="lead">Fresh&nbsp;bread &lt;daily&gt; na&#xEF;ve&#160;prices</p>'
                      '<br/><?php echo 1; ?><xsl:value-of select="."/></body></html>'), 1),
    ('markup-edges', s('if (a<b && c>d) #include <stdio.h> std::vector<int> x; <b >bold</b> '
                       '&foo; &amp;lt; &#0; &#x110000; &#55296; &#65 &#1234567; &#x41; &AElig; &aelig; '
                       '&apos; &Amp; <!-- never closed <p>lost</p>'), 1),
    ('script-never-closed', s('before <script>var x = 1; after'), 1),
    ('markup-only', s('<html><body><br/><!-- x --></body></html>'), 1),
    ('numbers-see-also', s('SEE ALSO cmp(1), comm(1), diff3(1), sdiff(1), patch(1), wdiff(1)'), 1),
    ('numbers-table', s('1 2 3 1 2 3 3.14 3.14 1,000 1,000 ① ① ٣ ٣ 2024年 2024年 x86_64 x86_64 __ __ '
                        '2024-06-01 10:30 v1.2.3 v1.2.3'), 1),
    ('numbers-only', s('1 1 1 2 2 3'), 1),
    ('long-english-line', s(ENGLISH), 700),
    ('long-english-over-window', s(ENGLISH), 6500),
    ('long-chinese-over-window', s(CHINESE_ROTATED), 6100),
    ('long-words-no-white-space', s('abcdefghij\u00e9'), 100000),
]

# Every case with the defaults; the first ones also with the other tokenizers and options.
OTHER_OPTIONS = [
    'stop-words=none',
    'tokenizer=chars',
    'tokenizer=chars ngram=1',
    'tokenizer=chars ngram=5 stop-words=none',
    'tokenizer=word-ngrams',
    'tokenizer=word-ngrams ngram=2',
    'weighting=binary',
    'seed=1',
    'seed=18446744073709551615',
    'normalize=no',
    'normalize=no stop-words=none tokenizer=chars',
    'weighting=log-tf',
    'weighting=tf-idf',
    'weighting=tf-idf normalize=no',
    'weighting=tf-idf stop-words=none',
    'weighting=tf-idf tokenizer=word-ngrams ngram=1',
    'clean-text=no cap-numbers=no',
    'max-share=0',
    'weighting=log-tf max-share=0.05',
]
OTHER_OPTIONS_CASES = 23
# The cases of profile 3's text fixes also with each fix off and with the other tokenizers.
TEXT_FIX_OPTIONS = ['clean-text=no', 'cap-numbers=no', 'clean-text=no cap-numbers=no', 'stop-words=none',
                    'tokenizer=chars', 'tokenizer=word-ngrams', 'weighting=binary']
TEXT_FIX_CASES = ('url-list', 'emails', 'percent-escapes', 'markup-page', 'markup-edges',
                  'script-never-closed', 'markup-only', 'numbers-see-also', 'numbers-table', 'numbers-only',
                  'markup-html', 'markup-doctype', 'markup-markdown', 'urls', 'english-numbers')

HASH_SEEDS = [0, 1, 12345, 2 ** 64 - 1]
HASH_INPUTS = [b'', b'the', b'cat', s('中国人'), s('😀'), b'a' * 3, b'a' * 4, b'a' * 8, b'a' * 9,
               b'a' * 16, b'a' * 17, b'a' * 128, b'a' * 129, b'a' * 240, b'a' * 241,
               bytes(range(256)) * 4]


def vector_rows():
    rows = []
    for seed in HASH_SEEDS:
        for data in HASH_INPUTS:
            rows.append(['hash', str(seed), data.hex() if data else '-',
                         '%016x' % xxhash.xxh3_64_intdigest(data, seed=seed)])
    runs = [(label, data, repeat, '-') for label, data, repeat in CASES]
    for spec in OTHER_OPTIONS:
        runs += [(label, data, repeat, spec) for label, data, repeat in CASES[:OTHER_OPTIONS_CASES]]
    for spec in TEXT_FIX_OPTIONS:
        runs += [(label, data, repeat, spec) for label, data, repeat in CASES if label in TEXT_FIX_CASES]
    for label, data, repeat, spec in runs:
        r = fingerprint(data * repeat, Options(spec))
        result = r['reason'] or '%016x' % r['fingerprint']
        shown = decode(data)[0]
        rows.append(['fingerprint', label, spec, result, str(len(r['features'])),
                     str(r['occurrences']), str(r['invalid_utf8']), str(repeat),
                     data.hex() if data else '-',
                     json.dumps(shown if len(shown) <= 80 else shown[:80] + '...', ensure_ascii=False)])
    return rows


def vectors():
    print('# Golden fingerprints of simdex, default profile version %d (docs/fingerprint.md,' % PROFILE_VERSION)
    print('# "Changelog of the defaults"), made by tests/golden/make_golden.py vectors: PyICU %s'
          % icu.VERSION)
    print('# (ICU %s, Unicode %s), xxhash %s (libxxhash %s), Python %s.'
          % (icu.ICU_VERSION, icu.UNICODE_VERSION, xxhash.VERSION, xxhash.XXHASH_VERSION,
             sys.version.split()[0]))
    print('# Tab-separated rows:')
    print('#   profile VERSION')
    print('#   hash SEED INPUT_HEX XXH3_64_HEX                    ("-" for no bytes)')
    print('#   fingerprint LABEL OPTIONS RESULT FEATURES OCCURRENCES INVALID_UTF8 REPEAT INPUT_HEX TEXT')
    print('# OPTIONS: "-" for FingerprintOptions() or space-separated key=value (see make_golden.py);')
    print('# RESULT: 16 hex digits, or the empty reason; the input is INPUT_HEX repeated REPEAT times;')
    print('# TEXT: the decoded input (one repetition, at most 80 code points) as JSON, for the reader.')
    print('profile\t%d' % PROFILE_VERSION)
    for row in vector_rows():
        print('\t'.join(row))


def check():
    """Exit 0 iff the committed vectors file holds exactly the rows `vectors` prints."""
    with open(VECTORS_FILE, encoding='utf-8') as f:
        committed = [line.rstrip('\n') for line in f if not line.startswith('#')]
    made = ['profile\t%d' % PROFILE_VERSION] + ['\t'.join(row) for row in vector_rows()]
    if committed == made:
        print('ok: %s holds the %d rows the reference makes' % (os.path.basename(VECTORS_FILE), len(made)))
        return 0
    for i in range(max(len(committed), len(made))):
        a = committed[i] if i < len(committed) else '<none>'
        b = made[i] if i < len(made) else '<none>'
        if a != b:
            print('FAIL: row %d differs:\n  committed: %s\n  reference: %s' % (i + 1, a[:300], b[:300]))
            break
    print('FAIL: %d committed rows, %d made' % (len(committed), len(made)))
    return 1


def features_command(spec, text):
    options = Options(spec)
    r = fingerprint(text.encode('utf-8'), options)
    for f, w in r['features']:
        print('%s\t%s\t%016x' % (json.dumps(f, ensure_ascii=False), w, feature_hash(f, options.seed)))
    print('result', r['reason'] or '%016x' % r['fingerprint'], 'features', len(r['features']),
          'occurrences', r['occurrences'], 'invalid_utf8', r['invalid_utf8'])


def main(argv):
    if argv[1:] == ['vectors']:
        vectors()
        return 0
    if argv[1:] == ['check']:
        return check()
    if len(argv) in (3, 4) and argv[1] == 'features':
        features_command(argv[2] if len(argv) == 4 else '-', argv[-1])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
