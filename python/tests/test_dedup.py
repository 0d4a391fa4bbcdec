"""simdex.dedup against `simdex dedup` (records, pairs, keep list) and a brute-force oracle."""

import json

import numpy as np
import pytest

import simdex
from conftest import read_jsonl


def cli_dedup(simdex_cli, tmp_path, inputs, *flags):
    out, pairs, keep = tmp_path / "out.jsonl", tmp_path / "pairs.jsonl", tmp_path / "keep.txt"
    simdex_cli("dedup", "--quiet", "--method", "simhash", "--text-field", "text", "--pairs", pairs, "--keep-list", keep, "-o", out, *flags,
               *inputs)
    return read_jsonl(out), read_jsonl(pairs), keep.read_text().split()


@pytest.mark.parametrize("keep", ["first", "longest"])
def test_dedup_equals_the_command_line_on_the_sample(simdex_cli, sample, tmp_path, keep):
    want, want_pairs, want_keep = cli_dedup(simdex_cli, tmp_path, [sample], "--keep", keep)
    part = simdex.fingerprint_file(sample, keep=keep)
    result = simdex.dedup(part["fingerprints"], empty=part["reasons"], scores=part["scores"], pairs=True, threads=2)
    assert list(result.records(part["ids"], part["reasons"])) == want
    assert list(result.pair_records(part["ids"])) == want_pairs
    assert [str(i) for i in part["ids"][result.keep].tolist()] == want_keep
    assert result.stats["pairs"] == len(want_pairs)


def test_dedup_against_an_index_equals_the_command_line(simdex_cli, sample, tmp_path):
    stored = tmp_path / "stored.fp"
    simdex_cli("fingerprint", "--quiet", "--text-field", "text", "-o", tmp_path / "all.fp", sample)
    profile, *lines = (tmp_path / "all.fp").read_text().splitlines()  # the profile line first
    stored.write_text(profile + "\n" + "".join(l + "\n" for l in lines if int(l.split("\t")[0]) % 2))
    simdex_cli("build", "--quiet", "--out", tmp_path / "stored.sdx", stored)
    batch = tmp_path / "batch.jsonl"
    batch.write_text("".join(l for i, l in enumerate(open(sample)) if i % 2 == 1))
    for strategy in ("probe", "merge-join"):
        want, want_pairs, _ = cli_dedup(simdex_cli, tmp_path, [batch], "--against", tmp_path / "stored.sdx",
                                         "--against-strategy", strategy)
        part = simdex.fingerprint_file(batch)
        index = simdex.Index.open(str(tmp_path / "stored.sdx"))
        result = simdex.dedup(part["fingerprints"], empty=part["reasons"], against=[index], strategy=strategy,
                              pairs=True, profile=simdex.Fingerprinter().profile)
        got = list(result.records(part["ids"], part["reasons"], [index], [str(tmp_path / "stored.sdx")]))
        assert got == want
        assert any("against" in r for r in got)


def test_dedup_equals_brute_force_on_planted_clusters():
    rng = np.random.default_rng(1)
    centres = rng.integers(0, 2**64 - 1, 40, dtype=np.uint64)
    fps = []
    for c in centres:
        for flips in (0, 1, 2, 3, 5):
            x = int(c)
            for bit in rng.choice(64, flips, replace=False):
                x ^= 1 << int(bit)
            fps.append(x)
    fps = np.array(fps + rng.integers(0, 2**64 - 1, 100, dtype=np.uint64).tolist(), dtype=np.uint64)
    rng.shuffle(fps)
    for k in range(4):
        result = simdex.dedup(fps, k=k, pairs=True)
        want = [(a, b, bin(int(fps[a]) ^ int(fps[b])).count("1")) for a in range(len(fps))
                for b in range(a + 1, len(fps)) if bin(int(fps[a]) ^ int(fps[b])).count("1") <= k]
        a, b, d = result.pairs
        assert list(zip(a.tolist(), b.tolist(), d.tolist())) == want
        # Clusters are the connected components; the representative is the first member.
        parent = list(range(len(fps)))

        def find(x):
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x
        for x, y, _ in want:
            parent[find(x)] = find(y)
        first = {}
        for o in range(len(fps)):
            first.setdefault(find(o), o)
        assert result.representative.tolist() == [first[find(o)] for o in range(len(fps))]
        assert result.duplicate.tolist() == [first[find(o)] != o for o in range(len(fps))]
        sizes = [len(c) for c in result.clusters()]
        assert sum(sizes) == result.stats["clustered_documents"] and len(sizes) == result.stats["clusters"]


def test_dedup_input_errors_are_clear():
    with pytest.raises(TypeError, match="fingerprints must be a numpy array of dtype uint64"):
        simdex.dedup(np.zeros(3, dtype=np.float64))
    with pytest.raises(ValueError, match="empty and fingerprints differ in length"):
        simdex.dedup(np.zeros(3, dtype=np.uint64), empty=np.zeros(2, dtype=bool))
    with pytest.raises(ValueError, match="k 5 is larger than scheme t10 supports"):
        simdex.dedup(np.zeros(3, dtype=np.uint64), k=5)
    with pytest.raises(ValueError, match="near pair"):
        simdex.dedup(np.array([1, 2], dtype=np.uint64),
                     near_pairs=(np.array([1], np.uint64), np.array([4], np.uint64), np.array([1], np.uint8)))
