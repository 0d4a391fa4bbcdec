"""simdex.dedup of documents in process (method="minhash", the command's default for
documents, and method="simhash"): the same records, pairs and clusters as `simdex dedup`
on the same files and options (include/simdex/batch.h runs both), texts given in memory
alike, and bad options refused naming them."""

import gzip
import json

import numpy as np
import pytest

import simdex
from conftest import planted_corpus, read_jsonl


def command(simdex_cli, tmp_path, inputs, *options):
    out, pairs, keep, clusters = (tmp_path / name for name in ("out.jsonl", "pairs.jsonl", "keep.txt", "clusters.jsonl"))
    simdex_cli("dedup", "-q", "-o", out, "--pairs", pairs, "--keep-list", keep, "--clusters", clusters, *options,
               *inputs)
    return read_jsonl(out), read_jsonl(pairs), keep.read_text().split(), read_jsonl(clusters)


def cluster_ids(result):
    """Each cluster of two or more, as the sorted ids of its members."""
    return sorted(sorted(result.ids[members].tolist()) for members in result.clusters())


@pytest.mark.parametrize("options", [(), ("--threshold", "0.7"), ("--confirm", "jaccard-shingles:0.8"),
                                     ("--keep", "longest", "--estimate-filter", "off"),
                                     ("--num-perm", "64", "--signature-bits", "8")])
def test_files_give_the_commands_records_pairs_and_clusters(simdex_cli, sample, tmp_path, options):
    records, pairs, keep, clusters = command(simdex_cli, tmp_path, [sample], "--text-field", "text", *options)
    kwargs = {"text_fields": ["text"], "pairs": True, "threads": 2}
    flags = dict(zip(options[::2], options[1::2]))
    if "--threshold" in flags:
        kwargs["threshold"] = float(flags["--threshold"])
    if "--confirm" in flags:
        kwargs["confirm"] = flags["--confirm"]
    if "--keep" in flags:
        kwargs["keep"] = flags["--keep"]
    if "--estimate-filter" in flags:
        kwargs["estimate_filter"] = flags["--estimate-filter"]
    if "--num-perm" in flags:
        kwargs["num_perm"] = int(flags["--num-perm"])
        kwargs["signature_bits"] = int(flags["--signature-bits"])
    result = simdex.dedup(files=[sample], **kwargs)
    assert list(result.records()) == records
    assert list(result.pair_records()) == pairs
    assert [str(i) for i in result.ids[result.keep].tolist()] == keep
    assert cluster_ids(result) == sorted(sorted(m["id"] for m in c["members"]) for c in clusters)
    assert result.stats["clusters"] == len(clusters)


def test_several_files_and_string_ids_as_the_command(simdex_cli, tmp_path):
    paths = planted_corpus(str(tmp_path), files=3)
    strings = tmp_path / "strings.jsonl"
    with open(strings, "w") as out:
        for i, rec in enumerate(read_jsonl(paths[0])):
            out.write(json.dumps({"id": f"doc-{i}", "text": rec["text"]}) + "\n")
    inputs = paths + [str(strings)]
    records, pairs, _, _ = command(simdex_cli, tmp_path, inputs, "--allow-duplicate-ids")
    result = simdex.dedup(files=inputs, pairs=True, allow_duplicate_ids=True)
    assert result.ids.dtype == object
    assert list(result.records()) == records
    assert list(result.pair_records()) == pairs


def test_texts_in_memory_are_decided_as_the_same_texts_in_a_file(sample):
    texts = [rec["text"] for rec in read_jsonl(sample)]
    from_files = simdex.dedup(files=[sample], text_fields=["text"])
    from_texts = simdex.dedup(texts, threads=2)
    assert from_texts.ids.tolist() == list(range(len(texts)))
    assert np.array_equal(from_texts.representative, from_files.representative)
    assert np.array_equal(from_texts.estimate, from_files.estimate)
    assert np.array_equal(from_texts.empty, from_files.empty)
    # bytes too, and scores for keep="max:FIELD".
    scores = np.arange(len(texts), dtype=np.float64)
    by_score = simdex.dedup([t.encode() for t in texts], keep="max:views", scores=scores)
    for members in by_score.clusters():
        assert by_score.representative[members[0]] == members.max()


def test_against_an_index_marks_the_batch_documents_it_holds(simdex_cli, sample, tmp_path):
    corpus, batch = tmp_path / "corpus.jsonl", tmp_path / "batch.jsonl"
    lines = open(sample).read().splitlines()
    corpus.write_text("\n".join(lines[::2]) + "\n")
    with gzip.open(str(batch) + ".gz", "wt") as out:
        out.write("\n".join(lines[1::2]) + "\n")
    index = tmp_path / "corpus.sdx"
    simdex_cli("build", "-q", "--method", "minhash", "--text-field", "text", "--out", index, corpus)
    out = tmp_path / "out.jsonl"
    simdex_cli("dedup", "-q", "--text-field", "text", "--against", index, "-o", out, str(batch) + ".gz")
    result = simdex.dedup(files=[str(batch) + ".gz"], text_fields=["text"], against=[index])
    assert result.stats["against_duplicates"] > 0
    assert list(result.records(against_names=[str(index)])) == read_jsonl(out)


def test_bad_options_are_refused_naming_them(sample, tmp_path):
    cases = [({"threshold": 1.5}, "threshold 1.5 is not in (0, 1]"),
             ({"signature_bits": 3}, "signature_bits 3 is not 1, 2, 4, 8, 16 or 32"),
             ({"num_perm": 0}, "num_perm 0 is not 1..1024"),
             ({"memory": 1000}, "memory_bytes 1000 is below the minimum"),
             ({"bands": 4}, "bands and rows go together"),
             ({"confirm": "cosine:0.5"}, "cosine:0.5"),
             ({"estimate_filter": "sometimes"}, "estimate_filter 'sometimes'"),
             ({"keep": "max:views"}, "pass scores=")]
    for options, message in cases:
        with pytest.raises(ValueError) as error:
            simdex.dedup(["some text here and there", "other"], **options)
        assert message in str(error.value), (options, str(error.value))
    with pytest.raises(ValueError, match="give the documents"):
        simdex.dedup()
    with pytest.raises(ValueError, match="method 'lsh' is not simhash or minhash"):
        simdex.dedup(["a"], method="lsh")
    with pytest.raises(ValueError, match="fingerprints are SimHash's"):
        simdex.dedup(np.zeros(3, dtype=np.uint64), method="minhash")
    with pytest.raises(simdex.NotFoundError, match="missing.jsonl: No such file or directory"):
        simdex.dedup(files=[str(tmp_path / "missing.jsonl")])


def test_two_documents_with_one_id_are_refused_unless_allowed(tmp_path):
    path = tmp_path / "twice.jsonl"
    path.write_text('{"id": 7, "text": "one text"}\n{"id": 8, "text": "another"}\n{"id": 7, "text": "a third"}\n')
    with pytest.raises(ValueError, match="twice.jsonl:3: duplicate id '7' .first at .*twice.jsonl:1.; ids must be unique"):
        simdex.dedup(files=[path])
    assert sum(1 for _ in simdex.dedup(files=[path], allow_duplicate_ids=True).records()) == 3


@pytest.mark.parametrize("options", [(), ("--k", "5"), ("--idf", "auto"), ("--confirm", "jaccard-shingles:0.8"),
                                     ("--confirm", "edit:0.8", "--k-short", "6", "--keep", "longest"),
                                     ("--tokenizer", "char-ngrams", "--scheme", "t20")])
def test_simhash_files_give_the_commands_records_pairs_and_clusters(simdex_cli, sample, tmp_path, options):
    records, pairs, keep, clusters = command(simdex_cli, tmp_path, [sample], "--method", "simhash", "--text-field",
                                             "text", *options)
    kwargs = {"method": "simhash", "text_fields": ["text"], "pairs": True, "threads": 2}
    flags = dict(zip(options[::2], options[1::2]))
    for flag, name, kind in (("--k", "k", int), ("--k-short", "k_short", int), ("--confirm", "confirm", str),
                             ("--keep", "keep", str), ("--scheme", "scheme", str)):
        if flag in flags:
            kwargs[name] = kind(flags[flag])
    if "--idf" in flags:
        kwargs["fingerprinter"] = simdex.Fingerprinter(idf="auto")
    if "--tokenizer" in flags:
        kwargs["fingerprinter"] = simdex.Fingerprinter(tokenizer=flags["--tokenizer"])
    result = simdex.dedup(files=[sample], **kwargs)
    assert isinstance(result, simdex.DedupResult)
    assert list(result.records()) == records
    assert list(result.pair_records()) == pairs
    assert [str(i) for i in result.ids[result.keep].tolist()] == keep
    assert cluster_ids(result) == sorted(sorted(m["id"] for m in c["members"]) for c in clusters)
    assert result.stats["duplicates"] == len(records) - len(keep)


def test_simhash_texts_are_decided_as_their_fingerprints_and_as_a_file(sample, tmp_path):
    texts = [rec["text"] for rec in read_jsonl(sample)]
    fingerprints, reasons = simdex.Fingerprinter().fingerprint_batch(texts)
    want = simdex.dedup(fingerprints, empty=reasons, k=3)
    got = simdex.dedup(texts, method="simhash", threads=2)
    assert np.array_equal(got.representative, want.representative)
    assert np.array_equal(got.distance, want.distance)
    assert np.array_equal(got.reasons, reasons)
    assert got.ids.tolist() == list(range(len(texts)))
    from_file = simdex.dedup(files=[sample], method="simhash", text_fields=["text"])
    assert np.array_equal(from_file.representative, got.representative)


def test_simhash_against_an_index_as_the_command(simdex_cli, sample, tmp_path):
    corpus = tmp_path / "corpus.fp"
    simdex_cli("fingerprint", "-q", "--text-field", "text", "-o", corpus, sample)
    profile, *lines = corpus.read_text().splitlines()
    corpus.write_text(profile + "\n" + "".join(l + "\n" for l in lines if int(l.split("\t")[0]) % 3 == 0))
    index = tmp_path / "corpus.sdx"
    simdex_cli("build", "-q", "--out", index, corpus)
    out = tmp_path / "out.jsonl"
    simdex_cli("dedup", "-q", "--method", "simhash", "--text-field", "text", "--against", index, "-o", out, sample)
    result = simdex.dedup(files=[sample], method="simhash", text_fields=["text"],
                          against=[simdex.Index.open(str(index))])
    assert result.stats["against_matches"] > 0
    assert list(result.records()) == read_jsonl(out)
    with pytest.raises(ValueError, match="k 5 is larger than the index's scheme t10 supports"):
        simdex.dedup(files=[sample], method="simhash", k=5, against=[simdex.Index.open(str(index))])
