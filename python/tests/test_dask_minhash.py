"""simdex.dask.dedup(method="minhash") on a LocalCluster of two worker processes equals
`simdex dedup --method minhash` on one machine exactly (records with their estimates,
pairs with their estimates, keep list), on the bundled sample and on random corpora of
exact copies, edited copies, chains and empty texts, for several partition and reducer
counts; partitions signed otherwise are refused. MinHash-LSH is the default method, as
the command's; SimHash's options without method="simhash" are refused saying so."""

import json
import os
import random

import distributed  # noqa: F401 (scripts/deps.sh installs it: missing, these tests fail rather than skip)
import pytest

import simdex
import simdex.dask
from conftest import WORDS, read_jsonl


def command(simdex_cli, tmp_path, paths, *flags):
    out, pairs, keep = tmp_path / "out.jsonl", tmp_path / "pairs.jsonl", tmp_path / "keep.txt"
    simdex_cli("dedup", "--quiet", "--method", "minhash", "--text-field", "text", "--pairs", pairs, "--keep-list",
               keep, "-o", out, *flags, *paths)
    return read_jsonl(out), read_jsonl(pairs), keep.read_text().split()


def split_lines(path, directory, files):
    """The lines of a JSONL file dealt round-robin into `files` files."""
    with open(path) as f:
        lines = f.readlines()
    paths = []
    for i in range(files):
        paths.append(os.path.join(directory, f"part-{i}.jsonl"))
        with open(paths[-1], "w") as out:
            out.writelines(lines[i::files])
    return paths


def copies_corpus(directory, files, seed):
    """Random documents: bases of 20-120 words, exact copies of some (up to 6, also of
    short and one-word texts), copies with 1 to 25 words changed (J from near 1 to well
    below 0.8), chains of edits of edits, empty and white-space texts, and a "views"
    field with ties and nulls; shuffled over `files` JSONL files."""
    rng = random.Random(seed)
    texts = []
    for _ in range(120):
        base = [rng.choice(WORDS) for _ in range(rng.randint(20, 120))]
        texts.append(base)
        for _ in range(rng.choice([0, 0, 1, 2, 5])):  # exact copies
            texts.append(list(base))
        for _ in range(rng.choice([0, 1, 3])):  # edited copies
            copy = list(base)
            for _ in range(rng.randint(1, 25)):
                copy[rng.randrange(len(copy))] = rng.choice(WORDS)
            texts.append(copy)
        if rng.random() < 0.2:  # a chain: each an edit of the one before
            link = list(base)
            for _ in range(4):
                link = list(link)
                link[rng.randrange(len(link))] = rng.choice(WORDS)
                texts.append(link)
    texts += [[rng.choice(WORDS) for _ in range(rng.randint(1, 4))] for _ in range(10)]  # one-shingle texts
    texts += [texts[-1], texts[-1]]
    docs = [" ".join(t) for t in texts] + ["", "   ", "\t", ""]
    rng.shuffle(docs)
    paths = []
    for f in range(files):
        paths.append(os.path.join(directory, f"copies-{seed}-{f}.jsonl"))
        with open(paths[-1], "w") as out:
            for i in range(f, len(docs), files):
                views = None if i % 9 == 0 else (i * 7919) % 13
                out.write(json.dumps({"id": 5000 + i, "text": docs[i], "views": views}) + "\n")
    return paths


def check_equal(run, want, want_pairs, want_keep):
    assert list(run.records()) == want
    assert list(run.pair_records()) == want_pairs
    assert [str(i) for i in run.keep_ids()] == want_keep


@pytest.mark.parametrize("files,ranges,keep", [(1, 1, "first"), (3, 4, "first"), (4, 2, "longest")])
def test_minhash_cluster_dedup_equals_the_command_on_the_sample(client, sample, simdex_cli, tmp_path, files, ranges,
                                                                keep):
    paths = split_lines(sample, str(tmp_path), files)
    want, want_pairs, want_keep = command(simdex_cli, tmp_path, paths, "--keep", keep)
    run = simdex.dask.dedup(client, paths, method="minhash", keep=keep, ranges=ranges, pairs=True)
    assert len(want_pairs) > 400 and sum(r["duplicate"] for r in want) > 350
    check_equal(run, want, want_pairs, want_keep)
    assert run.tasks["joins"] == ranges


@pytest.mark.parametrize("seed,files,ranges,options", [
    (1, 2, 1, {}),
    (2, 5, 3, {"keep": "max:views"}),
    (3, 3, 2, {"threshold": 0.7, "num_perm": 64, "seed": 9, "signature_bits": 8, "estimate_filter": "off"}),
    (4, 4, 5, {"bands": 10, "rows": 4, "estimate_filter": 0.6}),
])
def test_minhash_cluster_dedup_equals_the_command_on_random_copies(client, simdex_cli, tmp_path, seed, files, ranges,
                                                                   options):
    paths = copies_corpus(str(tmp_path), files, seed)
    flags = []
    for name, value in options.items():
        flags += [f"--{name.replace('_', '-')}", str(value)]
    want, want_pairs, want_keep = command(simdex_cli, tmp_path, paths, *flags)
    run = simdex.dask.dedup(client, paths, method="minhash", ranges=ranges, pairs=True, **options)
    assert sum("empty" in r for r in want) == 4
    assert any(r["duplicate"] and r["estimate"] == 1 for r in want)  # exact copies
    assert any(r["duplicate"] and r["estimate"] < 1 for r in want)  # edited ones
    check_equal(run, want, want_pairs, want_keep)


def test_minhash_partitions_signed_otherwise_are_refused_naming_both(client, tmp_path):
    paths = copies_corpus(str(tmp_path), 2, 5)
    parts = simdex.dask.sign_files(client, paths[:1]) + simdex.dask.sign_files(client, paths[1:], num_perm=64)
    with pytest.raises(ValueError) as error:
        simdex.dask.dedup_partitions(client, parts, method="minhash")
    message = str(error.value)
    assert "\n" not in message and message.startswith("partition 1 is signed as")
    assert "perm:64" in message and "perm:128" in message
    # The same profile with other bands (a threshold's) makes the keys incomparable too.
    parts = simdex.dask.sign_files(client, paths, threshold=0.5)
    with pytest.raises(ValueError, match=r"partition 0 is signed as .*, \d+ bands x \d+ rows.* this run signs as "
                                         r".*21 bands x 6 rows"):
        simdex.dask.dedup_partitions(client, parts, method="minhash")
    with pytest.raises(ValueError, match="partition 0 holds SimHash fingerprints"):
        simdex.dask.dedup_partitions(client, simdex.dask.fingerprint_files(client, paths), method="minhash")
    with pytest.raises(ValueError, match=r"^partition 0 holds SimHash fingerprints .*: pass method='simhash' for "
                                         "these$"):
        simdex.dask.dedup_partitions(client, simdex.dask.fingerprint_files(client, paths))
    with pytest.raises(ValueError, match="sign_files"):
        simdex.dask.dedup_partitions(client, simdex.dask.sign_files(client, paths), method="simhash", ranges=1)
    # Every task of the SimHash plan that reads a partition refuses a MinHash one alike, so
    # that the error does not depend on which task fails first (the assembly's input used
    # to fail with a KeyError when it ran before the shuffle's split).
    signed = client.gather(simdex.dask.sign_files(client, paths[:1]))[0]
    for task in (simdex.dask._assembly_input, simdex.dask._fingerprints):
        with pytest.raises(ValueError, match="sign_files"):
            task(signed)


def test_minhash_options_and_simhash_options_do_not_mix(client, tmp_path):
    paths = copies_corpus(str(tmp_path), 1, 6)
    with pytest.raises(ValueError, match="k is a SimHash option"):
        simdex.dask.dedup(client, paths, method="minhash", k=3)
    with pytest.raises(ValueError, match="num_perm is a MinHash option"):
        simdex.dask.dedup(client, paths, method="simhash", num_perm=64)
    with pytest.raises(ValueError, match="bands and rows go together"):
        simdex.dask.dedup(client, paths, method="minhash", bands=4)
    with pytest.raises(ValueError, match="bands 20 x rows 8 is more than num_perm 128"):
        simdex.dask.dedup(client, paths, method="minhash", bands=20, rows=8)
    with pytest.raises(ValueError, match="threshold 1.5 is not in"):
        simdex.dask.dedup(client, paths, method="minhash", threshold=1.5)


def test_default_method_equals_the_command_without_method(client, sample, simdex_cli, tmp_path):
    # simdex dedup's default method is MinHash-LSH (docs/minhash.md); so is simdex.dask's.
    paths = split_lines(sample, str(tmp_path), 3)
    out, pairs, keep = tmp_path / "out.jsonl", tmp_path / "pairs.jsonl", tmp_path / "keep.txt"
    simdex_cli("dedup", "--quiet", "--text-field", "text", "--pairs", pairs, "--keep-list", keep, "-o", out, *paths)
    run = simdex.dask.dedup(client, paths, ranges=2, pairs=True)
    assert isinstance(run.result, simdex.MinHashDedupResult)
    assert len(read_jsonl(pairs)) > 400
    check_equal(run, read_jsonl(out), read_jsonl(pairs), keep.read_text().split())


@pytest.mark.parametrize("option", [{"k": 3}, {"scheme": "t10"}, {"memory": 1 << 20}, {"tmpdir": "/tmp"},
                                    {"fingerprint_options": {"seed": 3}}])
def test_simhash_options_without_method_say_to_pass_method_simhash(client, tmp_path, option):
    paths = copies_corpus(str(tmp_path), 1, 42)
    name = next(iter(option))
    with pytest.raises(ValueError, match=f"^{name} is a SimHash option; the default method is 'minhash', as simdex "
                                         "dedup's: pass method='simhash' for SimHash$"):
        simdex.dask.dedup(client, paths, **option)
    if name != "fingerprint_options":
        with pytest.raises(ValueError, match=f"^{name} is a SimHash option; the default method is 'minhash'"):
            simdex.dask.dedup_partitions(client, simdex.dask.fingerprint_files(client, paths), **option)
    simdex.dask.dedup(client, paths, method="simhash", ranges=1, **option)  # what the message says works
