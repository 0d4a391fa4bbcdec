"""simdex._minhash_file (the read-and-sign step of simdex.dask's MinHash partitions) signs with the
library's SignDocuments: its band keys and b-bit signatures are those of the signatures
`simdex fingerprint --method minhash` writes for the same file, document for document, and a
document without shingles is "no-text" in both; and the reader's counts come through."""

import numpy as np

import simdex
from conftest import SAMPLE


def cli_signatures(simdex_cli, path):
    """The profile, ids, signatures (n x 128 uint32; 0 for a no-text document) and no-text flags
    of the command's signature file."""
    lines = simdex_cli("fingerprint", "--method", "minhash", path).splitlines()
    assert lines[0].startswith("#simdex-signatures\t")
    profile = lines[0].split("\t", 1)[1]
    ids, rows, empty = [], [], []
    for line in lines[1:]:
        fields = line.split("\t")
        ids.append(int(fields[0]))
        empty.append(fields[1] == "-")
        hexes = "0" * 1024 if fields[1] == "-" else fields[1]
        rows.append([int(hexes[i:i + 8], 16) for i in range(0, len(hexes), 8)])
    return profile, np.array(ids, np.uint64), np.array(rows, np.uint32), np.array(empty)


def test_minhash_file_signs_as_the_cli_does(simdex_cli):
    profile, ids, signatures, empty = cli_signatures(simdex_cli, SAMPLE)
    for threads in (1, 3):
        got = simdex._simdex._minhash_file(SAMPLE, bands=16, rows=8, signature_bits=8, threads=threads)
        assert got["profile"] == profile
        assert (got["ids"] == ids).all()
        assert ((got["reasons"] == 1) == empty).all() and empty.any()
        signed = ~empty
        assert (got["keys"][signed] == simdex.parts.band_keys(signatures[signed], 16, 8)).all()
        assert (got["packed"][signed] == simdex.parts.pack_signature(signatures[signed], 8)).all()
        assert (got["digests"][empty] == 0).all() and (got["digests"][signed] != 0).all()
        assert got["skipped"] == 0 and got["bytes"] > 0


def test_minhash_file_counts_skipped_records_and_blank_lines_as_the_reader_does(tmp_path):
    path = tmp_path / "docs.jsonl"
    path.write_text('{"id": 1, "text": "one two three four five six"}\n   \n{"id": 2, "text": 7}\n'
                    '{"id": 3, "text": "seven eight nine ten eleven twelve"}\n')
    got = simdex._simdex._minhash_file(str(path), bands=16, rows=8, skip_bad=True)
    assert list(got["ids"]) == [1, 3]
    assert (got["blank_lines"], got["skipped"], len(got["first_errors"])) == (1, 1, 1)
    assert got["bytes"] == path.stat().st_size
