"""The confirmation of simdex.dask's MinHash-LSH method: ``simdex.dask.dedup(...,
method="minhash", confirm=SPEC)`` as ``simdex dedup --method minhash --confirm SPEC``
(engine/pipeline/confirm_pairs.cc; docs/distributed.md, "MinHash-LSH", steps 6-7).

Before the clusters are made (step 5 of simdex/_dask_minhash.py):
  1. the assembly expands the command's document pairs (those of ``--pairs``) and cuts
     them by the partition of their second document b (``confirm_candidates``), and
     names, for each partition p and piece q, p's documents in q's pairs;
  2. each partition reads its file again, once, for the documents any piece wants
     (``confirm_read``: simdex._simdex._confirm_file, their sorted shingle hashes, or
     their texts for edit), and sends each piece's partition the ones it wants;
  3. there each pair is confirmed from the two documents' hashes or texts by the
     command's rule (``confirm_check``: simdex._simdex._confirm_pairs);
  4. the accepted pairs alone make the clusters (``cluster_confirmed``).

Memory per task: the assembly 24 bytes per document pair (the pieces, held until the
clusters are made) and the accepted pairs, never a text; a read task the shingle hashes
(8 bytes a shingle) or texts of its partition's paired documents, twice (as read, and cut
per destination); a check task its pairs (24 bytes each) and the hashes or texts of both
documents of each, twice (as received, and concatenated).
"""

from __future__ import annotations

import operator
from typing import List, Sequence, Tuple

import numpy as np

import simdex
from simdex import _dask_minhash as mh

U64 = np.uint64


LOW = U64(0xFFFFFFFF)


def names(p: int, positions: np.ndarray) -> np.ndarray:
    """The documents' keys, (partition << 32) | position."""
    return (U64(p) << U64(32)) | np.asarray(positions, dtype=U64)


def partition_of(keys: np.ndarray) -> np.ndarray:
    return (np.asarray(keys, dtype=U64) >> U64(32)).astype(np.int64)


def key_of(offsets: np.ndarray, ordinals: np.ndarray) -> np.ndarray:
    """The keys of documents by input ordinal (offsets: each partition's first ordinal)."""
    p = np.searchsorted(offsets, ordinals, side="right") - 1
    return names(0, ordinals - offsets[p]) | (p.astype(U64) << U64(32))


def ordinals(offsets: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """The input ordinals of documents by key."""
    return offsets[partition_of(keys)] + (np.asarray(keys, U64) & LOW)


def cut(order_key: np.ndarray, count: int, arrays: Sequence[np.ndarray]) -> List[tuple]:
    """arrays split by order_key (0..count-1), each piece in input order."""
    order = np.argsort(order_key, kind="stable")
    bounds = np.r_[0, np.cumsum(np.bincount(order_key, minlength=count))]
    moved = [a[order] for a in arrays]
    return [tuple(m[bounds[i]:bounds[i + 1]] for m in moved) for i in range(count)]


def confirm_candidates(inputs: Sequence[tuple], followers: Sequence[List[tuple]], kept: Sequence[tuple],
                       parts: int) -> dict:
    """The command's candidates under --confirm, on the assembling worker: every document
    pair (the pairs of --pairs), cut by the partition of b into "pieces" (a and b keys,
    estimates); and "wanted"[p][q], the positions in partition p of the documents of
    piece q, whose texts partition p reads for it."""
    base = mh.items(inputs, followers, kept)
    pa, pb, pe = simdex._simdex.minhash_document_pairs(base)
    offsets = base["offsets"]
    a, b = key_of(offsets, pa), key_of(offsets, pb)
    base["pieces"] = cut(partition_of(b), parts, [a, b, pe])  # each in (a, b) order
    wanted = [[] for _ in range(parts)]
    for qa, qb, _ in base["pieces"]:
        documents = np.unique(np.r_[qa, qb])
        for p, (keys,) in enumerate(cut(partition_of(documents), parts, [documents])):
            wanted[p].append((keys & LOW).astype(np.uint32))
    base["wanted"] = wanted
    base["stats"]["confirm_candidates"] = len(pa)
    return base


def pick(x: dict, name: str, i: int):
    return x[name][i]


def _rows(lims: np.ndarray, values: np.ndarray, rows: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """The offset arrays (lims, values) of the given rows only."""
    starts, ends = lims[rows].astype(np.int64), lims[rows + 1].astype(np.int64)
    lengths = ends - starts
    out = np.r_[0, np.cumsum(lengths)].astype(U64)
    return out, values[np.repeat(starts - out[:-1].astype(np.int64), lengths) + np.arange(int(out[-1]))]


def confirm_read(part: dict, p: int, wanted: Sequence[np.ndarray], spec: str) -> List[tuple]:
    """At partition p: its file read again, once, for the documents any piece wants
    (simdex._simdex._confirm_file: their sorted shingle hashes, or their texts for edit);
    for each piece q the (keys, lims, values) of the documents it wants."""
    union = np.unique(np.concatenate(wanted)).astype(np.uint32) if wanted else np.empty(0, np.uint32)
    if len(union):
        path, read = part["source"]
        lims, values = simdex._simdex._confirm_file(path, spec, union, **read)
    else:
        lims = np.zeros(1, U64)
        values = np.empty(0, U64 if simdex.Confirmer(spec).measure == "jaccard" else np.uint8)
    return [(names(p, w), *_rows(lims, values, np.searchsorted(union, w))) for w in wanted]


def confirm_check(pairs: tuple, pieces: Sequence[tuple], spec: str) -> tuple:
    """At the partition of the pairs' b: every pair confirmed from the two documents'
    shingles (or texts) (simdex._simdex._confirm_pairs, the command's rule); (a, b,
    estimates, similarities) of the accepted ones."""
    a, b, estimates = pairs
    keys = np.concatenate([k for k, _, _ in pieces])  # increasing: pieces by partition, each in order
    sizes = np.array([int(l[-1]) for _, l, _ in pieces], np.int64)
    starts = np.r_[0, np.cumsum(sizes)[:-1]].astype(U64)
    lims = np.r_[np.concatenate([l[:-1] + s for (_, l, _), s in zip(pieces, starts)]), U64(sizes.sum())].astype(U64)
    values = np.concatenate([v for _, _, v in pieces])
    rows_a = np.searchsorted(keys, a).astype(U64)
    rows_b = np.searchsorted(keys, b).astype(U64)
    accepted, similarity = simdex._simdex._confirm_pairs(spec, lims, values, rows_a, rows_b)
    return a[accepted], b[accepted], estimates[accepted], similarity[accepted]


def cluster_confirmed(base: dict, checked: Sequence[tuple], keep_pairs: bool) -> dict:
    """Step 5 under confirm: the clusters of the accepted pairs only, as the command
    makes them; the accepted pairs with their estimates and similarities when asked."""
    offsets = base["offsets"]
    a = ordinals(offsets, np.concatenate([c[0] for c in checked]))
    b = ordinals(offsets, np.concatenate([c[1] for c in checked]))
    order = np.lexsort((b, a))
    pairs = (a[order], b[order], np.concatenate([c[2] for c in checked])[order],
             np.concatenate([c[3] for c in checked])[order]) if keep_pairs else None
    state = mh.clusters_of(base, simdex._simdex.minhash_cluster_documents(base, base["scores"], a, b), pairs)
    state["stats"]["confirmed"] = len(a)
    return state


def plan(client, partitions: list, inputs: list, followers: list, kept: list, keep_pairs: bool, spec: str):
    """Steps 1-4 as tasks: the future of the clusters' state (as _dask_minhash.cluster's)."""
    parts = len(partitions)
    base = client.submit(confirm_candidates, inputs, followers, kept, parts)
    reads = [client.submit(confirm_read, partitions[p], p, client.submit(pick, base, "wanted", p), spec)
             for p in range(parts)]
    checked = [client.submit(confirm_check, client.submit(pick, base, "pieces", q),
                             [client.submit(operator.getitem, r, q) for r in reads], spec) for q in range(parts)]
    return client.submit(cluster_confirmed, base, checked, keep_pairs)
