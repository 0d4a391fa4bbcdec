"""simdex: near-duplicate documents among billions, by MinHash-LSH or SimHash, from compressed indexes.

The C++ engine (simdex._simdex) for Python, with numpy arrays in and out. The top
level (``__all__``; docs/python.md is the guide):

- ``dedup``: de-duplicate a batch of texts or files in process, as ``simdex dedup``
  does (``method="minhash"``, the default for documents: pairs at Jaccard >= the
  threshold, checked exactly; ``method="simhash"``: pairs within k bits), or of
  fingerprints (SimHash): clusters, representatives, duplicate flags, and matches in
  stored indexes (``MinHashDedupResult``, ``DedupResult``).
- ``Fingerprinter``: texts -> 64-bit SimHash fingerprints (np.uint64), on threads
  without the GIL; ``fingerprint_file`` reads and fingerprints JSONL or text files
  (.gz/.zst/.bz2). ``MinHasher``: MinHash signatures of texts (np.uint32).
- ``IndexBuilder`` / ``LshIndexBuilder`` build an index file of either kind (SimHash
  fingerprints, MinHash-LSH signatures); ``build_shards`` a directory of SimHash shards.
- ``open_index`` opens any of them by what it records: an ``Index``, an ``LshIndex``
  or a ``ShardedIndex``, each searched by ``search`` (faiss-style ``lims, ...``).
- ``merge``: grow an index of either kind by a batch (and delete ids) without
  re-sorting it.
- ``Confirmer``: the exact similarity by which ``simdex dedup --confirm`` confirms a pair.
- ``Error`` and its subclasses ``CorruptionError``, ``NotFoundError``,
  ``NotSupportedError``.

``simdex.parts`` holds the pieces below (the Dask shuffle's, the MinHash band join's,
``plan``, ``index_kind``, ...); ``simdex.dask`` the same de-duplication on a Dask
cluster (docs/distributed.md).

Errors raise ValueError (bad arguments), OSError (files), or a ``simdex.Error``
subclass carrying the library's message.
"""

from __future__ import annotations

import os
import warnings
from typing import Iterable, Optional, Sequence, Union

import numpy as np

from . import _simdex, parts
from ._results import DedupResult, MinHashDedupResult
from ._shards import ShardedIndex, build_shards
from ._simdex import (
    Confirmer,
    CorruptionError,
    Error,
    Fingerprinter,
    Index,
    IndexBuilder,
    LshIndex,
    LshIndexBuilder,
    MinHasher,
    NotFoundError,
    NotSupportedError,
)

# docs/python.md's table lists exactly these (python/tests/test_surface.py).
__all__ = [
    "dedup", "fingerprint_file", "open_index", "merge", "build_shards",
    "Fingerprinter", "MinHasher", "Confirmer",
    "Index", "IndexBuilder", "LshIndex", "LshIndexBuilder", "ShardedIndex",
    "DedupResult", "MinHashDedupResult",
    "Error", "CorruptionError", "NotFoundError", "NotSupportedError",
]

__version__ = "0.1.0"


def __getattr__(name: str):
    """The names that moved to simdex.parts (and merge_lsh, now merge), for one release."""
    if name in parts.__all__:
        warnings.warn(f"simdex.{name} is simdex.parts.{name} now", DeprecationWarning, stacklevel=2)
        return getattr(parts, name)
    if name == "merge_lsh":
        warnings.warn("simdex.merge_lsh is simdex.merge now (it takes either kind)", DeprecationWarning, stacklevel=2)
        return merge
    raise AttributeError(f"module 'simdex' has no attribute '{name}'")


# The library's defaults of each method's options (include/simdex/batch.h and
# minhash.h, where they are written once), which the signatures below and
# simdex.dask read; python/tests/test_defaults.py compares them.
_MINHASH = _simdex._defaults["minhash_dedup"]
_SIMHASH = _simdex._defaults["simhash_dedup"]


def open_index(path: Union[str, os.PathLike], **options) -> Union[Index, ShardedIndex, LshIndex]:
    """Opens an index file (memory-mapped) by the kind its header records: a SimHash index
    as an Index, a MinHash-LSH index as an LshIndex (``simdex.parts.index_kind``); or a
    directory of shards written by ``build_shards`` / ``simdex.dask.build_sharded_index``,
    searched together with the same results as one index over all their entries (a
    ShardedIndex). ``Index.open`` and ``LshIndex.open`` open their own kind only. Options:
    verify_block_checksums, verify_heads_on_open, access ("auto", "read-around", "random") and
    cold_reads ("when-missing", "always", "never"; SimHash searches); for files (either kind) also check_period
    (seconds between checks for a new file renamed into place; 0: only on ``reload()``) and
    preload (True: read every page into memory; "lock": also mlock them). A missing file raises
    OSError; a damaged one simdex.CorruptionError."""
    path = os.fspath(path)
    if os.path.isdir(path):
        return ShardedIndex.open(path, **options)
    return _OPENERS[_simdex.index_kind(path)](path, **options)


# Each kind's opener, by the name index_kind reads from the file (the registry
# of kinds, engine/index_file/index_kinds.cc), and the batch arguments its merge
# takes besides ids, delete, memory, tmpdir, threads, existing_ids (for the
# message naming them; _simdex.merge merges every kind through the registry).
_OPENERS = {"simhash": Index.open, "minhash-lsh": LshIndex.open}
_MERGE_TAKES = {"simhash": ("fingerprints", "profile"), "minhash-lsh": ("signatures", "texts")}


def merge(old: Union[str, os.PathLike], out: Union[str, os.PathLike], *, ids=None, fingerprints=None,
          signatures=None, texts=None, profile: Optional[str] = None, delete=None, memory: Optional[int] = None,
          tmpdir: Optional[str] = None, threads: Optional[int] = None, existing_ids: Optional[str] = None) -> dict:
    """Writes ``out``: the index at ``old`` plus a batch, minus the old entries whose id is in
    ``delete``, without re-sorting old's tables; byte for byte the file a fresh build of the
    same entries writes (``simdex merge``). ``out`` may be ``old`` (replaced by a rename).

    The kind is old's (``simdex.parts.index_kind``): a SimHash index takes ``ids`` and
    ``fingerprints`` (np.uint64) and ``profile`` (the fingerprints' ``Fingerprinter.profile``;
    another than old's is a ValueError naming both); a MinHash-LSH index takes ``ids`` (ints or
    str) and ``signatures`` (an n x num_perm np.uint32 array) or ``texts`` (signed with old's
    options). A batch argument of the other kind is a ValueError naming what old takes.
    existing_ids: an id old holds already is refused ("refuse", the default: ValueError naming
    it), replaces its old entries ("replace") or is stored twice ("keep"). memory bounds the
    buffers, past which they spill to tmpdir ("" = out's directory); threads share the work.
    None: the library's default. Returns the merge statistics as a dict."""
    old, out = os.fspath(old), os.fspath(out)
    kind = _simdex.index_kind(old)
    takes = _MERGE_TAKES[kind]
    batch = {"fingerprints": fingerprints, "profile": profile, "signatures": signatures, "texts": texts}
    for name, value in batch.items():
        if value is not None and name not in takes:
            raise ValueError(f"{old} is a {kind} index: merge takes {', '.join(t + '=' for t in takes)} for it, "
                             f"not {name}=")
    common = {"ids": ids, "delete": delete, "memory": memory, "tmpdir": tmpdir, "threads": threads,
              "existing_ids": existing_ids}
    given = {name: value for name, value in {**common, **batch}.items() if value is not None}
    return _simdex.merge(old, out, **given)


def dedup(
    documents=None,
    *,
    files: Optional[Sequence[Union[str, os.PathLike]]] = None,
    method: Optional[str] = None,
    empty=None,
    scores=None,
    k: Optional[int] = None,
    scheme: Optional[str] = None,
    against: Sequence = (),
    strategy: str = _SIMHASH["strategy"],
    threads: int = _MINHASH["threads"],
    memory: int = _MINHASH["memory"],
    tmpdir: str = _MINHASH["tmpdir"],
    pairs: bool = _MINHASH["pairs"],
    near_pairs=None,
    index_matches: Sequence = (),
    profile: Optional[str] = None,
    threshold: float = _MINHASH["threshold"],
    num_perm: int = _MINHASH["num_perm"],
    seed: int = _MINHASH["seed"],
    shingles: Optional[str] = None,
    bands: int = _MINHASH["bands"],
    rows: int = _MINHASH["rows"],
    signature_bits: int = _MINHASH["signature_bits"],
    estimate_filter: Union[None, float, str] = None,
    confirm: str = _MINHASH["confirm"],
    keep: str = _MINHASH["keep"],
    allow_duplicate_ids: bool = _MINHASH["allow_duplicate_ids"],
    approximate: bool = _MINHASH["approximate"],
    format: Optional[str] = None,
    id_field: str = "id",
    text_fields: Iterable[str] = ("text",),
    id_mode: str = "field",
    skip_bad: bool = False,
    fingerprinter: Optional[Fingerprinter] = None,
    k_short: Optional[int] = None,
    short_length: Optional[int] = None,
) -> Union[DedupResult, MinHashDedupResult]:
    """De-duplicates a batch, as ``simdex dedup`` does, in this process.

    Documents (texts or files) are de-duplicated by MinHash-LSH, the command's default
    for documents (``method="minhash"``, docs/minhash.md): ``documents`` a sequence of
    texts (str or bytes; document i has id i), or ``files`` paths read as the command
    reads them (JSON Lines or one document per line, .gz/.zst/.bz2; ``format``,
    ``id_field``, ``text_fields``, ``id_mode``, ``skip_bad``). The same options and
    defaults as the command's: ``threshold``, ``num_perm``, ``seed``, ``shingles`` (the
    word definition, "word-chars" or "space-split", ``--shingles``; None: the default, or
    the first ``against`` index's), ``bands``/``rows``,
    ``signature_bits``, ``estimate_filter`` (a J, "off", or None for the default),
    ``approximate`` (the command's ``--approximate``: the b-bit estimate decides; by
    default every pair kept is checked by the exact Jaccard of the texts' shingles at the
    threshold, so that no pair reported is below it), ``confirm`` (a ``--confirm`` spec
    instead of the exact check's), ``keep`` ("first", "longest", "max:FIELD", with
    ``scores`` for texts), ``pairs``, ``allow_duplicate_ids``, ``threads``, ``memory``,
    ``tmpdir``; ``against``: MinHash-LSH index files. Returns a MinHashDedupResult, whose
    ``records()`` are the command's JSON lines (the same records, pairs and clusters as
    ``simdex dedup --method minhash`` on the same input and options).

    Documents with ``method="simhash"`` run ``simdex dedup --method simhash`` in process
    (include/simdex/batch.h, the code the command runs): every pair whose fingerprints are
    within Hamming distance k (inclusive), clusters (connected components), one
    representative per cluster and each document's distance to it. The command's options
    and defaults: ``fingerprinter`` (a ``Fingerprinter`` whose text options, idf table or
    idf="auto" make the fingerprints; default ``Fingerprinter()``), ``k`` (None: 3, the
    scheme's k, or 8 under ``confirm="jaccard-shingles:T"``), ``scheme`` (None: t10, or one
    covering a k above 3), ``confirm``, ``k_short``/``short_length``, ``keep``, ``pairs``,
    ``allow_duplicate_ids``, ``threads``, ``memory``, ``tmpdir``, ``against`` (``Index``
    objects, a ``ShardedIndex`` counting as its shards) and ``strategy``. Returns a
    DedupResult with the documents' ``ids`` and empty ``reasons``, whose ``records()``,
    ``pair_records()`` and ``clusters()`` are the command's.

    Fingerprints (an np.uint64 array, or a list of arrays read one after another) are
    de-duplicated by SimHash (``method="simhash"``): every pair of documents within
    Hamming distance k (inclusive; default the scheme's, 3), clusters (connected
    components), one representative per cluster and each document's distance to it, and
    the nearest entry of the ``against`` indexes, as ``simdex dedup --method simhash``
    of a fingerprint file.
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
    by_fingerprints = documents is not None and files is None and (
        isinstance(documents, np.ndarray) or (isinstance(documents, list) and documents and
                                              isinstance(documents[0], np.ndarray)))
    if method is None:
        method = "simhash" if by_fingerprints else "minhash"
    if method not in ("simhash", "minhash"):
        raise ValueError(f"method '{method}' is not simhash or minhash")
    if by_fingerprints and method == "minhash":
        raise ValueError("method='minhash' de-duplicates texts or files; fingerprints are SimHash's")
    if (documents is None) == (files is None):
        raise ValueError("give the documents (texts, or fingerprints) or files=, one of them")
    indexes = []
    for index in (against if method == "simhash" else ()):
        indexes.extend(index.shards if isinstance(index, ShardedIndex) else [index])
    if not by_fingerprints:
        if method == "minhash":
            if estimate_filter == "off":
                estimate_filter = 0.0
            elif isinstance(estimate_filter, str):
                raise ValueError(f"estimate_filter '{estimate_filter}' is not a J in [0, 1], 'off' or None")
            indexes = [os.fspath(p) for p in against]
        if documents is not None and isinstance(documents, (str, bytes)):
            raise ValueError("documents must be a sequence of texts, not one text")
        texts = None if documents is None else list(documents)
        given = {"files": None if files is None else [os.fspath(f) for f in files], "format": format or "",
                 "text_fields": list(text_fields), "id_field": id_field, "id_mode": id_mode, "skip_bad": skip_bad,
                 "scores": None if scores is None else list(np.asarray(scores, dtype=np.float64)),
                 "confirm": confirm, "keep": keep, "pairs": pairs, "allow_duplicate_ids": allow_duplicate_ids,
                 "threads": threads, "memory": memory, "tmpdir": tmpdir, "against": indexes}
        if method == "minhash":
            raw = _simdex._dedup_minhash(texts, **given, threshold=threshold, num_perm=num_perm, seed=seed,
                                         shingles=shingles, bands=bands, rows=rows, signature_bits=signature_bits,
                                         estimate_filter=estimate_filter, approximate=approximate)
            raw.pop("skipped")
            raw.pop("first_errors")
            return MinHashDedupResult(**raw)
        given.update(fingerprinter=fingerprinter, k=k, scheme=scheme, k_short=k_short, short_length=short_length,
                     strategy=strategy)
        given = {name: value for name, value in given.items() if value is not None}  # None: the library's default
        return DedupResult(**_simdex._dedup_simhash(texts, **given), indexes=list(indexes))
    fingerprints = documents
    if empty is not None:
        empty = np.asarray(empty)
        if empty.dtype != np.bool_:
            empty = empty != 0
    if scores is not None:
        scores = np.ascontiguousarray(scores, dtype=np.float64)
    raw = _simdex._dedup(
        fingerprints, empty=empty, scores=scores, k=k, scheme=scheme or _SIMHASH["default_scheme"], against=indexes,
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
    keep: str = _SIMHASH["keep"],
    skip_bad: bool = False,
    threads: Optional[int] = None,
) -> dict:
    """Reads one file of documents, as ``simdex fingerprint`` / ``simdex dedup`` read it,
    and fingerprints them on ``threads`` threads without the GIL.

    format: "jsonl" | "lines" | None (from the name: .jsonl/.json/.ndjson, then lines);
    .gz, .zst and .bz2 are decompressed. id_mode "ordinal" numbers records from 1.
    keep: "first" | "longest" | "max:FIELD": what ``scores`` holds for ``dedup``.

    Returns a dict: ids (np.uint64, or an object array when some ids are strings),
    fingerprints (np.uint64), reasons (np.int8; simdex.parts.EMPTY_REASONS), scores (np.float64 or
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
