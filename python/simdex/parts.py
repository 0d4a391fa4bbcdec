"""simdex.parts: the pieces below the top level, for pipelines of one's own.

``simdex.dedup`` and ``simdex.dask`` are built from these; ``import simdex`` keeps
its top level to the everyday names (``simdex.__all__``, docs/python.md). Every
name here used to sit at the top level too; ``simdex.<name>`` still works for
one release, with a DeprecationWarning naming ``simdex.parts.<name>``.

SimHash, the Dask shuffle (include/simdex/dedup_parts.h, docs/distributed.md):
``table_keys``, ``key_ranges``, ``split_by_key_ranges``, ``join_tables``,
``nearest_in_table``, ``reduce_nearest``, ``scheme_info``, ``hamming_distance``,
``plan``, and ``dedup_records`` (the records of a ``DedupResult``).

MinHash (include/simdex/minhash.h, minhash_join.h, docs/minhash.md): ``band_keys``,
``pack_signature``, ``estimate_packed``, ``minhash_estimate``, ``band_pairs``,
``pair_clusters``, ``optimal_lsh_bands``, ``default_lsh_bands``,
``default_estimate_filter``, ``exact_candidate_bands``, ``exact_estimate_filter``.
Arrays are numpy: one signature or an ``n x num_perm`` array of them (np.uint32),
document ordinals and ids np.uint64.

Files: ``index_kind`` (what an index file holds), ``IdfTable`` (what
``Fingerprinter.learn_idf`` returns), ``EMPTY_REASONS`` (the codes of
``Fingerprinter.fingerprint_batch``'s reasons).
"""

from ._results import EMPTY_REASONS, dedup_records
from ._simdex import (
    IdfTable,
    band_keys,
    band_pairs,
    default_estimate_filter,
    default_lsh_bands,
    estimate_packed,
    exact_candidate_bands,
    exact_estimate_filter,
    hamming_distance,
    index_kind,
    join_tables,
    key_ranges,
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
    "EMPTY_REASONS", "IdfTable", "band_keys", "band_pairs", "dedup_records", "default_estimate_filter",
    "default_lsh_bands", "estimate_packed", "exact_candidate_bands", "exact_estimate_filter", "hamming_distance",
    "index_kind", "join_tables", "key_ranges", "minhash_estimate", "nearest_in_table", "optimal_lsh_bands",
    "pack_signature", "pair_clusters", "plan", "reduce_nearest", "scheme_info", "split_by_key_ranges", "table_keys",
]
