// Decodes the blocks written by block_builder.cc (layout in block_builder.h).
#include "format/card/block_reader.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <string>
#include <utility>

#include "format/bit_reader.h"
#include "format/card/card_format.h"
#include "format/coding.h"
#include "format/prefetch.h"
#include "format/scan_keep.h"

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

// SymbolAction in the form QuickStep uses, v = (p & keep) | lead | (suffix
// & low) with keep = ~(lead | low), padded to 32 bytes: a quick-table entry
// holds n * 32, the byte offset of its symbol's action. Entry 65, for the
// bits that begin no quick entry, makes v the largest value, which no range
// scan passes over (v < lo fails).
struct QuickAction {
  uint64_t keep;
  uint64_t lead;
  uint64_t low;
  uint64_t unused;
};

constexpr int kNotQuick = kHuffmanSymbols;
constexpr std::array<QuickAction, kHuffmanSymbols + 1> MakeQuickActions() {
  std::array<QuickAction, kHuffmanSymbols + 1> a{};
  for (int n = 0; n < kHuffmanSymbols; ++n) {
    a[n] = {~(kActions[n].lead | kActions[n].low), kActions[n].lead, kActions[n].low, 0};
  }
  a[kNotQuick] = {0, ~uint64_t{0}, 0, 0};
  return a;
}
constexpr std::array<QuickAction, kHuffmanSymbols + 1> kQuickActions = MakeQuickActions();

inline const QuickAction& QuickActionAt(uint32_t offset) {
  return *reinterpret_cast<const QuickAction*>(reinterpret_cast<const char*>(kQuickActions.data()) + offset);
}

// The quick-table entry of the Huffman table's entry e (CardDecoder::quick_table).
constexpr uint32_t QuickEntry(const HuffmanDecoder::Entry& e) {
  const bool quick = e.length != 0 && e.length <= CardDecoder::kQuickBits && e.total_bits <= 57;
  return quick ? e.total_bits | (uint32_t{e.symbol} * sizeof(QuickAction)) << 8 : kNotQuick * sizeof(QuickAction) << 8;
}

constexpr std::array<uint8_t, kHuffmanSymbols> MakeSuffixBits() {
  std::array<uint8_t, kHuffmanSymbols> a{};
  for (int n = 0; n < kHuffmanSymbols; ++n) a[n] = static_cast<uint8_t>(SuffixBits(n));
  return a;
}
constexpr std::array<uint8_t, kHuffmanSymbols> kSuffixBits = MakeSuffixBits();

enum class Outcome { kContinue, kEnd, kAboveHi, kInvalidCode, kOutOfOrder, kOverrun, kBadRestart };

// One block being decoded: its bytes and the parameters every step needs.
struct BlockView {
  const uint8_t* data;
  size_t size;
  uint64_t head;
  uint32_t count;
  int restarts;  // restart points of the index (used when HasRestarts)
  const HuffmanDecoder::Entry* table;
  const uint32_t* quick;  // CardDecoder::quick_table
};

// Where decoding stands: the last value decoded, the index of the next
// entry and the bit position where it starts (from the start of the
// block), the next restart point r and its entry index (count when none
// is left), and the values decoded so far (the head and restart probes
// included).
struct Cursor {
  uint64_t p;
  uint32_t i;
  size_t pos;
  uint32_t next_r;
  uint32_t segment_end;
  uint32_t decoded;
};

// The index of the entry where the segment after restart r - 1 ends: the
// entry of restart r, or count.
inline uint32_t SegmentEnd(const BlockView& b, uint32_t r) {
  if (!HasRestarts(b.count, b.restarts) || r > static_cast<uint32_t>(b.restarts)) return b.count;
  return RestartIndex(static_cast<int>(r), b.count, b.restarts);
}

// The stream bit (from the start of the stream) recorded for restart r.
// The offset table ends within the first 42 bytes of any block, so the
// 8-byte load stays inside it.
inline size_t RestartOffset(const BlockView& b, uint32_t r) {
  const int w = RestartOffsetBits(b.size);
  return LoadBitsUnchecked(b.data, kStreamStart + (r - 1) * w) >> (64 - w);
}

// The first bit position whose entry might not lie well inside the block:
// before it, the word at pos reads bytes [pos/8, pos/8 + 8) and the one at
// pos2 <= pos + 11 bytes [pos2/8, pos2/8 + 9); both stay in the block while
// pos/8 + 11 <= block_size, so FastStep needs no bounds checks.
inline size_t FastEnd(size_t block_size) { return (block_size - 10) * 8; }

// Decodes entry c->i if it lies before the segment's end and fast_end.
// Returns kContinue after keep(v) accepted the value, kEnd at the end of
// the segment or the fast region, or why decoding stopped.
template <typename Keep>
inline Outcome FastStep(const BlockView& b, size_t fast_end, Cursor* c, Keep&& keep) {
  if (c->i >= c->segment_end || c->pos >= fast_end) return Outcome::kEnd;
  // w holds at least 57 valid bits from pos: the code, and usually the
  // whole suffix too.
  const size_t pos = c->pos;
  const uint64_t w = LoadBitsUnchecked(b.data, pos);
  // The quick table when it has the code (it stays in cache), else the
  // Huffman table.
  const uint32_t q = b.quick[w >> (64 - CardDecoder::kQuickBits)];
  HuffmanDecoder::Entry e;
  if ((q >> 8) != kNotQuick * sizeof(QuickAction)) [[likely]] {
    e.symbol = static_cast<uint8_t>((q >> 8) / sizeof(QuickAction));
    e.total_bits = static_cast<uint8_t>(q & 0xff);
    e.length = static_cast<uint8_t>(e.total_bits - kSuffixBits[e.symbol]);
  } else {
    e = b.table[w >> kPeekShift];
  }
  if (e.length == 0) [[unlikely]] {
    return Outcome::kInvalidCode;
  }
  const unsigned n = e.symbol;
  uint64_t rest = w << e.length;  // the suffix, left-aligned
  if (e.total_bits > 57) [[unlikely]] {
    const size_t pos2 = pos + e.length;
    rest = LoadBitsUnchecked(b.data, pos2) | (b.data[(pos2 >> 3) + 8] >> (8 - (pos2 & 7)));
  }
  const SymbolAction a = kActions[n];
  if ((c->p & a.lead) != 0) [[unlikely]] {
    return Outcome::kOutOfOrder;
  }
  c->pos = pos + e.total_bits;
  // The suffix is the top 63 - n bits of rest; a duplicate masks it away.
  c->p = (c->p & ~(a.lead | a.low)) | a.lead | (((rest >> 1) >> (n & 63)) & a.low);
  ++c->i;
  ++c->decoded;
  return keep(c->p) ? Outcome::kContinue : Outcome::kAboveHi;
}

// What QuickStep works on: a copy of a cursor's p, pos and i, with what
// a step reads (the block, its quick table, lo) and the index of the entry
// where it must stop.
struct QuickCursor {
  const uint8_t* data;
  const uint32_t* quick;
  uint64_t lo;
  uint64_t p;
  size_t pos;
  uint32_t i;
  uint32_t stop;
};

// The stop of a QuickCursor at c: the segment's end, or sooner the first
// entry that might start at or after fast_end (an entry QuickStep decodes
// spans at most 57 bits), so that QuickStep has one bound to check.
inline uint32_t QuickStop(const Cursor& c, size_t fast_end) {
  if (c.pos >= fast_end) return c.i;
  const size_t room = (fast_end - c.pos + 56) / 57;
  return static_cast<uint32_t>(std::min<size_t>(c.segment_end, c.i + room));
}

inline QuickCursor MakeQuick(const BlockView& b, const Cursor& c, uint64_t lo, size_t fast_end) {
  return QuickCursor{b.data, b.quick, lo, c.p, c.pos, c.i, QuickStop(c, fast_end)};
}

// Moves the cursor c to where q stands: the entries QuickStep decoded, all
// below lo.
inline void TakeQuick(const QuickCursor& q, Cursor* c) {
  c->decoded += q.i - c->i;
  c->p = q.p;
  c->pos = q.pos;
  c->i = q.i;
}

// The common case of FastStep, with few operations and one lookup in the
// small quick table: decodes entry q->i and commits it (to q->p, pos, i)
// only when it is an ordinary entry (before q->stop, a code in the quick
// table, in order) whose value is below lo, so that the caller has nothing
// to do with it. Otherwise it changes nothing and returns false, and the
// caller takes the entry through FastStep, which handles every case.
inline bool QuickStep(QuickCursor* q) {
  if (q->i >= q->stop) return false;
  const uint64_t w = LoadBitsUnchecked(q->data, q->pos);
  const uint32_t e = q->quick[w >> (64 - CardDecoder::kQuickBits)];
  const uint32_t total = e & 0xff;
  const QuickAction& a = QuickActionAt(e >> 8);
  // The suffix ends at the entry's last bit, bit total - 1 of w.
  const uint64_t v = (q->p & a.keep) | a.lead | ((w >> (-total & 63)) & a.low);
  if ((q->p & a.lead) != 0) [[unlikely]] {
    return false;
  }
  if (v >= q->lo) [[unlikely]] {
    return false;
  }
  q->p = v;
  q->pos += total;
  ++q->i;
  return true;
}

// QuickStep on q[0..N) in turn, one entry of each per round, until one of
// them refuses its entry; returns its index. Each block's decode is a
// serial chain (an entry's position depends on the previous entry's code):
// chains side by side, in registers, let the CPU overlap them.
template <size_t N, size_t... K>
inline size_t QuickRounds(QuickCursor* q, std::index_sequence<K...>) {
  std::array<QuickCursor, N> c{q[K]...};
  size_t refused = N;
  while (refused == N) {
    // In order, stopping at the first refusal.
    (void)((QuickStep(&c[K]) || (refused = K, false)) && ...);
  }
  ((q[K] = c[K]), ...);
  return refused;
}

// Blocks decoded side by side in ScanCardBlocks' fast path: two chains
// (three or four measured no faster; they spill registers).
constexpr size_t kSlots = 2;

// QuickRounds on the first n (1..kSlots) of q[].
inline size_t QuickSteps(size_t n, QuickCursor* q) {
  static_assert(kSlots == 2);
  if (n == 2) return QuickRounds<2>(q, std::make_index_sequence<2>());
  return QuickRounds<1>(q, std::make_index_sequence<1>());
}

// Decodes the restart entry that starts at stream bit `offset` (bounded
// reads) into *v and the bit position after it into *end.
inline Outcome DecodeRestart(const BlockView& b, size_t offset, uint64_t* v, size_t* end) {
  const size_t pos = kStreamStart + offset;
  if (pos < FastEnd(b.size)) {
    // Well inside the block (FastEnd): two word loads hold the entry's at
    // most 70 bits, as in FastStep.
    const int n = static_cast<int>(LoadBitsUnchecked(b.data, pos) >> (64 - kRestartSymbolBits));
    if (n > 64) return Outcome::kBadRestart;
    const size_t pos2 = pos + kRestartSymbolBits;
    const uint64_t rest = LoadBitsUnchecked(b.data, pos2) | (b.data[(pos2 >> 3) + 8] >> (8 - (pos2 & 7)));
    const SymbolAction a = kActions[n];
    if ((b.head & a.lead) != 0) return Outcome::kOutOfOrder;
    *v = (b.head & ~(a.lead | a.low)) | a.lead | (((rest >> 1) >> (n & 63)) & a.low);
    *end = pos2 + SuffixBits(n);
    return Outcome::kContinue;
  }
  BitReader reader(b.data, b.data + b.size);
  reader.Skip(kStreamStart + offset);
  const int n = static_cast<int>(reader.Read(kRestartSymbolBits));
  if (n > 64) return Outcome::kBadRestart;
  const SymbolAction a = kActions[n];
  const uint64_t suffix = reader.Read(SuffixBits(n));
  if (reader.overflowed()) return Outcome::kOverrun;
  if ((b.head & a.lead) != 0) return Outcome::kOutOfOrder;
  *v = (b.head & ~(a.lead | a.low)) | a.lead | suffix;
  *end = reader.bit_position();
  return Outcome::kContinue;
}

// Decodes restart entry c->i (c->i == c->segment_end < count), which must
// start where the previous entry ended.
template <typename Keep>
Outcome CrossRestart(const BlockView& b, Cursor* c, Keep&& keep) {
  if (RestartOffset(b, c->next_r) + kStreamStart != c->pos) return Outcome::kBadRestart;
  uint64_t v;
  size_t end;
  const Outcome o = DecodeRestart(b, c->pos - kStreamStart, &v, &end);
  if (o != Outcome::kContinue) return o;
  if (v < c->p) return Outcome::kOutOfOrder;
  c->p = v;
  c->pos = end;
  ++c->i;
  ++c->decoded;
  c->segment_end = SegmentEnd(b, ++c->next_r);
  return keep(v) ? Outcome::kContinue : Outcome::kAboveHi;
}

// Moves the cursor (standing at the head) to just after the last restart
// point whose value is below lo, when there is one: every value before it
// is below lo too, so a range scan may skip them. The search starts at
// restart `guess` (clamped to 1..R) and walks up or down from there.
inline Outcome SeekRestart(const BlockView& b, uint64_t lo, int guess, Cursor* c) {
  if (!HasRestarts(b.count, b.restarts)) return Outcome::kContinue;
  const int last = b.restarts;
  int r = std::clamp(guess, 1, last);
  uint64_t v = 0;
  size_t end = 0;
  // best: the last restart known to be below lo (0: none yet), and its value and end.
  int best = 0;
  uint64_t best_v = 0;
  size_t best_end = 0;
  int step = 0;  // +1 walking up, -1 walking down
  while (r >= 1 && r <= last) {
    const Outcome o = DecodeRestart(b, RestartOffset(b, static_cast<uint32_t>(r)), &v, &end);
    if (o != Outcome::kContinue) return o;
    ++c->decoded;
    if (v < lo) {
      best = r;
      best_v = v;
      best_end = end;
      if (step < 0) break;  // walking down: the first one below lo is the last
      step = 1;
    } else {
      if (step > 0) break;  // walking up: r is the first at or above lo
      step = -1;
    }
    r += step;
  }
  if (best > 0) {
    c->p = best_v;
    c->pos = best_end;
    c->i = RestartIndex(best, b.count, b.restarts) + 1;
    c->next_r = static_cast<uint32_t>(best) + 1;
    c->segment_end = SegmentEnd(b, c->next_r);
  }
  return Outcome::kContinue;
}

// FastStep, and at the end of a segment the restart entry that begins the
// next one.
template <typename Keep>
inline Outcome FastStepAcross(const BlockView& b, size_t fast_end, Cursor* c, Keep&& keep) {
  const Outcome outcome = FastStep(b, fast_end, c, keep);
  if (outcome == Outcome::kEnd && c->i == c->segment_end && c->i < b.count) return CrossRestart(b, c, keep);
  return outcome;
}

// Decodes entries through the fast path until it stops. Values below lo
// may be stepped over by QuickStep without a call to keep() (lo = 0: none).
template <typename Keep>
inline Outcome FastEntries(const BlockView& b, uint64_t lo, Cursor* c, Keep&& keep) {
  const size_t fast_end = FastEnd(b.size);
  Cursor local = *c;  // in registers for the loop
  Outcome outcome;
  do {
    QuickCursor q = MakeQuick(b, local, lo, fast_end);
    while (QuickStep(&q)) {
    }
    TakeQuick(q, &local);
  } while ((outcome = FastStepAcross(b, fast_end, &local, keep)) == Outcome::kContinue);
  *c = local;
  return outcome;
}

// Decodes entries c->i.. through the bounded BitReader, to the end.
template <typename Keep>
Outcome PlainEntries(const BlockView& b, bool force_plain, Cursor* c, Keep&& keep) {
  BitReader reader(b.data, b.data + b.size, force_plain);
  reader.Skip(c->pos);
  while (c->i < b.count) {
    if (c->i == c->segment_end) {
      const Outcome o = CrossRestart(b, c, keep);
      if (o != Outcome::kContinue) return o;
      reader.Skip(c->pos - reader.bit_position());  // past the restart entry
      continue;
    }
    const HuffmanDecoder::Entry e = b.table[reader.Peek(HuffmanDecoder::kTableBits)];
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
    ++c->decoded;
    if (!keep(c->p)) return Outcome::kAboveHi;
  }
  return Outcome::kEnd;
}

// True when every restart offset field is zero (a block too small for its
// restart points must leave them so).
bool RestartTableIsZero(const BlockView& b) {
  for (uint32_t r = 1; r <= static_cast<uint32_t>(b.restarts); ++r) {
    if (RestartOffset(b, r) != 0) return false;
  }
  return true;
}

// Checks the count and starts decoding at the head: the cursor stands after
// it. Returns kContinue, or kAboveHi when the head is above the range.
template <typename Keep>
Status StartBlock(BlockView* b, Cursor* c, Outcome* outcome, Keep&& keep) {
  b->count = DecodeFixed16(b->data + 4);
  const size_t stream_bits = (b->size - kBlockHeaderSize) * 8 - RestartTableBits(b->size, b->restarts);
  if (b->count == 0 || b->count - 1 > stream_bits) {
    return Status::Corruption("bad entry count " + std::to_string(b->count));
  }
  *c = Cursor{b->head, 1, kStreamStart + RestartTableBits(b->size, b->restarts), 1, SegmentEnd(*b, 1), 1};
  *outcome = keep(b->head) ? Outcome::kContinue : Outcome::kAboveHi;
  return Status::OK();
}

// Decodes what the fast path left (through the bounded reader) and turns
// the outcome into a status. Sets *reached_end, *decoded (values decoded,
// the head and restart probes included) and *end_index: the entry index
// (0: the head) of the first value keep() refused, or the count when it
// refused none. Every entry before it is at most the range's top; those
// keep() did not see lie below its lo.
template <typename Keep>
Status FinishBlock(const BlockView& b, const BlockReadOptions& options, Outcome outcome, Cursor* c,
                   bool* reached_end, uint64_t* decoded, uint32_t* end_index, Keep&& keep) {
  if (outcome == Outcome::kEnd || outcome == Outcome::kContinue) {
    outcome = PlainEntries(b, options.force_plain, c, keep);
  }
  *decoded = c->decoded;
  // Stopped early, the cursor has passed the refused value.
  *end_index = outcome == Outcome::kEnd ? c->i : c->i - 1;
  *reached_end = false;
  switch (outcome) {
    case Outcome::kEnd:
      *reached_end = true;
      if (options.strict && !PaddingIsZero(b.data, b.size, c->pos)) {
        return Status::Corruption("nonzero padding");
      }
      if (options.strict && !HasRestarts(b.count, b.restarts) && !RestartTableIsZero(b)) {
        return Status::Corruption("nonzero restart offsets in a block without restart points");
      }
      return Status::OK();
    case Outcome::kAboveHi:
      return Status::OK();
    case Outcome::kInvalidCode:
      return Status::Corruption("invalid Huffman code at bit " + std::to_string(c->pos - kStreamStart));
    case Outcome::kOutOfOrder:
      return Status::Corruption("entry " + std::to_string(c->i) + " out of order");
    case Outcome::kBadRestart:
      return Status::Corruption("bad restart point " + std::to_string(c->next_r) + " (entry " +
                                std::to_string(c->i) + ")");
    case Outcome::kContinue:
    case Outcome::kOverrun:
      break;
  }
  return Status::Corruption("bit stream overruns the block");
}

BlockView MakeView(const uint8_t* block, size_t block_size, uint64_t head, const CardDecoder& decoder) {
  return BlockView{block, block_size, head, 0, decoder.restarts(), decoder.huffman().table(), decoder.quick_table()};
}

// Decodes the block, calling keep(v) for its values until it returns
// false: from the head, or when seek_guess >= 0, from the last restart point
// below lo, searched from restart seek_guess. Values below lo may be passed
// over without a call to keep() (with lo = 0 every value gets one).
// *end_index is as FinishBlock's.
template <typename Keep>
Status Decode(const uint8_t* block, size_t block_size, uint64_t head, const CardDecoder& decoder,
              const BlockReadOptions& options, int seek_guess, uint64_t lo, bool* reached_end, uint64_t* decoded,
              uint32_t* end_index, Keep&& keep) {
  BlockView b = MakeView(block, block_size, head, decoder);
  Cursor c;
  Outcome outcome;
  *decoded = 0;
  *reached_end = false;
  SIMDEX_RETURN_IF_ERROR(StartBlock(&b, &c, &outcome, keep));
  if (outcome == Outcome::kContinue && seek_guess >= 0) outcome = SeekRestart(b, lo, seek_guess, &c);
  if (outcome == Outcome::kContinue && !options.force_plain) outcome = FastEntries(b, lo, &c, keep);
  return FinishBlock(b, options, outcome, &c, reached_end, decoded, end_index, keep);
}

}  // namespace

CardDecoder::CardDecoder() { quick_.fill(QuickEntry(HuffmanDecoder::Entry{})); }

Status CardDecoder::Init(const HuffmanCodeLengths& lengths, int restarts) {
  if (!IsValidRestarts(restarts)) {
    return Status::Corruption("bad restart point count " + std::to_string(restarts));
  }
  restarts_ = restarts;
  quick_.fill(QuickEntry(HuffmanDecoder::Entry{}));
  SIMDEX_RETURN_IF_ERROR(huffman_.Init(lengths, kSuffixBits.data()));
  constexpr int kSpread = HuffmanDecoder::kTableBits - kQuickBits;
  for (uint32_t x = 0; x < quick_.size(); ++x) quick_[x] = QuickEntry(huffman_.Lookup(x << kSpread));
  return Status::OK();
}

Status DecodeBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                   const CardDecoder& decoder, const BlockReadOptions& options,
                   std::vector<uint64_t>* out) {
  out->clear();
  SIMDEX_RETURN_IF_ERROR(CheckBlockFrame(ptr, limit, block_size, options));
  bool reached_end;
  uint64_t decoded;
  uint32_t end_index;
  return Decode(ptr, block_size, head, decoder, options, /*seek_guess=*/-1, 0, &reached_end, &decoded, &end_index,
                [out](uint64_t v) {
    out->push_back(v);
    return true;
  });
}

Status ScanBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                 const CardDecoder& decoder, uint64_t lo, uint64_t hi,
                 const BlockReadOptions& options, std::vector<uint64_t>* out, bool* reached_end,
                 BlockScanStats* stats) {
  assert(lo <= hi);
  SIMDEX_RETURN_IF_ERROR(CheckBlockFrame(ptr, limit, block_size, options));
  const size_t before = out->size();
  uint64_t decoded = 0;
  uint32_t end_index = 0;
  const Status s = Decode(ptr, block_size, head, decoder, options, /*seek_guess=*/decoder.restarts(), lo, reached_end,
                          &decoded, &end_index, KeepInRange{lo, hi, out});
  CountScan(stats, decoded, out->size() - before);
  return s;
}

Status CountInBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                    const CardDecoder& decoder, uint64_t v, int restart_guess, const BlockReadOptions& options,
                    uint64_t* below, uint64_t* equal, bool* reached_end, BlockScanStats* stats) {
  SIMDEX_RETURN_IF_ERROR(CheckBlockFrame(ptr, limit, block_size, options));
  uint64_t decoded = 0;
  uint32_t end_index = 0;
  uint64_t n_equal = 0;
  const Status s = Decode(ptr, block_size, head, decoder, options, std::max(restart_guess, 0), v, reached_end,
                          &decoded, &end_index, CountEqual{v, &n_equal});
  // The entries before end_index are at most v; every one equal to v was
  // seen by keep() (the decode passes over values below v only).
  *below = end_index - n_equal;
  *equal = n_equal;
  CountScan(stats, decoded, n_equal);
  return s;
}

void ScanCardBlocks(BlockScan* scans, size_t n, size_t block_size, const BlockReadOptions& options,
                    BlockScanStats* stats) {
  // Per-block decoding state for up to kLanes blocks at once.
  constexpr size_t kLanes = 32;
  struct Lane {
    BlockScan* scan;
    BlockView view;
    Cursor cursor;
    Outcome outcome;
    size_t before;
    bool checked;  // passed CheckBlockFrame: counted in stats, as ScanBlock does
  };
  for (size_t first = 0; first < n; first += kLanes) {
    const size_t m = std::min(kLanes, n - first);
    std::array<Lane, kLanes> lanes;
    for (size_t j = 0; j < m; ++j) {
      BlockScan& s = scans[first + j];
      assert(s.lo <= s.hi);
      BlockReadOptions o = options;
      o.seed = s.seed;
      o.verified = s.verified;
      o.block = s.block;
      s.reached_end = false;
      s.status = CheckBlockFrame(s.ptr, s.limit, block_size, o);
      Lane& lane = lanes[j];
      lane.checked = s.status.ok();
      lane.scan = &s;
      lane.before = s.out->size();
      lane.view = MakeView(s.ptr, block_size, s.head, static_cast<const CardDecoder&>(*s.decoder));
      lane.cursor = Cursor{s.head, 0, kStreamStart, 1, 0, 0};
      lane.outcome = Outcome::kAboveHi;  // nothing to decode unless the block starts
      if (s.status.ok()) {
        s.status = StartBlock(&lane.view, &lane.cursor, &lane.outcome, KeepInRange{s.lo, s.hi, s.out});
      }
      if (s.status.ok() && lane.outcome == Outcome::kContinue) {
        lane.outcome = SeekRestart(lane.view, s.lo, s.restart_guess, &lane.cursor);
      }
    }
    // The interleaved fast path: kSlots blocks at a time, their QuickCursors
    // in registers, one entry of each per round. A block whose entry
    // QuickStep refuses takes it through FastStepAcross on its lane's cursor;
    // one that stops leaves its slot to the next live block.
    const size_t fast_end = FastEnd(block_size);
    std::array<QuickCursor, kSlots> slot;
    std::array<size_t, kSlots> slot_lane;
    size_t next = 0;  // the next lane to give a slot
    size_t active = 0;
    const auto start_next = [&](size_t k) {
      while (next < m && lanes[next].outcome != Outcome::kContinue) ++next;
      if (next == m) return false;
      const Lane& lane = lanes[next];
      slot[k] = MakeQuick(lane.view, lane.cursor, lane.scan->lo, fast_end);
      slot_lane[k] = next++;
      return true;
    };
    if (!options.force_plain) {
      while (active < kSlots && start_next(active)) ++active;
    }
    while (active > 0) {
      const size_t k = QuickSteps(active, slot.data());
      Lane& lane = lanes[slot_lane[k]];
      TakeQuick(slot[k], &lane.cursor);
      const BlockScan& s = *lane.scan;
      lane.outcome = FastStepAcross(lane.view, fast_end, &lane.cursor, KeepInRange{s.lo, s.hi, s.out});
      if (lane.outcome == Outcome::kContinue) {
        slot[k] = MakeQuick(lane.view, lane.cursor, s.lo, fast_end);
      } else if (!start_next(k)) {
        // The last active slot takes this one's place.
        --active;
        slot[k] = slot[active];
        slot_lane[k] = slot_lane[active];
      }
    }
    for (size_t j = 0; j < m; ++j) {
      Lane& lane = lanes[j];
      BlockScan& s = *lane.scan;
      uint64_t decoded = 0;
      if (s.status.ok()) {
        s.status = FinishBlock(lane.view, options, lane.outcome, &lane.cursor, &s.reached_end, &decoded,
                               &s.end_index, KeepInRange{s.lo, s.hi, s.out});
      }
      if (lane.checked) CountScan(stats, decoded, s.out->size() - lane.before);
    }
  }
}

Status CardDecoder::DecodeBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                                const BlockReadOptions& options, std::vector<uint64_t>* out) const {
  return format::DecodeBlock(ptr, limit, block_size, head, *this, options, out);
}

void CardDecoder::ScanBlocks(BlockScan* scans, size_t n, size_t block_size, const BlockReadOptions& options,
                             BlockScanStats* stats) const {
  ScanCardBlocks(scans, n, block_size, options, stats);
}

Status CardDecoder::CountInBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                                 uint64_t v, int restart_guess, const BlockReadOptions& options, uint64_t* below,
                                 uint64_t* equal, bool* reached_end, BlockScanStats* stats) const {
  return format::CountInBlock(ptr, limit, block_size, head, *this, v, restart_guess, options, below, equal,
                              reached_end, stats);
}

int CardDecoder::PrefetchScan(const uint8_t* block, size_t block_size, double fraction) const {
  const int guess = std::min(restarts_, static_cast<int>(fraction * (restarts_ + 1)));
  const size_t segment = block_size / (restarts_ + 1);
  const size_t from = static_cast<size_t>(guess) * segment;
  const size_t to = std::min<size_t>(block_size, static_cast<size_t>(fraction * block_size) + 64);
  PrefetchLine(block);
  for (size_t off = from & ~size_t{63}; off < to; off += 64) PrefetchLine(block + off);
  if (guess < restarts_) PrefetchLine(block + (guess + 1) * segment);
  return guess;
}

}  // namespace simdex::format
