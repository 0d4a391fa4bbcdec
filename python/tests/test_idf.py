"""Learned idf in Python against the command line on the bundled labelled set and sample:
Fingerprinter(idf="auto") against `simdex fingerprint --idf auto`, Fingerprinter.learn_idf + Fingerprinter(idf=table) and a
file `simdex idf` wrote against `simdex fingerprint --idf FILE`, fingerprints equal bit for bit."""

import numpy as np
import pytest

import simdex
from conftest import SOURCE_DIR, parse_fp_file, read_jsonl

EDITS = f"{SOURCE_DIR}/tests/data/eval/edits.jsonl"

OPTION_SETS = [
    ({}, []),
    ({"tokenizer": "word-ngrams", "ngram": 2, "stop_words": "en", "seed": 9},
     ["--tokenizer", "word-ngrams", "--ngram", "2", "--stop-words", "en", "--seed", "9"]),
    ({"clean_text": False, "cap_numbers": False}, ["--no-clean-text", "--no-cap-numbers"]),
]


def command_line(simdex_cli, tmp_path, path, *flags):
    out = tmp_path / "out.fp"
    simdex_cli("fingerprint", "--quiet", "--text-field", "text", *flags, "-o", out, path)
    return parse_fp_file(out.read_text())


@pytest.mark.parametrize("options,flags", OPTION_SETS)
def test_idf_auto_equals_the_command_lines_idf_auto(simdex_cli, tmp_path, options, flags):
    want_ids, want = command_line(simdex_cli, tmp_path, EDITS, "--idf", "auto", "--id", "ordinal", *flags)
    texts = [d["text"] for d in read_jsonl(EDITS)]
    fp = simdex.Fingerprinter(idf="auto", **options)
    first = None
    for threads in (1, 3):
        got, reasons = fp.fingerprint_batch(texts, threads=threads)
        kept = reasons == 0
        assert [i + 1 for i, k in enumerate(kept) if k] == want_ids
        np.testing.assert_array_equal(got[kept], want)
        first = got if first is None else first
        np.testing.assert_array_equal(got, first)
    # The file read twice, as the command reads it.
    part = simdex.fingerprint_file(EDITS, fp, id_mode="ordinal", threads=2)
    np.testing.assert_array_equal(part["fingerprints"][part["reasons"] == 0], want)
    # The same idf learned once and given as a table.
    table = simdex.Fingerprinter(**options).learn_idf(texts, threads=2)
    assert table.documents == len(texts) and len(table) > 500
    np.testing.assert_array_equal(simdex.Fingerprinter(idf=table, **options).fingerprint_batch(texts)[0], first)
    # Unlike tf: the learned weights change fingerprints.
    assert (simdex.Fingerprinter(**options).fingerprint_batch(texts)[0] != first).sum() > len(texts) // 2


def test_a_learned_table_and_the_file_simdex_idf_writes_weigh_other_texts_alike(simdex_cli, sample, tmp_path):
    idf_file = tmp_path / "sample.idf"
    simdex_cli("idf", "--quiet", "--text-field", "text", "-o", idf_file, sample)
    want_ids, want = command_line(simdex_cli, tmp_path, EDITS, "--idf", idf_file, "--id", "ordinal")
    edits = [d["text"] for d in read_jsonl(EDITS)]
    # The file: its #default-idf line weighs the terms it does not list.
    got, reasons = simdex.Fingerprinter(idf=str(idf_file)).fingerprint_batch(edits)
    kept = reasons == 0
    assert [i + 1 for i, k in enumerate(kept) if k] == want_ids
    np.testing.assert_array_equal(got[kept], want)
    # The table learned in Python from the same documents.
    table = simdex.Fingerprinter().learn_idf([d["text"] for d in read_jsonl(sample)], memory=1 << 20)
    np.testing.assert_array_equal(simdex.Fingerprinter(idf=table).fingerprint_batch(edits)[0][kept], want)
    fp = simdex.Fingerprinter()
    assert table.idf_of_hash(fp.hash_feature("license")) < table.default_idf


def test_a_capped_log_tf_idf_equals_the_command_lines(simdex_cli, tmp_path):
    flags = ["--weighting", "log-tf-idf", "--idf", "auto", "--idf-cap", "2"]
    want_ids, want = command_line(simdex_cli, tmp_path, EDITS, *flags, "--id", "ordinal")
    texts = [d["text"] for d in read_jsonl(EDITS)]
    fp = simdex.Fingerprinter(weighting="log-tf-idf", idf="auto", idf_cap=2.0)
    got, reasons = fp.fingerprint_batch(texts, threads=2)
    kept = reasons == 0
    assert [i + 1 for i, k in enumerate(kept) if k] == want_ids
    np.testing.assert_array_equal(got[kept], want)
    part = simdex.fingerprint_file(EDITS, fp, id_mode="ordinal", threads=2)
    np.testing.assert_array_equal(part["fingerprints"][part["reasons"] == 0], want)
    # learn_idf(idf_cap=) gives the table, which holds only the features below the cap.
    capped = simdex.Fingerprinter().learn_idf(texts, idf_cap=2.0)
    assert capped.default_idf == 2.0 and 0 < len(capped) < len(simdex.Fingerprinter().learn_idf(texts))
    table_fp = simdex.Fingerprinter(weighting="log-tf-idf", idf=capped)
    np.testing.assert_array_equal(table_fp.fingerprint_batch(texts)[0], got)
    assert " log-tf-idf:" in table_fp.profile


def test_learned_idf_options_that_cannot_work_raise_clear_errors():
    auto = simdex.Fingerprinter(idf="auto")
    with pytest.raises(ValueError, match="idf='auto' learns the idf from a batch"):
        auto.fingerprint("a text")
    with pytest.raises(ValueError, match="idf='auto' learns the idf from a batch"):
        auto.features("a text")
    assert isinstance(auto.hash_feature("text"), int)
    with pytest.raises(ValueError, match="python-simhash profile has no idf weighting"):
        simdex.Fingerprinter(idf="auto", compat="python-simhash")
    with pytest.raises(simdex.NotSupportedError):
        simdex.Fingerprinter(compat="python-simhash").learn_idf(["a text"])
    with pytest.raises(ValueError, match="weighting 'log-tf' contradicts it"):
        simdex.Fingerprinter(idf={"a": 2.0}, weighting="log-tf")
    with pytest.raises(ValueError, match="weighting 'log-tf-idf' needs an idf"):
        simdex.Fingerprinter(weighting="log-tf-idf")
    with pytest.raises(ValueError, match="idf_cap caps the idf that idf='auto' learns"):
        simdex.Fingerprinter(idf={"a": 2.0}, idf_cap=1.0)
    with pytest.raises(ValueError, match="idf_cap must be above 0"):
        simdex.Fingerprinter(idf="auto", idf_cap=0.0)
    table = simdex.Fingerprinter().learn_idf(["one text", "another text"])
    with pytest.raises(ValueError, match="seed"):
        simdex.Fingerprinter(idf=table, seed=5)
    with pytest.raises(ValueError, match="idf_default applies to an idf dict or file"):
        simdex.Fingerprinter(idf=table, idf_default=2.0)
    with pytest.raises(ValueError, match="memory bound"):
        simdex.Fingerprinter().learn_idf(["a"], memory=1000)
