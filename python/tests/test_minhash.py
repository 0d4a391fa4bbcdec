"""simdex.MinHasher and the MinHash helpers against the golden vectors
(tests/golden/minhash_v1.tsv) and against `simdex dedup --method minhash`."""

import json
import os

import numpy as np
import pytest

import simdex
from conftest import SOURCE_DIR, read_jsonl


def golden_rows():
    path = os.path.join(SOURCE_DIR, "tests", "golden", "minhash_v1.tsv")
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            num_perm, seed, words, text, kind, sig, keys, b4, b8 = line.rstrip("\n").split("\t")
            yield int(num_perm), int(seed), words, json.loads(text), kind, sig, keys, b4, b8


@pytest.mark.parametrize("row", list(golden_rows()), ids=lambda r: r[2] + ":" + (r[3][:20] or "empty"))
def test_signatures_band_keys_and_packed_match_the_golden_vectors(row):
    num_perm, seed, words, text, kind, sig, keys, b4, b8 = row
    h = simdex.MinHasher(num_perm=num_perm, seed=seed, shingles=words)
    got = h.sign(text)
    assert got.dtype == np.uint32 and got.shape == (num_perm,)
    assert ",".join("%08x" % v for v in got) == sig
    assert ",".join("%016x" % k for k in simdex.parts.band_keys(got, num_perm // 4, 4)) == keys
    assert simdex.parts.pack_signature(got, 4).tobytes().hex() == b4
    assert simdex.parts.pack_signature(got, 8).tobytes().hex() == b8


def test_band_keys_and_pack_signature_take_the_batch_sign_batch_returns(sample):
    texts = [d["text"] for d in read_jsonl(sample)][:50] + [""]
    sigs, _ = simdex.MinHasher(num_perm=64).sign_batch(texts)
    keys, packed = simdex.parts.band_keys(sigs, 16, 4), simdex.parts.pack_signature(sigs, 4)
    assert keys.shape == (51, 16) and keys.dtype == np.uint64
    assert packed.shape == (51, 32) and packed.dtype == np.uint8
    for i, sig in enumerate(sigs):
        np.testing.assert_array_equal(keys[i], simdex.parts.band_keys(sig, 16, 4))
        np.testing.assert_array_equal(packed[i], simdex.parts.pack_signature(sig, 4))
    # The rows of pairs of documents, estimated row by row, as the self-join gives them.
    a, b = simdex.parts.band_pairs(keys)
    estimates = simdex.parts.estimate_packed(packed[a.astype(np.intp)], packed[b.astype(np.intp)], 64, 4)
    assert len(estimates) == len(a) and simdex.parts.pair_clusters(51, a, b).dtype == np.uint64
    with pytest.raises(ValueError, match="signatures must be C-contiguous"):
        simdex.parts.band_keys(np.zeros((3, 16), np.uint32)[:, ::2], 4, 2)


def test_batch_equals_single_texts_and_flags_empty_ones(sample):
    texts = [d["text"] for d in read_jsonl(sample)][:300] + ["", "   "]
    h = simdex.MinHasher(num_perm=64, threads=2)
    sigs, has = h.sign_batch(texts)
    assert sigs.shape == (len(texts), 64) and sigs.dtype == np.uint32 and has.dtype == np.bool_
    assert not has[-1] and not has[-2] and has[:300].all()
    assert (sigs[-1] == 0xFFFFFFFF).all()
    for i in (0, 7, 299):
        np.testing.assert_array_equal(sigs[i], h.sign(texts[i]))
    np.testing.assert_array_equal(h.sign_batch(texts, threads=1)[0], sigs)


def test_estimates_of_an_edited_copy():
    words = ["w%d" % i for i in range(200)]
    edited = list(words)
    edited[100] = "changed"
    h = simdex.MinHasher()
    a, b = h.sign(" ".join(words)), h.sign(" ".join(edited))
    truth = 191 / 201  # 196 shingles each, 5 changed
    assert abs(simdex.parts.minhash_estimate(a, b) - truth) < 0.1
    pa, pb = simdex.parts.pack_signature(a, 8), simdex.parts.pack_signature(b, 8)
    assert abs(simdex.parts.estimate_packed(pa, pb, 128, 8) - truth) < 0.1
    assert simdex.parts.minhash_estimate(a, h.sign("")) == 0.0


def test_bad_arguments_raise_value_error():
    with pytest.raises(ValueError):
        simdex.MinHasher(num_perm=0)
    with pytest.raises(ValueError):
        simdex.parts.band_keys(np.zeros(16, dtype=np.uint32), 5, 4)  # 20 rows > 16 values
    with pytest.raises(ValueError):
        simdex.parts.pack_signature(np.zeros(16, dtype=np.uint32), 3)
    with pytest.raises(TypeError):
        simdex.parts.minhash_estimate(np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64))
    assert simdex.parts.optimal_lsh_bands(0.8, 128) == (9, 13)
