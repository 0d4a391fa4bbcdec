"""simdex.dask's MinHash-LSH method: the tasks and the plan of ``simdex.dask.dedup(...,
method="minhash")``, with exactly the results of ``simdex dedup --method minhash`` on one
machine (engine/pipeline/minhash_dedup.cc; docs/distributed.md, "MinHash-LSH").

The plan, as tasks on the cluster (P partitions, R key ranges); every step past the
signing is a call of include/simdex/minhash_dedup_parts.h (python/src/minhash_parts.cc,
arrays in place and out without copies); this module is the plan, which task runs what
and the shuffles between them:
  1. map: each file is read and signed on a worker (``sign_part``): per document its
     band keys (8 bytes x bands), its b-bit signature, and its digest (SignatureDigest,
     include/simdex/minhash_join.h); with ``against``, each signature is queried in every
     MinHash-LSH index while the task holds it, and the partition keeps each matched
     document's best match (index, id, estimate). A document is named by its key
     (partition << 32) | position, which orders documents as their input ordinals do.
  2. identical signatures: the digests of the documents with shingles are shuffled by
     digest range (``digest_split``, SplitDigests: 16 bytes per document); reducer r
     names each digest's first document, the item all its copies collapse into, and
     sends each partition its followers (``digest_reduce``, FindFollowers).
  3. band keys: each partition sends, for every band, the key of each of its items (not
     the followers) to the reducer of the key's range (``band_split``, SplitBandKeys: 16
     bytes per item and band); reducer r joins, band by band, the items sharing a key in
     its range and sends each pair to the partition of its first item (``band_reduce``,
     JoinBandRange). No process holds the keys of more than one range.
  4. estimate filter, signatures fetched for the candidate pairs only: the partition of
     a pair's first item removes the pairs found in several bands or ranges and attaches
     the first item's b-bit signature (``attach_first``, AttachFirstSignatures); the
     partition of the second estimates J from both and keeps the pairs at or above the
     filter (``estimate_second``, EstimateSecond).
  5. assemble on one worker (``cluster``): the followers and the kept pairs give each
     document's item and the summary's counts (AssembleItems), the clusters and
     representatives (ClusterItems: the command's PairClusters), and, when asked, the
     document pairs (DocumentPairs); the estimates of documents with a representative of
     another signature go through step 4's tasks again (no filter); ``finish`` puts each
     document's estimate in place (FinishEstimates). The client puts the index matches in
     place (``put_matches``).
  6. with ``confirm``, before step 5's clusters: the document pairs confirmed from the
     texts where they are (simdex/_dask_confirm.py), and the accepted pairs alone make
     the clusters (ClusterDocuments).

Memory per process (counted from minhash_dedup_parts.cc): a signing task holds its
partition (8 x bands + b-bit bytes + 8 per document; 200 bytes at the defaults); a digest
split 16 bytes per document besides; a digest reducer 32 bytes per document of its range
(the pieces as received, and sorted) and 28 per follower; a band split 16 bytes per item
and band and 1 per document besides the partition; a band reducer 16 bytes per item and
band of its range (the pieces as received), 16 per entry of one band again (its keys and
items, concatenated), FindBandPairs' 16 per entry of that band and 8 per pair, and 16 per
pair and band that finds it (then 16 per distinct pair); an attach task 32 bytes per pair
and one b-bit signature each; an estimate task its pairs with one signature each and 24
bytes per pair kept; the assembly about 70 bytes per document of the whole batch (flags
2, first copy 8, scores 8 and the union-find's copy 8, its parents and representatives
16, the representatives returned 8, estimates 4, and 24 while items are counted or pairs
expanded; as the SimHash assembly holds its per-document arrays) and 24 per kept pair,
and with ``pairs=True`` or ``confirm`` 24 per document pair (48 while they are sorted);
32 per document with a representative of another signature; the confirmation's tasks:
simdex/_dask_confirm.py.
"""

from __future__ import annotations

import operator
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

import simdex
from simdex import _simdex, parts
from simdex._results import MinHashDedupResult

U64 = np.uint64


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
        bands, rows = (parts.default_lsh_bands if approximate else parts.exact_candidate_bands)(threshold, num_perm)
    if bands < 1 or rows < 1 or bands * rows > num_perm:
        raise ValueError(f"bands {bands} x rows {rows} is more than num_perm {num_perm} values")
    if estimate_filter is None:
        min_estimate = (parts.default_estimate_filter if approximate else parts.exact_estimate_filter)(threshold, num_perm)
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
    against_min_estimate = min_estimate if approximate else parts.default_estimate_filter(threshold, num_perm)
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


def digest_split(part: dict, p: int, ranges: int) -> List[tuple]:
    """Step 2, map side: (digests, keys) of the documents with shingles, by digest range
    (SplitDigests)."""
    return _simdex.minhash_split_digests(part["digests"], part["reasons"], p, ranges)


def digest_reduce(pieces: Sequence[tuple], parts: int) -> List[tuple]:
    """Step 2, reduce side: for each partition, its documents whose digest an earlier
    document has, as (positions uint32, the first document's key) (FindFollowers)."""
    return _simdex.minhash_find_followers(pieces, parts)


def band_split(part: dict, p: int, followers: Sequence[tuple], ranges: int) -> List[tuple]:
    """Step 3, map side: piece r holds, for every band j, the keys in range r of the
    partition's items (documents with shingles that follow no earlier copy) with the
    items' keys, (values, items, lims), by position (SplitBandKeys)."""
    return _simdex.minhash_split_band_keys(part["keys"], part["reasons"], p, followers, ranges)


def band_reduce(pieces: Sequence[tuple], parts: int) -> List[tuple]:
    """Step 3, reduce side: every pair (a, b), a < b, of items that share a band's key in
    this key range, each once, cut by the partition of a (JoinBandRange)."""
    return _simdex.minhash_join_band_range(pieces, parts)


def attach_first(part: dict, p: int, pieces: Sequence[tuple], parts: int) -> List[tuple]:
    """Step 4, first half, at the partition of the pairs' first items: the distinct
    pairs with the first item's b-bit signature, cut by the partition of the second
    (AttachFirstSignatures)."""
    return _simdex.minhash_attach_first(part["packed"], p, pieces, parts)


def estimate_second(part: dict, q: int, pieces: Sequence[tuple], num_perm: int, bits: int,
                    min_estimate: Optional[float]) -> tuple:
    """Step 4, second half, at the partition of the pairs' second items: (a, b,
    estimates) of the pairs at or above min_estimate (all when None), and how many pairs
    there were (EstimateSecond)."""
    return _simdex.minhash_estimate_second(part["packed"], q, pieces, num_perm, bits, min_estimate)


def count_candidates(kept: Sequence[tuple]) -> int:
    return sum(int(x[3]) for x in kept)


def assembly_input(part: dict) -> tuple:
    """What the assembly needs of a partition: its empty flags and scores."""
    return part["reasons"] != 0, part["scores"]


def items(inputs: Sequence[tuple], followers: Sequence[List[tuple]], kept: Sequence[tuple]) -> dict:
    """Step 5's start on one worker (AssembleItems): each document's first copy (its
    item), the kept pairs of items as ordinals, the counts of the command's summary
    before clustering, and the scores."""
    sizes = np.array([len(e) for e, _ in inputs], U64)
    empty = np.concatenate([e for e, _ in inputs]) if inputs else np.empty(0, bool)
    base = _simdex.minhash_assemble_items(sizes, empty, followers, kept)
    has_scores = inputs and inputs[0][1] is not None
    base["scores"] = np.concatenate([s for _, s in inputs]).astype(np.float64) if has_scores else None
    return base


def clusters_of(base: dict, clustered: dict, pairs: Optional[tuple]) -> dict:
    """The state after clustering: the items, the clusters (minhash_cluster_items or
    minhash_cluster_confirmed) and the document pairs to report."""
    state = dict(base, **clustered, pairs=pairs)
    state["stats"] = dict(base["stats"], clusters=clustered["clusters"],
                          clustered_documents=clustered["clustered_documents"])
    return state


def cluster(inputs: Sequence[tuple], followers: Sequence[List[tuple]], kept: Sequence[tuple], keep_pairs: bool
            ) -> dict:
    """Step 5 on one worker: clusters and representatives from the followers (each joins
    its first document) and the kept pairs (their first documents join) (ClusterItems);
    the document pairs when asked (DocumentPairs)."""
    base = items(inputs, followers, kept)
    pairs = _simdex.minhash_document_pairs(base) if keep_pairs else None
    return clusters_of(base, _simdex.minhash_cluster_items(base, base["scores"]), pairs)


def finish(state: dict, estimated: Sequence[tuple], candidates: int) -> dict:
    """Each document's estimate with its representative (FinishEstimates); the result
    narrowed for the trip to the client."""
    estimate = _simdex.minhash_finish_estimates(state, state["other"], state["slot"], estimated)
    rep = state["representative"]
    n = len(rep)
    stats = dict(state["stats"], candidates=candidates)
    return {"representative": rep.astype(np.uint32) if n <= np.iinfo(np.uint32).max else rep,
            "estimate": estimate, "duplicate": rep != np.arange(n, dtype=U64), "empty": state["empty"],
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
    attached = [client.submit(attach_first, partitions[p], p, by_first[p], parts) for p in range(parts)]
    return [client.submit(estimate_second, partitions[q], q, [client.submit(operator.getitem, x, q) for x in attached],
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
    requests = client.submit(getitem, state, "requests")
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
