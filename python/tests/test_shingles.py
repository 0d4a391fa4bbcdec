"""The word definition of the shingles (``shingles=``, include/simdex/shingles.h) in
MinHasher, LshIndexBuilder / LshIndex, simdex.dedup and simdex.dask's layout: two texts
that differ in their punctuation only are one document under "word-chars", two under
"space-split"; an index keeps its definition."""

import numpy as np
import pytest

import simdex
from simdex import _dask_minhash

WORDS = " ".join("w%d" % i for i in range(40))
# A comma after every third word: every window of five words holds one.
PUNCTUATED = " ".join(w + ("," if i % 3 == 2 else "") for i, w in enumerate(WORDS.split()))
PROFILE = "simdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold%s perm:128 seed:1"


@pytest.mark.parametrize("shingles", ["word-chars", "space-split"])
def test_minhasher_signs_a_punctuated_copy_by_its_definition(shingles):
    h = simdex.MinHasher(shingles=shingles)
    assert h.shingles == shingles
    assert h.profile == PROFILE % (" word-chars" if shingles == "word-chars" else "")
    same = np.array_equal(h.sign(WORDS), h.sign(PUNCTUATED))
    assert same == (shingles == "word-chars")
    assert simdex.MinHasher().shingles == "word-chars"  # the default: the field's common definition


def test_a_bad_definition_raises_value_error(tmp_path):
    for make in (lambda: simdex.MinHasher(shingles="words-w"),
                 lambda: simdex.LshIndexBuilder(str(tmp_path / "x.sdx"), shingles="spaces"),
                 lambda: simdex.dedup([WORDS, PUNCTUATED], shingles="")):
        with pytest.raises(ValueError, match="is not word-chars or space-split"):
            make()


@pytest.mark.parametrize("shingles", ["word-chars", "space-split"])
def test_dedup_finds_the_punctuated_copy_under_word_chars_only(shingles):
    result = simdex.dedup([WORDS, PUNCTUATED, "something else entirely"], shingles=shingles, pairs=True)
    assert result.stats["clustered_documents"] == (2 if shingles == "word-chars" else 0)


@pytest.mark.parametrize("shingles", ["word-chars", "space-split"])
def test_an_index_keeps_its_definition(shingles, tmp_path):
    path = str(tmp_path / "i.sdx")
    with simdex.LshIndexBuilder(path, shingles=shingles) as b:
        b.add_texts([1], [PUNCTUATED])
    index = simdex.LshIndex.open(path)
    assert index.shingles == shingles
    lims, ids, _ = index.search_texts([WORDS])
    assert list(ids[lims[0]:lims[1]]) == ([1] if shingles == "word-chars" else [])
    # dedup against it takes its definition unless told otherwise, and refuses the other.
    result = simdex.dedup([WORDS], against=[path])
    assert result.stats["against_duplicates"] == (1 if shingles == "word-chars" else 0)
    other = "space-split" if shingles == "word-chars" else "word-chars"
    with pytest.raises(ValueError, match="holds signatures of"):
        simdex.dedup([WORDS], against=[path], shingles=other)


def test_dask_layout_signs_and_checks_by_its_definition():
    run = _dask_minhash.layout(shingles="space-split")
    assert run["signing"]["shingles"] == "space-split"
    assert run["layout"][0] == PROFILE % ""
    assert run["exact_confirm"] == "jaccard-shingles/space-split:0.8"
    assert _dask_minhash.layout()["signing"]["shingles"] == "word-chars"
    assert _dask_minhash.confirm_spec("jaccard-shingles3:0.7", "space-split") == "jaccard-shingles3/space-split:0.7"
    assert _dask_minhash.confirm_spec("jaccard-shingles/word-chars:0.7", "space-split") == \
        "jaccard-shingles/word-chars:0.7"
    assert _dask_minhash.confirm_spec("edit:0.7", "space-split") == "edit:0.7"
