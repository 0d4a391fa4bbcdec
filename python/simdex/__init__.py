"""simdex: near-duplicate documents among billions, from compressed SimHash indexes.

The C++ engine (simdex._simdex) for Python, with numpy arrays in and out:

- ``Fingerprinter``: texts -> 64-bit SimHash fingerprints (np.uint64), on threads
  without the GIL; ``compat="python-simhash"`` reproduces the ``simhash`` package;
  ``idf="auto"`` learns the idf of each batch, ``learn_idf`` returns it (``IdfTable``).
- ``IndexBuilder`` / ``Index.open``: build a compressed index file; search it through
  a memory map, faiss-style (``lims, ids, fingerprints, distances``).
- ``dedup``: every pair of a batch within k, clusters, representatives, duplicate
  flags, and matches in stored indexes (``DedupResult``).
- ``merge``: grow an index by a batch (and delete ids) without re-sorting it.
- ``fingerprint_file``: read and fingerprint JSONL or text files (.gz/.zst/.bz2).
- ``simdex.dask``: the same de-duplication on a Dask cluster (docs/distributed.md).
- ``MinHasher``: MinHash signatures of texts (np.uint32) over the Jaccard truth's
  shingles; ``band_keys``, ``pack_signature``, ``estimate_packed``,
  ``minhash_estimate``, ``optimal_lsh_bands``, ``default_lsh_bands``,
  ``default_estimate_filter``; the self-join's pieces ``band_pairs`` (pairs sharing a
  band key) and ``pair_clusters`` (docs/minhash.md).
- ``LshIndexBuilder`` / ``LshIndex``: MinHash-LSH index files (``simdex build --method
  minhash``), queried by signatures or texts (``lims, ids, estimates``); ``merge_lsh``
  grows one. ``open_index`` (and ``Index.open``) opens either kind (``index_kind``).
- ``Confirmer``: the exact similarity of two texts by which ``simdex dedup --confirm``
  confirms a pair (Jaccard of shingles, or edit distance).

Errors raise ValueError (bad arguments), OSError (files), or a ``simdex.Error``
subclass (``CorruptionError``, ``NotFoundError``, ``NotSupportedError``) carrying
the library's message. docs/python.md is the guide.
"""

from __future__ import annotations

import os
from typing import Iterable, Optional, Sequence, Union

import numpy as np

from . import _simdex
from ._results import DedupResult, MinHashDedupResult, dedup_records
from ._shards import ShardedIndex, build_shards
from ._simdex import (
    Confirmer,
    CorruptionError,
    Error,
    Fingerprinter,
    IdfTable,
    Index,
    IndexBuilder,
    LshIndex,
    LshIndexBuilder,
    MinHasher,
    NotFoundError,
    NotSupportedError,
    band_keys,
    band_pairs,
    default_estimate_filter,
    default_lsh_bands,
    estimate_packed,
    hamming_distance,
    index_kind,
    join_tables,
    key_ranges,
    merge,
    merge_lsh,
    minhash_estimate,
    nearest_in_table,
    optimal_lsh_bands,
    pack_signature,
    pair_clusters,
    plan,
    reduce_nearest,
    scheme_info,
    split_by_key_ranges,
    table_keys,
)

__all__ = [
    "Confirmer", "CorruptionError", "DedupResult", "EMPTY_REASONS", "Error", "Fingerprinter", "IdfTable", "Index",
    "IndexBuilder", "LshIndex", "LshIndexBuilder", "MinHashDedupResult", "MinHasher", "NotFoundError", "NotSupportedError", "ShardedIndex", "build_shards", "dedup",
    "dedup_records", "fingerprint_file", "hamming_distance", "index_kind", "join_tables", "key_ranges", "merge",
    "merge_lsh",
    "band_keys", "band_pairs", "default_estimate_filter", "default_lsh_bands", "estimate_packed", "minhash_estimate",
    "optimal_lsh_bands", "pack_signature", "pair_clusters",
    "nearest_in_table", "open_index", "plan", "reduce_nearest", "scheme_info", "split_by_key_ranges", "table_keys",
]

__version__ = "0.1.0"

#: Why a document has no fingerprint, by the codes in ``reasons`` arrays (0: it has one).
EMPTY_REASONS = ("", "no-text", "no-features", "all-stop-words", "zero-weight")


_open_file = Index.open


def open_index(path: Union[str, os.PathLike], **options) -> Union[Index, ShardedIndex, LshIndex]:
    """Opens an index file (memory-mapped) by the kind its header records: a SimHash index
    as an Index, a MinHash-LSH index as an LshIndex (``index_kind``); or a directory of shards
    written by ``build_shards`` / ``simdex.dask.build_sharded_index``, searched together with
    the same results as one index over all their entries (a ShardedIndex). Options:
    verify_block_checksums, verify_heads_on_open; for SimHash files also check_period (seconds
    between checks for a new file renamed into place; 0: only on ``reload()``) and preload
    (True: read every page into memory; "lock": also mlock them). A missing file raises
    OSError; a damaged one simdex.CorruptionError."""
    path = os.fspath(path)
    if os.path.isdir(path):
        return ShardedIndex.open(path, **options)
    if index_kind(path) == "minhash-lsh":
        return LshIndex.open(path, **options)
    return _open_file(path, **options)


# Index.open(path) opens shard directories and MinHash-LSH files too.
Index.open = staticmethod(open_index)


def dedup(
    fingerprints,
    *,
    empty=None,
    scores=None,
    k: Optional[int] = None,
    scheme: str = "t10",
    against: Sequence[Union[Index, ShardedIndex]] = (),
    strategy: str = "auto",
    threads: int = 1,
    memory: int = 1 << 30,
    tmpdir: str = "",
    pairs: bool = False,
    near_pairs=None,
    index_matches: Sequence = (),
    profile: Optional[str] = None,
) -> DedupResult:
    """De-duplicates a batch: every pair of documents within Hamming distance k
    (inclusive; default the scheme's, 3), clusters (connected components), one
    representative per cluster and each document's distance to it, and the nearest
    entry of the ``against`` indexes. The same results as ``simdex dedup``.

    fingerprints: np.uint64 array (used in place) in document order.
    empty: optional bool array (or the ``reasons`` of ``fingerprint_batch``: non-zero
    means empty): documents without a fingerprint, never clustered.
    scores: optional float64 array: a cluster's representative is its document with the
    largest score, the first among equals (default: the first document).
    against: indexes (a ``ShardedIndex`` counts as its shards, in order).
    pairs: also return every pair (a, b, distance), a < b, ordered by a then b.
    near_pairs / index_matches: the pieces computed elsewhere (simdex.dask); see
    include/simdex/dedup_parts.h.
    profile: the fingerprints' profile (``Fingerprinter.profile``); an ``against`` index
    that records another raises ValueError naming both (None: not checked).
    """
    if empty is not None:
        empty = np.asarray(empty)
        if empty.dtype != np.bool_:
            empty = empty != 0
    if scores is not None:
        scores = np.ascontiguousarray(scores, dtype=np.float64)
    indexes = []
    for index in against:
        indexes.extend(index.shards if isinstance(index, ShardedIndex) else [index])
    raw = _simdex._dedup(
        fingerprints, empty=empty, scores=scores, k=k, scheme=scheme, against=indexes,
        strategy=strategy, threads=threads, memory=memory, tmpdir=tmpdir, pairs=pairs,
        near_pairs=near_pairs, index_matches=tuple(index_matches), profile=profile)
    return DedupResult(**raw)


def fingerprint_file(
    path: Union[str, os.PathLike],
    fingerprinter: Optional[Fingerprinter] = None,
    *,
    format: Optional[str] = None,
    id_field: str = "id",
    text_fields: Iterable[str] = ("text",),
    id_mode: str = "field",
    keep: str = "first",
    skip_bad: bool = False,
    threads: Optional[int] = None,
) -> dict:
    """Reads one file of documents, as ``simdex fingerprint`` / ``simdex dedup`` read it,
    and fingerprints them on ``threads`` threads without the GIL.

    format: "jsonl" | "lines" | None (from the name: .jsonl/.json/.ndjson, then lines);
    .gz, .zst and .bz2 are decompressed. id_mode "ordinal" numbers records from 1.
    keep: "first" | "longest" | "max:FIELD": what ``scores`` holds for ``dedup``.

    Returns a dict: ids (np.uint64, or an object array when some ids are strings),
    fingerprints (np.uint64), reasons (np.int8; EMPTY_REASONS), scores (np.float64 or
    None), line_runs (where the documents were read: (starts, lines), np.uint64 each;
    document starts[i] is on line lines[i], the next ones on the lines after it until
    starts[i + 1]: one run unless blank lines or skipped records break it), skipped,
    first_errors, blank_lines, bytes. Bad records raise
    simdex.CorruptionError / ValueError naming file and line (unless skip_bad).
    """
    if fingerprinter is None:
        fingerprinter = Fingerprinter()
    return _simdex._fingerprint_file(
        os.fspath(path), fingerprinter, format=format, id_field=id_field,
        text_fields=list(text_fields), id_mode=id_mode, keep=keep, skip_bad=skip_bad,
        threads=threads)
