"""The smaller parts of the Python API, each against what its documentation says, with oracles
written here: hamming_distance against bin().count, Index.info and IndexBuilder.add_one against
the file as tests/format_reader.py decodes it from docs/format.md, Index.verify against a damaged
block, NotSupportedError for a newer format version, and build_shards (no Dask) against the
shard ranges docs/distributed.md defines."""

import json
import os
import random
import struct

import numpy as np
import pytest
import xxhash

import simdex
from conftest import planted_entries
from format_reader import read_index


def test_hamming_distance_counts_the_differing_bits():
    rng = random.Random(3)
    pairs = [(0, 0), (0, 2**64 - 1), (0b1011, 0b0110), (1 << 63, 1)]
    pairs += [(rng.getrandbits(64), rng.getrandbits(64)) for _ in range(200)]
    for a, b in pairs:
        assert simdex.parts.hamming_distance(a, b) == bin(a ^ b).count("1")
    assert simdex.parts.hamming_distance(0, 2**64 - 1) == 64
    with pytest.raises(TypeError):
        simdex.parts.hamming_distance(-1, 0)
    with pytest.raises(TypeError):
        simdex.parts.hamming_distance(2**64, 0)


def test_info_describes_the_file_as_the_format_spec_reads_it(tmp_path):
    ids, fps = planted_entries(400, 1)
    path = tmp_path / "i.sdx"
    with simdex.IndexBuilder(str(path), scheme="t4", block_size=64, restarts=3) as b:
        b.add(ids, fps)
    decoded = read_index(path.read_bytes())
    info = simdex.Index.open(str(path)).info()
    assert info["entries"] == len(decoded["entries"]) == len(fps)
    assert info["distinct_fingerprints"] == len({f for _, f in decoded["entries"]}) == len(set(fps.tolist()))
    assert (info["widths"], info["k"], info["tables"]) == (decoded["widths"], decoded["k"], decoded["tables"])
    assert (info["widths"], info["k"], info["tables"]) == ([16, 16, 16, 16], 3, 4)
    assert (info["block_size"], info["restarts"], info["format_version"]) == (64, 3, 5)
    assert info["profile"] is None and decoded["profile"] is None  # built without one
    assert info["string_ids"] is False and info["id_map_strings"] == 0
    assert info["total_bytes"] == path.stat().st_size
    assert info["bits_per_entry"] == pytest.approx(8 * path.stat().st_size / len(fps))


def test_verify_passes_a_sound_file_and_names_a_damaged_block(tmp_path):
    ids, fps = planted_entries(400, 2)
    path = tmp_path / "v.sdx"
    with simdex.IndexBuilder(str(path), block_size=64) as b:
        b.add(ids, fps)
    simdex.Index.open(str(path)).verify()
    data = bytearray(path.read_bytes())
    data[64 + 64 * 3 + 20] ^= 0x04  # table 0, block 3 (block data starts at A = 64), inside its stream
    path.write_bytes(bytes(data))
    index = simdex.Index.open(str(path))  # opening reads the heads, not the blocks
    with pytest.raises(simdex.CorruptionError, match="block 3") as raised:
        index.verify()
    assert isinstance(raised.value, simdex.Error)


def test_add_one_adds_one_entry_as_add_does(tmp_path):
    ids, fps = planted_entries(120, 3)
    with simdex.IndexBuilder(str(tmp_path / "batch.sdx"), block_size=128) as b:
        b.add(ids, fps)
    with simdex.IndexBuilder(str(tmp_path / "one.sdx"), block_size=128) as b:
        for i, f in zip(ids.tolist(), fps.tolist()):
            b.add_one(i, f)
    one = (tmp_path / "one.sdx").read_bytes()
    assert one == (tmp_path / "batch.sdx").read_bytes()
    assert read_index(one)["entries"] == sorted(zip(ids.tolist(), fps.tolist()), key=lambda e: (e[1], e[0]))
    # A string id turns the build into one of string ids, the earlier numbers kept as decimal strings.
    with simdex.IndexBuilder(str(tmp_path / "mixed.sdx"), block_size=128) as b:
        b.add_one(7, 1 << 40)
        b.add_one("https://a.example/x", 3)
    assert read_index((tmp_path / "mixed.sdx").read_bytes())["entries"] == [("https://a.example/x", 3),
                                                                            ("7", 1 << 40)]
    with pytest.raises(ValueError):
        simdex.IndexBuilder(str(tmp_path / "bad.sdx")).add_one(1, -5)


def with_version(data, version):
    """The file's bytes with header and footer claiming another format version, their
    checksums made again (docs/format.md, "File header", "Footer")."""
    data = bytearray(data)
    struct.pack_into("<I", data, 8, version)
    struct.pack_into("<Q", data, 56, xxhash.xxh3_64_intdigest(bytes(data[:56])))
    footer = len(data) - 56
    struct.pack_into("<I", data, footer + 32, version)
    struct.pack_into("<Q", data, footer + 40, xxhash.xxh3_64_intdigest(bytes(data[footer:footer + 40])))
    return bytes(data)


def test_a_newer_format_version_is_not_supported_rather_than_corrupt(tmp_path):
    ids, fps = planted_entries(50, 4)
    with simdex.IndexBuilder(str(tmp_path / "a.sdx")) as b:
        b.add(ids, fps)
    data = (tmp_path / "a.sdx").read_bytes()
    (tmp_path / "same.sdx").write_bytes(with_version(data, 5))
    assert (tmp_path / "same.sdx").read_bytes() == data  # the rewriting itself changes nothing
    (tmp_path / "v7.sdx").write_bytes(with_version(data, 7))  # 6 is the sketch section's (LSH files)
    with pytest.raises(simdex.NotSupportedError, match="version 7") as raised:
        simdex.Index.open(str(tmp_path / "v7.sdx"))
    assert isinstance(raised.value, simdex.Error) and not isinstance(raised.value, simdex.CorruptionError)


def test_build_shards_without_dask_puts_each_fingerprint_in_its_range(tmp_path):
    ids, fps = planted_entries(600, 5)
    fps = np.concatenate([fps, np.array([0, 2**64 - 1, (1 << 64) // 3, (1 << 64) // 3 - 1], np.uint64)])
    ids = np.arange(1, len(fps) + 1, dtype=np.uint64)
    directory = tmp_path / "shards"
    assert simdex.build_shards(str(directory), ids, fps, shards=3, block_size=128) is None
    manifest = json.loads((directory / "shards.json").read_text())
    bounds = [(r << 64) // 3 for r in range(3)] + [1 << 64]  # docs/distributed.md
    assert [(s["lo"], s["hi"]) for s in manifest["shards"]] == list(zip(bounds[:-1], bounds[1:]))
    for r in range(3):
        decoded = read_index((directory / f"shard-{r:04d}.sdx").read_bytes())
        want = [(int(i), int(f)) for i, f in zip(ids, fps) if bounds[r] <= int(f) < bounds[r + 1]]
        assert decoded["entries"] == sorted(want, key=lambda e: (e[1], e[0]))
        assert decoded["block_size"] == 128
    sharded = simdex.open_index(str(directory))
    assert isinstance(sharded, simdex.ShardedIndex) and sharded.entries == len(fps)
    lims, got_ids, got_fps, dists = sharded.search(fps[:40], 2)
    for q in range(40):
        got = sorted(zip(got_ids[lims[q]:lims[q + 1]].tolist(), dists[lims[q]:lims[q + 1]].tolist()))
        want = sorted((int(i), bin(int(f) ^ int(fps[q])).count("1")) for i, f in zip(ids, fps)
                      if bin(int(f) ^ int(fps[q])).count("1") <= 2)
        assert got == want
