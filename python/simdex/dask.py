"""simdex.dask: batch de-duplication on a Dask cluster, the source documents' MapReduce
plan, with exactly the results of one machine's ``simdex dedup`` (docs/distributed.md).

    from distributed import Client
    import simdex.dask
    client = Client("tcp://scheduler:8786")          # or LocalCluster()
    run = simdex.dask.dedup(client, ["crawl-000.jsonl.gz", ...], method="simhash", against=["corpus.sdx"])
    for rec in run.records(): ...                     # the lines `simdex dedup --method simhash` prints
    simdex.dask.build_sharded_index(client, run.partitions, "corpus-shards/", shards=8,
                                    keep=run.result.keep)

The plan, as tasks on the cluster:
  1. map: each input file is one partition, read and fingerprinted on a worker
     (``fingerprint_files``); the partitions stay on the workers.
  2. shuffle by table key: each partition cuts its fingerprints in one pass, for every
     table t the scheme uses for k, into ``ranges`` key ranges of t
     (simdex.parts.split_by_key_ranges): one piece per key range holding that range of every
     table, which goes to reducer r.
  3. self-join per key range: reducer r joins the range of every table t
     (simdex.parts.join_tables: one sort by t's key, the repeats dropped within key groups): the
     pairs table t owns there. Every pair within k comes out of exactly one (reducer, table).
  4. against a stored corpus, inverted: the same reducer streams, for each index, the key
     range r of each table t against the batch fingerprints it holds for (t, r)
     (simdex.parts.nearest_in_table); the splits' nearest entries are reduced per index
     (simdex.parts.reduce_nearest).
  5. assemble: one task feeds the partitions' fingerprints, the pairs and the matches to
     the engine's Deduplicator (external pairs), which gives clusters, representatives,
     duplicate flags and pairs exactly as the single-machine run.
Before step 2 the client gathers the partitions' ids (for the records) and refuses a
batch that gives one id to two documents, as the command does (simdex/_dask_ids.py).

``dedup(..., method="minhash")``, the default as ``simdex dedup``'s, runs `simdex dedup
--method minhash`'s plan instead of the SimHash one above (``method="simhash"``):
files signed on the workers (``sign_files``), identical signatures collapsed by a
shuffle of digests, band keys shuffled by key range to reducers that join each band,
the estimate filter on the candidate pairs' signatures only, and one assembly of
clusters (simdex/_dask_minhash.py has the plan and what each process holds); with
``against`` MinHash-LSH indexes the signing tasks query each signature, and with
``confirm`` each partition reads its file again for its paired documents' shingles and
the pairs are confirmed where their second document is.
"""

from __future__ import annotations

import operator
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import dask.base
import numpy as np

import simdex
from simdex import _dask_ids, _dask_minhash, _shards

__all__ = ["DistributedDedup", "fingerprint_files", "sign_files", "dedup", "dedup_partitions", "build_sharded_index"]


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
    # Where the documents were read (with part["line_runs"]), for the id check's message.
    part["source"] = (path, {name: value for name, value in read_options.items() if name != "threads"})
    return part


def _partition_from_arrays(fingerprints, ids=None, reasons=None, scores=None) -> dict:
    fps = np.ascontiguousarray(fingerprints, dtype=np.uint64)
    return {"fingerprints": fps,
            "ids": np.arange(len(fps), dtype=np.uint64) if ids is None else ids,
            "reasons": np.zeros(len(fps), dtype=np.int8) if reasons is None else np.asarray(reasons, np.int8),
            "scores": scores, "records": len(fps), "skipped": 0, "ordinal": False}


def _fingerprints(part: dict) -> np.ndarray:
    """A SimHash partition's fingerprints; ValueError for a MinHash one (sign_files)."""
    if "fingerprints" not in part:
        raise ValueError("a partition of sign_files (MinHash signatures) where SimHash fingerprints are needed: "
                         "use method='minhash', or fingerprint_files")
    return part["fingerprints"]


def _split(part: dict, tables: Sequence[int], ranges: int, scheme: str) -> List[tuple]:
    """The map side of the shuffle, one pass over the partition: piece r holds, for every
    table, the fingerprints whose key falls in key range r (repeats kept: the join drops them)."""
    return simdex.parts.split_by_key_ranges(_fingerprints(part), list(tables), ranges, scheme, empty=part["reasons"])


def _table_pieces(pieces: List[tuple], i: int) -> List[np.ndarray]:
    """The bucket of the i-th table in each partition's piece (views, no copies)."""
    return [values[lims[i]:lims[i + 1]] for values, lims in pieces]


def _reduce_range(pieces: List[tuple], tables: Sequence[int], k: int, scheme: str, join: bool,
                  indexes: Sequence[str]):
    """The reduce side for one key range (pieces: that range's piece of every partition):
    the pairs each table owns there (join_tables, one sort per table, buffers reused), and
    for each index the nearest entries in its splits of that range (nearest_in_table).
    Returns the pairs, or (pairs, [matches per index]) when there are indexes."""
    pairs = simdex.parts.join_tables([(t, _table_pieces(pieces, i)) for i, t in enumerate(tables)], k, scheme) \
        if join else None
    if not indexes:
        return pairs
    found = []
    for path in indexes:
        with simdex.Index.open(path) as index:
            hits = [simdex.parts.nearest_in_table(index, _table_pieces(pieces, i), k, t) for i, t in enumerate(tables)]
        found.append(tuple(np.concatenate([h[j] for h in hits]) for j in range(3)))
    return pairs, found


def _reduce_nearest(splits: List[List[tuple]], j: int) -> tuple:
    """Index j's nearest entry per batch fingerprint over every range's splits."""
    found = [s[j] for s in splits]
    if not found:
        return (np.empty(0, np.uint64), np.empty(0, np.uint64), np.empty(0, np.uint8))
    return simdex.parts.reduce_nearest(*(np.concatenate([f[i] for f in found]) for i in range(3)))


def _assembly_input(part: dict) -> tuple:
    """What the assembly needs of a partition (not its ids). A MinHash partition fails
    here with the same ValueError as in _split: whichever task fails first, the caller
    gets that one error."""
    return _fingerprints(part), part["reasons"], part["scores"]


def _assemble(inputs: List[tuple], pairs: List[Optional[tuple]], matches: List[tuple], k: Optional[int], scheme: str,
              keep_pairs: bool, memory: int, tmpdir: str) -> dict:
    """The engine's Deduplicator over the partitions' arrays where they are (no
    concatenation), the reducers' pairs and the indexes' matches; the result narrowed for
    the trip to the client."""
    fps = [i[0] for i in inputs]
    reasons = [i[1] for i in inputs]
    scores = [i[2] for i in inputs] if inputs and inputs[0][2] is not None else None
    fields = simdex._simdex._dedup(fps, empty=reasons, scores=scores, k=k, scheme=scheme, pairs=keep_pairs,
                                   near_pairs=[p for p in pairs if p is not None], index_matches=tuple(matches),
                                   memory=memory, tmpdir=tmpdir, narrow=True)
    # The empty documents' reasons only: the client puts them where result.empty is set.
    codes = np.concatenate([r[r != 0] for r in reasons]) if reasons else np.empty(0, np.int8)
    return {"n": sum(len(f) for f in fps), "fields": fields, "empty_reasons": codes}


# ---- What crosses the network to the client: the result's arrays, narrowed. On one
# machine's loopback Dask moves ~75 MB/s, so 10^7 documents' 33 bytes each took 6-7 s;
# representatives as uint32, the against columns left out when nothing matched (both
# made so by the assembly), only the empty documents' reasons, and consecutive ids as
# their first value make it 7 bytes.

_NO_MATCH = {"against_index": (-1, np.int32), "against_id": (0, np.uint64), "against_distance": (-1, np.int8)}


def _pack_result(result) -> dict:
    """A DedupResult as the assembly sends it (for tests: _assemble packs its own)."""
    fields = dict(vars(result))
    n = len(result)
    if n <= np.iinfo(np.uint32).max:
        fields["representative"] = result.representative.astype(np.uint32)
    if not result.stats.get("against_matches"):
        for name in _NO_MATCH:
            fields[name] = None
    return {"n": n, "fields": fields}


def _unpack_result(packed: dict):
    fields, n = dict(packed["fields"]), packed["n"]
    fields["representative"] = fields["representative"].astype(np.uint64, copy=False)
    for name, (value, dtype) in _NO_MATCH.items():
        if fields[name] is None:
            fields[name] = np.full(n, value, dtype=dtype)
    return simdex.DedupResult(**fields)


def _unpack_reasons(packed: dict, result) -> np.ndarray:
    reasons = np.zeros(packed["n"], np.int8)
    reasons[result.empty] = packed["empty_reasons"]
    return reasons


def _id_summary(part: dict) -> dict:
    """A partition's ids as the client needs them, computed where the partition is: the
    ids, or (first, count) when they are consecutive numbers; and how many records it read."""
    ids = part["ids"]
    # n increasing numbers from first to first + n - 1 are consecutive.
    if ids.dtype != object and len(ids) > 1 and int(ids[-1]) - int(ids[0]) == len(ids) - 1 and \
            bool(np.all(ids[1:] > ids[:-1])):
        ids = ("range", int(ids[0]), len(ids))
    return {"ids": ids, "ordinal": part["ordinal"], "records": part["records"], "skipped": part["skipped"]}


def _id_chunks(summaries: List[dict]) -> list:
    """The partitions' ids on the client, ("range", first, count) or an array each; ordinal
    ids count on across files as `simdex dedup` counts them."""
    chunks, offset = [], 0
    for s in summaries:
        ids = s["ids"]
        if isinstance(ids, tuple):
            ids = ("range", ids[1] + (offset if s["ordinal"] else 0), ids[2])
        elif s["ordinal"] and ids.dtype != object:
            ids = ids + np.uint64(offset)
        chunks.append(ids)
        offset += s["records"] + s["skipped"]
    return chunks


def _consecutive(chunks: list) -> bool:
    """Whether the ids run first, first + 1, ... over every partition (no id can repeat),
    known from the ranges alone."""
    return all(isinstance(c, tuple) for c in chunks) and \
        all(a[1] + a[2] == b[1] for a, b in zip(chunks, chunks[1:]))


def _combine_ids(summaries: List[dict], chunks: Optional[list] = None) -> np.ndarray:
    """The documents' ids by ordinal, on the client (chunks: _id_chunks(summaries))."""
    chunks = _id_chunks(summaries) if chunks is None else chunks
    arrays = [np.arange(c[1], c[1] + c[2], dtype=np.uint64) if isinstance(c, tuple) else c for c in chunks]
    if any(a.dtype == object for a in arrays):
        return np.concatenate([a.astype(object) for a in arrays])
    return np.concatenate(arrays) if arrays else np.empty(0, np.uint64)


# ---- The driver side.

@dataclass
class DistributedDedup:
    """The outcome of ``dedup``: ``result`` (a simdex.DedupResult by input ordinal, a
    simdex.MinHashDedupResult with method="minhash"), the
    documents' ``ids`` and empty ``reasons``, the ``against`` index paths, and the
    ``partitions`` (futures still on the workers, for build_sharded_index)."""

    result: Any  # simdex.DedupResult; simdex.MinHashDedupResult for method="minhash"
    ids: np.ndarray
    reasons: np.ndarray
    against: List[str]
    partitions: List[Any] = field(default_factory=list)
    tasks: Dict[str, int] = field(default_factory=dict)

    def records(self):
        """The JSON records ``simdex dedup --against ...`` prints, in input order."""
        if isinstance(self.result, simdex.MinHashDedupResult):
            yield from self.result.records(self.ids, self.reasons, self.against)
            return
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
                      id_mode: str = "field", keep: str = simdex._SIMHASH["keep"], skip_bad: bool = False) -> list:
    """Step 1, map: one task per file (JSONL or lines, .gz/.zst/.bz2), each reading and
    fingerprinting its file on a worker. Returns the partitions' futures, in file order.
    fingerprint_options are simdex.Fingerprinter's keyword arguments (tokenizer, compat, ...).
    idf="auto" is refused: each task would learn the idf of its own file, and fingerprints
    of files weighed by different tables do not compare. Learn the batch's idf once
    (`simdex idf [--idf-cap C] -o FILE` over all the files) and pass idf=FILE.
    The files must be readable by the workers at the same paths."""
    read = {"format": format, "id_field": id_field, "text_fields": list(text_fields), "id_mode": id_mode,
            "keep": keep, "skip_bad": skip_bad, "threads": 1}
    options = dict(fingerprint_options or {})
    if options.get("idf") == "auto":
        raise ValueError("fingerprint_options idf='auto' would learn the idf of each file apart, and fingerprints "
                         "weighed by different tables do not compare: learn it once over all the files "
                         "(`simdex idf [--idf-cap C] -o FILE FILES...`) and pass idf=FILE")
    # Keys name the file and hash everything the result depends on, so that a run with other
    # options never reuses a partition still held from an earlier run.
    return [client.submit(_fingerprint_part, os.fspath(p), options, read,
                          key=f"simdex-fingerprint-{i}-{os.path.basename(os.fspath(p))}-"
                              f"{dask.base.tokenize(os.fspath(p), _mtime(p), options, read)}")
            for i, p in enumerate(paths)]


def sign_files(client, paths: Sequence[str], *, against: Sequence[str] = (), format: Optional[str] = None,
               id_field: str = "id", text_fields: Sequence[str] = ("text",), id_mode: str = "field",
               keep: str = simdex._MINHASH["keep"], skip_bad: bool = False, **minhash_options) -> list:
    """Step 1 of method="minhash": one task per file, each reading and signing its file
    on a worker as `simdex dedup --method minhash` signs documents (band keys, b-bit
    signatures, digests of identical signatures). minhash_options: threshold (0.8),
    num_perm (128), seed (1), word_n and char_n (5: the shingles), shingles (the word
    definition, "word-chars" or "space-split"; None: the library's default), bands and rows
    (default: chosen from the threshold, 21 x 6 at 0.8 for the exact check, 16 x 8 with
    approximate=True), signature_bits (4), estimate_filter, approximate (the command's
    --approximate; the signing depends on it through the bands). against: MinHash-LSH index files
    (readable by the workers at these paths); each signature is queried in each while the
    signing task holds it, as the command's signing threads query it, and the partition
    keeps each document's best match (the highest estimate at or above the estimate
    filter, the first index among equals). An index that is not MinHash-LSH, or signs
    otherwise (num_perm, seed, word_n, char_n, shingles), fails the task with a ValueError naming
    it. Returns the partitions' futures, in file order; dedup_partitions(method="minhash")
    takes them."""
    unknown = sorted(set(minhash_options) - set(_dask_minhash.OPTIONS))
    if unknown:
        raise TypeError(f"sign_files got an unexpected option {unknown[0]!r}")
    run = _dask_minhash.layout(**minhash_options)
    against = _lsh_paths(against)
    read = {"format": format, "id_field": id_field, "text_fields": list(text_fields), "id_mode": id_mode,
            "keep": keep, "skip_bad": skip_bad, "threads": 1}
    queried = _dask_minhash.queried(against, run["against_min_estimate"], run["against_sketch"])
    indexes = [(a, _mtime(a)) for a in against]
    return [client.submit(_dask_minhash.sign_part, os.fspath(p), run["signing"], read,
                          id_mode == "ordinal" or _is_lines(os.fspath(p), format), against,
                          run["against_min_estimate"], run["against_sketch"],
                          key=f"simdex-minhash-{i}-{os.path.basename(os.fspath(p))}-"
                              f"{dask.base.tokenize(os.fspath(p), _mtime(p), run['signing'], read, queried, indexes)}")
            for i, p in enumerate(paths)]


def _lsh_paths(against: Sequence[str]) -> List[str]:
    """method="minhash"'s against: index files. A shard directory is refused: its shards
    are SimHash indexes cut by fingerprint value, and no MinHash-LSH layout of shards
    exists (`simdex dedup --method minhash --against` takes files too)."""
    paths = [os.fspath(a) for a in against]
    for path in paths:
        if os.path.isdir(path):
            raise ValueError(f"{path} is a directory: shard directories hold SimHash indexes, cut by fingerprint "
                             "value; method='minhash' takes MinHash-LSH index files")
    return paths


def _mtime(path) -> int:
    """The file's modification time, or 0 when the client cannot see it (only the workers do)."""
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return 0


def _ranges(client, ranges: Optional[int]) -> int:
    """Key ranges (reducers): as given, or twice the workers' threads."""
    if ranges is None:
        ranges = max(1, 2 * sum(client.nthreads().values()))
    if not 1 <= ranges <= 1 << 16:
        raise ValueError(f"ranges must be in 1..65536, got {ranges}")
    return ranges


def _simhash_option_error(name: str, method: Optional[str]) -> ValueError:
    """A SimHash-only option given to the MinHash-LSH method, named, with what to pass."""
    if method is None:
        return ValueError(f"{name} is a SimHash option; the default method is 'minhash', as simdex dedup's: pass "
                          "method='simhash' for SimHash")
    return ValueError(f"{name} is a SimHash option; method='minhash' takes {', '.join(_dask_minhash.OPTIONS)}, "
                      "against and confirm")


def _gather_ids(client, partitions: list, allow_duplicate_ids: bool) -> tuple:
    """The partitions' id summaries and the documents' ids by ordinal, on the client;
    a batch that gives one id to two documents is refused here (_dask_ids), before the
    plan, unless allow_duplicate_ids."""
    summaries = client.gather([client.submit(_id_summary, p) for p in partitions])
    chunks = _id_chunks(summaries)
    ids = _combine_ids(summaries, chunks)
    if not allow_duplicate_ids and not _consecutive(chunks):
        _dask_ids.check_unique(client, partitions, summaries, ids)
    return summaries, ids


def _dedup_minhash(client, partitions: list, ranges: Optional[int], pairs: bool, against: Sequence[str],
                   confirm: Optional[str], simhash: dict, minhash_options: dict, method: Optional[str],
                   allow_duplicate_ids: bool) -> DistributedDedup:
    """dedup_partitions(method="minhash"): _dask_minhash's plan."""
    for name, value in simhash.items():
        if value is not None:
            raise _simhash_option_error(name, method)
    run = _dask_minhash.layout(**minhash_options)
    against = _lsh_paths(against)
    if confirm is None:
        confirm = run["exact_confirm"]  # None with approximate=True
    else:
        confirm = _dask_minhash.confirm_spec(confirm, run["shingles"])
    if confirm is not None:
        simdex.Confirmer(confirm)  # a bad spec is a ValueError naming it, before any task
    ranges = _ranges(client, ranges)
    _dask_minhash.check_partitions(client, partitions, run, against)
    summaries, ids = _gather_ids(client, partitions, allow_duplicate_ids)
    packed, tasks = _dask_minhash.plan(client, partitions, run, ranges, pairs, confirm)
    # Each partition's index matches (positions, index, ids, estimates), for the client.
    matches = [client.submit(operator.getitem, p, "matches") for p in partitions] if against else []
    packed, matches = client.gather([packed, matches])
    result = _dask_minhash.unpack(packed)
    result.stats["against_duplicates"] = 0
    if against:
        _dask_minhash.put_matches(result, matches, [s["records"] for s in summaries])
    return DistributedDedup(result=result, ids=ids, reasons=result.empty.astype(np.int8),
                            against=against, partitions=partitions, tasks=tasks)


def dedup_partitions(client, partitions: Sequence, *, method: Optional[str] = None, k: Optional[int] = None,
                     scheme: Optional[str] = None, against: Sequence[str] = (), ranges: Optional[int] = None,
                     pairs: bool = False, memory: Optional[int] = None, tmpdir: Optional[str] = None,
                     confirm: Optional[str] = None, allow_duplicate_ids: bool = False,
                     **minhash_options) -> DistributedDedup:
    """Steps 2-5 over partitions already on the cluster. method: "minhash" (the default,
    as `simdex dedup`'s) for the partitions of sign_files, "simhash" for those of
    fingerprint_files (or futures of dicts with fingerprints/ids/reasons/scores arrays).

    method="simhash": ranges: key ranges per table
    (default: twice the workers' threads). against: index files (their paths must be
    readable by the workers; a shard directory counts as its shards), checked as
    `simdex dedup --against` checks them, in order; a MinHash-LSH index is a ValueError
    naming it. memory (default 1 GiB) and tmpdir bound the assembly.

    method="minhash": partitions of sign_files, de-duplicated as `simdex dedup --method
    minhash`; minhash_options are sign_files' (every partition must be signed so: else
    ValueError naming both) and estimate_filter (None: two standard errors below the
    threshold; "off"; or a J). against: the MinHash-LSH index files the partitions were
    queried in by sign_files (the same paths in the same order and the same estimate
    filter, else ValueError naming both): each document with a match is a duplicate with
    its best match (records()' "against"). confirm: `--confirm`'s spec
    ("jaccard-shingles:0.8", "jaccard:0.5", "edit:0.6", ...; simdex.Confirmer): every
    document pair (those of pairs=True) is confirmed from the two texts and only the
    accepted ones make clusters; the pairs then carry their similarity. Each partition's
    file is read again once, on a worker, for the documents of its pairs (one task per
    partition, holding their sorted shingle hashes, 8 bytes a shingle, or for edit their
    texts, twice: as read and cut per destination); one task per partition confirms the
    pairs whose second document is there, holding those pairs (24 bytes each) and the
    hashes (or texts) of both documents of each, twice (as received and concatenated).
    k, scheme, memory and tmpdir are SimHash's and refused with it (without method, the
    ValueError says to pass method="simhash"), as the minhash options and confirm are
    with method="simhash" (SimHash's second stage is not on the cluster).

    Both methods refuse a batch in which two documents have one id, as `simdex dedup`
    does: a ValueError naming the id and where both documents were read ("<file>:<line>",
    or "partition P, position I" for partitions of arrays); allow_duplicate_ids=True
    keeps every document, as `--allow-duplicate-ids`. The check runs on the client over
    the ids it gathers for the records, before the plan's tasks are submitted
    (simdex/_dask_ids.py); ids that are record numbers are not checked."""
    unknown = sorted(set(minhash_options) - set(_dask_minhash.OPTIONS))
    if unknown:
        raise TypeError(f"dedup_partitions got an unexpected option {unknown[0]!r}")
    partitions = list(partitions)
    if method is None or method == "minhash":
        simhash = {"k": k, "scheme": scheme, "memory": memory, "tmpdir": tmpdir}
        return _dedup_minhash(client, partitions, ranges, pairs, against, confirm, simhash, minhash_options, method,
                              allow_duplicate_ids)
    if method != "simhash":
        raise ValueError(f"method '{method}' is not simhash or minhash")
    if minhash_options:
        raise ValueError(f"{sorted(minhash_options)[0]} is a MinHash option (method='minhash')")
    if confirm is not None:
        raise ValueError("confirm is method='minhash''s on the cluster; SimHash's second stage (--confirm, "
                         "--k-short) is not: use the command")
    scheme = simdex._SIMHASH["default_scheme"] if scheme is None else scheme
    memory = simdex._SIMHASH["memory"] if memory is None else memory
    tmpdir = "" if tmpdir is None else tmpdir
    info = simdex.parts.scheme_info(scheme, k)
    k = info["k"] if k is None else k
    tables = info["tables_for_k"]
    ranges = _ranges(client, ranges)
    tasks = {"partitions": len(partitions), "ranges": ranges}

    # A shard directory counts as its shards, in order. Indexes of the batch's scheme are
    # streamed by the join's reducers against the buckets they hold anyway; an index of
    # another scheme needs the batch split by that scheme's tables.
    against = [s for a in against for s in
               (_shards.shard_paths(os.fspath(a)) if os.path.isdir(a) else [os.fspath(a)])]
    for path in against:
        if simdex.parts.index_kind(path) != "simhash":
            raise ValueError(f"{path}: a MinHash-LSH index where a SimHash index is needed (method='minhash' "
                             "takes it)")
    by_scheme: Dict[str, List[int]] = {scheme: []}
    for j, path in enumerate(against):
        with simdex.Index.open(path) as index:
            by_scheme.setdefault(index.scheme, []).append(j)
    summaries, ids = _gather_ids(client, partitions, allow_duplicate_ids)
    matches: List[Any] = [None] * len(against)
    joined = []
    for split_scheme, indexes in by_scheme.items():
        join = split_scheme == scheme
        split_tables = tables if join else simdex.parts.scheme_info(split_scheme, k)["tables_for_k"]
        # 2. Shuffle by table key: one piece per (partition, key range) holding every table.
        splits = [client.submit(_split, p, split_tables, ranges, split_scheme) for p in partitions]
        pieces = [[client.submit(operator.getitem, s, r) for s in splits] for r in range(ranges)]
        # 3-4. One reducer per key range: the self-join, and each index's splits of that range.
        paths = [against[j] for j in indexes]
        reduced = [client.submit(_reduce_range, pieces[r], split_tables, k, split_scheme, join, paths, pure=not paths)
                   for r in range(ranges)]
        if not paths:
            joined += reduced
            continue
        if join:
            joined += [client.submit(operator.getitem, x, 0) for x in reduced]
        found = [client.submit(operator.getitem, x, 1) for x in reduced]
        for i, j in enumerate(indexes):
            matches[j] = client.submit(_reduce_nearest, found, i)
        tasks["against_splits"] = tasks.get("against_splits", 0) + len(indexes) * len(split_tables) * ranges
    tasks["joins"] = len(joined)

    # 5. Assemble on one worker (the ids were summed up where each partition is).
    inputs = [client.submit(_assembly_input, p) for p in partitions]
    assembled = client.submit(_assemble, inputs, joined, matches, k, scheme, pairs, memory, tmpdir)
    packed = assembled.result()
    result = _unpack_result(packed)
    return DistributedDedup(result=result, ids=ids, reasons=_unpack_reasons(packed, result),
                            against=against, partitions=partitions, tasks=tasks)


def dedup(client, paths: Sequence[str], *, method: Optional[str] = None, fingerprint_options: Optional[dict] = None,
          format: Optional[str] = None, id_field: str = "id", text_fields: Sequence[str] = ("text",),
          id_mode: str = "field", keep: str = simdex._SIMHASH["keep"], skip_bad: bool = False, **options) -> DistributedDedup:
    """``simdex dedup`` over many files on a Dask cluster: the same results, pairs,
    clusters and keep list as the single-machine command given the same files in the
    same order and the same options. The default method is the command's, MinHash-LSH
    (method="minhash"); a SimHash option (k, scheme, memory, tmpdir,
    fingerprint_options) without method="simhash" is a ValueError saying to pass it.

    method="simhash": ``simdex dedup --method simhash``: fingerprint_files, then
    dedup_partitions (k, scheme, against, ranges, pairs, memory, tmpdir).

    method="minhash" (the default): ``simdex dedup --method minhash``: sign_files, then
    dedup_partitions(method="minhash"), with the options threshold, num_perm, seed,
    word_n, char_n, shingles, bands, rows, signature_bits, estimate_filter, approximate, ranges,
    pairs, against (MinHash-LSH index files, queried by the signing tasks) and confirm
    (`--confirm`'s spec; by default the exact check, every pair kept confirmed by its
    texts' shingle Jaccard at the threshold, as the command's default; approximate=True:
    none); dedup_partitions says what each task holds."""
    read = {"format": format, "id_field": id_field, "text_fields": text_fields, "id_mode": id_mode, "keep": keep,
            "skip_bad": skip_bad}
    if method is None or method == "minhash":
        if fingerprint_options is not None:
            raise _simhash_option_error("fingerprint_options", method)
        signing = {name: options[name] for name in _dask_minhash.OPTIONS if name in options}
        parts = sign_files(client, paths, against=options.get("against", ()), **read, **signing)
    else:
        parts = fingerprint_files(client, paths, fingerprint_options=fingerprint_options, **read)
    return dedup_partitions(client, parts, method=method, **options)


def _shard_piece(part: dict, shards: int, r: int, keep: Optional[np.ndarray], offset: int) -> tuple:
    fps, ids, reasons = _fingerprints(part), part["ids"], part["reasons"]
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


def build_sharded_index(client, partitions: Sequence, directory: str, *, shards: int, scheme: str = simdex._SIMHASH["default_scheme"],
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
