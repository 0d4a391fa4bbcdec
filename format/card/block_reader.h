// Decodes the blocks written by block_builder.cc (block_builder.h draws the
// layout).
//
// Two entry points share one decoder. DecodeBlock() decodes a whole block
// with every check (verification and tests). ScanBlock() is the query path:
// it decodes values in order, keeps those in [lo, hi] and stops at the first
// value above hi. Both are bounds-safe on any input: they read only the
// block's bytes, and garbage yields a Corruption status, never a crash.
//
// Both take the block as (ptr, limit, block_size): the block is the
// block_size bytes at ptr; fewer than block_size bytes before limit is
// Corruption("truncated block"). The head is the block's first value, kept
// in the table's head index. Error messages name what is wrong
// ("checksum mismatch", "bad entry count 0", "invalid Huffman code at bit 17",
// "entry 17 out of order", "bit stream overruns the block", "nonzero
// padding", "bad restart point 2 (entry 40)"); bit positions count from
// the start of the bit stream (block byte 6), entries from the head
// (entry 0). Callers prefix the block's
// place ("block B of table T: ...").
//
// Every entry point checks the block's checksum first when its options
// ask for it (BlockReadOptions: always, or the first time through a
// VerifiedBlocks), so that nothing is decoded from bytes that fail it.
//
// Thread safety: the functions keep no state (a VerifiedBlocks is safe to
// share); concurrent calls are safe when each has its own output vector and
// stats.
#ifndef SIMDEX_FORMAT_CARD_BLOCK_READER_H_
#define SIMDEX_FORMAT_CARD_BLOCK_READER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "format/card/card_format.h"
#include "format/card/huffman.h"
#include "format/codec.h"
#include "simdex/status.h"

namespace simdex::format {

// The card codec's TableDecoder (format/codec.h), the per-table state the
// functions below use: the table's Huffman decode table, each entry
// extended with the suffix bits that follow its symbol, so that one lookup
// steps over a whole entry; and a small quick table for the scans' common
// case (quick_table()). Immutable after Init(); may be shared between
// threads.
class CardDecoder final : public TableDecoder {
 public:
  // The quick table is indexed by the next kQuickBits bits of the stream.
  static constexpr int kQuickBits = 8;

  // An uninitialized decoder: rejects any entry.
  CardDecoder();
  // `restarts` is the index's restart points per block (block_builder.h).
  // Returns Corruption("invalid Huffman code lengths") as HuffmanDecoder::Init,
  // or Corruption("bad restart point count R") unless IsValidRestarts. A
  // decoder never initialized (a table without entries) rejects any entry.
  Status Init(const HuffmanCodeLengths& lengths, int restarts = 0);

  const HuffmanDecoder& huffman() const { return huffman_; }
  int restarts() const { return restarts_; }
  // 2^kQuickBits entries, one per value of the next kQuickBits stream bits.
  // When those bits begin a code of at most kQuickBits bits whose whole
  // entry (code and suffix) spans at most 57 bits, which one 8-byte load at
  // any bit offset holds: the entry's total bits in the low byte and, above
  // it, the place of its symbol's masks in a table of block_reader.cc;
  // otherwise a value whose low byte is 0, which sends the scan to the full
  // decode. Small enough
  // (1 KiB) that the ten tables of a query stay in L1 where the Huffman
  // tables (8 KiB each) do not.
  const uint32_t* quick_table() const { return quick_.data(); }

  // TableDecoder, by the functions below.
  CodecTag tag() const override { return CodecTag::kCard; }
  Status DecodeBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                     const BlockReadOptions& options, std::vector<uint64_t>* out) const override;
  void ScanBlocks(BlockScan* scans, size_t n, size_t block_size, const BlockReadOptions& options,
                  BlockScanStats* stats) const override;
  Status CountInBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head, uint64_t v,
                      int restart_guess, const BlockReadOptions& options, uint64_t* below, uint64_t* equal,
                      bool* reached_end, BlockScanStats* stats) const override;
  // Prefetches the block's first line (count and restart offsets), the
  // block from the restart point before `fraction` to a line past it, and
  // the next restart entry; returns that restart point.
  int PrefetchScan(const uint8_t* block, size_t block_size, double fraction) const override;

 private:
  HuffmanDecoder huffman_;
  std::array<uint32_t, size_t{1} << kQuickBits> quick_;
  int restarts_ = 0;
};

// Decodes every value of the block, head first, into *out (replacing its
// contents). On error *out holds unspecified values.
// REQUIRES: IsValidBlockSize(block_size); decoder was initialized with the
// code lengths of the block's table.
Status DecodeBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                   const CardDecoder& decoder, const BlockReadOptions& options,
                   std::vector<uint64_t>* out);

// Decodes the block's values in order and appends to *out those v with
// lo <= v <= hi. Starts at the last restart point below lo (the values
// before it are below lo too) and stops at the first value greater than hi. Sets
// *reached_end to true when every value of the block is <= hi (the range may
// then go on in the next block), false when it stopped early. On error,
// *out may have been appended to and *reached_end is unspecified.
// options.strict applies when the scan reaches the end of the block.
// REQUIRES: as DecodeBlock; lo <= hi; stats may be null.
Status ScanBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                 const CardDecoder& decoder, uint64_t lo, uint64_t hi,
                 const BlockReadOptions& options, std::vector<uint64_t>* out, bool* reached_end,
                 BlockScanStats* stats);

// Counts the block's values below v (*below) and equal to v (*equal),
// decoding from the last restart point below v and stopping at the first
// value above v: the rank of v's run within the block. The search for that
// restart point starts at restart_guess (as BlockScan::restart_guess). Sets
// *reached_end as ScanBlock with hi = v. REQUIRES: as DecodeBlock; stats may
// be null.
Status CountInBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                    const CardDecoder& decoder, uint64_t v, int restart_guess, const BlockReadOptions& options,
                    uint64_t* below, uint64_t* equal, bool* reached_end, BlockScanStats* stats);

// ScanBlock on each of `n` blocks (of possibly different tables, each
// scan's decoder a CardDecoder), with their decoding interleaved entry by
// entry, two blocks at a time: each block's decode is a serial chain (an
// entry's position depends on the previous entry's code), and running
// chains side by side lets the CPU overlap them. Every
// result is exactly what ScanBlock gives for that block; options.seed,
// verified and block are ignored in favour of each scan's own.
void ScanCardBlocks(BlockScan* scans, size_t n, size_t block_size, const BlockReadOptions& options,
                    BlockScanStats* stats);

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_CARD_BLOCK_READER_H_
