"""A small reader of simdex index files written from docs/format.md alone, for tests: it decodes
every table of a small file (header, footer, metadata, blocks of both codecs: the card codec's
with their Huffman codes and restart points, the ef codec's with their upper and lower bits and
select samples; head and rank indexes, ids, id map), checks every checksum and the structural
rules it meets on the way, and returns the entries. It shares no code with the engine; the
checksums use python3-xxhash (XXH3-64, the function docs/format.md names)."""

import itertools
import struct

import xxhash

HEADER_LENGTH = 64
FOOTER_LENGTH = 56


class FormatError(Exception):
    pass


def _check(condition, what):
    if not condition:
        raise FormatError(what)


def xxh3(data, seed=0):
    return xxhash.xxh3_64_intdigest(bytes(data), seed=seed)


class _Fields:
    """Little-endian fields read one after another from a bytes object."""

    def __init__(self, data):
        self.data, self.pos = data, 0

    def take(self, fmt):
        size = struct.calcsize("<" + fmt)
        _check(self.pos + size <= len(self.data), "metadata ends early")
        values = struct.unpack_from("<" + fmt, self.data, self.pos)
        self.pos += size
        return values if len(values) > 1 else values[0]

    def raw(self, n):
        _check(self.pos + n <= len(self.data), "metadata ends early")
        self.pos += n
        return self.data[self.pos - n:self.pos]


class _Bits:
    """An MSB-first bit stream."""

    def __init__(self, data):
        self.data, self.pos = data, 0

    def read(self, n):
        value = 0
        for _ in range(n):
            byte = self.pos >> 3
            _check(byte < len(self.data), "bit stream runs past the block")
            value = (value << 1) | ((self.data[byte] >> (7 - (self.pos & 7))) & 1)
            self.pos += 1
        return value


def _canonical_code(lengths):
    """{(length, code): symbol} of the canonical code with these lengths (docs/format.md,
    "Huffman code for n")."""
    symbols = sorted((length, symbol) for symbol, length in enumerate(lengths) if length)
    if len(symbols) == 1:
        _check(symbols[0][0] == 1, "a lone symbol must have length 1")
        return {(1, 0): symbols[0][1]}
    _check(sum(2.0 ** -length for length, _ in symbols) == 1.0 or not symbols, "code lengths are not complete")
    codes, code, previous = {}, 0, None
    for length, symbol in symbols:
        if previous is not None:
            code = (code + 1) << (length - previous)
        codes[(length, code)] = symbol
        previous = length
    return codes


def _decode_symbol(bits, codes):
    code = 0
    for length in range(1, 12):
        code = (code << 1) | bits.read(1)
        if (length, code) in codes:
            return codes[(length, code)]
    raise FormatError("invalid code")


def _next_value(previous, n, bits):
    if n == 64:
        return previous
    _check(n < 64 and not (previous >> (63 - n)) & 1, "value below its predecessor")
    suffix = bits.read(63 - n)
    return (previous >> (64 - n) << (64 - n) if n else 0) | (1 << (63 - n)) | suffix


def _block_frame(block, seed):
    """The frame every codec's block starts with: checks the checksum; returns the count."""
    checksum, count = struct.unpack_from("<IH", block, 0)
    _check(checksum == xxh3(block[4:], seed) & 0xFFFFFFFF, "block checksum mismatch")
    _check(count >= 1, "block count is 0")
    return count


def _check_padding(block, bits):
    rest = _Bits(block[6:])
    rest.pos = bits.pos
    _check(all(rest.read(1) == 0 for _ in range(len(block[6:]) * 8 - bits.pos)), "nonzero padding after the stream")


def _decode_block(block, head, codes, restarts, block_size, seed):
    count = _block_frame(block, seed)
    width = block_size.bit_length() - 1 + 3  # log2(B) + 3
    bits = _Bits(block[6:])
    offsets = [bits.read(width) for _ in range(restarts)]
    restart_at = {}
    if count > restarts:
        restart_at = {(r * count) // (restarts + 1): offsets[r - 1] for r in range(1, restarts + 1)}
    else:
        _check(not any(offsets), "offset field set in a block without restart points")
    values = [head]
    for i in range(1, count):
        if i in restart_at:
            _check(bits.pos == restart_at[i], "restart point not where the offset table says")
            n = bits.read(7)
            _check(n <= 64, "restart symbol above 64")
            value = _next_value(head, n, bits)
            _check(value >= values[-1], "restart value below its predecessor")
        else:
            value = _next_value(values[-1], _decode_symbol(bits, codes), bits)
        values.append(value)
    _check_padding(block, bits)
    return values


EF_SAMPLE_SPACING = 256


def _decode_ef_block(block, head, block_size, seed):
    """A block of the ef codec (docs/format.md, "The ef codec's payload")."""
    count = _block_frame(block, seed)
    width = block_size.bit_length() - 1 + 3  # log2(B) + 3
    bits = _Bits(block[6:])
    low_width, zeros = bits.read(6), bits.read(width)
    _check(count > 1 or zeros == 0, "a bucket in a block without entries after the head")
    samples = [bits.read(width) for _ in range(zeros // EF_SAMPLE_SPACING)]
    upper = [bits.read(1) for _ in range(count - 1 + zeros)]
    lows = [bits.read(low_width) for _ in range(count - 1)]
    _check_padding(block, bits)
    ones = [p for p, bit in enumerate(upper) if bit]
    _check(len(ones) == count - 1, "the upper bits do not hold count - 1 ones")
    _check(count == 1 or upper[-1] == 1, "the upper bits do not end with the last entry's one")
    buckets = [p - i for i, p in enumerate(ones)]
    for j, sample in enumerate(samples, 1):
        target = j * EF_SAMPLE_SPACING
        _check(sample == target + sum(1 for h in buckets if h < target), "bad select sample %d" % j)
    values = [head]
    for h, low in zip(buckets, lows):
        value = head + (h << low_width | low)
        _check(value < 2**64, "a value passes 2^64 - 1")
        _check(value >= values[-1], "a value below its predecessor")
        values.append(value)
    return values


def _decode_table(data, t, head_offset, head_sum, nblocks, data_offset, block_size, codec, codes, restarts,
                  block_counts=None):
    """Table t's values: its head index checked, each block decoded by its codec (0 card, 1 ef) and
    found to start at or above the previous block's last value; block_counts, when given, gets each
    block's count."""
    heads_bytes = data[head_offset:head_offset + 8 * nblocks]
    _check(len(heads_bytes) == 8 * nblocks and xxh3(heads_bytes) == head_sum, "head index checksum mismatch")
    heads = struct.unpack("<%dQ" % nblocks, heads_bytes)
    values = []
    for i in range(nblocks):
        block = data[data_offset + i * block_size:data_offset + (i + 1) * block_size]
        _check(len(block) == block_size, "block past the file")
        if codec == 0:
            decoded = _decode_block(block, heads[i], codes, restarts, block_size, (t << 32) | i)
        else:
            decoded = _decode_ef_block(block, heads[i], block_size, (t << 32) | i)
        _check(not values or values[-1] <= decoded[0], "a block's last value is above the next head")
        values += decoded
        if block_counts is not None:
            block_counts.append(len(decoded))
    return values


def _unpermute(widths, leading):
    """The inverse of a table's block permutation (leading blocks first, then the others, each
    in increasing block order; block 0 holds the most significant bits)."""
    order = list(leading) + [b for b in range(len(widths)) if b not in leading]
    starts = [64 - sum(widths[:b + 1]) for b in range(len(widths))]  # bit position of each block

    def invert(permuted):
        out, pos = 0, 64
        for b in order:
            pos -= widths[b]
            out |= ((permuted >> pos) & ((1 << widths[b]) - 1)) << starts[b]
        return out

    return invert


def _unpack(data, count, width):
    """count values of `width` bits, least significant bit first (the id section's packing)."""
    number = int.from_bytes(data, "little")
    _check(number >> (count * width) == 0, "unused id bits are not zero")
    return [(number >> (i * width)) & ((1 << width) - 1) for i in range(count)]


def read_index(data):
    """Decodes an index file's bytes. Returns a dict: version, entries (the (id, fingerprint)
    pairs in table 0's order: by fingerprint, then id number; ids are str when the file has an
    id map), block_size, restarts, widths, k, tables (T), blocks and codecs ("card", "ef"; per
    table). Raises
    FormatError on a broken rule."""
    data = bytes(data)
    _check(len(data) >= HEADER_LENGTH + FOOTER_LENGTH, "file too short")
    magic, version, header_length = struct.unpack_from("<8sII", data, 0)
    _check(magic == b"SIMDEXIX" and header_length == HEADER_LENGTH, "bad header")
    kind = data[16] if version >= 5 else 0  # version 5 on: byte 16 is the index kind
    _check(data[16 if version < 5 else 17:56] == bytes(56 - (16 if version < 5 else 17)),
           "reserved header bytes are not zero")
    _check(kind == 0, "not a SimHash index (kind %d)" % kind)
    _check(struct.unpack_from("<Q", data, 56)[0] == xxh3(data[:56]), "header checksum mismatch")
    footer = data[-FOOTER_LENGTH:]
    meta_offset, meta_length, meta_sum, file_size, footer_version, footer_length, footer_sum, footer_magic = \
        struct.unpack("<QQQQIIQ8s", footer)
    _check(footer_magic == b"SIMDEXFT" and footer_length == FOOTER_LENGTH, "bad footer")
    _check(footer_sum == xxh3(footer[:40]), "footer checksum mismatch")
    _check(footer_version == version and version in (1, 2, 3, 4, 5), "version")
    _check(file_size == len(data), "footer file size is not the file's size")
    _check(HEADER_LENGTH <= meta_offset and meta_offset + meta_length <= len(data) - FOOTER_LENGTH, "metadata place")
    meta = data[meta_offset:meta_offset + meta_length]
    _check(xxh3(meta) == meta_sum, "metadata checksum mismatch")

    f = _Fields(meta)
    n, distinct, block_size, b, k, restarts = f.take("QQIBBB")
    widths = list(f.raw(b))
    _check(sum(widths) == 64 and k < b and restarts <= 15, "scheme fields")
    _check(block_size & (block_size - 1) == 0 and 64 <= block_size <= 65536, "block size")
    tables = f.take("I")
    subsets = list(itertools.combinations(range(b), b - k))
    _check(tables == len(subsets), "T is not C(b, k)")
    table_values, blocks, codecs, table0_counts = [], [], [], []
    for t in range(tables):
        leading = tuple(f.raw(b - k))
        _check(leading == subsets[t], "leading blocks are not the t-th subset")
        data_offset, nblocks, head_offset, head_sum, _payload_bits = f.take("QQQQQ")
        codec, params_length = 0, 33  # versions 1 and 2: the card codec's code lengths, untagged
        if version >= 3:
            codec, params_length = f.take("BI")
            _check(codec in (0, 1), "codec tag %d (this reader knows the card codec, 0, and ef, 1)" % codec)
            _check(params_length == (33, 2)[codec], "codec parameters of %d bytes" % params_length)
        params = f.raw(params_length)
        codes = None
        if codec == 0:
            nibbles = [x for byte in params for x in (byte >> 4, byte & 15)]
            _check(nibbles[65] == 0 and max(nibbles) <= 11, "Huffman lengths")
            codes = _canonical_code(nibbles[:65])
        else:
            _check(params[0] <= 63, "ef low-bit width above 63")
        values = _decode_table(data, t, head_offset, head_sum, nblocks, data_offset, block_size, codec, codes,
                               restarts, table0_counts if t == 0 else None)
        _check(len(values) == n, "table counts do not sum to N")
        invert = _unpermute(widths, leading)
        table_values.append([invert(v) for v in values])
        blocks.append(nblocks)
        codecs.append(("card", "ef")[codec])
    rank_offset, rank_sum, id_offset, id_length, id_width, id_base, id_sum = f.take("QQQQBQQ")
    map_offset = map_length = map_sum = 0
    if version >= 2:
        map_offset, map_length, map_sum = f.take("QQQ")
    profile = None
    if version >= 4:
        profile_length = f.take("I")
        _check(profile_length <= 4096, "profile length")
        raw_profile = f.raw(profile_length)
        _check(all(0x20 <= c <= 0x7E for c in raw_profile), "profile is not printable ASCII")
        profile = raw_profile.decode("ascii") or None
    _check(f.pos == len(meta), "metadata has bytes left over")

    rank_bytes = data[rank_offset:rank_offset + 8 * blocks[0]]
    _check(xxh3(rank_bytes) == rank_sum, "rank index checksum mismatch")
    ranks = list(struct.unpack("<%dQ" % blocks[0], rank_bytes))
    _check(ranks == list(itertools.accumulate([0] + table0_counts[:-1])), "rank index is not the running count")
    table0 = table_values[0]
    _check(all(sorted(values) == sorted(table0) for values in table_values), "tables hold different fingerprints")
    _check(len(set(table0)) == distinct, "distinct fingerprints")
    id_bytes = data[id_offset:id_offset + id_length]
    _check(id_length == (n * id_width + 7) // 8 and xxh3(id_bytes) == id_sum, "id section")
    ids = [id_base + x for x in _unpack(id_bytes, n, id_width)]
    for (a, fa), (b_, fb) in zip(zip(ids, table0), zip(ids[1:], table0[1:])):
        _check(fa != fb or a <= b_, "ids of equal fingerprints out of order")
    if map_length:
        raw = data[map_offset:map_offset + map_length]
        _check(xxh3(raw) == map_sum, "id map checksum mismatch")
        count, total, width = struct.unpack_from("<QQB", raw, 0)
        _check(raw[17:24] == bytes(7), "id map header padding")
        offset_bytes = ((count + 1) * width + 7) // 8
        packed = 8 * ((offset_bytes + 7) // 8)
        offsets = _unpack(raw[24:24 + offset_bytes], count + 1, width)
        _check(map_length == 24 + packed + total, "id map length")
        strings = raw[24 + packed:]
        names = [strings[offsets[i]:offsets[i + 1]].decode("utf-8") for i in range(count)]
        _check(names == sorted(names, key=lambda s: s.encode("utf-8")), "id map strings out of order")
        ids = [names[i] for i in ids]
    return {
        "version": version, "entries": list(zip(ids, table0)),
        "block_size": block_size, "restarts": restarts, "widths": widths, "k": k, "tables": tables,
        "blocks": blocks, "codecs": codecs, "profile": profile,
    }


def read_lsh_index(data):
    """Decodes a MinHash-LSH index file's bytes (docs/format.md, "MinHash-LSH indexes"), checking
    every checksum and the structural rules it meets. Returns a dict: the metadata fields, and
    documents, one per ordinal: (id, b-bit signature bytes, the kept band keys per band or None
    for a document in no band table); sketch_k and, per ordinal, sketches: (hashes, cut) (version
    6; sketch_k 0 and no sketches for version 5)."""
    data = bytes(data)
    _check(len(data) >= HEADER_LENGTH + FOOTER_LENGTH, "file too short")
    magic, version, header_length = struct.unpack_from("<8sII", data, 0)
    _check(magic == b"SIMDEXIX" and header_length == HEADER_LENGTH and version in (5, 6), "bad header")
    _check(data[16] == 1, "not a MinHash-LSH index (kind %d)" % data[16])
    _check(data[17:56] == bytes(39), "reserved header bytes are not zero")
    _check(struct.unpack_from("<Q", data, 56)[0] == xxh3(data[:56]), "header checksum mismatch")
    footer = data[-FOOTER_LENGTH:]
    meta_offset, meta_length, meta_sum, file_size, footer_version, footer_length, footer_sum, footer_magic = \
        struct.unpack("<QQQQIIQ8s", footer)
    _check(footer_magic == b"SIMDEXFT" and footer_sum == xxh3(footer[:40]) and footer_version == version,
           "bad footer")
    _check(file_size == len(data), "footer file size is not the file's size")
    meta = data[meta_offset:meta_offset + meta_length]
    _check(xxh3(meta) == meta_sum, "metadata checksum mismatch")

    f = _Fields(meta)
    n, banded, block_size, restarts, num_perm, seed, bands, rows, bits, o, threshold = f.take("QQIBHQHHBBI")
    _check(1 <= num_perm <= 1024 and bands >= 1 and rows >= 1 and bands * rows <= num_perm, "bands")
    _check(bits in (1, 2, 4, 8, 16, 32) and banded <= n and threshold <= 1000000, "fields")
    _check((n - 1).bit_length() <= o <= 63 if n else o <= 63, "ordinal bits")
    mask = (1 << o) - 1
    keys = [[None] * bands for _ in range(n)]
    for t in range(bands):
        data_offset, nblocks, head_offset, head_sum, _payload_bits, codec, params_length = f.take("QQQQQBI")
        _check(codec in (0, 1) and params_length == (33, 2)[codec], "codec")
        params = f.raw(params_length)
        codes = None
        if codec == 0:
            nibbles = [x for byte in params for x in (byte >> 4, byte & 15)]
            codes = _canonical_code(nibbles[:65])
        values = _decode_table(data, t, head_offset, head_sum, nblocks, data_offset, block_size, codec, codes,
                               restarts)
        _check(len(values) == banded, "a band table does not hold every banded document")
        for v in values:
            d = v & mask
            _check(d < n and keys[d][t] is None, "a value names no document or one twice")
            keys[d][t] = v & ~mask
    sig_offset, sig_length, sig_sum = f.take("QQQ")
    sig_bytes = (num_perm * bits + 7) // 8
    signatures = data[sig_offset:sig_offset + sig_length]
    _check(sig_length == n * sig_bytes and xxh3(signatures) == sig_sum, "signature section")
    id_offset, id_length, id_width, id_base, id_sum, map_offset, map_length, map_sum = f.take("QQBQQQQQ")
    profile_length = f.take("I")
    profile = f.raw(profile_length).decode("ascii")
    sketch_k, sketches = 0, None
    if version >= 6:
        sketch_k, width, sk_offset, sk_length, sk_sum = f.take("IBQQQ")
        _check(1 <= sketch_k <= 65536 and width in (4, 8), "sketch fields")
        section = data[sk_offset:sk_offset + sk_length]
        _check(len(section) == sk_length and xxh3(section) == sk_sum, "sketch section checksum mismatch")
        offsets = struct.unpack_from("<%d%s" % (n + 1, "I" if width == 4 else "Q"), section, 0)
        sketch_data = section[(n + 1) * width:]
        _check(offsets[0] == 0 and offsets[n] == len(sketch_data), "sketch offsets")
        sketches = [_read_sketch(sketch_data[offsets[d]:offsets[d + 1]], sketch_k) for d in range(n)]
    _check(f.pos == len(meta), "metadata has bytes left over")
    id_bytes = data[id_offset:id_offset + id_length]
    _check(xxh3(id_bytes) == id_sum, "id section checksum mismatch")
    ids = [id_base + x for x in _unpack(id_bytes, n, id_width)]
    _check(ids == sorted(ids), "ids decrease")
    if map_length:
        raw = data[map_offset:map_offset + map_length]
        _check(xxh3(raw) == map_sum, "id map checksum mismatch")
        count, total, width = struct.unpack_from("<QQB", raw, 0)
        offset_bytes = ((count + 1) * width + 7) // 8
        packed = 8 * ((offset_bytes + 7) // 8)
        offsets = _unpack(raw[24:24 + offset_bytes], count + 1, width)
        strings = raw[24 + packed:]
        names = [strings[offsets[i]:offsets[i + 1]].decode("utf-8") for i in range(count)]
        ids = [names[i] for i in ids]
    documents = []
    for d in range(n):
        in_bands = [k is not None for k in keys[d]]
        _check(all(in_bands) or not any(in_bands), "a document in some band tables only")
        documents.append((ids[d], signatures[d * sig_bytes:(d + 1) * sig_bytes], keys[d] if all(in_bands) else None))
    return {
        "documents": documents, "num_perm": num_perm, "seed": seed, "bands": bands, "rows": rows, "bits": bits,
        "ordinal_bits": o, "threshold": threshold / 1e6, "profile": profile, "block_size": block_size,
        "version": version, "sketch_k": sketch_k, "sketches": sketches,
    }


def _read_sketch(raw, k):
    """One document's sketch (docs/format.md, "Sketch section"): (hashes, cut)."""
    values, pos = [], 0
    while pos < len(raw):
        value, shift = 0, 0
        while True:
            _check(pos < len(raw) and shift <= 28, "a sketch varint runs past its bytes or 32 bits")
            byte = raw[pos]
            pos += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        _check(value < 2**32, "a sketch varint passes 32 bits")
        values.append(value)
    _check(values, "an empty sketch")
    count, cut = values[0] >> 1, bool(values[0] & 1)
    _check(len(values) == count + 1 and count <= k and (not cut or count == k), "sketch count")
    hashes = []
    for i, v in enumerate(values[1:]):
        _check(i == 0 or v >= 1, "sketch hashes not increasing")
        hashes.append(v if i == 0 else hashes[-1] + v)
    _check(not hashes or hashes[-1] < 2**32, "a sketch hash passes 32 bits")
    return hashes, cut
