"""LshIndexBuilder, LshIndex and merge_lsh against a brute-force oracle written from
docs/minhash.md alone (band keys with python3-xxhash, the b-bit estimate, the default filter),
against `simdex build --method minhash` / `simdex query`, and the refusal of the other kind."""

import json
import os
import math
import struct

import numpy as np
import pytest
import xxhash

import simdex
from conftest import read_jsonl

EMPTY = 0xFFFFFFFF


def clustered_signatures(n, num_perm, seed):
    """About n signatures: clusters of 1 to 4 copies of a random one, each copy with a random
    share (0 to 40%) of its values redrawn, plus two empty signatures."""
    rng = np.random.default_rng(seed)
    rows = []
    while len(rows) < n - 2:
        base = rng.integers(0, 2**32 - 1, num_perm, dtype=np.uint32)
        for _ in range(rng.integers(1, 5)):
            copy = base.copy()
            redraw = rng.random(num_perm) < rng.random() * 0.4
            copy[redraw] = rng.integers(0, 2**32 - 1, int(redraw.sum()), dtype=np.uint32)
            rows.append(copy)
    rows += [np.full(num_perm, EMPTY, np.uint32)] * 2
    return np.array(rows[:n], dtype=np.uint32)


def band_keys(signature, bands, rows):
    # docs/minhash.md, "Band keys": XXH3-64 of the rows as little-endian 32-bit words, seed = band.
    return [xxhash.xxh3_64_intdigest(struct.pack("<%dI" % rows, *map(int, signature[j * rows:(j + 1) * rows])), seed=j)
            for j in range(bands)]


def estimate(a, b, bits):
    # docs/minhash.md, "b-bit signatures": the share of equal low-b-bit values, corrected.
    mask = (1 << bits) - 1 if bits < 32 else 0xFFFFFFFF
    p = sum((int(x) & mask) == (int(y) & mask) for x, y in zip(a, b)) / len(a)
    chance = 0.0 if bits >= 32 else 1.0 / (1 << bits)
    return min(1.0, max(0.0, (p - chance) / (1 - chance)))


def brute_force(ids, signatures, queries, bands, rows, bits, min_estimate):
    """(id, estimate) lists per query, in id order: every document that shares a band key with
    the query (the empty signature is in no band) and whose estimate is at least min_estimate."""
    def keys(s):
        return set() if (s == EMPTY).all() else set(enumerate(band_keys(s, bands, rows)))
    stored = [keys(s) for s in signatures]
    out = []
    for q in queries:
        qk = keys(q)
        found = []
        for i, s, k in zip(ids, signatures, stored):
            if qk & k:
                e = estimate(q, s, bits)
                if e >= min_estimate:
                    found.append((i, e))
        out.append(sorted(found))
    return out


def as_lists(lims, ids, estimates):
    return [[(ids[j] if isinstance(ids[j], str) else int(ids[j]), float(estimates[j]))
             for j in range(int(lims[i]), int(lims[i + 1]))] for i in range(len(lims) - 1)]


def assert_same(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert [i for i, _ in g] == [i for i, _ in w]
        np.testing.assert_allclose([e for _, e in g], [e for _, e in w], rtol=0, atol=1e-12)


@pytest.mark.parametrize("num_perm,bands,rows,bits,block_size,codec", [
    (64, 8, 8, 4, 4096, "ef"), (32, 16, 2, 1, 64, "card"), (128, None, None, 8, 128, "auto")])
def test_query_equals_brute_force_over_the_same_signatures(tmp_path, num_perm, bands, rows, bits, block_size, codec):
    sigs = clustered_signatures(400, num_perm, num_perm)
    ids = np.random.default_rng(1).permutation(10**6 + np.arange(len(sigs), dtype=np.uint64))
    path = str(tmp_path / "l.sdx")
    with simdex.LshIndexBuilder(path, num_perm=num_perm, bands=bands, rows=rows, signature_bits=bits,
                                block_size=block_size, codec=codec) as b:
        b.add(ids, sigs)
        bands, rows = b.bands, b.rows
    index = simdex.open_index(path)
    assert isinstance(index, simdex.LshIndex) and len(index) == len(sigs)
    assert (index.num_perm, index.seed, index.bands, index.rows, index.signature_bits) == (num_perm, 1, bands, rows, bits)
    t = index.threshold
    assert t == 0.8 and index.default_min_estimate == max(0.0, t - 2 * math.sqrt(t * (1 - t) / num_perm))
    queries = np.concatenate([sigs[::3], clustered_signatures(30, num_perm, 99)])
    for min_estimate in (None, 0.0, 0.5):
        filt = index.default_min_estimate if min_estimate is None else min_estimate
        lims, got_ids, estimates = index.search(queries, min_estimate, threads=2)
        assert lims.dtype == np.uint64 and got_ids.dtype == np.uint64 and estimates.dtype == np.float64
        want = brute_force([int(i) for i in ids], sigs, queries, bands, rows, bits, filt)
        assert_same(as_lists(lims, got_ids, estimates), want)
        assert sum(map(len, want)) > len(queries) // 3  # the clusters are found
    # One signature alone is one query; the empty signature finds nothing.
    assert as_lists(*index.search(queries[0])) == as_lists(*index.search(queries[:1]))
    assert list(index.search(np.full(num_perm, EMPTY, np.uint32))[0]) == [0, 0]
    index.verify()


def test_texts_build_the_file_simdex_build_writes_and_query_as_simdex_query(tmp_path, simdex_cli, sample):
    docs = read_jsonl(sample)[:600]
    docs_path = tmp_path / "docs.jsonl"
    docs_path.write_text("".join(json.dumps({"id": d["id"], "text": d["text"]}) + "\n" for d in docs))
    simdex_cli("build", "--quiet", "--method", "minhash", "--out", tmp_path / "cli.sdx", docs_path)
    texts = [d["text"] for d in docs]
    with simdex.LshIndexBuilder(str(tmp_path / "py.sdx"), threads=2) as b:
        has = b.add_texts(np.array([d["id"] for d in docs], dtype=np.uint64), texts)
    assert has.dtype == np.bool_ and len(has) == len(docs)
    assert (tmp_path / "py.sdx").read_bytes() == (tmp_path / "cli.sdx").read_bytes()

    index = simdex.open_index(str(tmp_path / "cli.sdx"))  # open_index opens either kind
    assert isinstance(index, simdex.LshIndex)
    assert index.profile == "simdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold word-chars perm:128 seed:1"
    batch = docs[::7]
    (tmp_path / "batch.jsonl").write_text("".join(json.dumps({"id": d["id"], "text": d["text"]}) + "\n"
                                                  for d in batch))
    lines = [json.loads(x) for x in simdex_cli("query", tmp_path / "cli.sdx", tmp_path / "batch.jsonl").splitlines()]
    got = as_lists(*index.search_texts([d["text"] for d in batch], threads=2))
    assert len(lines) == len(batch)
    for line, g in zip(lines, got):
        assert [m["id"] for m in line["matches"]] == [i for i, _ in g]
        np.testing.assert_allclose([m["estimate"] for m in line["matches"]], [e for _, e in g], atol=1e-3)
    # Texts decide on the index's sketches; by signature, or approximate=True, on the signatures.
    assert index.info()["sketch_k"] == 256 and index.info()["format_version"] == 6
    hasher = simdex.MinHasher(num_perm=index.num_perm, seed=index.seed)
    signed = hasher.sign_batch([d["text"] for d in batch])[0]
    assert as_lists(*index.search(signed)) == as_lists(*index.search_texts([d["text"] for d in batch], approximate=True))


def default_filter(t, num_perm):
    # docs/minhash.md: a threshold T keeps the estimates at least two standard errors below it.
    return max(0.0, t - 2 * math.sqrt(t * (1 - t) / num_perm))


def test_thresholds_and_top_k_at_query_time_equal_brute_force(tmp_path):
    num_perm, bits = 64, 4
    sigs = clustered_signatures(300, num_perm, 7)
    ids = np.arange(len(sigs), dtype=np.uint64) // 2 + 100  # repeated ids: equal estimates under one id
    path = str(tmp_path / "l.sdx")
    with simdex.LshIndexBuilder(path, num_perm=num_perm, threshold=0.5, signature_bits=bits) as b:
        b.add(ids, sigs)
        bands, rows = b.bands, b.rows
    index = simdex.LshIndex.open(path)
    assert index.threshold == 0.5
    queries = np.ascontiguousarray(sigs[::4])
    candidates = brute_force([int(i) for i in ids], sigs, queries, bands, rows, bits, 0.0)
    labels_seen = set()
    for thresholds in ([0.5], [0.9, 0.6, 0.75], 0.7):
        ts = thresholds if isinstance(thresholds, list) else [thresholds]
        for top_k in (None, 1, 4):
            lims, got_ids, estimates, labels = index.search(queries, thresholds=thresholds, top_k=top_k, threads=2)
            assert labels.dtype == np.float64 and len(labels) == len(estimates)
            for q, found in enumerate(candidates):
                want = [(i, e, max(t for t in ts if e >= default_filter(t, num_perm)))
                        for i, e in found if any(e >= default_filter(t, num_perm) for t in ts)]
                if top_k:
                    want = sorted(want, key=lambda m: (-m[1], m[0]))[:top_k]
                got = [(int(got_ids[j]), float(estimates[j]), float(labels[j]))
                       for j in range(int(lims[q]), int(lims[q + 1]))]
                if not top_k:  # id order; one id's documents in the file's order
                    got.sort()
                assert [(i, t) for i, _, t in got] == [(i, t) for i, _, t in want], (q, thresholds, top_k)
                np.testing.assert_allclose([e for _, e, _ in got], [e for _, e, _ in want], atol=1e-12)
                labels_seen.update(t for _, _, t in want)
    assert labels_seen == {0.5, 0.6, 0.75, 0.9, 0.7}
    # Without thresholds: three arrays, as before; top_k alone takes the default filter's matches.
    lims, got_ids, estimates = index.search(queries, top_k=2)
    for q, found in enumerate(candidates):
        want = sorted([(i, e) for i, e in found if e >= index.default_min_estimate], key=lambda m: (-m[1], m[0]))[:2]
        assert [int(got_ids[j]) for j in range(int(lims[q]), int(lims[q + 1]))] == [i for i, _ in want]


def test_query_time_thresholds_are_refused_below_the_index_and_with_min_estimate(tmp_path):
    path = str(tmp_path / "l.sdx")
    sigs = clustered_signatures(50, 64, 3)
    with simdex.LshIndexBuilder(path, num_perm=64, threshold=0.8) as b:
        b.add(np.arange(len(sigs), dtype=np.uint64), sigs)
    index = simdex.LshIndex.open(path)
    with pytest.raises(ValueError, match=r"threshold 0\.7 is below the index's 0\.8"):
        index.search(sigs, thresholds=[0.9, 0.7])
    with pytest.raises(ValueError, match=r"threshold 0\.7 is below the index's 0\.8"):
        index.search_texts([], thresholds=0.7)  # refused before any query
    with pytest.raises(ValueError, match="two filters"):
        index.search(sigs, 0.5, thresholds=0.9)
    with pytest.raises(ValueError, match=r"is not in \(0, 1\]"):
        index.search(sigs, thresholds=[1.5])
    with pytest.raises(ValueError, match="top_k must be at least 1"):
        index.search(sigs, top_k=0)
    with pytest.raises(ValueError, match="thresholds must"):
        index.search(sigs, thresholds="high")


def test_query_time_thresholds_and_top_k_are_what_simdex_query_prints(tmp_path, simdex_cli, sample):
    docs = read_jsonl(sample)[:400]
    docs_path = tmp_path / "docs.jsonl"
    docs_path.write_text("".join(json.dumps({"id": d["id"], "text": d["text"]}) + "\n" for d in docs))
    simdex_cli("build", "--quiet", "--method", "minhash", "--threshold", "0.5", "--out", tmp_path / "i.sdx", docs_path)
    index = simdex.LshIndex.open(str(tmp_path / "i.sdx"))
    lines = [json.loads(x) for x in simdex_cli("query", "--threshold", "0.5,0.6,0.9", "--top-k", "3",
                                               tmp_path / "i.sdx", docs_path).splitlines()]
    lims, ids, estimates, labels = index.search_texts([d["text"] for d in docs], thresholds=[0.5, 0.6, 0.9], top_k=3)
    assert len(lines) == len(docs)
    for q, line in enumerate(lines):
        got = range(int(lims[q]), int(lims[q + 1]))
        assert [(m["id"], m["threshold"]) for m in line["matches"]] == [(int(ids[j]), labels[j]) for j in got]
    assert {m["threshold"] for line in lines for m in line["matches"]} == {0.5, 0.6, 0.9}


def test_info_is_what_simdex_inspect_prints(tmp_path, simdex_cli):
    sigs = clustered_signatures(300, 64, 5)
    path = tmp_path / "i.sdx"
    with simdex.LshIndexBuilder(str(path), num_perm=64, threshold=0.7) as b:
        b.add(np.arange(len(sigs), dtype=np.uint64), sigs)
    shown = json.loads(simdex_cli("inspect", path))
    info = simdex.LshIndex.open(str(path)).info()
    for key in ("kind", "documents", "banded_documents", "num_perm", "seed", "bands", "rows", "threshold",
                "signature_bits", "ordinal_bits", "block_size", "restarts", "signature_bytes", "total_bytes"):
        assert info[key] == shown[key], key
    assert info["codecs"] == [t["codec"] for t in shown["tables"]]
    assert abs(info["bytes_per_document_total"] - shown["bytes_per_document_total"]) < 0.01
    assert simdex.parts.index_kind(str(path)) == "minhash-lsh"


def test_string_ids_come_back_as_strings(tmp_path):
    sigs = clustered_signatures(120, 32, 3)
    ids = [f"https://example.org/{i}/文" for i in range(len(sigs))]
    path = str(tmp_path / "s.sdx")
    with simdex.LshIndexBuilder(path, num_perm=32, bands=8, rows=4, block_size=64) as b:
        b.add(ids[:60], sigs[:60])
        b.add(ids[60:], sigs[60:])
    index = simdex.LshIndex.open(path)
    assert index.has_string_ids and index.info()["id_map_strings"] == len(ids)
    lims, got, estimates = index.search(sigs, 0.0)
    assert got.dtype == object
    for q in range(len(sigs) - 2):  # every document finds itself at estimate 1
        mine = dict(zip(got[lims[q]:lims[q + 1]], estimates[lims[q]:lims[q + 1]]))
        assert mine[ids[q]] == 1.0
    assert index.id_string(index.find_id(ids[7])) == ids[7]
    with pytest.raises(simdex.NotFoundError):
        index.find_id("https://example.org/none")
    with simdex.LshIndexBuilder(str(tmp_path / "t.sdx"), num_perm=32, bands=8, rows=4) as b:
        with pytest.raises(ValueError, match=r"ids\[0\] '\\udfff' is not valid text: it holds a lone surrogate"):
            b.add(["\udfff"], sigs[:1])
        b.add(["fine"], sigs[:1])
    with pytest.raises(ValueError, match=r"delete\[0\] '\\ud800' is not valid text"):
        simdex.merge(path, str(tmp_path / "m.sdx"), delete=["\ud800"])


def test_merge_writes_the_file_a_fresh_build_writes(tmp_path):
    sigs = clustered_signatures(500, 64, 11)
    ids = np.arange(1000, 1000 + len(sigs), dtype=np.uint64)
    old, batch = slice(0, 400), slice(400, None)
    deleted = ids[:400:9]
    with simdex.LshIndexBuilder(str(tmp_path / "old.sdx"), num_perm=64, block_size=256) as b:
        b.add(ids[old], sigs[old])
    stats = simdex.merge(str(tmp_path / "old.sdx"), str(tmp_path / "merged.sdx"), ids=ids[batch],
                             signatures=sigs[batch], delete=np.concatenate([deleted, [7]]).astype(np.uint64))
    keep = ~np.isin(ids, deleted)
    with simdex.LshIndexBuilder(str(tmp_path / "fresh.sdx"), num_perm=64, block_size=256) as b:
        b.add(ids[keep], sigs[keep])
    assert (tmp_path / "merged.sdx").read_bytes() == (tmp_path / "fresh.sdx").read_bytes()
    assert (stats["old_documents"], stats["added"], stats["deleted"], stats["ids_not_found"], stats["documents"]) == \
        (400, 100, len(deleted), 1, int(keep.sum()))


def test_builds_and_merges_within_a_small_memory_bound_write_the_same_files(tmp_path):
    # 4 bands: 512 KiB (the build's least bound, 256 KiB) and 1 MiB (the merge's) spill 5,000 documents.
    sigs = clustered_signatures(6000, 32, 12)
    assert len(sigs) > 5100
    ids = np.arange(len(sigs), dtype=np.uint64)
    options = dict(num_perm=32, bands=4, rows=8)
    for name, memory in (("big", 1 << 30), ("small", 512 << 10)):
        with simdex.LshIndexBuilder(str(tmp_path / f"{name}.sdx"), memory=memory, tmpdir=str(tmp_path),
                                    **options) as b:
            b.add(ids[:5000], sigs[:5000])
    assert (tmp_path / "small.sdx").read_bytes() == (tmp_path / "big.sdx").read_bytes()
    for name, memory in (("merged-big", 1 << 30), ("merged-small", 1 << 20)):
        simdex.merge(str(tmp_path / "big.sdx"), str(tmp_path / f"{name}.sdx"), ids=ids[5000:],
                         signatures=sigs[5000:], delete=ids[:100], memory=memory, tmpdir=str(tmp_path))
    assert (tmp_path / "merged-small.sdx").read_bytes() == (tmp_path / "merged-big.sdx").read_bytes()
    with pytest.raises(ValueError, match="memory"):
        simdex.LshIndexBuilder(str(tmp_path / "x.sdx"), memory=1000, **options)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.sdx", "merged-big.sdx", "merged-small.sdx", "small.sdx"]


def test_merge_signs_texts_with_the_old_index_options_and_deletes_string_ids(tmp_path):
    words = [f"w{i}" for i in range(3000)]
    rng = np.random.default_rng(2)
    texts = [" ".join(rng.choice(words, 40)) for _ in range(60)]
    ids = [f"doc-{i}" for i in range(60)]
    options = dict(num_perm=48, seed=9, bands=12, rows=4)
    with simdex.LshIndexBuilder(str(tmp_path / "old.sdx"), **options) as b:
        b.add_texts(ids[:40], texts[:40])
    simdex.merge(str(tmp_path / "old.sdx"), str(tmp_path / "old.sdx"), ids=ids[40:], texts=texts[40:],
                     delete=["doc-3", "doc-5"])
    with simdex.LshIndexBuilder(str(tmp_path / "fresh.sdx"), **options) as b:
        kept = [i for i in range(60) if i not in (3, 5)]
        b.add_texts([ids[i] for i in kept], [texts[i] for i in kept])
    assert (tmp_path / "old.sdx").read_bytes() == (tmp_path / "fresh.sdx").read_bytes()


def test_each_kind_refuses_the_other_naming_both(tmp_path):
    with simdex.IndexBuilder(str(tmp_path / "sim.sdx")) as b:
        b.add(np.arange(10, dtype=np.uint64), np.arange(10, dtype=np.uint64) * 12345)
    with simdex.LshIndexBuilder(str(tmp_path / "lsh.sdx"), num_perm=16, bands=4, rows=4) as b:
        b.add(np.arange(3, dtype=np.uint64), clustered_signatures(3, 16, 1))
    assert simdex.parts.index_kind(str(tmp_path / "sim.sdx")) == "simhash"
    assert isinstance(simdex.open_index(str(tmp_path / "sim.sdx")), simdex.Index)
    assert isinstance(simdex.open_index(str(tmp_path / "lsh.sdx")), simdex.LshIndex)
    both = "a SimHash index where a MinHash-LSH index is needed"
    with pytest.raises(ValueError, match=both + r".*simdex.open_index"):
        simdex.LshIndex.open(str(tmp_path / "sim.sdx"))
    reverse = "a MinHash-LSH index where a SimHash index is needed"
    with pytest.raises(ValueError, match=reverse + r".*simdex.open_index"):
        simdex.Index.open(str(tmp_path / "lsh.sdx"))
    for open_file in (simdex.Index.open, simdex.LshIndex.open):  # a directory of shards is open_index's too
        with pytest.raises(ValueError, match=r"is a directory, not an index file \(simdex.open_index opens"):
            open_file(str(tmp_path))
    with pytest.raises(ValueError, match=r"lsh.sdx is a minhash-lsh index: merge takes signatures=, texts= for it, "
                                         r"not fingerprints="):
        simdex.merge(str(tmp_path / "lsh.sdx"), str(tmp_path / "out.sdx"), ids=[7], fingerprints=[7])
    with pytest.raises(ValueError, match=r"sim.sdx is a simhash index: merge takes fingerprints=, profile= for it, "
                                         r"not texts="):
        simdex.merge(str(tmp_path / "sim.sdx"), str(tmp_path / "out.sdx"), ids=[7], texts=["seven"])
    assert not (tmp_path / "out.sdx").exists()


def test_merge_dispatches_on_the_kind_the_old_file_records(tmp_path):
    with simdex.IndexBuilder(str(tmp_path / "sim.sdx")) as b:
        b.add(np.arange(10, dtype=np.uint64), np.arange(10, dtype=np.uint64) * 12345)
    with simdex.IndexBuilder(str(tmp_path / "sim-fresh.sdx")) as b:
        b.add(np.arange(11, dtype=np.uint64), np.arange(11, dtype=np.uint64) * 12345)
    sigs = clustered_signatures(4, 16, 1)
    with simdex.LshIndexBuilder(str(tmp_path / "lsh.sdx"), num_perm=16, bands=4, rows=4) as b:
        b.add(np.arange(3, dtype=np.uint64), sigs[:3])
    with simdex.LshIndexBuilder(str(tmp_path / "lsh-fresh.sdx"), num_perm=16, bands=4, rows=4) as b:
        b.add(np.arange(4, dtype=np.uint64), sigs)
    assert simdex.merge(tmp_path / "sim.sdx", tmp_path / "sim-out.sdx", ids=np.array([10], np.uint64),
                        fingerprints=np.array([10 * 12345], np.uint64))["entries"] == 11
    assert simdex.merge(tmp_path / "lsh.sdx", tmp_path / "lsh-out.sdx", ids=np.array([3], np.uint64),
                        signatures=sigs[3:])["documents"] == 4
    for kind in ("sim", "lsh"):
        assert (tmp_path / f"{kind}-out.sdx").read_bytes() == (tmp_path / f"{kind}-fresh.sdx").read_bytes()


def test_the_old_spellings_still_work_with_a_deprecation_warning(tmp_path):
    with simdex.LshIndexBuilder(str(tmp_path / "lsh.sdx"), num_perm=16, bands=4, rows=4) as b:
        b.add(np.arange(3, dtype=np.uint64), clustered_signatures(3, 16, 1))
    index = simdex.LshIndex.open(str(tmp_path / "lsh.sdx"))
    sigs = clustered_signatures(3, 16, 1)
    for old, new, args in (("query", "search", (sigs,)), ("query_texts", "search_texts", (["a b c d e f"],))):
        with pytest.warns(DeprecationWarning, match=f"LshIndex.{old} is LshIndex.{new} now"):
            got = getattr(index, old)(*args, threads=1)
        want = getattr(index, new)(*args, threads=1)
        assert all((g == w).all() for g, w in zip(got, want))
    with pytest.warns(DeprecationWarning, match="simdex.merge_lsh is simdex.merge now"):
        simdex.merge_lsh(str(tmp_path / "lsh.sdx"), str(tmp_path / "out.sdx"))
    with pytest.warns(DeprecationWarning, match="simdex.band_keys is simdex.parts.band_keys now"):
        assert simdex.band_keys is simdex.parts.band_keys
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        simdex.no_such_name


def test_bad_arguments_and_damage_raise_the_library_errors(tmp_path):
    path = tmp_path / "b.sdx"
    with pytest.raises(ValueError, match="both or neither"):
        simdex.LshIndexBuilder(str(path), bands=4)
    with pytest.raises(ValueError):
        simdex.LshIndexBuilder(str(path), num_perm=16, bands=5, rows=4)  # 20 rows > 16 values
    with simdex.LshIndexBuilder(str(path), num_perm=16, bands=4, rows=4, block_size=64) as b:
        with pytest.raises(ValueError, match=r"n x 16"):
            b.add(np.arange(2, dtype=np.uint64), np.zeros((2, 8), np.uint32))
        with pytest.raises(TypeError, match="dtype uint32"):
            b.add(np.arange(2, dtype=np.uint64), np.zeros((2, 16), np.uint64))
        with pytest.raises(ValueError, match="differ in length"):
            b.add(np.arange(3, dtype=np.uint64), np.zeros((2, 16), np.uint32))
        b.add(np.arange(200, dtype=np.uint64), clustered_signatures(200, 16, 4))
    with pytest.raises(ValueError):
        with simdex.LshIndexBuilder(str(tmp_path / "never.sdx")) as b:
            raise ValueError("abandoned")
    assert not (tmp_path / "never.sdx").exists()
    index = simdex.LshIndex.open(str(path))
    with pytest.raises(ValueError, match="min_estimate"):
        index.search(np.zeros(16, np.uint32), 1.5)
    index.close()
    with pytest.raises(ValueError, match="closed"):
        index.search(np.zeros(16, np.uint32))
    data = bytearray(path.read_bytes())
    data[64 + 20] ^= 0x40  # inside band table 0's first block
    path.write_bytes(bytes(data))
    with pytest.raises(simdex.CorruptionError, match="checksum"):
        simdex.LshIndex.open(str(path)).verify()
    with pytest.raises(OSError):
        simdex.open_index(str(tmp_path / "missing.sdx"))


def test_a_fifo_given_as_an_index_is_refused_naming_it_without_blocking(tmp_path):
    # Opening a FIFO for reading blocks until a writer comes: index_kind used
    # to hang forever. Each call runs in its own interpreter, killed after 20 s.
    import subprocess
    import sys

    fifo = tmp_path / "pipe.sdx"
    os.mkfifo(fifo)
    for call in ("simdex.parts.index_kind(p)", "simdex.Index.open(p)", "simdex.LshIndex.open(p)"):
        code = f"import simdex\np = {str(fifo)!r}\ntry:\n    {call}\nexcept OSError as e:\n    print(e)\n"
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == f"{fifo}: is a FIFO, not an index file (an index is a regular file)", call


def test_access_and_cold_reads_reach_the_lsh_opener_and_change_no_answer(tmp_path):
    num_perm = 64
    sigs = clustered_signatures(200, num_perm, 11)
    path = str(tmp_path / "l.sdx")
    with simdex.LshIndexBuilder(path, num_perm=num_perm, threshold=0.5) as b:
        b.add(np.arange(len(sigs), dtype=np.uint64), sigs)
    queries = np.ascontiguousarray(sigs[::5])
    want = simdex.LshIndex.open(path).search(queries)
    for access in ("read-around", "random"):
        got = simdex.open_index(path, access=access, cold_reads="never").search(queries)
        assert all(np.array_equal(g, w) for g, w in zip(got, want))
    with pytest.raises(ValueError, match=r"^access 'sideways' is not one of auto, read-around, random$"):
        simdex.LshIndex.open(path, access="sideways")
