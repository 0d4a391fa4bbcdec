"""MinHash-LSH index files against docs/format.md ("MinHash-LSH indexes"), read by the
independent reader of format_reader.py: `simdex build --method minhash` of texts with string
ids, an empty text and repeated copies; every document's b-bit signature and band keys are
computed here from its MinHash signature by the page's rules (XXH3 of each band's values,
the kept high bits; low bits packed least significant first) and must be what the file holds,
in the documented order of (id, signature, sketch, keys); each document's sketch (format
version 6) is the k smallest low 32 bits of its shingle hashes, cut or whole."""

import json

import numpy as np
import xxhash

import simdex
from format_reader import read_lsh_index


def pack(signature, bits):
    """The b-bit signature: value i's low `bits` bits at bits [i*bits, (i+1)*bits), LSB first."""
    out = bytearray((len(signature) * bits + 7) // 8)
    for i, value in enumerate(signature):
        low = int(value) & ((1 << bits) - 1)
        for j in range(bits):
            if low >> j & 1:
                position = i * bits + j
                out[position // 8] |= 1 << (position % 8)
    return bytes(out)


def band_key(signature, band, rows):
    values = np.asarray(signature[band * rows:(band + 1) * rows], dtype="<u4")
    return xxhash.xxh3_64_intdigest(values.tobytes(), seed=band)


def test_an_lsh_index_holds_what_the_format_page_says(tmp_path, simdex_cli):
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho".split()
    texts = {}
    for i in range(40):
        texts[f"doc-{i:02d}"] = " ".join(words[(i + j) % len(words)] for j in range(12 + i % 5))
    texts["copy-a"] = texts["copy-b"] = texts["doc-03"]
    texts["empty"] = ""
    docs = tmp_path / "docs.jsonl"
    docs.write_text("".join(json.dumps({"id": k, "text": v}) + "\n" for k, v in texts.items()))
    index = tmp_path / "docs.sdx"
    simdex_cli("build", "--method", "minhash", "--num-perm", "32", "--bands", "8", "--rows", "4",
               "--signature-bits", "2", "--block-size", "64", "--codec", "card", "--sketch", "10", "-q",
               "--out", index, docs)
    got = read_lsh_index(index.read_bytes())
    assert (got["version"], got["sketch_k"]) == (6, 10)
    assert (got["num_perm"], got["bands"], got["rows"], got["bits"], got["seed"]) == (32, 8, 4, 2, 1)
    assert got["profile"] == "simdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold word-chars perm:32 seed:1"
    n = len(texts)
    assert got["ordinal_bits"] == (n - 1).bit_length()
    keep = ~((1 << got["ordinal_bits"]) - 1) & (2**64 - 1)

    hasher = simdex.MinHasher(num_perm=32)
    shingler = simdex.Confirmer("jaccard-shingles:0.8")  # the signatures' shingles
    want = []
    for doc_id, text in texts.items():
        signature = hasher.sign(text)
        empty = bool(np.all(signature == 0xFFFFFFFF))
        keys = [band_key(signature, b, 4) & keep for b in range(8)]
        low = sorted({int(h) & 0xFFFFFFFF for h in shingler.shingles(text).tolist()})
        want.append((doc_id, pack(signature, 2), keys, empty, (low[:10], len(low) > 10)))
    # Ordinal order: by id (string ids by their bytes), then signature, then kept keys (the
    # sketch between them only orders documents of one id and signature: none here).
    want.sort(key=lambda w: (w[0].encode(), w[1], w[2]))
    assert [d[0] for d in got["documents"]] == [w[0] for w in want]
    for (doc_id, packed, keys), sketch, (_, want_packed, want_keys, empty, want_sketch) in zip(
            got["documents"], got["sketches"], want):
        assert packed == want_packed, doc_id
        assert keys == (None if empty else want_keys), doc_id
        assert sketch == want_sketch, doc_id
    assert {cut for _, cut in got["sketches"]} == {False, True}  # both kinds are in the file
