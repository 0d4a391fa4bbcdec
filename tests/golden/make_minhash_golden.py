#!/usr/bin/env python3
"""Golden MinHash signatures, band keys and b-bit signatures, from a reference written apart
from the engine: include/simdex/shingles.h and include/simdex/minhash.h (docs/minhash.md) step
by step, with nothing from engine/.

  1. normalize: ICU's NFKC_Casefold (PyICU) over the decoded text;
  2. units: letters (general category L*) of Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar,
     Tibetan count one unit each, runs of other letters one unit (combining marks M* stay in
     their run); unspaced iff those scripts make >= 0.5 of the units;
  3. shingles: spaced text: words, by the definition, the runs of Unicode \\w characters
     (word-chars: Alphabetic, general category M*, Nd or Pc, or Join_Control; everything else
     separates) or the runs between Unicode White_Space (space-split), 5-word windows joined
     by one space (fewer words: one shingle, all of them); unspaced: white space removed,
     5-code-point windows; XXH3-64 of the UTF-8 bytes, seed 1 (words) or 2 (characters)
     (python3-xxhash);
  4. functions: SplitMix64 from the seed: a_i = next | 1, c_i = next;
     h_i(x) = ((a_i * x + c_i) mod 2^64) >> 32; signature[i] = min over the set (0xffffffff
     everywhere when there is no shingle);
  5. band j of r rows: XXH3-64 of the r values as little-endian 32-bit words, seed j;
  6. b-bit: the low b bits of each value, value i at bits [i*b, (i+1)*b), little-endian.

Commands (Debian's python3, with python3-icu and python3-xxhash):
  /usr/bin/python3 tests/golden/make_minhash_golden.py vectors > tests/golden/minhash_v1.tsv
  /usr/bin/python3 tests/golden/make_minhash_golden.py check
"""

import json
import os
import sys
import unicodedata

import icu
import xxhash

M64 = (1 << 64) - 1
UNSPACED = {icu.UScriptCode.HAN, icu.UScriptCode.HIRAGANA, icu.UScriptCode.KATAKANA, icu.UScriptCode.THAI,
            icu.UScriptCode.LAO, icu.UScriptCode.KHMER, icu.UScriptCode.MYANMAR, icu.UScriptCode.TIBETAN}
NORMALIZER = icu.Normalizer2.getNFKCCasefoldInstance()


def white_space(ch):
    return icu.Char.hasBinaryProperty(ch, icu.UProperty.WHITE_SPACE)


WORD_CATEGORIES = {icu.UCharCategory.NON_SPACING_MARK, icu.UCharCategory.ENCLOSING_MARK,
                   icu.UCharCategory.COMBINING_SPACING_MARK, icu.UCharCategory.DECIMAL_DIGIT_NUMBER,
                   icu.UCharCategory.CONNECTOR_PUNCTUATION}


def word_char(ch):
    return (icu.Char.hasBinaryProperty(ch, icu.UProperty.ALPHABETIC) or icu.Char.charType(ch) in WORD_CATEGORIES or
            icu.Char.hasBinaryProperty(ch, icu.UProperty.JOIN_CONTROL))


def shingles(text, words):
    t = NORMALIZER.normalize(text)
    unspaced_units = word_units = 0
    in_word = False
    for ch in t:
        cat = unicodedata.category(ch)
        if cat.startswith('L'):
            if icu.Script.getScript(ch).getScriptCode() in UNSPACED:
                unspaced_units += 1
                in_word = False
            elif not in_word:
                word_units += 1
                in_word = True
        elif not cat.startswith('M'):
            in_word = False
    units = unspaced_units + word_units
    unspaced = units > 0 and unspaced_units >= 0.5 * units
    if unspaced:
        parts = [ch for ch in t if not white_space(ch)]
        n, sep, seed = 5, '', 2
    else:
        separates = (lambda ch: not word_char(ch)) if words == 'word-chars' else white_space
        parts, word = [], ''
        for ch in t:
            if separates(ch):
                if word:
                    parts.append(word)
                word = ''
            else:
                word += ch
        if word:
            parts.append(word)
        n, sep, seed = 5, ' ', 1
    if not parts:
        return 'none', []
    windows = [parts] if len(parts) < n else [parts[i:i + n] for i in range(len(parts) - n + 1)]
    hashes = sorted({xxhash.xxh3_64_intdigest(sep.join(w).encode('utf-8'), seed) for w in windows})
    return ('chars' if unspaced else 'words'), hashes


def split_mix(state):
    state = (state + 0x9e3779b97f4a7c15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
    return state, z ^ (z >> 31)


def signature(hashes, num_perm, seed):
    state, funcs = seed, []
    for _ in range(num_perm):
        state, a = split_mix(state)
        state, c = split_mix(state)
        funcs.append((a | 1, c))
    return [min((((a * x + c) & M64) >> 32 for x in hashes), default=0xffffffff) for a, c in funcs]


def band_keys(sig, bands, rows):
    keys = []
    for j in range(bands):
        data = b''.join(v.to_bytes(4, 'little') for v in sig[j * rows:(j + 1) * rows])
        keys.append(xxhash.xxh3_64_intdigest(data, j))
    return keys


def packed(sig, bits):
    value = 0
    for i, v in enumerate(sig):
        value |= (v & ((1 << bits) - 1)) << (i * bits)
    return value.to_bytes((len(sig) * bits + 7) // 8, 'little')


CASES = [
    (16, 1, ''),
    (16, 1, ' \t\n '),
    (16, 1, 'hello'),
    (16, 1, 'Hello  World'),
    (16, 1, 'The quick brown fox jumps over the lazy dog.'),
    (16, 1, 'THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG.'),
    (16, 1, 'the quick brown fox jumps over the lazy dog. the quick brown fox jumps over the lazy cat.'),
    (16, 7, 'the quick brown fox jumps over the lazy dog. the quick brown fox jumps over the lazy cat.'),
    (8, 1, 'Ｆｕｌｌ－ｗｉｄｔｈ letters fold to ASCII ones ﬁne'),
    (16, 1, 'Größere Straßen führen über die Brücke nach Köln und weiter'),
    (16, 1, '近似重复文档检测是网页去重的基础技术'),
    (16, 1, 'simdex 在 2024 年支持中文文本的去重'),
    (32, 3, 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen'),
    (16, 1, 'Copyright (c) 2020, Some One <one@example.org>. All rights reserved.'),
    (16, 1, "It's x_1 naïve—café 2024 ٣ हिन्दी don't"),
    (16, 1, '--- *** ...'),
]
WORDS = ['space-split', 'word-chars']


def vectors():
    lines = ['# tests/golden/make_minhash_golden.py vectors: num_perm, seed, words (the word definition), '
             'text (JSON), kind, signature (hex, 32-bit values), band keys (num_perm / 4 bands of 4 rows, hex), '
             '4-bit signature (hex bytes), 8-bit signature (hex bytes)']
    for words, (num_perm, seed, text) in ((w, case) for w in WORDS for case in CASES):
        kind, hashes = shingles(text, words)
        sig = signature(hashes, num_perm, seed)
        keys = band_keys(sig, num_perm // 4, 4)
        lines.append('\t'.join([str(num_perm), str(seed), words, json.dumps(text, ensure_ascii=False), kind,
                                 ','.join('%08x' % v for v in sig), ','.join('%016x' % k for k in keys),
                                 packed(sig, 4).hex(), packed(sig, 8).hex()]))
    return '\n'.join(lines) + '\n'


def main(argv):
    if argv[1:] == ['vectors']:
        sys.stdout.write(vectors())
        return 0
    if argv[1:] == ['check']:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'minhash_v1.tsv')
        with open(path, encoding='utf-8') as f:
            if f.read() != vectors():
                print('make_minhash_golden.py: %s is not what `vectors` makes' % path, file=sys.stderr)
                return 1
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
