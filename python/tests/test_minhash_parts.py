"""The MinHash-LSH pieces of simdex.dask (simdex/_dask_minhash.py over
include/simdex/minhash_dedup_parts.h: the shuffles' splits by range, a reducer's band
join, the identical signatures, the pairs' expansion) and the bindings they call
(band_pairs, pair_clusters, estimate_packed by rows), against definitions computed here
by brute force."""

import itertools

import numpy as np
import pytest

import simdex
from simdex import _dask_minhash as dm

RANGE_EDGES = [0, 1, 2**63 - 1, 2**63, 2**64 - 1]


def key_range(key, ranges):
    """The range of a band key or digest: floor(key * ranges / 2^64)."""
    return key * ranges >> 64


def name(p, i):
    return (p << 32) | i


def hashed_keys(rng, n, bands, alphabet):
    """n x bands keys drawn from `alphabet` values per band, spread over 64 bits (so that
    every range gets some), many equal."""
    if alphabet > 1 << 16:  # practically all distinct
        return rng.integers(0, 2**64 - 1, (n, bands), dtype=np.uint64, endpoint=True)
    table = rng.integers(0, 2**64 - 1, (bands, alphabet), dtype=np.uint64, endpoint=True)
    return np.ascontiguousarray(table[np.arange(bands), rng.integers(0, alphabet, (n, bands))])


def shared_key_pairs(keys, banded, items):
    """Every pair (items[x], items[y]), x < y, both banded, that agree on some band."""
    out = set()
    for x, y in itertools.combinations(range(len(keys)), 2):
        if banded[x] and banded[y] and any(keys[x][j] == keys[y][j] for j in range(len(keys[x]))):
            out.add((items[x], items[y]))
    return out


def test_ranges_of_keys_are_floor_key_times_ranges_over_2_64():
    keys = RANGE_EDGES + np.random.default_rng(1).integers(0, 2**64 - 1, 500, dtype=np.uint64).tolist()
    for ranges in (1, 3, 7, 1000, 1 << 16):
        assert simdex._simdex.hash_ranges(np.array(keys, np.uint64), ranges).tolist() == [key_range(k, ranges) for k in keys]


@pytest.mark.parametrize("bands,alphabet", [(1, 3), (4, 30), (16, 1 << 40)])
def test_band_pairs_are_every_pair_sharing_a_band_key_once(bands, alphabet):
    rng = np.random.default_rng(bands)
    keys = hashed_keys(rng, 150, bands, alphabet)
    banded = rng.random(150) > 0.1
    a, b = simdex.parts.band_pairs(keys, banded)
    assert a.dtype == b.dtype == np.uint64  # the ordinals' one dtype: pair_clusters takes them as they are
    got = list(zip(a.tolist(), b.tolist()))
    assert got == sorted(shared_key_pairs(keys.tolist(), banded, list(range(150))))
    if alphabet < 100:
        assert len(got) > 100
    one = simdex.parts.band_pairs(np.ascontiguousarray(keys[:, 0]))  # a 1-D array is one band
    want = simdex.parts.band_pairs(np.ascontiguousarray(keys[:, :1]))
    assert all(np.array_equal(x, y) for x, y in zip(one, want))
    with pytest.raises(ValueError, match="banded holds 3 flags for 150 items"):
        simdex.parts.band_pairs(keys, banded[:3])


def partition(rng, n, bands, alphabet):
    keys = hashed_keys(rng, n, bands, alphabet)
    reasons = (rng.random(n) < 0.1).astype(np.int8)
    return {"keys": keys, "reasons": reasons}


@pytest.mark.parametrize("ranges", [1, 4])
def test_band_split_gives_each_range_the_keys_of_its_items_band_by_band_in_position_order(ranges):
    rng = np.random.default_rng(7)
    part = partition(rng, 300, 5, 1 << 30)
    followers = [(np.array([3, 10, 11], np.uint32), np.zeros(3, np.uint64)), (np.array([40], np.uint32),
                                                                                np.zeros(1, np.uint64))]
    skip = {3, 10, 11, 40}
    pieces = dm.band_split(part, 2, followers, ranges)
    assert len(pieces) == ranges
    items = [i for i in range(300) if part["reasons"][i] == 0 and i not in skip]
    for r, (values, owners, lims) in enumerate(pieces):
        assert len(lims) == 6 and lims[0] == 0 and lims[-1] == len(values) == len(owners)
        for j in range(5):
            want = [(int(part["keys"][i][j]), name(2, i)) for i in items
                    if key_range(int(part["keys"][i][j]), ranges) == r]
            assert list(zip(values[lims[j]:lims[j + 1]].tolist(), owners[lims[j]:lims[j + 1]].tolist())) == want
    assert sum(len(v) for v, _, _ in pieces) == 5 * len(items)


def test_each_reducer_finds_the_pairs_sharing_a_key_in_its_range_and_sends_them_to_the_first_items_partition():
    rng = np.random.default_rng(11)
    parts = [partition(rng, n, 4, 40) for n in (120, 0, 90)]
    ranges = 3
    splits = [dm.band_split(part, p, [], ranges) for p, part in enumerate(parts)]
    keys = [k for part in parts for k in part["keys"].tolist()]
    banded = [r == 0 for part in parts for r in part["reasons"]]
    items = [name(p, i) for p, part in enumerate(parts) for i in range(len(part["keys"]))]
    everything = set()
    for r in range(ranges):
        out = dm.band_reduce([s[r] for s in splits], len(parts))
        assert len(out) == len(parts)
        got = []
        for p, (a, b) in enumerate(out):
            assert all(x >> 32 == p for x in a.tolist())
            got += list(zip(a.tolist(), b.tolist()))
        assert len(got) == len(set(got))
        # The pairs that share a key whose range is r, in some band.
        in_range = [[k if key_range(k, ranges) == r else (-1 - x) * 7 - j for j, k in enumerate(row)]
                    for x, row in enumerate(keys)]
        assert set(got) == shared_key_pairs(in_range, banded, items)
        everything |= set(got)
    assert everything == shared_key_pairs(keys, banded, items)
    assert len(everything) > 200


def test_identical_signatures_follow_their_first_document_across_partitions():
    rng = np.random.default_rng(3)
    digests = [rng.integers(1, 40, n).astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15) for n in (50, 70, 0, 30)]
    parts = [{"digests": d, "reasons": (rng.random(len(d)) < 0.1).astype(np.int8)} for d in digests]
    ranges = 3
    splits = [dm.digest_split(part, p, ranges) for p, part in enumerate(parts)]
    reduced = [dm.digest_reduce([s[r] for s in splits], len(parts)) for r in range(ranges)]
    got = {}
    for pieces in reduced:
        for p, (positions, firsts) in enumerate(pieces):
            for i, f in zip(positions.tolist(), firsts.tolist()):
                got[name(p, i)] = f
    first = {}
    want = {}
    for p, part in enumerate(parts):
        for i, (d, reason) in enumerate(zip(part["digests"].tolist(), part["reasons"])):
            if reason:
                continue
            if d in first:
                want[name(p, i)] = first[d]
            else:
                first[d] = name(p, i)
    assert got == want and len(want) > 50


def test_expanded_pairs_are_every_two_copies_and_every_member_pair_of_the_kept_pairs():
    rng = np.random.default_rng(5)
    n = 60
    first_of = np.arange(n)
    for o in range(n):  # some documents are copies of an earlier one
        if o > 0 and rng.random() < 0.4:
            first_of[o] = first_of[rng.integers(0, o)]
    has = rng.random(n) > 0.1
    firsts = sorted({int(first_of[o]) for o in range(n) if has[o]})
    kept = sorted({tuple(sorted(rng.choice(firsts, 2, replace=False).tolist())) for _ in range(25)})
    a, b = (np.array(x, np.int64) for x in zip(*kept))
    estimates = rng.random(len(kept))
    items = {"offsets": np.array([0, n], np.uint64), "empty": ~has, "first_of": first_of.astype(np.uint64),
             "kept_a": a.astype(np.uint64), "kept_b": b.astype(np.uint64), "kept_estimates": estimates}
    got = simdex._simdex.minhash_document_pairs(items)
    want = []
    for x, y in itertools.combinations(range(n), 2):
        if not (has[x] and has[y]):
            continue
        if first_of[x] == first_of[y]:
            want.append((x, y, 1.0))
        for i, pair in enumerate(kept):
            if pair in ((first_of[x], first_of[y]), (first_of[y], first_of[x])):
                want.append((x, y, estimates[i]))
    assert list(zip(*(g.tolist() for g in got))) == want and len(want) > 50
    bad = dict(items, first_of=np.r_[1, first_of[1:]].astype(np.uint64))  # document 0 after its first copy
    with pytest.raises(ValueError, match=r"first_of\[0\] comes after it"):
        simdex._simdex.minhash_document_pairs(bad)
    with pytest.raises(ValueError, match="kept pair 0 is outside the 60 documents"):
        simdex._simdex.minhash_document_pairs(dict(items, kept_a=a.astype(np.uint64) + np.uint64(n)))


@pytest.mark.parametrize("with_scores", [False, True])
def test_pair_clusters_represent_each_component_by_its_best_score_then_smallest_ordinal(with_scores):
    rng = np.random.default_rng(2)
    n = 200
    a = rng.integers(0, n, 120).astype(np.uint64)
    b = rng.integers(0, n, 120).astype(np.uint64)
    scores = rng.integers(0, 4, n).astype(np.float64) if with_scores else None
    got = simdex.parts.pair_clusters(n, a, b, scores)
    parent = list(range(n))

    def root(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for x, y in zip(a.tolist(), b.tolist()):
        parent[root(x)] = root(y)
    members = {}
    for o in range(n):
        members.setdefault(root(o), []).append(o)
    want = [0] * n
    for group in members.values():
        best = max(group, key=lambda o: (scores[o] if with_scores else 0, -o))
        for o in group:
            want[o] = best
    assert got.tolist() == want
    with pytest.raises(ValueError, match="outside the 5 documents"):
        simdex.parts.pair_clusters(5, np.array([1], np.uint64), np.array([5], np.uint64))


def test_estimates_by_rows_equal_the_estimates_one_by_one():
    rng = np.random.default_rng(4)
    x = rng.integers(0, 256, (40, 64)).astype(np.uint8)
    y = x.copy()
    y[::2, ::3] ^= 1
    got = simdex.parts.estimate_packed(x, y, 128, 4)
    assert got.tolist() == [simdex.parts.estimate_packed(x[i], y[i], 128, 4) for i in range(40)]
    assert got[1] == 1.0 and got[0] < 1.0
    with pytest.raises(ValueError, match="differ in rows"):
        simdex.parts.estimate_packed(x, y[:3], 128, 4)
