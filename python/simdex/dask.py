"""simdex.dask: batch de-duplication on a Dask cluster, the source documents' MapReduce
plan, with exactly the results of one machine's ``simdex dedup`` (docs/distributed.md).

    from distributed import Client
    import simdex.dask
    client = Client("tcp://scheduler:8786")          # or LocalCluster()
    run = simdex.dask.dedup(client, ["crawl-000.jsonl.gz", ...], against=["corpus.sdx"])
    for rec in run.records(): ...                     # the lines `simdex dedup` prints
    simdex.dask.build_sharded_index(client, run.partitions, "corpus-shards/", shards=8,
                                    keep=run.result.keep)

The plan, as tasks on the cluster:
  1. map: each input file is one partition, read and fingerprinted on a worker
     (``fingerprint_files``); the partitions stay on the workers.
  2. shuffle by table key: each partition cuts its distinct fingerprints, for every table
     t the scheme uses for k, into ``ranges`` key ranges of t (simdex.split_by_key_ranges);
     bucket (t, r) of every partition goes to reducer r.
  3. self-join per key range: reducer r joins bucket (t, r) of every table t
     (simdex.join_tables): the pairs table t owns there. Every pair within k comes out of
     exactly one (reducer, table).
  4. against a stored corpus, inverted: the batch's distinct fingerprints are broadcast
     to the workers; each task streams one split of an index - the key range r of its
     table t - against them (simdex.nearest_in_table); the splits' nearest entries are
     reduced per index (simdex.reduce_nearest).
  5. assemble: one task feeds the fingerprints, the pairs and the matches to the
     engine's Deduplicator (external pairs), which gives clusters, representatives,
     duplicate flags and pairs exactly as the single-machine run.
"""

from __future__ import annotations

import operator
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import dask.base
import numpy as np

import simdex
from simdex import _shards

__all__ = ["DistributedDedup", "fingerprint_files", "dedup", "dedup_partitions", "build_sharded_index"]


# ---- Tasks (run on the workers; module-level so that they pickle by reference).

def _is_lines(path: str, format: Optional[str]) -> bool:
    """As DocumentFormatFromPath: JSONL for .jsonl/.json/.ndjson (before .gz/.zst/.bz2)."""
    if format is not None:
        return format == "lines"
    for suffix in (".gz", ".zst", ".bz2"):
        if path.endswith(suffix):
            path = path[:-len(suffix)]
    return not path.endswith((".jsonl", ".json", ".ndjson"))


def _fingerprint_part(path: str, fingerprint_options: dict, read_options: dict) -> dict:
    fingerprinter = simdex.Fingerprinter(**fingerprint_options)
    part = simdex.fingerprint_file(path, fingerprinter, **read_options)
    part["records"] = len(part["fingerprints"])
    # Record numbers as ids count on across files, as `simdex dedup` numbers them.
    part["ordinal"] = read_options["id_mode"] == "ordinal" or _is_lines(path, read_options["format"])
    return part


def _partition_from_arrays(fingerprints, ids=None, reasons=None, scores=None) -> dict:
    fps = np.ascontiguousarray(fingerprints, dtype=np.uint64)
    return {"fingerprints": fps,
            "ids": np.arange(len(fps), dtype=np.uint64) if ids is None else ids,
            "reasons": np.zeros(len(fps), dtype=np.int8) if reasons is None else np.asarray(reasons, np.int8),
            "scores": scores, "records": len(fps), "skipped": 0, "ordinal": False}


def _distinct(part: dict) -> np.ndarray:
    return np.unique(part["fingerprints"][part["reasons"] == 0])


def _split(part: dict, tables: Sequence[int], ranges: int, scheme: str) -> Dict[tuple, np.ndarray]:
    """The map side of the shuffle: the partition's distinct fingerprints by (table, key range)."""
    fps = part["fingerprints"][part["reasons"] == 0]
    return simdex.split_by_key_ranges(fps, list(tables), ranges, scheme)


def _join_range(buckets: Dict[int, List[np.ndarray]], k: int, scheme: str) -> tuple:
    """The reduce side: the pairs each table owns in one key range (buckets: table -> the
    partitions' buckets), joined in one call that reuses its sort buffers."""
    parts = [(t, np.concatenate(b) if b else np.empty(0, np.uint64)) for t, b in buckets.items()]
    return simdex.join_tables(parts, k, scheme)


def _batch_distinct(parts: List[dict]) -> np.ndarray:
    return np.unique(np.concatenate([_distinct(p) for p in parts])) if parts else np.empty(0, np.uint64)


def _nearest_split(index_path: str, batch: np.ndarray, k: int, table: int, r: int, ranges: int) -> tuple:
    """One split of a stored index - key range r of table `table` - streamed against the batch."""
    with simdex.Index.open(index_path) as index:
        mine = batch[simdex.key_ranges(batch, table, ranges, index.scheme) == r]
        return simdex.nearest_in_table(index, mine, k, table)


def _reduce_nearest(splits: List[tuple]) -> tuple:
    if not splits:
        return (np.empty(0, np.uint64), np.empty(0, np.uint64), np.empty(0, np.uint8))
    return simdex.reduce_nearest(*(np.concatenate([s[i] for s in splits]) for i in range(3)))


def _assemble(parts: List[dict], pairs: List[tuple], matches: List[tuple], k: Optional[int], scheme: str,
              keep_pairs: bool, memory: int, tmpdir: str) -> tuple:
    fps = np.concatenate([p["fingerprints"] for p in parts]) if parts else np.empty(0, np.uint64)
    reasons = np.concatenate([p["reasons"] for p in parts]) if parts else np.empty(0, np.int8)
    scores = None
    if parts and parts[0]["scores"] is not None:
        scores = np.concatenate([p["scores"] for p in parts])
    near = tuple(np.concatenate([p[i] for p in pairs]) if pairs else np.empty(0, (np.uint64, np.uint64, np.uint8)[i])
                 for i in range(3))
    result = simdex.dedup(fps, empty=reasons != 0, scores=scores, k=k, scheme=scheme, pairs=keep_pairs,
                          near_pairs=near, index_matches=matches, memory=memory, tmpdir=tmpdir)
    return _pack_result(result), reasons


# ---- What crosses the network to the client: the result's arrays, narrowed. On one
# machine's loopback Dask moves ~75 MB/s, so 10^7 documents' 33 bytes each took 6-7 s;
# ordinals narrowed to uint32, the against columns dropped when nothing matched and
# ordinal ids sent as their first value make it 9 bytes and under 1 s.

_AGAINST = ("against_index", "against_id", "against_distance")
_NO_MATCH = {"against_index": (-1, np.int32), "against_id": (0, np.uint64), "against_distance": (-1, np.int8)}


def _pack_result(result) -> dict:
    fields = dict(vars(result))
    n = len(result)
    if n <= np.iinfo(np.uint32).max:
        fields["representative"] = result.representative.astype(np.uint32)
    if not result.stats.get("against_matches"):
        for name in _AGAINST:
            fields[name] = None
    return {"n": n, "fields": fields}


def _unpack_result(packed: dict):
    fields, n = dict(packed["fields"]), packed["n"]
    fields["representative"] = fields["representative"].astype(np.uint64, copy=False)
    for name in _AGAINST:
        if fields[name] is None:
            value, dtype = _NO_MATCH[name]
            fields[name] = np.full(n, value, dtype=dtype)
    return simdex.DedupResult(**fields)


def _ids(parts: List[dict]):
    """The documents' ids by ordinal; ordinal ids count on across files as `simdex dedup` counts them."""
    chunks, offset = [], 0
    for p in parts:
        ids = p["ids"]
        chunks.append(ids + np.uint64(offset) if p["ordinal"] and ids.dtype != object else ids)
        offset += p["records"] + p["skipped"]
    if any(c.dtype == object for c in chunks):
        return np.concatenate([c.astype(object) for c in chunks])
    ids = np.concatenate(chunks) if chunks else np.empty(0, np.uint64)
    if len(ids) > 1 and int(ids[-1]) - int(ids[0]) == len(ids) - 1 and np.array_equal(np.diff(ids), np.ones(len(ids) - 1, np.uint64)):
        return ("range", int(ids[0]), len(ids))   # consecutive numbers: sent as the first
    return ids


def _unpack_ids(ids) -> np.ndarray:
    if isinstance(ids, tuple):
        _, first, n = ids
        return np.arange(first, first + n, dtype=np.uint64)
    return ids


# ---- The driver side.

@dataclass
class DistributedDedup:
    """The outcome of ``dedup``: ``result`` (a simdex.DedupResult by input ordinal), the
    documents' ``ids`` and empty ``reasons``, the ``against`` index paths, and the
    ``partitions`` (futures still on the workers, for build_sharded_index)."""

    result: simdex.DedupResult
    ids: np.ndarray
    reasons: np.ndarray
    against: List[str]
    partitions: List[Any] = field(default_factory=list)
    tasks: Dict[str, int] = field(default_factory=dict)

    def records(self):
        """The JSON records ``simdex dedup --against ...`` prints, in input order."""
        indexes = [simdex.Index.open(p) for p in self.against]
        try:
            yield from self.result.records(self.ids, self.reasons, indexes, self.against)
        finally:
            for i in indexes:
                i.close()

    def pair_records(self):
        return self.result.pair_records(self.ids)

    def keep_ids(self) -> list:
        """The ids of the documents to keep (``--keep-list``)."""
        return [i.item() if isinstance(i, np.generic) else i for i in self.ids[self.result.keep]]


def fingerprint_files(client, paths: Sequence[str], *, fingerprint_options: Optional[dict] = None,
                      format: Optional[str] = None, id_field: str = "id", text_fields: Sequence[str] = ("text",),
                      id_mode: str = "field", keep: str = "first", skip_bad: bool = False) -> list:
    """Step 1, map: one task per file (JSONL or lines, .gz/.zst/.bz2), each reading and
    fingerprinting its file on a worker. Returns the partitions' futures, in file order.
    fingerprint_options are simdex.Fingerprinter's keyword arguments (tokenizer, compat, ...).
    The files must be readable by the workers at the same paths."""
    read = {"format": format, "id_field": id_field, "text_fields": list(text_fields), "id_mode": id_mode,
            "keep": keep, "skip_bad": skip_bad, "threads": 1}
    options = dict(fingerprint_options or {})
    # Keys name the file and hash everything the result depends on, so that a run with other
    # options never reuses a partition still held from an earlier run.
    return [client.submit(_fingerprint_part, os.fspath(p), options, read,
                          key=f"simdex-fingerprint-{i}-{os.path.basename(os.fspath(p))}-"
                              f"{dask.base.tokenize(os.fspath(p), _mtime(p), options, read)}")
            for i, p in enumerate(paths)]


def _mtime(path) -> int:
    """The file's modification time, or 0 when the client cannot see it (only the workers do)."""
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return 0


def dedup_partitions(client, partitions: Sequence, *, k: Optional[int] = None, scheme: str = "t10",
                     against: Sequence[str] = (), ranges: Optional[int] = None, pairs: bool = False,
                     memory: int = 1 << 30, tmpdir: str = "") -> DistributedDedup:
    """Steps 2-5 over partitions already on the cluster (futures of fingerprint_files, or
    of dicts with fingerprints/ids/reasons/scores arrays). ranges: key ranges per table
    (default: twice the workers' threads). against: index files (their paths must be
    readable by the workers; a shard directory counts as its shards), checked as
    `simdex dedup --against` checks them, in order."""
    info = simdex.scheme_info(scheme, k)
    k = info["k"] if k is None else k
    tables = info["tables_for_k"]
    if ranges is None:
        ranges = max(1, 2 * sum(client.nthreads().values()))
    if ranges < 1:
        raise ValueError(f"ranges must be at least 1, got {ranges}")
    partitions = list(partitions)
    tasks = {"partitions": len(partitions)}

    # 2-3. Shuffle by table key, self-join per key range.
    splits = [client.submit(_split, p, tables, ranges, scheme) for p in partitions]
    joined = []
    for r in range(ranges):
        buckets = {t: [client.submit(operator.getitem, s, (t, r)) for s in splits] for t in tables}
        joined.append(client.submit(_join_range, buckets, k, scheme))
    tasks["joins"] = len(joined)

    # 4. Against each index: the broadcast batch against the index's splits. A shard
    # directory counts as its shards, in order.
    against = [s for a in against for s in
               (_shards.shard_paths(os.fspath(a)) if os.path.isdir(a) else [os.fspath(a)])]
    matches = []
    if against:
        batch = client.submit(_batch_distinct, partitions)
        client.replicate([batch])
        for path in against:
            path = os.fspath(path)
            with simdex.Index.open(path) as index:
                index_tables = simdex.scheme_info(index.scheme, k)["tables_for_k"]
            found = [client.submit(_nearest_split, path, batch, k, t, r, ranges, pure=False)
                     for t in index_tables for r in range(ranges)]
            tasks["against_splits"] = tasks.get("against_splits", 0) + len(found)
            matches.append(client.submit(_reduce_nearest, found))

    # 5. Assemble on one worker.
    assembled = client.submit(_assemble, partitions, joined, matches, k, scheme, pairs, memory, tmpdir)
    ids = client.submit(_ids, partitions)
    (packed, reasons), ids = client.gather([assembled, ids])
    return DistributedDedup(result=_unpack_result(packed), ids=_unpack_ids(ids), reasons=reasons, against=[os.fspath(a) for a in against],
                            partitions=partitions, tasks=tasks)


def dedup(client, paths: Sequence[str], *, fingerprint_options: Optional[dict] = None, format: Optional[str] = None,
          id_field: str = "id", text_fields: Sequence[str] = ("text",), id_mode: str = "field", keep: str = "first",
          skip_bad: bool = False, **options) -> DistributedDedup:
    """``simdex dedup`` over many files on a Dask cluster: fingerprint_files, then
    dedup_partitions (k, scheme, against, ranges, pairs, memory, tmpdir). The same
    results, pairs, clusters and keep list as the single-machine command given the same
    files in the same order and the same options."""
    parts = fingerprint_files(client, paths, fingerprint_options=fingerprint_options, format=format,
                              id_field=id_field, text_fields=text_fields, id_mode=id_mode, keep=keep,
                              skip_bad=skip_bad)
    return dedup_partitions(client, parts, **options)


def _shard_piece(part: dict, shards: int, r: int, keep: Optional[np.ndarray], offset: int) -> tuple:
    fps, ids, reasons = part["fingerprints"], part["ids"], part["reasons"]
    mask = reasons == 0
    if keep is not None:
        mask &= keep[offset:offset + len(fps)]
    mask &= _shards.shard_of(fps, shards) == r
    return ids[mask], fps[mask]


def _build_shard(directory: str, r: int, pieces: List[tuple], scheme: str, string_ids: bool, options: dict) -> dict:
    ids = np.concatenate([p[0].astype(object) if string_ids else p[0] for p in pieces]) if pieces else \
        np.empty(0, np.uint64)
    fps = np.concatenate([p[1] for p in pieces]) if pieces else np.empty(0, np.uint64)
    return _shards.build_shard(os.path.join(directory, _shards.shard_file(r)), ids, fps, scheme=scheme,
                               string_ids=string_ids, **options)


def build_sharded_index(client, partitions: Sequence, directory: str, *, shards: int, scheme: str = "t10",
                        keep: Optional[np.ndarray] = None, string_ids: Optional[bool] = None,
                        **build_options) -> List[dict]:
    """Builds one index per key range of table 0 (``shards`` even ranges of fingerprint
    values) from the partitions' documents with a fingerprint (only those where ``keep``,
    a mask by input ordinal, is true: e.g. run.result.keep), one build task per shard, and
    writes the manifest. simdex.open_index(directory) searches them together. The
    directory must be on storage every worker writes to at the same path."""
    directory = os.path.abspath(os.fspath(directory))
    os.makedirs(directory, exist_ok=True)
    partitions = list(partitions)
    sizes = client.gather([client.submit(lambda p: (p["records"], p["ids"].dtype == object), p) for p in partitions])
    if string_ids is None:
        string_ids = any(s[1] for s in sizes)
    keep_future = client.scatter(keep, broadcast=True) if keep is not None else None
    offsets = np.cumsum([0] + [s[0] for s in sizes]).tolist()
    built = []
    for r in range(shards):
        pieces = [client.submit(_shard_piece, p, shards, r, keep_future, offsets[i]) for i, p in enumerate(partitions)]
        built.append(client.submit(_build_shard, directory, r, pieces, scheme, string_ids, build_options, pure=False))
    stats = client.gather(built)
    _shards.write_manifest(directory, scheme, shards)
    return stats
