// Decodes the blocks written by block_builder.cc (layout in block_builder.h).
#include "format/block_reader.h"

#include <cassert>
#include <string>

#include "format/bit_reader.h"
#include "format/block_format.h"
#include "format/coding.h"

namespace simdex::format {

namespace {

constexpr size_t kStreamStart = kBlockHeaderSize * 8;  // bit offset of entry 1

// One decoding pass over a block. The fast loop runs while a whole entry
// (at most 11 code bits and 63 suffix bits) lies well inside the block, so
// its word loads need no bounds checks; the tail loop reads through the
// bounded BitReader. kPlain skips the fast loop.
template <bool kPlain>
Status Decode(const uint8_t* block, size_t block_size, uint64_t head, const HuffmanDecoder& decoder,
              uint64_t lo, uint64_t hi, bool strict, std::vector<uint64_t>* out, bool* reached_end,
              uint64_t* decoded) {
  const uint32_t count = DecodeFixed16(block + 4);
  if (count == 0 || count - 1 > (block_size - kBlockHeaderSize) * 8) {
    return Status::Corruption("bad entry count " + std::to_string(count));
  }
  const HuffmanDecoder::Entry* const table = decoder.table();
  constexpr int kShift = 64 - HuffmanDecoder::kTableBits;
  uint64_t p = head;
  uint32_t i = 1;
  size_t pos = kStreamStart;
  Status status;
  if (p > hi) goto stopped;
  if (p >= lo) out->push_back(p);

  if constexpr (!kPlain) {
    // The code word load reads bytes [pos/8, pos/8 + 8), the suffix load
    // bytes [pos2/8, pos2/8 + 9) with pos2 <= pos + 11: both in the block
    // while pos/8 + 11 <= block_size.
    const size_t fast_end = (block_size - 10) * 8;
    while (i < count && pos < fast_end) {
      const HuffmanDecoder::Entry e = table[LoadBitsUnchecked(block, pos) >> kShift];
      if (e.length == 0) [[unlikely]] {
        goto invalid_code;
      }
      const size_t pos2 = pos + e.length;
      // 64 valid bits from pos2: the 8-byte word plus the next byte's top bits.
      const uint64_t word = LoadBitsUnchecked(block, pos2) |
                            (block[(pos2 >> 3) + 8] >> (8 - (pos2 & 7)));
      const unsigned n = e.symbol;
      const bool dup = n == 64;
      const unsigned s = 63 - (n & 63);  // suffix bits when !dup
      const uint64_t lead = uint64_t{1} << s;
      const uint64_t low = (lead << 1) - 1;
      const uint64_t v = (p & ~low) | lead | ((word >> 1) >> (63 - s));
      if ((p & lead) != 0 && !dup) [[unlikely]] {
        goto out_of_order;
      }
      pos = pos2 + (dup ? 0 : s);
      p = dup ? p : v;
      ++i;
      if (p > hi) goto stopped;
      if (p >= lo) out->push_back(p);
    }
  }
  {
    BitReader reader(block, block + block_size, kPlain);
    reader.Skip(pos);
    while (i < count) {
      const HuffmanDecoder::Entry e = table[reader.Peek(HuffmanDecoder::kTableBits)];
      if (e.length == 0) goto invalid_code;
      reader.Skip(e.length);
      const int n = e.symbol;
      uint64_t v = p;
      uint64_t lead = 0;
      if (n < 64) {
        lead = uint64_t{1} << SuffixBits(n);
        v = (p & ~((lead << 1) - 1)) | lead | reader.Read(SuffixBits(n));
      }
      if (reader.overflowed()) {
        status = Status::Corruption("bit stream overruns the block");
        goto done;
      }
      if ((p & lead) != 0) goto out_of_order;
      pos = reader.bit_position();
      p = v;
      ++i;
      if (p > hi) goto stopped;
      if (p >= lo) out->push_back(p);
    }
  }
  *reached_end = true;
  if (strict) {
    // Every bit from pos to the end of the block must be zero.
    size_t byte = pos >> 3;
    if ((pos & 7) != 0 && (block[byte++] & (0xffu >> (pos & 7))) != 0) goto bad_padding;
    for (; byte < block_size; ++byte) {
      if (block[byte] != 0) goto bad_padding;
    }
  }
  goto done;

stopped:
  *reached_end = false;
  goto done;
bad_padding:
  status = Status::Corruption("nonzero padding");
  goto done;
invalid_code:
  status = Status::Corruption("invalid Huffman code at bit " + std::to_string(pos - kStreamStart));
  goto done;
out_of_order:
  status = Status::Corruption("entry " + std::to_string(i) + " out of order");
done:
  *decoded += i;
  return status;
}

Status CheckBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size,
                  const BlockReadOptions& options) {
  assert(IsValidBlockSize(block_size));
  if (limit < ptr || static_cast<size_t>(limit - ptr) < block_size) {
    return Status::Corruption("truncated block");
  }
  if (options.verify_checksum) return VerifyBlockChecksum(ptr, block_size, options.seed);
  return Status::OK();
}

}  // namespace

Status VerifyBlockChecksum(const uint8_t* ptr, size_t block_size, uint64_t seed) {
  if (DecodeFixed32(ptr) != BlockChecksum(ptr, block_size, seed)) {
    return Status::Corruption("checksum mismatch");
  }
  return Status::OK();
}

Status DecodeBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                   const HuffmanDecoder& decoder, const BlockReadOptions& options,
                   std::vector<uint64_t>* out) {
  out->clear();
  SIMDEX_RETURN_IF_ERROR(CheckBlock(ptr, limit, block_size, options));
  bool reached_end = false;
  uint64_t decoded = 0;
  const uint64_t kAll = ~uint64_t{0};
  return options.force_plain
             ? Decode<true>(ptr, block_size, head, decoder, 0, kAll, options.strict, out, &reached_end, &decoded)
             : Decode<false>(ptr, block_size, head, decoder, 0, kAll, options.strict, out, &reached_end, &decoded);
}

Status ScanBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                 const HuffmanDecoder& decoder, uint64_t lo, uint64_t hi,
                 const BlockReadOptions& options, std::vector<uint64_t>* out, bool* reached_end,
                 BlockScanStats* stats) {
  assert(lo <= hi);
  SIMDEX_RETURN_IF_ERROR(CheckBlock(ptr, limit, block_size, options));
  const size_t before = out->size();
  uint64_t decoded = 0;
  const Status s =
      options.force_plain
          ? Decode<true>(ptr, block_size, head, decoder, lo, hi, options.strict, out, reached_end, &decoded)
          : Decode<false>(ptr, block_size, head, decoder, lo, hi, options.strict, out, reached_end, &decoded);
  if (stats != nullptr) {
    ++stats->blocks;
    stats->values_decoded += decoded;
    stats->values_in_range += out->size() - before;
  }
  return s;
}

}  // namespace simdex::format
