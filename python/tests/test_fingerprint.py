"""Fingerprinter against `simdex fingerprint` on the bundled sample, for several option sets."""

import numpy as np
import pytest

import simdex
from conftest import parse_fp_file, read_jsonl

OPTION_SETS = [
    ({}, []),
    ({"compat": "python-simhash"}, ["--compat", "python-simhash"]),
    ({"tokenizer": "char-ngrams", "ngram": 4, "stop_words": "en", "weighting": "log-tf", "seed": 9},
     ["--tokenizer", "char-ngrams", "--ngram", "4", "--stop-words", "en", "--weighting", "log-tf", "--seed", "9"]),
    # Profile 2's fingerprints: the text fixes of profile 3 off.
    ({"clean_text": False, "cap_numbers": False}, ["--no-clean-text", "--no-cap-numbers"]),
    # Profile 3's: no share cap; and both weight caps set.
    ({"max_share": 0}, ["--max-share", "0"]),
    ({"max_share": 0.05, "tf_cap": 3}, ["--max-share", "0.05", "--tf-cap", "3"]),
]


@pytest.mark.parametrize("options,flags", OPTION_SETS)
def test_batch_fingerprints_equal_the_command_line(simdex_cli, sample, tmp_path, options, flags):
    out = tmp_path / "sample.fp"
    simdex_cli("fingerprint", "--quiet", "--text-field", "text", *flags, "-o", out, sample)
    want_ids, want = parse_fp_file(out.read_text())
    docs = read_jsonl(sample)
    fp = simdex.Fingerprinter(**options)
    got, reasons = fp.fingerprint_batch([d["text"] for d in docs], threads=2)
    assert got.dtype == np.uint64 and reasons.dtype == np.int8
    kept = reasons == 0
    assert [d["id"] for d, k in zip(docs, kept) if k] == want_ids
    np.testing.assert_array_equal(got[kept], want)
    # The single-text form and one thread agree with the batch.
    assert [fp.fingerprint(d["text"]) for d in docs[:50]] == [int(x) if k else None for x, k in zip(got[:50], kept[:50])]
    np.testing.assert_array_equal(fp.fingerprint_batch([d["text"] for d in docs], threads=1)[0], got)


def test_fingerprint_file_reads_what_the_command_reads(simdex_cli, sample, tmp_path):
    out = tmp_path / "sample.fp"
    simdex_cli("fingerprint", "--quiet", "--text-field", "text", "-o", out, sample)
    want_ids, want = parse_fp_file(out.read_text())
    part = simdex.fingerprint_file(sample, threads=2)
    kept = part["reasons"] == 0
    assert part["ids"][kept].tolist() == want_ids
    np.testing.assert_array_equal(part["fingerprints"][kept], want)


def test_empty_documents_have_no_fingerprint_and_a_reason():
    fp = simdex.Fingerprinter(stop_words=["the", "a"])
    fps, reasons = fp.fingerprint_batch(["", "   ", "!!!", "the a the", "real words here"])
    assert [simdex.parts.EMPTY_REASONS[r] for r in reasons] == ["no-text", "no-text", "no-features", "all-stop-words", ""]
    assert fps[:4].tolist() == [0, 0, 0, 0] and fps[4] != 0
    assert fp.fingerprint("") is None
    assert fp.details("!!!")["empty_reason"] == "no-features"


def test_features_and_their_weights_give_the_fingerprint():
    fp = simdex.Fingerprinter(max_share=0)  # tf weights as counted (profile 3)
    feats = fp.features("apache hadoop apache")
    assert feats == [("apache", 2.0), ("hadoop", 1.0)]
    assert fp.from_features(dict(feats)) == fp.fingerprint("apache hadoop apache")
    # The default's share cap (0.1): two features cannot be capped to it, so they weigh alike.
    capped = simdex.Fingerprinter()
    assert capped.features("apache hadoop apache") == [("apache", 1.0), ("hadoop", 1.0)]
    assert capped.from_features({"apache": 1, "hadoop": 1}) == capped.fingerprint("apache hadoop apache")
    assert fp.from_features({"Apache": 20, "hadoop": 25}) == fp.from_features([("Apache", 20), ("hadoop", 25)])
    assert fp.from_features({}) is None
    assert isinstance(fp.hash_feature("apache"), int)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -3.0, 1e308])
def test_weights_not_finite_negative_or_overflowing_are_refused(bad):
    # The library's one weight rule (CheckWeight): an idf dict, idf_default and
    # from_features weights alike; each gave fingerprint 0 or was accepted.
    rule = "a weight must be a finite number from 0 to 1e\\+288"
    with pytest.raises(ValueError, match="idf of 'apache' is .*: " + rule):
        simdex.Fingerprinter(idf={"apache": bad})
    with pytest.raises(ValueError, match="default idf is .*: " + rule):
        simdex.Fingerprinter(idf={"apache": 1.0}, idf_default=bad)
    with pytest.raises(ValueError, match="weight of feature 'hadoop' is .*: " + rule):
        simdex.Fingerprinter().from_features({"Apache": 20, "hadoop": bad})
    top = simdex.Fingerprinter(idf={"apache": 1e288}, idf_default=1e288)
    assert top.fingerprint("apache hadoop apache") is not None


def test_bad_options_and_texts_raise_clear_errors():
    with pytest.raises(ValueError, match="tokenizer 'bogus' is not one of words, char-ngrams, word-ngrams"):
        simdex.Fingerprinter(tokenizer="bogus")
    with pytest.raises(ValueError, match="ngram"):
        simdex.Fingerprinter(tokenizer="char-ngrams", ngram=99)
    with pytest.raises(ValueError):
        simdex.Fingerprinter(weighting="tf-idf")  # needs idf
    with pytest.raises(OSError):
        simdex.Fingerprinter(stop_words_file="/nonexistent/stop.txt")
    with pytest.raises(TypeError, match=r"texts\[1\] must be str or bytes, got int"):
        simdex.Fingerprinter().fingerprint_batch(["ok", 3])
    with pytest.raises(ValueError, match="threads must be >= 0"):
        simdex.Fingerprinter().fingerprint_batch(["ok"], threads=-1)
    with pytest.raises(TypeError, match="stop_words must be"):
        simdex.Fingerprinter(stop_words=[1, 2])
    with pytest.raises(TypeError, match="features must map str to a number"):
        simdex.Fingerprinter().from_features([("a", "heavy")])
    with pytest.raises(ValueError, match="keep 'best' is not first, longest or max:FIELD"):
        simdex.fingerprint_file("x.jsonl", keep="best")
