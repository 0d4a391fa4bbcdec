"""Index.reload, LshIndex.reload and their open(check_period=, preload=): a new file renamed into place is taken,
a damaged one refused while the old one keeps answering (docs/library.md)."""

import os
import time

import numpy as np
import pytest

import simdex

N = 2000


def build(path, version, scheme="t10"):
    """Version v: the same fingerprints, ids v * 10**6 + i, so that an answer says its version."""
    fps = np.random.default_rng(5).integers(0, 2**64, size=N, dtype=np.uint64)
    with simdex.IndexBuilder(str(path), scheme=scheme) as b:
        b.add(np.arange(N, dtype=np.uint64) + np.uint64(version * 10**6), fps)
    return fps


def put_in_place(src, dst):
    """As simdex build and merge do: a copy renamed over the served path."""
    tmp = str(dst) + ".tmp"
    with open(src, "rb") as f, open(tmp, "wb") as g:
        g.write(f.read())
    os.replace(tmp, dst)


def versions_of(index, fps):
    lims, ids, _, _ = index.search(fps[:50], 0)
    return set(int(i) // 10**6 for i in ids)


def test_reload_switches_to_a_renamed_file_and_refuses_a_damaged_one(tmp_path):
    served = tmp_path / "served.sdx"
    fps = build(tmp_path / "v1.sdx", 1)
    build(tmp_path / "v2.sdx", 2)
    put_in_place(tmp_path / "v1.sdx", served)
    index = simdex.Index.open(str(served))
    assert index.version == 1 and versions_of(index, fps) == {1}
    assert index.reload() is False

    put_in_place(tmp_path / "v2.sdx", served)
    assert index.reload() is True
    assert index.version == 2 and versions_of(index, fps) == {2}

    data = (tmp_path / "v1.sdx").read_bytes()
    (tmp_path / "cut.sdx").write_bytes(data[: len(data) // 2])
    put_in_place(tmp_path / "cut.sdx", served)
    with pytest.raises(simdex.CorruptionError):
        index.reload()
    assert index.version == 2 and versions_of(index, fps) == {2}
    assert index.reload() is False  # the refused file is not tried again


def test_reload_refuses_another_scheme(tmp_path):
    served = tmp_path / "served.sdx"
    build(tmp_path / "t10.sdx", 1)
    build(tmp_path / "t4.sdx", 2, scheme="t4")
    put_in_place(tmp_path / "t10.sdx", served)
    index = simdex.Index.open(str(served))
    put_in_place(tmp_path / "t4.sdx", served)
    with pytest.raises(ValueError, match="t4"):
        index.reload()
    assert index.scheme == "t10"


def test_preload_reads_and_locks(tmp_path):
    fps = build(tmp_path / "v1.sdx", 1)
    for preload in (True, "lock"):
        index = simdex.Index.open(str(tmp_path / "v1.sdx"), preload=preload)
        assert versions_of(index, fps) == {1}
    with pytest.raises(ValueError, match="preload"):
        simdex.Index.open(str(tmp_path / "v1.sdx"), preload="always")


def build_lsh(path, version, bands=None, rows=None):
    """A MinHash-LSH version: the same signatures, ids v * 10**6 + i."""
    signatures = np.random.default_rng(6).integers(0, 2**32 - 1, size=(300, 128), dtype=np.uint32)
    with simdex.LshIndexBuilder(str(path), bands=bands, rows=rows) as b:
        b.add(np.arange(300, dtype=np.uint64) + np.uint64(version * 10**6), signatures)
    return signatures


def lsh_versions_of(index, signatures):
    lims, ids, _ = index.search(signatures[:50])
    return set(int(i) // 10**6 for i in ids)


def test_lsh_index_reloads_refuses_another_layout_and_preloads(tmp_path):
    served = tmp_path / "served.sdx"
    signatures = build_lsh(tmp_path / "v1.sdx", 1)
    build_lsh(tmp_path / "v2.sdx", 2)
    build_lsh(tmp_path / "bands.sdx", 3, bands=32, rows=4)
    put_in_place(tmp_path / "v1.sdx", served)
    for open_lsh in (simdex.LshIndex.open, simdex.open_index):
        put_in_place(tmp_path / "v1.sdx", served)
        index = open_lsh(str(served), preload=True)
        assert isinstance(index, simdex.LshIndex)
        assert index.version == 1 and lsh_versions_of(index, signatures) == {1}
        assert index.reload() is False
        put_in_place(tmp_path / "v2.sdx", served)
        assert index.reload() is True
        assert index.version == 2 and lsh_versions_of(index, signatures) == {2}
        put_in_place(tmp_path / "bands.sdx", served)
        with pytest.raises(ValueError, match="32 bands of 4 rows"):
            index.reload()
        build(tmp_path / "sim.sdx", 4)
        put_in_place(tmp_path / "sim.sdx", served)
        with pytest.raises(ValueError, match="a SimHash index where a MinHash-LSH index is needed"):
            index.reload()
        assert index.version == 2 and lsh_versions_of(index, signatures) == {2}
        index.close()


@pytest.mark.parametrize("kind", ["simhash", "minhash-lsh"])
def test_check_period_reloads_in_the_background(tmp_path, kind):
    build_version, open_kind, versions = {
        "simhash": (build, simdex.Index.open, versions_of),
        "minhash-lsh": (build_lsh, simdex.LshIndex.open, lsh_versions_of),
    }[kind]
    served = tmp_path / "served.sdx"
    queries = build_version(tmp_path / "v1.sdx", 1)
    build_version(tmp_path / "v2.sdx", 2)
    put_in_place(tmp_path / "v1.sdx", served)
    index = open_kind(str(served), check_period=0.01)
    put_in_place(tmp_path / "v2.sdx", served)
    deadline = time.monotonic() + 30
    while index.version < 2 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert index.version == 2, "the background check did not switch within 30 s"
    assert versions(index, queries) == {2}
    index.close()
