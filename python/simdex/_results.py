"""DedupResult: what ``simdex.dedup`` and ``simdex.dask.dedup`` return;
MinHashDedupResult: what ``simdex.dask.dedup(method="minhash")`` returns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, List, Optional, Sequence

import numpy as np

#: Why a document has no fingerprint, by the codes in ``reasons`` arrays (0: it has one).
EMPTY_REASONS = ("", "no-text", "no-features", "all-stop-words", "zero-weight")


def _py(value):
    return value.item() if isinstance(value, np.generic) else value


def printed(value: float) -> float:
    """A score as `simdex dedup` writes it ("%.6g"), read back."""
    return float("%.6g" % value)


class _Clustered:
    """What both results share: per-document representatives and duplicate flags."""

    representative: np.ndarray
    duplicate: np.ndarray

    def __len__(self) -> int:
        return len(self.representative)

    @property
    def keep(self) -> np.ndarray:
        """Bool mask of the documents to keep (not duplicates)."""
        return ~self.duplicate

    def clusters(self) -> List[np.ndarray]:
        """The clusters of two or more documents, each an array of ordinals in input
        order, ordered by their representative's ordinal."""
        reps = self.representative
        order = np.lexsort((np.arange(len(reps)), reps))
        sorted_reps = reps[order]
        starts = np.flatnonzero(np.r_[True, sorted_reps[1:] != sorted_reps[:-1]]) if len(reps) else np.array([], int)
        bounds = np.r_[starts, len(reps)]
        return [order[b:e] for b, e in zip(bounds[:-1], bounds[1:]) if e - b >= 2]

    def pair_records(self, ids=None) -> Iterator[dict]:
        """{"a", "b", <score>, "similarity"?} per pair, as ``simdex dedup --pairs`` (with
        ``--confirm``) writes them, the score "distance" (or "estimate" under ``--method
        minhash``) (ids: default the result's own)."""
        if ids is None:
            ids = self.ids
        if self.pairs is None:
            raise ValueError("this result has no pairs: run dedup with pairs=True")
        name, value = self._PAIR_SCORE
        columns = [c.tolist() for c in self.pairs]
        for row in zip(*columns):
            rec = {"a": _py(ids[row[0]]), "b": _py(ids[row[1]]), name: value(row[2])}
            if len(row) > 3:
                rec["similarity"] = printed(row[3])
            yield rec


@dataclass
class DedupResult(_Clustered):
    """Per-document arrays, by input ordinal (the i-th fingerprint given is document i).

    representative: np.uint64, the ordinal of the document's cluster's representative
      (itself when alone or empty).
    distance: np.int8, Hamming distance to the representative (-1 for empty documents).
    duplicate: bool, not its cluster's representative, or an index holds an entry within k.
    empty: bool, the document has no fingerprint (never clustered).
    against_index / against_id / against_distance: the nearest entry within k of the
      ``against`` indexes (index number in the order given, the entry's id number in that
      index, distance), -1 / 0 / -1 when none.
    pairs: (a, b, distance) arrays of every pair within k, a < b, ordered by (a, b), or
      None unless asked for; with ``confirm`` (a, b, distance, similarity) of the pairs
      the confirmation accepted.
    stats: counts and timings of the engine's run.
    ids / reasons / indexes: when ``simdex.dedup`` read the documents (texts or files):
      their ids by ordinal (np.uint64, or an object array when some are strings; texts
      are numbered from 0), the EMPTY_REASONS code of each (np.int8, 0 when not empty),
      and the ``against`` indexes; else None.
    """

    representative: np.ndarray
    distance: np.ndarray
    duplicate: np.ndarray
    empty: np.ndarray
    against_index: np.ndarray
    against_id: np.ndarray
    against_distance: np.ndarray
    pairs: Optional[tuple]
    stats: dict
    ids: Optional[np.ndarray] = None
    reasons: Optional[np.ndarray] = None
    indexes: Optional[list] = None
    _PAIR_SCORE = ("distance", int)  # pair_records' third column: its name, how it is written

    def records(self, ids=None, reasons=None, against: Optional[Sequence] = None,
                against_names: Optional[Sequence[str]] = None) -> Iterator[dict]:
        """One dict per document with the fields and order of ``simdex dedup``'s JSON lines:
        {"id", "cluster", "duplicate", "distance", "against"?: {"index", "id", "distance"},
        "empty"?}. ids: the documents' ids by ordinal; reasons: the EMPTY_REASONS codes;
        against: the indexes given to dedup (string ids are looked up);
        against_names: their names as the command line gave them (default: their paths).
        ids, reasons and against default to the result's own (documents read by dedup)."""
        if ids is None:
            ids = self.ids
        if ids is None:
            raise ValueError("this result has no ids of its own: pass ids=")
        yield from dedup_records(self, ids, self.reasons if reasons is None else reasons,
                                 (self.indexes or ()) if against is None else against, against_names)


def dedup_records(result: DedupResult, ids, reasons=None, against: Sequence = (),
                  against_names: Optional[Sequence[str]] = None) -> Iterator[dict]:
    """See DedupResult.records."""
    names = list(against_names) if against_names is not None else [getattr(i, "path", str(i)) for i in against]
    reps = result.representative.tolist()
    dists = result.distance.tolist()
    dups = result.duplicate.tolist()
    empties = result.empty.tolist()
    aidx = result.against_index.tolist()
    aid = result.against_id.tolist()
    adist = result.against_distance.tolist()
    for o in range(len(reps)):
        rec = {"id": _py(ids[o]), "cluster": _py(ids[reps[o]]), "duplicate": dups[o],
               "distance": 0 if empties[o] else dists[o]}
        if aidx[o] >= 0:
            index = against[aidx[o]] if against else None
            stored = index.id_string(aid[o]) if index is not None and index.has_string_ids else aid[o]
            rec["against"] = {"index": names[aidx[o]] if names else aidx[o], "id": stored, "distance": adist[o]}
        if empties[o]:
            rec["empty"] = EMPTY_REASONS[int(reasons[o])] if reasons is not None else "no-fingerprint"
        yield rec


@dataclass
class MinHashDedupResult(_Clustered):
    """Per-document arrays by input ordinal, as ``simdex dedup --method minhash`` decides them.

    representative: np.uint64, the ordinal of the document's cluster's representative
      (itself when alone or empty).
    estimate: np.float32, the b-bit estimate of J with the representative (1 for the
      representative itself and identical signatures, 0 for empty documents).
    duplicate: bool, not its cluster's representative, or an ``against`` index holds a
      match.
    empty: bool, the document has no shingles (never banded, never clustered).
    pairs: (a, b, estimate) arrays of every document pair the command's ``--pairs``
      writes (pairs of identical signatures at 1, and the members of every pair of
      signatures kept by the estimate filter), a < b, ordered by (a, b); with ``confirm``
      (a, b, estimate, similarity) of the pairs the confirmation accepted; or None unless
      asked for.
    stats: counts of the run (those of the command's summary).
    against_index / against_id / against_estimate: with ``against``, each document's best
      match in the indexes (the index's number in the order given, -1 for none; the stored
      document's id, its string for an index of string ids; the estimate, float32), else
      None.
    ids: the documents' ids by ordinal when ``simdex.dedup`` read them (np.uint64, or an
      object array when some are strings; texts are numbered from 0), else None.
    """

    representative: np.ndarray
    estimate: np.ndarray
    duplicate: np.ndarray
    empty: np.ndarray
    pairs: Optional[tuple]
    stats: dict
    against_index: Optional[np.ndarray] = None
    against_id: Optional[np.ndarray] = None
    against_estimate: Optional[np.ndarray] = None
    ids: Optional[np.ndarray] = None
    _PAIR_SCORE = ("estimate", printed)

    def records(self, ids=None, reasons=None, against_names: Optional[Sequence[str]] = None) -> Iterator[dict]:
        """One dict per document with the fields and order of ``simdex dedup --method
        minhash``'s JSON lines: {"id", "cluster", "duplicate", "estimate", "against"?:
        {"index", "id", "estimate"}, "empty"?}; the estimates as the command prints them
        (6 significant digits). ids: the documents' ids (default: the result's own);
        against_names: the indexes' names as given (default: their numbers)."""
        if ids is None:
            ids = self.ids
        if ids is None:
            raise ValueError("this result has no ids of its own: pass ids=")
        reps = self.representative.tolist()
        dups = self.duplicate.tolist()
        empties = self.empty.tolist()
        matched = self.against_index.tolist() if self.against_index is not None else None
        for o, e in enumerate(self.estimate.tolist()):
            rec = {"id": _py(ids[o]), "cluster": _py(ids[reps[o]]), "duplicate": dups[o], "estimate": printed(e)}
            if matched is not None and matched[o] >= 0:
                x = matched[o]
                rec["against"] = {"index": against_names[x] if against_names is not None else x,
                                  "id": _py(self.against_id[o]), "estimate": printed(float(self.against_estimate[o]))}
            if empties[o]:
                rec["empty"] = EMPTY_REASONS[int(reasons[o])] if reasons is not None else "no-text"
            yield rec
