// Decodes the blocks written by ef_block_builder.cc (ef_format.h draws the
// layout).
//
// A scan for the values in [lo, hi] does not decode the values below lo:
// it finds lo's bucket in the upper bits (from the select sample before
// it, counting zeros a word at a time), steps over the bucket's values
// below lo, and decodes from there until a value passes hi. DecodeBlock()
// decodes the whole block and checks every rule of the layout: the upper
// bits hold count - 1 ones and Z zeros, the samples say where their buckets
// start, the values ascend and stay within 2^64, and (strict) the padding
// is zero. Every entry point is bounds-safe on any input: it reads only the
// block's bytes, and garbage yields Corruption, never a crash. A scan checks
// what it reads (a sample within the upper bits, the buckets it crosses,
// the values it decodes ascending and within 2^64) but not the values it
// jumps over, which the block's checksum covers.
//
// Error messages name what is wrong ("bad entry count 0", "the bit stream
// (12345 bits) overruns the block", "bad select sample 2", "entry 17 out of
// order", "entry 17 passes 2^64 - 1", "the upper bits end early",
// "nonzero padding"); entries count from the head (entry 0). Callers
// prefix the block's place ("block B of table T: ...").
//
// Thread safety: an EfDecoder is immutable and may be shared between
// threads; concurrent calls are safe when each has its own output vector
// and stats.
#ifndef SIMDEX_FORMAT_EF_EF_BLOCK_READER_H_
#define SIMDEX_FORMAT_EF_EF_BLOCK_READER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "format/codec.h"
#include "format/ef/ef_format.h"
#include "simdex/status.h"

namespace simdex::format {

// The ef codec's TableDecoder (format/codec.h). Its parameters, the shape
// of the table's usual block (EfTableShape), only tell PrefetchScan where a
// block's bits for a key are likely to lie; decoding reads each block's own
// fields.
class EfDecoder final : public TableDecoder {
 public:
  explicit EfDecoder(const EfTableShape& shape)
      : low_width_(shape.low_width), zeros_per_value_(shape.zeros_per_value64 / 64.0) {}

  CodecTag tag() const override { return CodecTag::kEliasFano; }
  Status DecodeBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                     const BlockReadOptions& options, std::vector<uint64_t>* out) const override;
  // The scans run one after the other: each reads a few lines that
  // PrefetchScan asked for, with no long serial chain to overlap.
  void ScanBlocks(BlockScan* scans, size_t n, size_t block_size, const BlockReadOptions& options,
                  BlockScanStats* stats) const override;
  // restart_guess is not used: the select samples take the search to the
  // key's bucket directly.
  Status CountInBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head, uint64_t v,
                      int restart_guess, const BlockReadOptions& options, uint64_t* below, uint64_t* equal,
                      bool* reached_end, BlockScanStats* stats) const override;
  // Prefetches the block's first line (count, L, Z and, in blocks up to
  // 4 KiB, the samples), the sample for `fraction`, and the lines of the
  // upper and lower bits where a block of the table's usual shape keeps the
  // value at `fraction`. Returns 0.
  int PrefetchScan(const uint8_t* block, size_t block_size, double fraction) const override;

 private:
  int low_width_;
  double zeros_per_value_;
};

// Decodes the block's values in order and appends to *out those v with
// lo <= v <= hi, jumping to lo's bucket; *reached_end as BlockScan's.
// On error, *out may have been appended to. REQUIRES: IsValidBlockSize;
// lo <= hi; stats may be null.
Status EfScanBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head, uint64_t lo,
                   uint64_t hi, const BlockReadOptions& options, std::vector<uint64_t>* out, bool* reached_end,
                   BlockScanStats* stats);

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_EF_EF_BLOCK_READER_H_
