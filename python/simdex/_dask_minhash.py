"""simdex.dask's MinHash-LSH method: the tasks and the plan of ``simdex.dask.dedup(...,
method="minhash")``, with exactly the results of ``simdex dedup --method minhash`` on one
machine (engine/pipeline/minhash_dedup.cc; docs/distributed.md, "MinHash-LSH").

The plan, as tasks on the cluster (P partitions, R key ranges):
  1. map: each file is read and signed on a worker (``sign_part``): per document its
     band keys (8 bytes x bands), its b-bit signature, and its digest (SignatureDigest,
     include/simdex/minhash_join.h); with ``against``, each signature is queried in every
     MinHash-LSH index while the task holds it, and the partition keeps each matched
     document's best match (index, id, estimate). A document is named by its key
     (partition << 32) | position, which orders documents as their input ordinals do.
  2. identical signatures: the digests of the documents with shingles are shuffled by
     digest range (``digest_split``: 16 bytes per document); reducer r sorts its range
     and names each digest's first document, the item all its copies collapse into
     (``digest_reduce``), and sends each partition the names of its followers.
  3. band keys: each partition sends, for every band, the key of each of its items (not
     the followers) to the reducer of the key's range (``band_split``: 16 bytes per item
     and band); reducer r joins, band by band, the items sharing a key in its range
     (``band_reduce``: simdex.band_pairs, FindBandPairs) and sends each pair to the
     partition of its first item. No process holds the keys of more than one range.
  4. estimate filter, signatures fetched for the candidate pairs only: the partition of
     a pair's first item removes the pairs found in several bands or ranges and attaches
     the first item's b-bit signature (``attach_first``); the partition of the second
     item estimates J from both (``estimate_second``) and keeps the pairs at or above the
     filter.
  5. assemble on one worker (``cluster``): the followers with their first items and the
     kept pairs give the clusters and representatives (simdex.pair_clusters, the
     command's PairClusters), and, when asked, the document pairs; the estimates of
     documents with a representative of another signature go through step 4's tasks
     again (no filter); ``finish`` puts each document's estimate in place. The client
     puts the index matches in place (``put_matches``).
  6. with ``confirm``, before step 5's clusters: the document pairs confirmed from the
     texts where they are (simdex/_dask_confirm.py), and the accepted pairs alone make
     the clusters.

Memory per process: a signing task holds its partition (8 x bands + b-bit bytes + 8 per
document; 200 bytes at the defaults); a digest reducer 16 bytes per document of its
range; a band reducer 16 bytes per item and band of its range twice (the pieces as
received and their concatenation by band) and 8 more while it finds its distinct items,
plus band_pairs' 24 bytes per entry of one band and 8 per pair; an estimate task its
pairs with one signature each; the assembly at most about 80 bytes per document of the
whole batch (as the SimHash assembly holds its per-document arrays) and 24 per kept pair
(and per document pair with ``pairs=True`` or ``confirm``); the confirmation's tasks:
simdex/_dask_confirm.py.
"""

from __future__ import annotations

import operator
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

import simdex
from simdex._results import MinHashDedupResult

U64 = np.uint64
LOW = U64(0xFFFFFFFF)


# ---- Options.

_DEFAULTS = simdex._simdex._defaults["minhash_dedup"]  # the library's (include/simdex/batch.h)


def layout(threshold: float = _DEFAULTS["threshold"], num_perm: int = _DEFAULTS["num_perm"],
           seed: int = _DEFAULTS["seed"], word_n: int = _DEFAULTS["word_n"], char_n: int = _DEFAULTS["char_n"],
           shingles: Optional[str] = None, bands: Optional[int] = None, rows: Optional[int] = None,
           signature_bits: int = _DEFAULTS["signature_bits"], estimate_filter=None,
           approximate: bool = _DEFAULTS["approximate"]) -> dict:
    """The run's options, checked as `simdex dedup --method minhash` checks them: the
    signing options of the partitions ("signing"), their description ("layout": profile,
    bands, rows, bits; partitions must match it), the estimate filter ("min_estimate",
    None for "off"), the least estimate of an against match ("against_min_estimate"; on an
    index's sketches "against_sketch": (the least sketch estimate, approximate))
    and the confirmation of the exact mode ("exact_confirm": the texts' shingle Jaccard
    at the threshold; None with approximate=True, the command's --approximate)."""
    if not (0 < threshold <= 1):
        raise ValueError(f"threshold {threshold} is not in (0, 1]")
    if signature_bits not in (1, 2, 4, 8, 16, 32):
        raise ValueError(f"signature_bits {signature_bits} is not 1, 2, 4, 8, 16 or 32")
    if not 1 <= num_perm <= 1024:
        raise ValueError(f"num_perm {num_perm} is not 1..1024")
    if (bands is None) != (rows is None):
        raise ValueError("bands and rows go together")
    hasher = (simdex.MinHasher(num_perm=num_perm, seed=seed, word_n=word_n, char_n=char_n) if shingles is None else
              simdex.MinHasher(num_perm=num_perm, seed=seed, word_n=word_n, char_n=char_n, shingles=shingles))
    profile, shingles = hasher.profile, hasher.shingles
    if bands is None:
        bands, rows = (simdex.default_lsh_bands if approximate else simdex.exact_candidate_bands)(threshold, num_perm)
    if bands < 1 or rows < 1 or bands * rows > num_perm:
        raise ValueError(f"bands {bands} x rows {rows} is more than num_perm {num_perm} values")
    if estimate_filter is None:
        min_estimate = (simdex.default_estimate_filter if approximate else simdex.exact_estimate_filter)(threshold,
                                                                                                          num_perm)
    elif estimate_filter == "off":
        min_estimate = None
    elif isinstance(estimate_filter, (int, float)) and 0 <= estimate_filter <= 1:
        min_estimate = float(estimate_filter)
    else:
        raise ValueError(f"estimate_filter {estimate_filter!r} is not a J in [0, 1], 'off' or None")
    signing = {"num_perm": num_perm, "seed": seed, "word_n": word_n, "char_n": char_n, "shingles": shingles,
               "bands": bands, "rows": rows, "signature_bits": signature_bits}
    # An against match's texts are not at hand: the estimate decides it, as --approximate's filter;
    # an index's sketches where it has them (estimate >= T), unless approximate.
    against_min_estimate = min_estimate if approximate else simdex.default_estimate_filter(threshold, num_perm)
    return {"signing": signing, "layout": (profile, bands, rows, signature_bits), "min_estimate": min_estimate,
            "against_min_estimate": against_min_estimate, "against_sketch": (float(threshold), bool(approximate)),
            "exact_confirm": None if approximate else f"jaccard-shingles/{shingles}:{threshold!r}",
            "shingles": shingles}


def confirm_spec(confirm: str, shingles: str) -> str:
    """A --confirm spec as the run checks pairs by it: jaccard-shingles without a word
    definition of its own takes the signatures' (MinHashDedupOptions' rule)."""
    measure, _, threshold = confirm.rpartition(":")
    if measure.rstrip("0123456789") == "jaccard-shingles":
        return f"{measure}/{shingles}:{threshold}"
    return confirm


OPTIONS = ("threshold", "num_perm", "seed", "word_n", "char_n", "shingles", "bands", "rows", "signature_bits",
           "estimate_filter",
           "approximate")


def describe(part_layout: tuple) -> str:
    profile, bands, rows, bits = part_layout
    return f"'{profile}', {bands} bands x {rows} rows, {bits}-bit signatures"


# ---- Tasks (run on the workers; module-level so that they pickle by reference).

def sign_part(path: str, signing: dict, read: dict, ordinal: bool, against: Sequence[str] = (),
              min_estimate: Optional[float] = None, sketch: tuple = (-1.0, False)) -> dict:
    """Step 1: one file read and signed (simdex._simdex._minhash_file), and each
    signature queried in the ``against`` MinHash-LSH indexes while it is at hand, as the
    command's signing threads query it (min_estimate: the run's estimate filter, None
    for off; sketch: the least sketch estimate and approximate, for indexes with sketches);
    the matches are kept by position."""
    query = 0.0 if min_estimate is None else min_estimate
    part = simdex._simdex._minhash_file(path, **signing, **read, against=list(against), min_estimate=query,
                                        min_sketch_estimate=sketch[0], approximate=sketch[1])
    part["records"] = len(part["digests"])
    part["ordinal"] = ordinal
    part["method"] = "minhash"
    part["layout"] = (part.pop("profile"), signing["bands"], signing["rows"], signing["signature_bits"])
    part["against"] = queried(against, min_estimate, sketch)
    if against:
        part["matches"] = tuple(part.pop(name) for name in MATCHES)
    # Where the texts are, for the confirmation (read again: the partition keeps none).
    part["source"] = (path, {name: value for name, value in read.items() if name != "threads"})
    return part


MATCHES = ("against_positions", "against_index", "against_ids", "against_estimates")


def queried(against: Sequence[str], min_estimate: Optional[float], sketch: tuple = (-1.0, False)) -> tuple:
    """What a partition was queried in: the index paths in order, and the filters."""
    return (tuple(against), min_estimate if against else None, tuple(sketch) if against else None)


def signed_as(part: dict) -> tuple:
    """A partition's layout (None for a SimHash partition of fingerprint_files) and
    what it was queried in."""
    return part.get("layout"), part.get("against", queried((), None))


def matches_of(part: dict) -> Optional[tuple]:
    """A partition's index matches (positions, index, ids, estimates), for the client."""
    return part.get("matches")


def key_range(values: np.ndarray, ranges: int) -> np.ndarray:
    """floor(value * ranges / 2^64) of uint64 values, exactly (ranges <= 2^16): the range
    of a band key or digest, uniform hashes both."""
    v = np.asarray(values, dtype=U64)
    r = U64(ranges)
    return (((v >> U64(32)) * r + (((v & LOW) * r) >> U64(32))) >> U64(32)).astype(np.int64)


def names(p: int, positions: np.ndarray) -> np.ndarray:
    """The documents' keys, (partition << 32) | position."""
    return (U64(p) << U64(32)) | np.asarray(positions, dtype=U64)


def partition_of(keys: np.ndarray) -> np.ndarray:
    return (np.asarray(keys, dtype=U64) >> U64(32)).astype(np.int64)


def key_of(offsets: np.ndarray, ordinals: np.ndarray) -> np.ndarray:
    """The keys of documents by input ordinal (offsets: each partition's first ordinal)."""
    p = np.searchsorted(offsets, ordinals, side="right") - 1
    return names(0, ordinals - offsets[p]) | (p.astype(U64) << U64(32))


def cut(order_key: np.ndarray, count: int, arrays: Sequence[np.ndarray]) -> List[tuple]:
    """arrays split by order_key (0..count-1), each piece in input order."""
    order = np.argsort(order_key, kind="stable")
    bounds = np.r_[0, np.cumsum(np.bincount(order_key, minlength=count))]
    moved = [a[order] for a in arrays]
    return [tuple(m[bounds[i]:bounds[i + 1]] for m in moved) for i in range(count)]


def digest_split(part: dict, p: int, ranges: int) -> List[tuple]:
    """Step 2, map side: (digests, keys) of the documents with shingles, by digest range."""
    local = np.flatnonzero(part["reasons"] == 0)
    digests = part["digests"][local]
    return cut(key_range(digests, ranges), ranges, [digests, names(p, local)])


def digest_reduce(pieces: Sequence[tuple], parts: int) -> List[tuple]:
    """Step 2, reduce side: for each partition, its documents whose digest an earlier
    document has, as (positions uint32, the first document's key)."""
    digests = np.concatenate([x[0] for x in pieces]) if pieces else np.empty(0, U64)
    keys = np.concatenate([x[1] for x in pieces]) if pieces else np.empty(0, U64)
    order = np.lexsort((keys, digests))
    digests, keys = digests[order], keys[order]
    first = np.r_[True, digests[1:] != digests[:-1]] if len(digests) else np.empty(0, bool)
    firsts = keys[np.maximum.accumulate(np.where(first, np.arange(len(keys)), 0))] if len(keys) else keys
    follower = ~first
    fk, ff = keys[follower], firsts[follower]
    return [((k & LOW).astype(np.uint32), f) for k, f in cut(partition_of(fk), parts, [fk, ff])]


def band_split(part: dict, p: int, followers: Sequence[tuple], ranges: int) -> List[tuple]:
    """Step 3, map side: piece r holds, for every band j, the keys in range r of the
    partition's items (documents with shingles that follow no earlier copy) with the
    items' names, values[lims[j]:lims[j+1]] and names[lims[j]:lims[j+1]], by position."""
    keys = part["keys"]
    bands = keys.shape[1]
    mask = part["reasons"] == 0
    for positions, _ in followers:
        mask[positions] = False
    local = np.flatnonzero(mask)
    values = np.ascontiguousarray(keys[local].T).reshape(-1)  # band after band
    owners = np.tile(names(p, local), bands)
    code = key_range(values, ranges) * bands + np.repeat(np.arange(bands), len(local))
    order = np.argsort(code, kind="stable")
    counts = np.bincount(code, minlength=ranges * bands)
    values, owners = values[order], owners[order]
    out, start = [], 0
    for r in range(ranges):
        lims = start + np.r_[0, np.cumsum(counts[r * bands:(r + 1) * bands])]
        out.append((values[lims[0]:lims[-1]], owners[lims[0]:lims[-1]], (lims - lims[0]).astype(np.int64)))
        start = lims[-1]
    return out


def band_reduce(pieces: Sequence[tuple], parts: int) -> List[tuple]:
    """Step 3, reduce side: every pair (a, b), a < b, of items that share a band's key in
    this key range (simdex.band_pairs, band by band), each once, sent to the partition of
    a. pieces: this range's piece of every partition, in partition order."""
    bands = len(pieces[0][2]) - 1 if pieces else 0
    band_keys = [np.concatenate([v[l[j]:l[j + 1]] for v, _, l in pieces]) for j in range(bands)]
    band_items = [np.concatenate([o[l[j]:l[j + 1]] for _, o, l in pieces]) for j in range(bands)]
    items = np.unique(np.concatenate(band_items)) if bands else np.empty(0, U64)
    if len(items) >= 1 << 32:
        raise ValueError(f"a key range holds {len(items)} items: use more ranges")
    found = []
    for keys, owners in zip(band_keys, band_items):
        if len(keys) < 2:
            continue
        a, b = simdex.band_pairs(keys)
        x = np.searchsorted(items, owners[a]).astype(U64)
        y = np.searchsorted(items, owners[b]).astype(U64)
        found.append((np.minimum(x, y) << U64(32)) | np.maximum(x, y))
    pairs = np.unique(np.concatenate(found)) if found else np.empty(0, U64)
    a, b = items[(pairs >> U64(32)).astype(np.int64)], items[(pairs & LOW).astype(np.int64)]
    return cut(partition_of(a), parts, [a, b])


def unique_pairs(a: np.ndarray, b: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct pairs ordered by (a, b), and the number of each given pair among them."""
    order = np.lexsort((b, a))
    a, b = a[order], b[order]
    new = np.r_[True, (a[1:] != a[:-1]) | (b[1:] != b[:-1])] if len(a) else np.empty(0, bool)
    inverse = np.empty(len(a), np.int64)
    inverse[order] = np.cumsum(new) - 1
    return a[new], b[new], inverse


def attach_first(part: dict, pieces: Sequence[tuple], parts: int) -> List[tuple]:
    """Step 4, first half, at the partition of the pairs' first items: the distinct
    pairs with the first item's b-bit signature, sent to the partition of the second."""
    a, b, _ = unique_pairs(np.concatenate([x[0] for x in pieces]), np.concatenate([x[1] for x in pieces]))
    signatures = part["packed"][(a & LOW).astype(np.int64)]
    return cut(partition_of(b), parts, [a, b, signatures])


def estimate_second(part: dict, pieces: Sequence[tuple], num_perm: int, bits: int,
                    min_estimate: Optional[float]) -> tuple:
    """Step 4, second half, at the partition of the pairs' second items: the b-bit
    estimate of each pair; (a, b, estimates) of those at or above min_estimate (all when
    None), and how many pairs there were."""
    a = np.concatenate([x[0] for x in pieces])
    b = np.concatenate([x[1] for x in pieces])
    first = np.concatenate([x[2] for x in pieces])
    second = part["packed"][(b & LOW).astype(np.int64)]
    estimates = simdex.estimate_packed(first, second, num_perm, bits)
    if min_estimate is not None:
        kept = estimates >= min_estimate
        a, b, estimates = a[kept], b[kept], estimates[kept]
    return a, b, estimates, len(first)


def count_candidates(kept: Sequence[tuple]) -> int:
    return sum(int(x[3]) for x in kept)


def assembly_input(part: dict) -> tuple:
    """What the assembly needs of a partition: its empty flags and scores."""
    return part["reasons"] != 0, part["scores"]


def expand_pairs(first_of: np.ndarray, has: np.ndarray, a: np.ndarray, b: np.ndarray, estimates: np.ndarray
                 ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The document pairs of `simdex dedup --method minhash --pairs` (ExpandPairs): every
    two documents of one signature (estimate 1), and the members of the items of each
    kept pair (a, b: first documents) with its estimate; ordered by (a, b)."""
    docs = np.flatnonzero(has)
    order = np.argsort(first_of[docs], kind="stable")
    members, firsts = docs[order], first_of[docs][order]
    starts = np.flatnonzero(np.r_[True, firsts[1:] != firsts[:-1]]) if len(firsts) else np.empty(0, np.int64)
    sizes = np.diff(np.r_[starts, len(firsts)])
    items = firsts[starts]
    # Within an item: member u with every later member of its item.
    later = np.repeat(starts + sizes, sizes) - np.arange(len(members)) - 1
    u = np.repeat(np.arange(len(members)), later)
    step = np.arange(len(u)) - np.repeat(np.cumsum(later) - later, later)
    inside = (members[u], members[u + 1 + step], np.ones(len(u)))
    # Across a kept pair of items: every member of one with every member of the other.
    ia, ib = np.searchsorted(items, a), np.searchsorted(items, b)
    count = sizes[ia] * sizes[ib]
    pair = np.repeat(np.arange(len(a)), count)
    w = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    x = members[starts[ia][pair] + w // sizes[ib][pair]]
    y = members[starts[ib][pair] + w % sizes[ib][pair]]
    across = (np.minimum(x, y), np.maximum(x, y), estimates[pair])
    pa, pb, pe = (np.concatenate([i, j]) for i, j in zip(inside, across))
    order = np.lexsort((pb, pa))
    return pa[order].astype(U64), pb[order].astype(U64), pe[order].astype(np.float64)


def ordinals(offsets: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """The input ordinals of documents by key (offsets: each partition's first ordinal)."""
    return offsets[partition_of(keys)] + (np.asarray(keys, U64) & LOW).astype(np.int64)


def items(inputs: Sequence[tuple], followers: Sequence[List[tuple]], kept: Sequence[tuple]) -> dict:
    """Step 5's start on one worker: each document's first copy (its item) from the
    followers, the kept pairs of items as ordinals, and the counts of the command's
    summary before clustering."""
    sizes = [len(e) for e, _ in inputs]
    offsets = np.r_[0, np.cumsum(sizes)].astype(np.int64)
    n = int(offsets[-1])
    empty = np.concatenate([e for e, _ in inputs]) if inputs else np.empty(0, bool)
    scores = np.concatenate([s for _, s in inputs]).astype(np.float64) if inputs and inputs[0][1] is not None else None
    first_of = np.arange(n, dtype=np.int64)
    for range_pieces in followers:
        for p, (positions, firsts) in enumerate(range_pieces):
            first_of[offsets[p] + positions.astype(np.int64)] = ordinals(offsets, firsts)
    ka = ordinals(offsets, np.concatenate([k[0] for k in kept])) if kept else np.empty(0, np.int64)
    kb = ordinals(offsets, np.concatenate([k[1] for k in kept])) if kept else np.empty(0, np.int64)
    ke = np.concatenate([k[2] for k in kept]) if kept else np.empty(0)
    follows = np.flatnonzero(first_of != np.arange(n))
    # The document pairs before confirmation: two copies of one signature, and the
    # members of the two items of a kept pair.
    members = np.bincount(first_of[~empty], minlength=n)
    document_pairs = int((members * (members - 1) // 2).sum() + (members[ka] * members[kb]).sum())
    return {"n": n, "offsets": offsets, "empty": empty, "scores": scores, "first_of": first_of, "ka": ka, "kb": kb,
            "ke": ke, "follows": follows,
            "stats": {"documents": n, "empty": int(empty.sum()), "distinct_signatures": int(n - empty.sum() - len(follows)),
                      "kept": len(ka), "document_pairs": document_pairs}}


def clusters_of(base: dict, a: np.ndarray, b: np.ndarray, pairs: Optional[tuple]) -> dict:
    """Clusters and representatives of the pairs of documents (a[i], b[i]) (ordinals),
    as the command's PairClusters, and the pairs of signatures whose estimate the
    documents with a representative of another signature need."""
    n, offsets, first_of, empty = base["n"], base["offsets"], base["first_of"], base["empty"]
    rep = simdex.pair_clusters(n, np.asarray(a).astype(U64), np.asarray(b).astype(U64), base["scores"])
    duplicate = rep != np.arange(n, dtype=U64)
    # A duplicate of another signature than its representative's needs their estimate.
    other = np.flatnonzero(duplicate & (first_of != first_of[rep.astype(np.int64)]))
    ra, rb, slot = unique_pairs(key_of(offsets, first_of[other]), key_of(offsets, first_of[rep[other].astype(np.int64)]))
    counts = np.bincount(rep.astype(np.int64), minlength=n)
    return {"n": n, "representative": rep, "duplicate": duplicate, "empty": empty, "other": other, "slot": slot,
            "requests": (ra, rb), "pairs": pairs,
            "stats": dict(base["stats"], clusters=int((counts > 1).sum()),
                          clustered_documents=int(counts[counts > 1].sum()))}


def cluster(inputs: Sequence[tuple], followers: Sequence[List[tuple]], kept: Sequence[tuple], keep_pairs: bool
            ) -> dict:
    """Step 5 on one worker: clusters and representatives from the followers (each joins
    its first document) and the kept pairs (their first documents join), as the command's
    PairClusters; the document pairs when asked."""
    base = items(inputs, followers, kept)
    first_of, follows = base["first_of"], base["follows"]
    pairs = expand_pairs(first_of, ~base["empty"], base["ka"], base["kb"], base["ke"]) if keep_pairs else None
    return clusters_of(base, np.r_[follows, base["ka"]], np.r_[first_of[follows], base["kb"]], pairs)


def requests_by_partition(state: dict, parts: int) -> List[tuple]:
    ra, rb = state["requests"]
    return cut(partition_of(ra), parts, [ra, rb])


def finish(state: dict, estimated: Sequence[tuple], candidates: int) -> dict:
    """Each document's estimate with its representative: 1 for itself and its own
    signature's copies, 0 when empty, else the requested pair's; the result narrowed for
    the trip to the client."""
    a = np.concatenate([e[0] for e in estimated])
    b = np.concatenate([e[1] for e in estimated])
    values = np.concatenate([e[2] for e in estimated])[np.lexsort((b, a))]
    n = state["n"]
    estimate = np.ones(n, np.float32)
    estimate[state["empty"]] = 0
    estimate[state["other"]] = values[state["slot"]].astype(np.float32)
    rep = state["representative"]
    stats = dict(state["stats"], candidates=candidates)
    return {"representative": rep.astype(np.uint32) if n <= np.iinfo(np.uint32).max else rep,
            "estimate": estimate, "duplicate": state["duplicate"], "empty": state["empty"],
            "pairs": state["pairs"], "stats": stats}


def unpack(packed: dict) -> MinHashDedupResult:
    fields = dict(packed)
    fields["representative"] = fields["representative"].astype(U64, copy=False)
    return MinHashDedupResult(**fields)


# ---- The plan (on the client).

def _estimate_pairs(client, partitions: list, by_first: List[list], run: dict, min_estimate) -> list:
    """Step 4 over pieces of pairs by the partition of their first item (by_first[p]: a
    list of futures of (a, b) pieces): futures of (a, b, estimates, candidates) by the
    partition of the second."""
    parts = len(partitions)
    bits = run["layout"][3]
    attached = [client.submit(attach_first, partitions[p], by_first[p], parts) for p in range(parts)]
    return [client.submit(estimate_second, partitions[q], [client.submit(operator.getitem, x, q) for x in attached],
                          run["signing"]["num_perm"], bits, min_estimate) for q in range(parts)]


def check_partitions(client, partitions: list, run: dict, against: Sequence[str]) -> None:
    """Every partition must be signed as the run signs, and queried in the run's
    indexes with its estimate filter: ValueError naming both."""
    want = queried(against, run["against_min_estimate"], run["against_sketch"])
    for i, (layout, asked) in enumerate(client.gather([client.submit(signed_as, p) for p in partitions])):
        if layout is None:
            raise ValueError(f"partition {i} holds SimHash fingerprints (fingerprint_files); method='minhash' (the "
                             "default) needs the partitions of sign_files: pass method='simhash' for these")
        if tuple(layout) != run["layout"]:
            raise ValueError(f"partition {i} is signed as {describe(layout)}; this run signs as "
                             f"{describe(run['layout'])} (num_perm, seed, word_n, char_n, bands/rows or threshold, "
                             "signature_bits)")
        if tuple(asked) != want:
            raise ValueError(f"partition {i} was queried in {describe_against(asked)}; this run is against "
                             f"{describe_against(want)} (sign_files queries the signatures: give it the against and "
                             "estimate_filter of dedup_partitions)")


def describe_against(asked: tuple) -> str:
    paths, min_estimate = asked[:2]
    if not paths:
        return "no index"
    return f"{list(paths)} at estimate filter {'off' if min_estimate is None else min_estimate}"


def plan(client, partitions: list, run: dict, ranges: int, keep_pairs: bool, confirm: Optional[str] = None
         ) -> Tuple[Any, dict]:
    """Steps 2-5 (and the confirmation): the future of the packed result, and the task
    counts."""
    parts = len(partitions)
    getitem = operator.getitem
    # 2. Identical signatures, by digest range.
    dsplit = [client.submit(digest_split, partitions[p], p, ranges) for p in range(parts)]
    dreduce = [client.submit(digest_reduce, [client.submit(getitem, d, r) for d in dsplit], parts)
               for r in range(ranges)]
    # 3. Band keys by key range, joined per range.
    bsplit = [client.submit(band_split, partitions[p], p, [client.submit(getitem, d, p) for d in dreduce], ranges)
              for p in range(parts)]
    breduce = [client.submit(band_reduce, [client.submit(getitem, s, r) for s in bsplit], parts)
               for r in range(ranges)]
    # 4. The estimate filter, the candidates' signatures only.
    kept = _estimate_pairs(client, partitions, [[client.submit(getitem, x, p) for x in breduce] for p in range(parts)],
                           run, run["min_estimate"])
    candidates = client.submit(count_candidates, kept)
    # 5. Clusters (of the confirmed pairs under confirm), then the estimates with
    # representatives of another signature.
    inputs = [client.submit(assembly_input, p) for p in partitions]
    tasks = {"partitions": parts, "ranges": ranges, "joins": ranges}
    if confirm is None:
        state = client.submit(cluster, inputs, dreduce, kept, keep_pairs)
    else:
        from simdex import _dask_confirm  # which imports this module
        state = _dask_confirm.plan(client, partitions, inputs, dreduce, kept, keep_pairs, confirm)
        tasks.update(confirm_reads=parts, confirm_checks=parts)
    requests = client.submit(requests_by_partition, state, parts)
    estimated = _estimate_pairs(client, partitions, [[client.submit(getitem, requests, p)] for p in range(parts)],
                                run, None)
    packed = client.submit(finish, state, estimated, candidates)
    return packed, tasks


def put_matches(result: MinHashDedupResult, matches: Sequence[Optional[tuple]], sizes: Sequence[int]) -> None:
    """The partitions' index matches into the result, by ordinal, as the command puts
    them: the matched documents are duplicates, with their match's index number, stored
    id and estimate."""
    n = len(result)
    positions = [m[0].astype(np.int64) + offset for m, offset in zip(matches, np.r_[0, np.cumsum(sizes)[:-1]])]
    strings = any(m[2].dtype == object for m in matches)
    result.against_index = np.full(n, -1, np.int32)
    result.against_id = np.zeros(n, object if strings else U64)
    result.against_estimate = np.zeros(n, np.float32)
    for where, (_, index, ids, estimates) in zip(positions, matches):
        result.against_index[where] = index
        result.against_id[where] = ids
        result.against_estimate[where] = estimates
    result.duplicate[result.against_index >= 0] = True
    result.stats["against_duplicates"] = int((result.against_index >= 0).sum())
