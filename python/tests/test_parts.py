"""The de-duplication's pieces as simdex.dask's workers call them (include/simdex/dedup_parts.h):
the shuffle's split into pieces, joins and nearest entries over pieces, and the assembly over
lists of arrays, against one array and brute force."""

import itertools

import numpy as np
import pytest

import simdex

# Scheme t10 as include/simdex/scheme.h defines it: blocks of 16, 12, 12, 12, 12 bits, block 0
# the most significant; k = 3, so each table leads with 2 blocks, table t with the t-th pair of
# blocks in lexicographic order; its key is those blocks' bits in block order.
T10_WIDTHS = (16, 12, 12, 12, 12)
T10_LEADING = list(itertools.combinations(range(5), 2))


def t10_key(fingerprint, table):
    """Table t's key: its leading blocks' bits, one after the other in block order."""
    key = 0
    for block in T10_LEADING[table]:
        shift = 64 - sum(T10_WIDTHS[:block + 1])
        key = (key << T10_WIDTHS[block]) | ((fingerprint >> shift) & ((1 << T10_WIDTHS[block]) - 1))
    return key


def t10_key_range(fingerprint, table, ranges):
    """The key range of a fingerprint in a t10 table: floor(key * ranges / 2^key_bits)
    (include/simdex/dedup_parts.h)."""
    key_bits = sum(T10_WIDTHS[block] for block in T10_LEADING[table])
    return t10_key(fingerprint, table) * ranges >> key_bits


def batch(seed=3, centres=300, members=4):
    """Centres with members 1-3 bits away, exact repeats, and empty documents (reasons)."""
    rng = np.random.default_rng(seed)
    c = rng.integers(0, 2**64 - 1, centres, dtype=np.uint64, endpoint=True)
    fps = [c]
    for m in range(members):
        flips = np.zeros(centres, np.uint64)
        for _ in range(1 + m % 3):
            flips |= np.uint64(1) << rng.integers(0, 64, centres).astype(np.uint64)
        fps.append(c ^ flips)
    fps.append(c[: centres // 5])  # repeats
    fps = np.concatenate(fps)
    fps = fps[rng.permutation(len(fps))]
    reasons = np.zeros(len(fps), np.int8)
    reasons[::17] = 2
    return fps, reasons


def brute_force_pairs(fps, k):
    d = np.unique(fps)
    x = d[:, None] ^ d[None, :]
    bits = np.array([bin(v).count("1") for v in range(256)], np.int64)
    dist = bits[x.view(np.uint8)].reshape(x.shape + (8,)).sum(axis=2)
    a, b = np.nonzero(np.triu(dist <= k, 1))
    return sorted(zip(d[a].tolist(), d[b].tolist(), dist[a, b].tolist()))


def as_triples(pairs):
    return sorted(zip(*(p.tolist() for p in pairs)))


def test_table_keys_and_key_ranges_follow_the_scheme_definition():
    fps, _ = batch()
    fps = np.concatenate([fps, np.array([0, 2**64 - 1, 1 << 63, (1 << 48) - 1], np.uint64)])
    for t in range(10):
        assert simdex.parts.table_keys(fps, t).tolist() == [t10_key(int(f), t) for f in fps]
        for ranges in (1, 3, 1000):
            assert simdex.parts.key_ranges(fps, t, ranges).tolist() == [t10_key_range(int(f), t, ranges) for f in fps]


@pytest.mark.parametrize("ranges", [1, 3])
def test_split_gives_each_range_its_tables_buckets_in_input_order_without_the_empty(ranges):
    fps, reasons = batch()
    tables = [4, 0, 9]
    pieces = simdex.parts.split_by_key_ranges(fps, tables, ranges, empty=reasons)
    assert len(pieces) == ranges
    kept = [int(f) for f, reason in zip(fps, reasons) if reason == 0]
    for r, (values, lims) in enumerate(pieces):
        assert values.dtype == np.uint64 and lims.dtype == np.int64 and len(lims) == len(tables) + 1
        for i, t in enumerate(tables):
            want = [f for f in kept if t10_key_range(f, t, ranges) == r]
            assert values[lims[i]:lims[i + 1]].tolist() == want
    total = sum(len(v) for v, _ in simdex.parts.split_by_key_ranges(fps, tables, ranges))
    assert total == len(fps) * len(tables)
    with pytest.raises(ValueError, match="entries"):
        simdex.parts.split_by_key_ranges(fps, tables, ranges, empty=reasons[:5])
    with pytest.raises(ValueError, match="ranges"):
        simdex.parts.split_by_key_ranges(fps, tables, 0)


def test_joins_over_the_partitions_pieces_find_every_pair_once():
    fps, _ = batch()
    parts = np.array_split(fps, 4)  # repeats fall into several partitions
    ranges = 3
    tables = simdex.parts.scheme_info("t10", 3)["tables_for_k"]
    splits = [simdex.parts.split_by_key_ranges(p, tables, ranges) for p in parts]
    got = []
    for r in range(ranges):
        pieces = [s[r] for s in splits]
        got += as_triples(simdex.parts.join_tables(
            [(t, [v[l[i]:l[i + 1]] for v, l in pieces]) for i, t in enumerate(tables)], 3))
    want = brute_force_pairs(fps, 3)
    assert len(want) > 500
    assert sorted(got) == want
    # One array, unsorted and with repeats, gives the same pairs as its pieces.
    one = as_triples(simdex.parts.join_tables([(t, fps) for t in tables], 3))
    assert one == want


def test_nearest_in_table_over_pieces_equals_over_one_array(tmp_path):
    fps, _ = batch(seed=5)
    stored = fps[::3] ^ np.uint64(1 << 7)
    with simdex.IndexBuilder(str(tmp_path / "s.sdx"), block_size=128) as b:
        b.add(np.arange(len(stored), dtype=np.uint64), stored)
    with simdex.Index.open(str(tmp_path / "s.sdx")) as index:
        for t in (0, 6):
            one = simdex.parts.nearest_in_table(index, fps, 3, t)
            pieces = simdex.parts.nearest_in_table(index, list(np.array_split(fps, 3)), 3, t)
            assert len(one[0]) > 10
            for a, b in zip(one, pieces):
                np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("with_scores", [False, True])
def test_assembly_over_lists_of_arrays_narrowed_equals_dedup_of_the_whole(with_scores):
    fps, reasons = batch(seed=9)
    scores = np.random.default_rng(1).integers(0, 3, len(fps)).astype(np.float64) if with_scores else None
    tables = simdex.parts.scheme_info("t10", 3)["tables_for_k"]
    pairs = simdex.parts.join_tables([(t, fps[reasons == 0]) for t in tables], 3)
    want = simdex.dedup(fps, empty=reasons, scores=scores, pairs=True)
    cut = [0, 100, 100, 900, len(fps)]  # an empty partition too
    chunks = lambda a: [a[x:y] for x, y in zip(cut[:-1], cut[1:])]
    halves = [tuple(p[: len(p) // 2] for p in pairs), tuple(p[len(p) // 2:] for p in pairs)]
    got = simdex._simdex._dedup(chunks(fps), empty=chunks(reasons), scores=None if scores is None else chunks(scores),
                                pairs=True, near_pairs=halves, narrow=True)
    assert got["representative"].dtype == np.uint32
    assert got["against_index"] is None and got["against_id"] is None and got["against_distance"] is None
    np.testing.assert_array_equal(got["representative"], want.representative)
    for name in ("distance", "duplicate", "empty"):
        np.testing.assert_array_equal(got[name], getattr(want, name))
    for a, b in zip(got["pairs"], want.pairs):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="differ in length"):
        simdex._simdex._dedup(chunks(fps), empty=chunks(reasons)[:2])
