"""The confirmation of simdex.dask's MinHash-LSH method: ``simdex.dask.dedup(...,
method="minhash", confirm=SPEC)`` as ``simdex dedup --method minhash --confirm SPEC``
(engine/pipeline/confirm_pairs.cc; docs/distributed.md, "MinHash-LSH", steps 6-7).

Before the clusters are made (step 5 of simdex/_dask_minhash.py), each step a call of
include/simdex/minhash_dedup_parts.h, step 5 (python/src/minhash_parts.cc):
  1. the assembly expands the command's document pairs (those of ``--pairs``) and cuts
     them by the partition of their second document b, and names, for each partition p
     and piece q, p's documents in q's pairs (``confirm_candidates``,
     CutConfirmCandidates);
  2. each partition reads its file again, once, for the documents any piece wants
     (simdex._simdex._confirm_file, their sorted shingle hashes, or their texts for
     edit), and sends each piece's partition the ones it wants (``confirm_read``,
     PickConfirmRows);
  3. there each pair is confirmed from the two documents' hashes or texts by the
     command's rule (``confirm_check``, ConfirmPieces);
  4. the accepted pairs alone make the clusters (``cluster_confirmed``,
     ClusterConfirmed).

Memory per task (counted from minhash_dedup_parts.cc): the assembly 48 bytes per
document pair while they are expanded and cut (DocumentPairs' sort, then the pairs and
the pieces), then 24 per pair in the pieces, held until the clusters are made, and 16 per
pair of one piece while its documents are named; the accepted pairs 32 bytes each, 64
while they are sorted and clustered; never a text. A read task the shingle hashes (8 bytes
a shingle) or texts of its partition's paired documents, twice (as read, and cut per
destination); a check task its pairs (24 bytes each) and the hashes or texts of both
documents of each, twice (as received, and concatenated), and 16 bytes per document to
find its rows.
"""

from __future__ import annotations

import operator
from typing import List, Sequence

import numpy as np

import simdex
from simdex import _dask_minhash as mh
from simdex import _simdex


def confirm_candidates(inputs: Sequence[tuple], followers: Sequence[List[tuple]], kept: Sequence[tuple],
                       parts: int) -> dict:
    """The command's candidates under --confirm, on the assembling worker: every document
    pair (the pairs of --pairs), cut by the partition of b into "pieces" (a and b keys,
    estimates); and "wanted"[p][q], the positions in partition p of the documents of
    piece q, whose texts partition p reads for it (CutConfirmCandidates)."""
    base = mh.items(inputs, followers, kept)
    base["pieces"], base["wanted"], pairs = _simdex.minhash_confirm_candidates(base)
    base["stats"]["confirm_candidates"] = pairs
    return base


def pick(x: dict, name: str, i: int):
    return x[name][i]


def confirm_read(part: dict, p: int, wanted: Sequence[np.ndarray], spec: str) -> List[tuple]:
    """At partition p: its file read again, once, for the documents any piece wants
    (simdex._simdex._confirm_file: their sorted shingle hashes, or their texts for edit);
    for each piece q the (keys, lims, values) of the documents it wants (PickConfirmRows)."""
    union = np.unique(np.concatenate(wanted)).astype(np.uint32) if wanted else np.empty(0, np.uint32)
    if len(union):
        path, read = part["source"]
        lims, values = _simdex._confirm_file(path, spec, union, **read)
    else:
        lims = np.zeros(1, np.uint64)
        values = np.empty(0, np.uint64 if simdex.Confirmer(spec).measure == "jaccard" else np.uint8)
    return _simdex.minhash_pick_confirm_rows(p, union, lims, values, list(wanted))


def confirm_check(pairs: tuple, pieces: Sequence[tuple], spec: str) -> tuple:
    """At the partition of the pairs' b: every pair confirmed from the two documents'
    shingles (or texts) by the command's rule; (a, b, estimates, similarities) of the
    accepted ones (ConfirmPieces)."""
    return _simdex.minhash_confirm_pieces(spec, tuple(pairs), list(pieces))


def cluster_confirmed(base: dict, checked: Sequence[tuple], keep_pairs: bool) -> dict:
    """Step 5 under confirm: the clusters of the accepted pairs only, as the command
    makes them; the accepted pairs with their estimates and similarities when asked
    (ClusterConfirmed)."""
    clustered, pairs = _simdex.minhash_cluster_confirmed(base, base["scores"], list(checked), keep_pairs)
    state = mh.clusters_of(base, clustered, pairs)
    state["stats"]["confirmed"] = sum(len(c[0]) for c in checked)
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
