"""simdex.dask on a LocalCluster of two worker processes equals the single-machine
`simdex dedup` exactly (records, pairs, keep list), alone and against a stored index, and
its sharded indexes search as one index over the same entries."""

import distributed  # noqa: F401 (scripts/deps.sh installs it: missing, these tests fail rather than skip)
import numpy as np
import pytest

import simdex
import simdex.dask
from conftest import planted_corpus, read_jsonl

POPCOUNT = np.array([bin(v).count("1") for v in range(256)], np.int64)


def brute_force_matches(queries, ids, fps, k):
    """Every (query number, id, fingerprint, distance) with distance <= k, sorted: a scan of
    all query and entry pairs."""
    x = queries[:, None] ^ fps[None, :]
    dist = POPCOUNT[x.view(np.uint8)].reshape(x.shape + (8,)).sum(axis=2)
    q, e = np.nonzero(dist <= k)
    return sorted(zip(q.tolist(), ids[e].tolist(), fps[e].tolist(), dist[q, e].tolist()))


def search_matches(index, queries, k):
    lims, ids, fps, dists = index.search(queries, k)
    q = np.repeat(np.arange(len(queries)), np.diff(lims.astype(np.int64)))
    return sorted(zip(q.tolist(), ids.tolist(), fps.tolist(), dists.tolist()))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return planted_corpus(str(tmp_path_factory.mktemp("corpus")))


def cli(simdex_cli, tmp_path, paths, *flags):
    out, pairs, keep = tmp_path / "out.jsonl", tmp_path / "pairs.jsonl", tmp_path / "keep.txt"
    simdex_cli("dedup", "--quiet", "--method", "simhash", "--text-field", "text", "--pairs", pairs, "--keep-list", keep, "-o", out, *flags,
               *paths)
    return read_jsonl(out), read_jsonl(pairs), keep.read_text().split()


@pytest.mark.parametrize("keep,ranges", [("first", 3), ("longest", 1)])
def test_cluster_dedup_equals_the_single_machine_command(client, corpus, simdex_cli, tmp_path, keep, ranges):
    want, want_pairs, want_keep = cli(simdex_cli, tmp_path, corpus, "--keep", keep)
    run = simdex.dask.dedup(client, corpus, method="simhash", keep=keep, ranges=ranges, pairs=True)
    assert len(want_pairs) > 100 and any(r["duplicate"] for r in want)  # the planted clusters are there
    assert list(run.records()) == want
    assert list(run.pair_records()) == want_pairs
    assert [str(i) for i in run.keep_ids()] == want_keep
    assert run.tasks["joins"] == ranges


def test_a_batch_idf_learned_once_weighs_every_file_as_the_command_does(client, corpus, simdex_cli, tmp_path):
    # idf="auto" would learn a table per file: refused before any task runs.
    with pytest.raises(ValueError, match="learn it once over all the files"):
        simdex.dask.fingerprint_files(client, corpus, fingerprint_options={"idf": "auto"})
    idf = tmp_path / "batch.idf"
    simdex_cli("idf", "--quiet", "--text-field", "text", "--idf-cap", "0.693", "-o", idf, *corpus)
    flags = ["--weighting", "log-tf-idf", "--idf", str(idf)]
    want, want_pairs, want_keep = cli(simdex_cli, tmp_path, corpus, *flags)
    run = simdex.dask.dedup(client, corpus, method="simhash", pairs=True,
                            fingerprint_options={"weighting": "log-tf-idf", "idf": str(idf)})
    assert len(want_pairs) > 100
    assert list(run.records()) == want
    assert list(run.pair_records()) == want_pairs
    assert [str(i) for i in run.keep_ids()] == want_keep


def test_cluster_dedup_against_a_stored_index_equals_the_command(client, corpus, simdex_cli, tmp_path):
    simdex_cli("fingerprint", "--quiet", "--text-field", "text", "-o", tmp_path / "stored.fp", corpus[0])
    simdex_cli("build", "--quiet", "--block-size", "256", "--out", tmp_path / "stored.sdx", tmp_path / "stored.fp")
    batch = corpus[1:]
    index = str(tmp_path / "stored.sdx")
    want, want_pairs, want_keep = cli(simdex_cli, tmp_path, batch, "--against", index)
    run = simdex.dask.dedup(client, batch, method="simhash", against=[index], ranges=2, pairs=True)
    assert any("against" in r for r in want)
    assert list(run.records()) == want
    assert [str(i) for i in run.keep_ids()] == want_keep
    assert run.tasks["against_splits"] == 10 * 2


def test_cluster_dedup_against_indexes_of_other_schemes_equals_the_command(client, corpus, simdex_cli, tmp_path):
    # The t20 and t4 indexes need the batch split by their own tables; the t10 one is
    # streamed by the join's reducers. The nearest match is the smallest distance, then
    # the first index given.
    indexes = []
    for i, scheme in enumerate(("t20", "t10", "t4")):
        simdex_cli("fingerprint", "--quiet", "--text-field", "text", "-o", tmp_path / f"s{i}.fp", corpus[i % 2])
        indexes.append(str(tmp_path / f"stored-{scheme}.sdx"))
        simdex_cli("build", "--quiet", "--scheme", scheme, "--block-size", "256", "--out", indexes[-1],
                   tmp_path / f"s{i}.fp")
    batch = corpus[1:]
    want, _, want_keep = cli(simdex_cli, tmp_path, batch, *[x for i in indexes for x in ("--against", i)])
    run = simdex.dask.dedup(client, batch, method="simhash", against=indexes, ranges=2)
    assert {r["against"]["index"] for r in want if "against" in r} >= {indexes[0], indexes[1]}
    assert list(run.records()) == want
    assert [str(i) for i in run.keep_ids()] == want_keep
    assert run.tasks["against_splits"] == (20 + 10 + 4) * 2


def test_sharded_index_searches_as_one_index(client, corpus, tmp_path):
    run = simdex.dask.dedup(client, corpus, method="simhash", ranges=2)
    stats = simdex.dask.build_sharded_index(client, run.partitions, str(tmp_path / "shards"), shards=3,
                                            block_size=128)
    kept = ~run.result.empty
    fps = np.concatenate([p["fingerprints"] for p in client.gather(run.partitions)])[kept]
    ids = run.ids[kept].astype(np.uint64)
    assert len(stats) == 3 and sum(s["entries"] for s in stats) == len(fps)
    with simdex.IndexBuilder(str(tmp_path / "one.sdx"), block_size=128) as b:
        b.add(ids, fps)
    one = simdex.Index.open(str(tmp_path / "one.sdx"))
    sharded = simdex.open_index(str(tmp_path / "shards"))
    assert isinstance(sharded, simdex.ShardedIndex) and sharded.entries == one.entries == len(fps)
    queries = np.concatenate([fps[::7], fps[::11] ^ np.uint64(3)])
    for k in (0, 3):
        want = brute_force_matches(queries, ids, fps, k)
        assert len(want) > len(queries) // 2
        assert search_matches(sharded, queries, k) == want
        for got, want_one in zip(sharded.search(queries, k), one.search(queries, k)):
            np.testing.assert_array_equal(got, want_one)
    # Every document is in the shards, under its own id: its own fingerprint finds it.
    assert search_matches(sharded, fps, 0) == brute_force_matches(fps, ids, fps, 0)
    assert sharded.search_one(int(fps[0])) == one.search_one(int(fps[0]))


def test_sharded_index_keeps_only_the_masked_documents(client, corpus, tmp_path):
    run = simdex.dask.dedup(client, corpus, method="simhash", ranges=2)
    simdex.dask.build_sharded_index(client, run.partitions, str(tmp_path / "new"), shards=2, keep=run.result.keep)
    sharded = simdex.open_index(str(tmp_path / "new"))
    fps = np.concatenate([p["fingerprints"] for p in client.gather(run.partitions)])
    ids = run.ids.astype(np.uint64)
    masked = run.result.keep & ~run.result.empty
    assert 0 < masked.sum() < (~run.result.empty).sum()  # the planted duplicates are left out
    # Queried with every document's fingerprint, the shards give exactly the masked documents.
    queries = fps[~run.result.empty]
    assert search_matches(sharded, queries, 0) == brute_force_matches(queries, ids[masked], fps[masked], 0)
    assert sharded.entries == int(masked.sum())


def test_cluster_dedup_against_a_shard_directory_equals_the_command_against_its_shards(
        client, corpus, simdex_cli, tmp_path):
    stored = simdex.dask.fingerprint_files(client, corpus[:1])
    simdex.dask.build_sharded_index(client, stored, str(tmp_path / "stored"), shards=3, block_size=128)
    assert isinstance(simdex.open_index(str(tmp_path / "stored")), simdex.ShardedIndex)
    shard_files = [str(tmp_path / "stored" / f"shard-{r:04d}.sdx") for r in range(3)]
    flags = [x for f in shard_files for x in ("--against", f)]
    want, _, want_keep = cli(simdex_cli, tmp_path, corpus[1:], *flags)
    run = simdex.dask.dedup(client, corpus[1:], method="simhash", against=[str(tmp_path / "stored")], ranges=2)
    assert sum("against" in r for r in want) > 10
    assert list(run.records()) == want
    assert [str(i) for i in run.keep_ids()] == want_keep


def test_record_numbers_as_ids_count_on_across_files_as_the_command_counts_them(client, corpus, simdex_cli, tmp_path):
    import gzip
    import json
    lines = []
    for path in corpus:
        with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
            lines += [json.loads(line)["text"] for line in f]
    files = []
    for i in range(3):  # one document per line: the id is the line number, counted on across files
        files.append(str(tmp_path / f"lines-{i}.txt"))
        with open(files[-1], "w") as f:
            f.write("".join(t + "\n" for t in lines[i::3]))
    out = tmp_path / "lines.jsonl"
    simdex_cli("dedup", "--quiet", "--method", "simhash", "-o", out, *files)
    run = simdex.dask.dedup(client, files, method="simhash", ranges=2)
    assert list(run.records()) == read_jsonl(out)
    assert run.ids[-1] == len(lines)


def test_keep_max_field_chooses_the_same_representatives_as_the_command(client, corpus, simdex_cli, tmp_path):
    import gzip
    import json
    files = []
    for i, path in enumerate(corpus[:2]):  # the same documents with a popularity field (ties and nulls too)
        with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
            docs = [json.loads(line) for line in f]
        files.append(str(tmp_path / f"views-{i}.jsonl"))
        with open(files[-1], "w") as out:
            for d in docs:
                d["views"] = None if d["id"] % 7 == 0 else (d["id"] * 37) % 11
                out.write(json.dumps(d) + "\n")
    want, want_pairs, want_keep = cli(simdex_cli, tmp_path, files, "--keep", "max:views")
    run = simdex.dask.dedup(client, files, method="simhash", keep="max:views", ranges=2, pairs=True)
    assert list(run.records()) == want
    assert list(run.pair_records()) == want_pairs
    assert [str(i) for i in run.keep_ids()] == want_keep


@pytest.mark.parametrize("with_index", [False, True])
def test_results_cross_to_the_client_narrowed_and_come_back_equal(tmp_path, with_index):
    fps = np.array([1, 3, 1 << 40, 7, 1 << 50], np.uint64)
    against = []
    if with_index:
        with simdex.IndexBuilder(str(tmp_path / "stored.sdx")) as builder:
            builder.add(np.array([77], np.uint64), np.array([(1 << 40) | 1], np.uint64))
        against = [simdex.Index.open(str(tmp_path / "stored.sdx"))]
    want = simdex.dedup(fps, against=against, pairs=True)
    packed = simdex.dask._pack_result(want)
    assert packed["fields"]["representative"].dtype == np.uint32
    assert (packed["fields"]["against_id"] is None) == (not with_index)
    got = simdex.dask._unpack_result(packed)
    for name in ("representative", "distance", "duplicate", "empty", "against_index", "against_id",
                 "against_distance"):
        assert getattr(got, name).dtype == getattr(want, name).dtype, name
        assert np.array_equal(getattr(got, name), getattr(want, name)), name
    assert all(np.array_equal(a, b) for a, b in zip(got.pairs, want.pairs))


@pytest.mark.parametrize("ids", [np.arange(5, 9, dtype=np.uint64), np.array([5, 6, 8], np.uint64),
                                 np.array([9, 8, 7], np.uint64), np.array([4], np.uint64),
                                 np.array(["a", "b"], dtype=object)])
def test_ids_cross_to_the_client_as_a_range_only_when_consecutive(ids):
    part = {"ids": ids, "ordinal": False, "records": len(ids), "skipped": 0}
    sent = simdex.dask._id_summary(part)["ids"]
    assert isinstance(sent, tuple) == (len(ids) > 1 and ids.dtype != object and np.all(np.diff(ids.astype(np.int64)) == 1))
    got = simdex.dask._combine_ids([simdex.dask._id_summary(part)])
    assert got.dtype == ids.dtype and list(got) == list(ids)


def test_ids_of_partitions_combine_on_the_client_with_record_numbers_counted_on():
    parts = [{"ids": np.arange(1, 4, dtype=np.uint64), "ordinal": True, "records": 3, "skipped": 1},  # 4 read
             {"ids": np.array([1, 3], np.uint64), "ordinal": True, "records": 2, "skipped": 1},
             {"ids": np.array([70, 71], np.uint64), "ordinal": False, "records": 2, "skipped": 0},
             {"ids": np.arange(1, 3, dtype=np.uint64), "ordinal": True, "records": 2, "skipped": 0}]
    got = simdex.dask._combine_ids([simdex.dask._id_summary(p) for p in parts])
    assert got.tolist() == [1, 2, 3, 5, 7, 70, 71, 10, 11]
    strings = {"ids": np.array(["x"], dtype=object), "ordinal": False, "records": 1, "skipped": 0}
    assert simdex.dask._combine_ids([simdex.dask._id_summary(p) for p in parts[:1] + [strings]]).tolist() == \
        [1, 2, 3, "x"]
