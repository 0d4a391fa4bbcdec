"""Python reads every method default from the library (issue 38, item 4): the
defaults of simdex.dedup, simdex.fingerprint_file, simdex.dask and the Dask
MinHash layout equal the core's exported defaults (simdex._simdex._defaults,
made from default-constructed MinHashDedupOptions, SimHashDedupOptions and
LshQueryOptions), and those equal the values the C++ types run with."""

import inspect

import simdex
import simdex.dask
from simdex import _dask_minhash, _simdex

MINHASH = _simdex._defaults["minhash_dedup"]
SIMHASH = _simdex._defaults["simhash_dedup"]


def defaults(fn) -> dict:
    return {name: p.default for name, p in inspect.signature(fn).parameters.items()
            if p.default is not inspect.Parameter.empty}


def test_dedup_signature_defaults_are_the_librarys():
    d = defaults(simdex.dedup)
    for name in ("threshold", "num_perm", "seed", "bands", "rows", "signature_bits", "confirm", "keep", "pairs",
                 "allow_duplicate_ids", "threads", "memory", "tmpdir", "approximate"):
        assert d[name] == MINHASH[name], name
    for name in ("confirm", "keep", "pairs", "allow_duplicate_ids", "threads", "memory", "tmpdir", "strategy"):
        assert d[name] == SIMHASH[name], name
    # None: the library chooses (k -1, k_short -1, short_length's default).
    assert d["k"] is None and SIMHASH["k"] is None and d["k_short"] is None and SIMHASH["k_short"] is None
    assert defaults(simdex.fingerprint_file)["keep"] == SIMHASH["keep"]


def test_dask_defaults_are_the_librarys():
    layout = defaults(_dask_minhash.layout)
    for name in ("threshold", "num_perm", "seed", "word_n", "char_n", "signature_bits", "approximate"):
        assert layout[name] == MINHASH[name], name
    assert defaults(simdex.dask.dedup)["keep"] == MINHASH["keep"]
    assert defaults(simdex.dask.sign_files)["keep"] == MINHASH["keep"]
    assert defaults(simdex.dask.fingerprint_files)["keep"] == SIMHASH["keep"]
    assert defaults(simdex.dask.build_sharded_index)["scheme"] == SIMHASH["default_scheme"]


def test_core_defaults_are_what_the_engine_runs_with():
    # The signing options: a default MinHasher's, and an empty layout's (which
    # resolves the bands and the exact mode's filter from them).
    assert simdex.MinHasher().num_perm == MINHASH["num_perm"]
    run = _dask_minhash.layout()
    assert run["exact_confirm"] is not None  # exact by default: approximate is False
    assert MINHASH["approximate"] is False
    assert (MINHASH["threshold"], MINHASH["num_perm"], MINHASH["signature_bits"], MINHASH["seed"]) == (0.8, 128, 4, 1)
    assert MINHASH["keep"] == SIMHASH["keep"] == "first"
    assert (SIMHASH["default_scheme"], SIMHASH["short_length"]) == ("t10", 140)
    assert _simdex._defaults["lsh_query"] == {"min_estimate": None, "thresholds": None, "top_k": None}
    # The pybind defaults are the same values (the docstring shows them).
    doc = _simdex._dedup_minhash.__doc__
    for name in ("threshold", "num_perm", "signature_bits"):
        assert f"{name}: {type(MINHASH[name]).__name__} = {MINHASH[name]}" in doc, name
