// Codec: how one table's sorted values become blocks and back
// (docs/format.md, "Codecs").
//
// Every table of an index names its codec in the metadata by a one-byte tag,
// with parameters of the codec's own (the card codec: its Huffman code
// lengths). The block frame (block_frame.h) is the same for every codec;
// the bytes after it are the codec's. The engine meets codecs only here:
// it asks FindCodec() for a tag, builds one TableDecoder per table from the
// table's parameters, and calls the decoder once per block (or once per
// batch of blocks in ScanBlocks), so that a codec's inner loops stay
// monomorphic.
//
// Adding a codec: a folder format/<name>/ with a Codec subclass, and one line
// in codec.cc's registry.
//
// Thread safety: codecs and decoders are immutable and may be shared
// between threads; each call's output vector and stats are the caller's.
#ifndef SIMDEX_FORMAT_CODEC_H_
#define SIMDEX_FORMAT_CODEC_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "format/block_frame.h"
#include "simdex/status.h"

namespace simdex::format {

// The codec tags that the metadata stores (one byte per table).
enum class CodecTag : uint8_t {
  kCard = 0,        // the card's h(n) + suffix delta code with a Huffman code for n
  kEliasFano = 1,   // Elias-Fano: unary high parts, plain low parts, select samples
};

// Counters for tuning, added to by the scans (faiss indexBinaryHash_stats
// habit). Not thread-safe: use one per thread and add them up.
struct BlockScanStats {
  uint64_t blocks = 0;           // blocks scanned
  uint64_t values_decoded = 0;   // values produced, heads included
  uint64_t values_in_range = 0;  // values appended to the output
};

class TableDecoder;

// One block of a ScanBlocks call: its inputs and its results.
struct BlockScan {
  const uint8_t* ptr = nullptr;    // the block: block_size bytes
  const uint8_t* limit = nullptr;  // end of readable bytes ("truncated block" when ptr + block_size passes it)
  uint64_t head = 0;
  const TableDecoder* decoder = nullptr;  // the decoder of the block's table
  uint64_t lo = 0;
  uint64_t hi = 0;
  uint64_t seed = 0;  // for the checksum, when verified
  // As BlockReadOptions::verified and ::block, for this scan's block.
  const VerifiedBlocks* verified = nullptr;
  uint64_t block = 0;
  // Where the scan should start looking: from TableDecoder::PrefetchScan
  // (a restart point for the card codec). It affects only the work done,
  // never the result.
  int restart_guess = kMaxRestarts;
  std::vector<uint64_t>* out = nullptr;
  // Results. The values v of the block with lo <= v <= hi are appended to
  // *out in order; the scan stops at the first value above hi.
  Status status;
  // True when every value of the block is <= hi (the range may go on in the
  // next block).
  bool reached_end = false;
  // The entry index (0: the head) just past the last value of the block in
  // [lo, hi]: the values appended to out are the block's entries
  // end_index - k .. end_index - 1, k being how many were appended.
  uint32_t end_index = 0;
};

// A table's decoding state, built by Codec::NewDecoder from the table's
// parameters. Every entry point reads only the block's bytes, checks the
// frame first (CheckBlockFrame: length, checksum as the options ask), and
// returns Corruption on any damage, never crashing. Messages name what is
// wrong inside the block; callers prefix its place ("block B of table T").
class TableDecoder {
 public:
  virtual ~TableDecoder() = default;

  virtual CodecTag tag() const = 0;

  // Decodes every value of the block, head first, into *out (replacing its
  // contents). On error *out holds unspecified values.
  virtual Status DecodeBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                             const BlockReadOptions& options, std::vector<uint64_t>* out) const = 0;

  // Scans each of the n blocks (BlockScan), all of tables whose decoders
  // have this decoder's tag, with their decoding interleaved where the
  // codec can. options.seed, verified and block are ignored in favour of
  // each scan's own. stats may be null.
  virtual void ScanBlocks(BlockScan* scans, size_t n, size_t block_size, const BlockReadOptions& options,
                          BlockScanStats* stats) const = 0;

  // Counts the block's values below v (*below) and equal to v (*equal),
  // stopping at the first value above v; *reached_end as a scan with
  // hi = v. restart_guess as BlockScan's. stats may be null.
  virtual Status CountInBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                              uint64_t v, int restart_guess, const BlockReadOptions& options, uint64_t* below,
                              uint64_t* equal, bool* reached_end, BlockScanStats* stats) const = 0;

  // Asks the CPU to start loading what a scan of the block at `block` will
  // read for a key whose place in the block is estimated at `fraction`
  // (0: at the head, 1: at the end), and returns the restart_guess to scan
  // it with. Reads nothing itself: the block may be unchecked.
  virtual int PrefetchScan(const uint8_t* block, size_t block_size, double fraction) const = 0;
};

// What encoding a table needs besides its values.
struct TableEncoding {
  uint32_t block_size = 4096;  // IsValidBlockSize
  int restarts = 0;            // IsValidRestarts
  uint32_t table = 0;          // the table's number, for BlockSeed
};

// What encoding a table gives besides its blocks.
struct EncodedTable {
  CodecTag codec = CodecTag::kCard;
  std::string params;            // the codec's parameters, stored in the metadata
  std::vector<uint64_t> heads;   // one per block
  std::vector<uint64_t> ranks;   // values before each block (the rank index)
  uint64_t payload_bits = 0;     // payload bits over all blocks (for the entropy figures)
};

class Codec {
 public:
  virtual ~Codec() = default;

  virtual CodecTag tag() const = 0;
  // The name users give to `simdex build --codec` and tools print.
  virtual std::string_view name() const = 0;

  // Checks a table's parameters as the metadata holds them: OK, or
  // Corruption naming what is wrong.
  virtual Status CheckParams(std::string_view params) const = 0;

  // The decoder of a table with these parameters (and the index's
  // restart points per block). Errors as CheckParams.
  virtual Status NewDecoder(std::string_view params, int restarts, std::unique_ptr<TableDecoder>* out) const = 0;

  // Encodes the sorted values of one table: passes each finished block
  // (block_size bytes) to sink in order and fills *out. A sink error stops
  // the encoding and is returned. A null sink only cuts the blocks: out's
  // heads and ranks are those of the encoding, its params and payload_bits
  // unspecified, and no block is written (what `--codec auto` needs to
  // compare codecs, at a fraction of an encoding's cost).
  // REQUIRES: values sorted ascending; encoding's fields valid.
  virtual Status EncodeTable(std::span<const uint64_t> values, const TableEncoding& encoding,
                             const std::function<Status(std::string_view block)>& sink,
                             EncodedTable* out) const = 0;
};

// The codec with this tag or name; null when this build has none.
const Codec* FindCodec(uint8_t tag);
const Codec* FindCodec(std::string_view name);
// The format's first codec, the card's (a build's default, BuildOptions::
// codec, is "auto": per table card or ef).
const Codec& DefaultCodec();
// The names of every codec this build has, for messages ("card").
std::string CodecNames();

// Scans blocks of any tables, each with its table's decoder: one call of
// TableDecoder::ScanBlocks for the whole batch when every scan's decoder
// has the same codec (the usual case), else one per scan. Every result is
// exactly what that decoder gives for that block.
void ScanBlocks(BlockScan* scans, size_t n, size_t block_size, const BlockReadOptions& options,
                BlockScanStats* stats);

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_CODEC_H_
