"""simdex.Confirmer (include/simdex/confirm.h) and the confirmation's pieces of
simdex.dask (_confirm_file, _confirm_pairs): the similarity `simdex dedup --confirm`
writes for each pair, by the texts, by their shingle hashes, and by the pieces."""

import json
import math
import random

import numpy as np
import pytest

import simdex
from conftest import WORDS, read_jsonl

SPECS = ["jaccard-shingles:0.8", "jaccard:0.5", "jaccard-words3:0.4", "edit:0.9"]


def corpus(path, seed=3):
    """Texts of 40-80 words, each followed by an exact copy and one or two edited ones
    (1 to 6 words changed), and an empty text last."""
    rng = random.Random(seed)
    texts = []
    for _ in range(30):
        base = [rng.choice(WORDS) for _ in range(rng.randint(40, 80))]
        texts += [base, list(base)]
        for _ in range(rng.randint(1, 2)):
            copy = list(base)
            for _ in range(rng.randint(1, 6)):
                copy[rng.randrange(len(copy))] = rng.choice(WORDS)
            texts.append(copy)
    texts = [" ".join(t) for t in texts] + [""]
    with open(path, "w") as out:
        for i, t in enumerate(texts):
            out.write(json.dumps({"id": i + 1, "text": t}) + "\n")
    return texts


@pytest.mark.parametrize("spec", SPECS)
def test_similarity_is_what_the_command_writes_for_each_confirmed_pair(simdex_cli, tmp_path, spec):
    texts = corpus(tmp_path / "docs.jsonl")
    simdex_cli("dedup", "-q", "--method", "minhash", "--threshold", "0.5", "--confirm", spec, "--pairs",
               tmp_path / "pairs.jsonl", "-o", tmp_path / "out.jsonl", tmp_path / "docs.jsonl")
    pairs = read_jsonl(tmp_path / "pairs.jsonl")
    assert len(pairs) > 30
    confirmer = simdex.Confirmer(spec)
    for p in pairs:
        similarity = confirmer.similarity(texts[p["a"] - 1], texts[p["b"] - 1])
        assert float("%.6g" % similarity) == p["similarity"] and similarity >= confirmer.threshold
        assert confirmer.confirms(texts[p["a"] - 1], texts[p["b"] - 1])


def test_jaccard_of_the_shingles_is_the_similarity(tmp_path):
    texts = corpus(tmp_path / "docs.jsonl")
    for spec in SPECS[:3]:
        confirmer = simdex.Confirmer(spec)
        shingles = [confirmer.shingles(t) for t in texts]
        assert all(s.dtype == np.uint64 and np.all(s[1:] > s[:-1]) for s in shingles)
        for i in range(0, len(texts) - 1, 3):
            assert simdex.Confirmer.jaccard_of_shingles(shingles[i], shingles[i + 1]) == \
                confirmer.similarity(texts[i], texts[i + 1])
    assert simdex.Confirmer("jaccard-shingles:0.8").spec == "jaccard-shingles5:0.8"
    assert simdex.Confirmer("edit:0.6").measure == "edit" and simdex.Confirmer("edit:0.6").threshold == 0.6


@pytest.mark.parametrize("spec", SPECS)
def test_the_cluster_pieces_confirm_as_the_confirmer(tmp_path, spec):
    texts = corpus(tmp_path / "docs.jsonl")
    positions = np.array([0, 1, 2, 5, 6, 40, len(texts) - 1], dtype=np.uint32)
    lims, values = simdex._simdex._confirm_file(str(tmp_path / "docs.jsonl"), spec, positions)
    confirmer = simdex.Confirmer(spec)
    assert len(lims) == len(positions) + 1
    for row, p in enumerate(positions):
        piece = values[lims[row]:lims[row + 1]]
        if confirmer.measure == "jaccard":
            assert np.array_equal(piece, confirmer.shingles(texts[p]))
        else:
            assert piece.tobytes().decode() == texts[p]
    rows_a = np.array([0, 0, 1, 3, 4, 2, 6], dtype=np.uint64)
    rows_b = np.array([1, 2, 2, 4, 5, 6, 6], dtype=np.uint64)
    accepted, similarity = simdex._simdex._confirm_pairs(spec, lims, values, rows_a, rows_b)
    for x, y, ok, s in zip(rows_a, rows_b, accepted, similarity):
        a, b = texts[positions[x]], texts[positions[y]]
        assert ok == confirmer.confirms(a, b)
        if confirmer.measure == "edit" and not ok:
            assert math.isnan(s) or s < confirmer.threshold  # ruled out early, or computed
        else:
            assert s == confirmer.similarity(a, b)
    assert accepted.any() and not accepted.all()


def test_bad_specs_and_pieces_are_value_errors(tmp_path):
    corpus(tmp_path / "docs.jsonl")
    with pytest.raises(ValueError, match="confirm spec 'nope:1'"):
        simdex.Confirmer("nope:1")
    with pytest.raises(ValueError, match="needs a Jaccard spec"):
        simdex.Confirmer("edit:0.5").shingles("some text")
    path = str(tmp_path / "docs.jsonl")
    with pytest.raises(ValueError, match="holds no document at position 5000"):
        simdex._simdex._confirm_file(path, "jaccard:0.5", np.array([3, 5000], dtype=np.uint32))
    with pytest.raises(ValueError, match="positions must be increasing"):
        simdex._simdex._confirm_file(path, "jaccard:0.5", np.array([3, 3], dtype=np.uint32))
    lims, values = simdex._simdex._confirm_file(path, "jaccard:0.5", np.array([0, 1], dtype=np.uint32))
    with pytest.raises(ValueError, match="names a row past the 2 documents"):
        simdex._simdex._confirm_pairs("jaccard:0.5", lims, values, np.array([0], np.uint64), np.array([2], np.uint64))
    with pytest.raises(TypeError, match="values must be a numpy array of dtype uint8"):
        simdex._simdex._confirm_pairs("edit:0.5", lims, values, np.array([0], np.uint64), np.array([1], np.uint64))
