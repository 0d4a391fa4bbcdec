"""simdex.dask.dedup(method="minhash") with against (MinHash-LSH indexes) and confirm
equals `simdex dedup --method minhash --against ... --confirm ...` on one machine, record
for record (with the "against" field), pair for pair (with the similarity), the keep list
and the counts of the command's summary; indexes the command refuses are refused."""

import json
import os
import random
import re
import subprocess

import distributed  # noqa: F401 (scripts/deps.sh installs it: missing, these tests fail rather than skip)
import numpy as np
import pytest

import simdex
import simdex.dask
from conftest import BINARY_DIR, WORDS, read_jsonl
from test_dask_minhash import check_equal, copies_corpus, split_lines


def command(tmp_path, paths, *flags):
    """`simdex dedup --method minhash` with its summary: (records, pairs, keep list, the
    summary's counts)."""
    out, pairs, keep = tmp_path / "out.jsonl", tmp_path / "pairs.jsonl", tmp_path / "keep.txt"
    args = [os.path.join(BINARY_DIR, "bin", "simdex"), "dedup", "--method", "minhash", "--text-field", "text",
            "--pairs", pairs, "--keep-list", keep, "-o", out, *flags, *paths]
    done = subprocess.run(list(map(str, args)), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return read_jsonl(out), read_jsonl(pairs), keep.read_text().split(), summary_counts(done.stderr)


def summary_counts(stderr):
    """The counts of the command's summary lines, named as the result's stats."""
    found = {}
    patterns = {
        "documents": r"dedup: (\d+) documents? \(", "empty": r"\((\d+) empty",
        "distinct_signatures": r"(\d+) distinct signatures?", "candidates": r"(\d+) candidate pairs?, \d+ kept",
        "kept": r"(\d+) kept", "document_pairs": r"(\d+) document pairs?", "clusters": r"(\d+) clusters? of",
        "clustered_documents": r"clusters? of (\d+) documents?", "against_duplicates": r"(\d+) documents? with a match",
        "confirm_candidates": r"confirmation: (\d+) candidate", "confirmed": r"(\d+) accepted by",
    }
    for name, pattern in patterns.items():
        match = re.search(pattern, stderr)
        if match:
            found[name] = int(match.group(1))
    return found


def check_same(run, got):
    want, want_pairs, want_keep, counts = got
    check_equal(run, want, want_pairs, want_keep)
    assert {name: run.result.stats[name] for name in counts} == counts


def build_lsh(simdex_cli, path, docs, *flags):
    """A MinHash-LSH index of docs [(id, text)] built by `simdex build --method minhash`."""
    source = str(path) + ".jsonl"
    with open(source, "w") as out:
        for i, text in docs:
            out.write(json.dumps({"id": i, "text": text}) + "\n")
    simdex_cli("build", "--method", "minhash", "--text-field", "text", "--out", path, *flags, source)
    return str(path)


def edited(rng, words, changes):
    copy = list(words)
    for _ in range(changes):
        copy[rng.randrange(len(copy))] = rng.choice(WORDS)
    return copy


def stored_and_batch(simdex_cli, directory, seed):
    """Two indexes and a batch of 3 files. "old" (string ids) holds edited copies of
    bases 0-49 and exact copies of 50-59; "exact" (numeric ids, 26 x 3 bands and 8-bit
    signatures: other than the batch's, as the command allows) holds exact copies of
    30-69. The batch holds every base, edits of some, copies, and empty texts. So bases
    30-49 have a better match in the second index, 50-59 an equal one in both."""
    rng = random.Random(seed)
    bases = [[rng.choice(WORDS) for _ in range(rng.randint(80, 140))] for _ in range(90)]
    old = [(f"old-{i}", " ".join(edited(rng, b, rng.randint(1, 2)))) for i, b in enumerate(bases[:50])]
    old += [(f"old-{50 + i}", " ".join(b)) for i, b in enumerate(bases[50:60])]
    exact = [(9000 + i, " ".join(b)) for i, b in enumerate(bases[30:70], start=30)]
    first = build_lsh(simdex_cli, os.path.join(directory, "old.sdx"), old)
    second = build_lsh(simdex_cli, os.path.join(directory, "exact.sdx"), exact, "--threshold", "0.5",
                       "--signature-bits", "8")
    texts = [" ".join(b) for b in bases]
    texts += [" ".join(edited(rng, b, rng.randint(1, 3))) for b in bases[::4]]
    texts += texts[:5] + ["", "  "]
    rng.shuffle(texts)
    paths = []
    for f in range(3):
        paths.append(os.path.join(directory, f"batch-{f}.jsonl"))
        with open(paths[-1], "w") as out:
            for i in range(f, len(texts), 3):
                out.write(json.dumps({"id": 100 + i, "text": texts[i]}) + "\n")
    return first, second, paths


def test_minhash_against_one_index_equals_the_command_on_the_sample(client, sample, simdex_cli, tmp_path):
    with open(sample) as f:
        lines = f.readlines()
    stored = tmp_path / "stored.jsonl"
    stored.write_text("".join(lines[:1200]))
    index = str(tmp_path / "stored.sdx")
    simdex_cli("build", "--method", "minhash", "--text-field", "text", "--out", index, stored)
    paths = split_lines(sample, str(tmp_path), 3)
    got = command(tmp_path, paths, "--against", index)
    run = simdex.dask.dedup(client, paths, method="minhash", against=[index], ranges=2, pairs=True)
    assert got[3]["against_duplicates"] > 1000 and sum("against" in r for r in got[0]) == got[3]["against_duplicates"]
    check_same(run, got)
    assert run.against == [index]


def test_minhash_against_two_indexes_takes_the_best_estimate_then_the_first_index(client, simdex_cli, tmp_path):
    first, second, paths = stored_and_batch(simdex_cli, str(tmp_path), 11)
    runs = {}
    for order in ([first, second], [second, first]):
        got = command(tmp_path, paths, *[x for index in order for x in ("--against", index)])
        run = simdex.dask.dedup(client, paths, method="minhash", against=order, ranges=3, pairs=True)
        check_same(run, got)
        runs[tuple(order)] = got[0]
    matched = [r["against"] for r in runs[(first, second)] if "against" in r]
    # Both indexes win somewhere: the second where its estimate is higher (an exact copy
    # against an edited one), the first where they tie; the order changes the ties.
    assert {m["index"] for m in matched} == {first, second}
    assert any(isinstance(m["id"], str) for m in matched) and any(isinstance(m["id"], int) for m in matched)
    assert runs[(first, second)] != runs[(second, first)]


def test_minhash_against_an_index_signed_otherwise_is_refused_naming_both(client, simdex_cli, tmp_path):
    paths = copies_corpus(str(tmp_path), 2, 21)
    other = build_lsh(simdex_cli, tmp_path / "perm64.sdx", [(1, "some words of a stored text here")], "--num-perm",
                      "64")
    with pytest.raises(ValueError) as error:
        simdex.dask.dedup(client, paths, method="minhash", against=[other])
    message = str(error.value)
    assert message.startswith(f"{other} holds signatures of") and "\n" not in message
    assert "perm:64" in message and "perm:128" in message
    seeded = build_lsh(simdex_cli, tmp_path / "seed9.sdx", [(1, "some words of a stored text here")], "--seed", "9")
    with pytest.raises(ValueError, match=r"seed9.sdx holds signatures of .*seed:9.*this batch is signed as .*seed:1"):
        simdex.dask.dedup(client, paths, method="minhash", against=[seeded])
    # Partitions queried in other indexes (or another filter) than the run's are refused too.
    index = build_lsh(simdex_cli, tmp_path / "ok.sdx", [(1, "some words of a stored text here")])
    parts = simdex.dask.sign_files(client, paths, against=[index], approximate=True)
    with pytest.raises(ValueError, match=r"partition 0 was queried in .*ok.sdx.* this run is against no index"):
        simdex.dask.dedup_partitions(client, parts, method="minhash", approximate=True)
    with pytest.raises(ValueError, match=r"at estimate filter 0.729.*this run is against .*at estimate filter off"):
        simdex.dask.dedup_partitions(client, parts, method="minhash", against=[index], estimate_filter="off",
                                     approximate=True)


def test_minhash_against_a_simhash_index_or_a_shard_directory_is_refused_naming_it(client, tmp_path):
    paths = copies_corpus(str(tmp_path), 1, 22)
    fingerprints = np.array([1, 2, 3], dtype=np.uint64)
    simhash = str(tmp_path / "simhash.sdx")
    with simdex.IndexBuilder(simhash) as builder:
        builder.add(np.arange(3, dtype=np.uint64), fingerprints)
        builder.finish()
    with pytest.raises(ValueError, match=f"^{simhash}: a SimHash index where a MinHash-LSH index is needed"):
        simdex.dask.dedup(client, paths, method="minhash", against=[simhash])
    shards = str(tmp_path / "shards")
    simdex.build_shards(shards, np.arange(3, dtype=np.uint64), fingerprints, shards=2)
    with pytest.raises(ValueError, match=f"^{shards} is a directory: shard directories hold SimHash indexes"):
        simdex.dask.dedup(client, paths, method="minhash", against=[shards])


def test_simhash_against_a_minhash_lsh_index_is_refused_naming_it(client, simdex_cli, tmp_path):
    paths = copies_corpus(str(tmp_path), 1, 23)
    index = build_lsh(simdex_cli, tmp_path / "lsh.sdx", [(1, "some words of a stored text here")])
    with pytest.raises(ValueError, match=f"^{index}: a MinHash-LSH index where a SimHash index is needed"):
        simdex.dask.dedup(client, paths, method="simhash", against=[index])


@pytest.mark.parametrize("spec,files,ranges,options", [
    ("jaccard-shingles:0.8", 3, 2, {}),
    ("jaccard:0.9", 2, 3, {"keep": "longest"}),
    ("edit:0.93", 4, 1, {"threshold": 0.7, "estimate_filter": "off"}),
])
def test_minhash_confirm_equals_the_command(client, tmp_path, spec, files, ranges, options):
    # The spec confirms the candidates of --approximate (its bands and filter), which
    # are compared without it.
    paths = copies_corpus(str(tmp_path), files, 31)
    options = dict(options, approximate=True)
    flags = ["--approximate"]
    for name, value in options.items():
        if name != "approximate":
            flags += [f"--{name.replace('_', '-')}", str(value)]
    unconfirmed = command(tmp_path, paths, *flags)
    got = command(tmp_path, paths, *flags, "--confirm", spec)
    run = simdex.dask.dedup(client, paths, method="minhash", confirm=spec, ranges=ranges, pairs=True, **options)
    check_same(run, got)
    # The confirmation rejected some pairs (and so changed the clusters), and the pairs
    # carry their similarity.
    assert 0 < got[3]["confirmed"] < got[3]["confirm_candidates"] == unconfirmed[3]["document_pairs"]
    assert got[0] != unconfirmed[0] and all("similarity" in p for p in got[1])
    off = simdex.dask.dedup(client, paths, method="minhash", ranges=ranges, pairs=True, **options)
    check_same(off, unconfirmed)


def test_minhash_against_and_confirm_together_equal_the_command(client, simdex_cli, tmp_path):
    first, second, paths = stored_and_batch(simdex_cli, str(tmp_path), 12)
    got = command(tmp_path, paths, "--against", second, "--against", first, "--confirm", "jaccard-shingles:0.9",
                  "--keep", "longest")
    parts = simdex.dask.sign_files(client, paths, against=[second, first], keep="longest")
    run = simdex.dask.dedup_partitions(client, parts, method="minhash", against=[second, first],
                                       confirm="jaccard-shingles:0.9", pairs=True)
    check_same(run, got)
    assert run.tasks["confirm_reads"] == run.tasks["confirm_checks"] == 3


def test_minhash_confirm_and_simhash_options_do_not_mix(client, tmp_path):
    paths = copies_corpus(str(tmp_path), 1, 24)
    with pytest.raises(ValueError, match="confirm spec 'jaccard:2'"):
        simdex.dask.dedup(client, paths, method="minhash", confirm="jaccard:2")
    with pytest.raises(ValueError, match="confirm is method='minhash''s on the cluster"):
        simdex.dask.dedup(client, paths, method="simhash", confirm="jaccard:0.5")
