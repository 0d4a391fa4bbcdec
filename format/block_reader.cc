// Decodes the blocks written by block_builder.cc (layout in block_builder.h).
#include "format/block_reader.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <string>

#include "format/bit_reader.h"
#include "format/block_format.h"
#include "format/coding.h"

namespace simdex::format {

namespace {

constexpr size_t kStreamStart = kBlockHeaderSize * 8;  // bit offset of entry 1
constexpr int kPeekShift = 64 - HuffmanDecoder::kTableBits;

// What decoding symbol n does to the predecessor p:
//   v = (p & ~(lead | low)) | lead | (suffix & low),
// lead being the implied 1 bit and low the suffix bits below it. A
// duplicate (n = 64) has lead = low = 0, so v = p. The order check is
// p & lead == 0.
struct SymbolAction {
  uint64_t lead;
  uint64_t low;
};

constexpr std::array<SymbolAction, kHuffmanSymbols> MakeActions() {
  std::array<SymbolAction, kHuffmanSymbols> a{};
  for (int n = 0; n < 64; ++n) a[n] = {uint64_t{1} << (63 - n), (uint64_t{1} << (63 - n)) - 1};
  return a;
}
constexpr std::array<SymbolAction, kHuffmanSymbols> kActions = MakeActions();

constexpr std::array<uint8_t, kHuffmanSymbols> MakeSuffixBits() {
  std::array<uint8_t, kHuffmanSymbols> a{};
  for (int n = 0; n < kHuffmanSymbols; ++n) a[n] = static_cast<uint8_t>(SuffixBits(n));
  return a;
}
constexpr std::array<uint8_t, kHuffmanSymbols> kSuffixBits = MakeSuffixBits();

enum class Outcome { kContinue, kEnd, kAboveHi, kInvalidCode, kOutOfOrder, kOverrun };

// Where decoding stands: the last value decoded, the index of the next
// entry and the bit position where it starts.
struct Cursor {
  uint64_t p;
  uint32_t i;
  size_t pos;
};

// The first bit position whose entry might not lie well inside the block:
// before it, the word at pos reads bytes [pos/8, pos/8 + 8) and the one at
// pos2 <= pos + 11 bytes [pos2/8, pos2/8 + 9); both stay in the block while
// pos/8 + 11 <= block_size, so FastStep needs no bounds checks.
inline size_t FastEnd(size_t block_size) { return (block_size - 10) * 8; }

// Decodes entry c->i if it lies before fast_end. Returns kContinue after
// keep(v) accepted the value, kEnd when the entry is past the count or the
// fast region (PlainEntries takes over from *c), or why decoding stopped.
template <typename Keep>
inline Outcome FastStep(const uint8_t* block, uint32_t count, size_t fast_end, const HuffmanDecoder::Entry* table,
                        Cursor* c, Keep&& keep) {
  if (c->i >= count || c->pos >= fast_end) return Outcome::kEnd;
  // w holds at least 57 valid bits from pos: the code, and usually the
  // whole suffix too.
  const size_t pos = c->pos;
  const uint64_t w = LoadBitsUnchecked(block, pos);
  const HuffmanDecoder::Entry e = table[w >> kPeekShift];
  if (e.length == 0) [[unlikely]] {
    return Outcome::kInvalidCode;
  }
  const unsigned n = e.symbol;
  uint64_t rest = w << e.length;  // the suffix, left-aligned
  if (e.total_bits > 57) [[unlikely]] {
    const size_t pos2 = pos + e.length;
    rest = LoadBitsUnchecked(block, pos2) | (block[(pos2 >> 3) + 8] >> (8 - (pos2 & 7)));
  }
  const SymbolAction a = kActions[n];
  if ((c->p & a.lead) != 0) [[unlikely]] {
    return Outcome::kOutOfOrder;
  }
  c->pos = pos + e.total_bits;
  // The suffix is the top 63 - n bits of rest; a duplicate masks it away.
  c->p = (c->p & ~(a.lead | a.low)) | a.lead | (((rest >> 1) >> (n & 63)) & a.low);
  ++c->i;
  return keep(c->p) ? Outcome::kContinue : Outcome::kAboveHi;
}

template <typename Keep>
inline Outcome FastEntries(const uint8_t* block, size_t block_size, uint32_t count,
                           const HuffmanDecoder::Entry* table, Cursor* c, Keep&& keep) {
  const size_t fast_end = FastEnd(block_size);
  Cursor local = *c;  // in registers for the loop
  Outcome outcome;
  while ((outcome = FastStep(block, count, fast_end, table, &local, keep)) == Outcome::kContinue) {
  }
  *c = local;
  return outcome;
}

// Decodes entries c->i.. through the bounded BitReader, to the end.
template <typename Keep>
Outcome PlainEntries(const uint8_t* block, size_t block_size, uint32_t count, const HuffmanDecoder::Entry* table,
                     bool force_plain, Cursor* c, Keep&& keep) {
  BitReader reader(block, block + block_size, force_plain);
  reader.Skip(c->pos);
  while (c->i < count) {
    const HuffmanDecoder::Entry e = table[reader.Peek(HuffmanDecoder::kTableBits)];
    if (e.length == 0) return Outcome::kInvalidCode;
    reader.Skip(e.length);
    const int n = e.symbol;
    const SymbolAction a = kActions[n];
    const uint64_t suffix = reader.Read(SuffixBits(n));
    if (reader.overflowed()) return Outcome::kOverrun;
    if ((c->p & a.lead) != 0) return Outcome::kOutOfOrder;
    c->p = (c->p & ~(a.lead | a.low)) | a.lead | suffix;
    c->pos = reader.bit_position();
    ++c->i;
    if (!keep(c->p)) return Outcome::kAboveHi;
  }
  return Outcome::kEnd;
}

// The keep() of a range scan: appends the values in [lo, hi] and stops at
// the first value above hi.
struct KeepInRange {
  uint64_t lo;
  uint64_t hi;
  std::vector<uint64_t>* out;
  bool operator()(uint64_t v) const {
    if (v > hi) return false;
    if (v >= lo) out->push_back(v);
    return true;
  }
};

bool PaddingIsZero(const uint8_t* block, size_t block_size, size_t pos) {
  size_t byte = pos >> 3;
  if ((pos & 7) != 0 && (block[byte++] & (0xffu >> (pos & 7))) != 0) return false;
  for (; byte < block_size; ++byte) {
    if (block[byte] != 0) return false;
  }
  return true;
}

// Checks the count and starts decoding at the head: the cursor stands after
// it. Returns kContinue, or kAboveHi when the head is above the range.
template <typename Keep>
Status StartBlock(const uint8_t* block, size_t block_size, uint64_t head, uint32_t* count, Cursor* c,
                  Outcome* outcome, Keep&& keep) {
  *count = DecodeFixed16(block + 4);
  if (*count == 0 || *count - 1 > (block_size - kBlockHeaderSize) * 8) {
    return Status::Corruption("bad entry count " + std::to_string(*count));
  }
  *c = Cursor{head, 1, kStreamStart};
  *outcome = keep(head) ? Outcome::kContinue : Outcome::kAboveHi;
  return Status::OK();
}

// Decodes what the fast path left (through the bounded reader) and turns
// the outcome into a status. Sets *reached_end and *decoded (values decoded,
// the head included).
template <typename Keep>
Status FinishBlock(const uint8_t* block, size_t block_size, uint32_t count, const BlockDecoder& decoder,
                   const BlockReadOptions& options, Outcome outcome, Cursor* c, bool* reached_end,
                   uint64_t* decoded, Keep&& keep) {
  if (outcome == Outcome::kEnd || outcome == Outcome::kContinue) {
    outcome = PlainEntries(block, block_size, count, decoder.huffman().table(), options.force_plain, c, keep);
  }
  *decoded = c->i;
  *reached_end = false;
  switch (outcome) {
    case Outcome::kEnd:
      *reached_end = true;
      if (options.strict && !PaddingIsZero(block, block_size, c->pos)) {
        return Status::Corruption("nonzero padding");
      }
      return Status::OK();
    case Outcome::kAboveHi:
      return Status::OK();
    case Outcome::kInvalidCode:
      return Status::Corruption("invalid Huffman code at bit " + std::to_string(c->pos - kStreamStart));
    case Outcome::kOutOfOrder:
      return Status::Corruption("entry " + std::to_string(c->i) + " out of order");
    case Outcome::kContinue:
    case Outcome::kOverrun:
      break;
  }
  return Status::Corruption("bit stream overruns the block");
}

// Decodes the block from its head, calling keep(v) for every value until
// it returns false.
template <typename Keep>
Status Decode(const uint8_t* block, size_t block_size, uint64_t head, const BlockDecoder& decoder,
              const BlockReadOptions& options, bool* reached_end, uint64_t* decoded, Keep&& keep) {
  uint32_t count;
  Cursor c;
  Outcome outcome;
  *decoded = 0;
  *reached_end = false;
  SIMDEX_RETURN_IF_ERROR(StartBlock(block, block_size, head, &count, &c, &outcome, keep));
  if (outcome == Outcome::kContinue && !options.force_plain) {
    outcome = FastEntries(block, block_size, count, decoder.huffman().table(), &c, keep);
  }
  return FinishBlock(block, block_size, count, decoder, options, outcome, &c, reached_end, decoded, keep);
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

Status BlockDecoder::Init(const HuffmanCodeLengths& lengths) {
  return huffman_.Init(lengths, kSuffixBits.data());
}

Status VerifyBlockChecksum(const uint8_t* ptr, size_t block_size, uint64_t seed) {
  if (DecodeFixed32(ptr) != BlockChecksum(ptr, block_size, seed)) {
    return Status::Corruption("checksum mismatch");
  }
  return Status::OK();
}

Status DecodeBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                   const BlockDecoder& decoder, const BlockReadOptions& options,
                   std::vector<uint64_t>* out) {
  out->clear();
  SIMDEX_RETURN_IF_ERROR(CheckBlock(ptr, limit, block_size, options));
  bool reached_end;
  uint64_t decoded;
  return Decode(ptr, block_size, head, decoder, options, &reached_end, &decoded, [out](uint64_t v) {
    out->push_back(v);
    return true;
  });
}

Status ScanBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                 const BlockDecoder& decoder, uint64_t lo, uint64_t hi,
                 const BlockReadOptions& options, std::vector<uint64_t>* out, bool* reached_end,
                 BlockScanStats* stats) {
  assert(lo <= hi);
  SIMDEX_RETURN_IF_ERROR(CheckBlock(ptr, limit, block_size, options));
  const size_t before = out->size();
  uint64_t decoded = 0;
  const Status s = Decode(ptr, block_size, head, decoder, options, reached_end, &decoded, KeepInRange{lo, hi, out});
  if (stats != nullptr) {
    ++stats->blocks;
    stats->values_decoded += decoded;
    stats->values_in_range += out->size() - before;
  }
  return s;
}

void ScanBlocks(BlockScan* scans, size_t n, size_t block_size,
                const BlockReadOptions& options, BlockScanStats* stats) {
  // Per-block decoding state; at most kLanes blocks are interleaved at once.
  constexpr size_t kLanes = 32;
  struct Lane {
    BlockScan* scan;
    uint32_t count;
    Cursor cursor;
    Outcome outcome;
    size_t before;
    bool checked;  // passed CheckBlock: counted in stats, as ScanBlock does
  };
  for (size_t first = 0; first < n; first += kLanes) {
    const size_t m = std::min(kLanes, n - first);
    std::array<Lane, kLanes> lanes;
    size_t live = 0;
    for (size_t j = 0; j < m; ++j) {
      BlockScan& s = scans[first + j];
      assert(s.lo <= s.hi);
      BlockReadOptions o = options;
      o.seed = s.seed;
      s.reached_end = false;
      s.status = CheckBlock(s.ptr, s.limit, block_size, o);
      Lane& lane = lanes[j];
      lane.checked = s.status.ok();
      lane.scan = &s;
      lane.before = s.out->size();
      lane.cursor = Cursor{s.head, 0, kStreamStart};
      if (s.status.ok()) {
        s.status = StartBlock(s.ptr, block_size, s.head, &lane.count, &lane.cursor, &lane.outcome, KeepInRange{s.lo, s.hi, s.out});
      }
      if (!s.status.ok()) lane.outcome = Outcome::kAboveHi;  // nothing more to decode
      live += lane.outcome == Outcome::kContinue;
    }
    // The interleaved fast path: one entry of every live block per round.
    const size_t fast_end = FastEnd(block_size);
    while (live > 0 && !options.force_plain) {
      live = 0;
      for (size_t j = 0; j < m; ++j) {
        Lane& lane = lanes[j];
        if (lane.outcome != Outcome::kContinue) continue;
        BlockScan& s = *lane.scan;
        lane.outcome = FastStep(s.ptr, lane.count, fast_end, s.decoder->huffman().table(), &lane.cursor,
                                KeepInRange{s.lo, s.hi, s.out});
        live += lane.outcome == Outcome::kContinue;
      }
    }
    for (size_t j = 0; j < m; ++j) {
      Lane& lane = lanes[j];
      BlockScan& s = *lane.scan;
      uint64_t decoded = 0;
      if (s.status.ok()) {
        s.status = FinishBlock(s.ptr, block_size, lane.count, *s.decoder, options, lane.outcome, &lane.cursor,
                               &s.reached_end, &decoded, KeepInRange{s.lo, s.hi, s.out});
      }
      if (stats != nullptr && lane.checked) {
        ++stats->blocks;
        stats->values_decoded += decoded;
        stats->values_in_range += s.out->size() - lane.before;
      }
    }
  }
}

}  // namespace simdex::format
