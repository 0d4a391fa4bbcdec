// Decodes the blocks written by ef_block_builder.cc (layout in ef_format.h).
#include "format/ef/ef_block_reader.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cassert>
#include <string>

#include "format/bit_reader.h"
#include "format/coding.h"
#include "format/prefetch.h"
#include "format/scan_keep.h"

namespace simdex::format {

namespace {

constexpr size_t kNone = ~size_t{0};

// Reads the n bits (0..64) at bit pos of the block. REQUIRES: pos + n <=
// 8 * size.
inline uint64_t ReadBits(const uint8_t* data, size_t size, size_t pos, int n) {
  if (n == 0) return 0;
  const size_t byte = pos >> 3;
  const unsigned shift = pos & 7;
  uint64_t w;
  if (byte + 8 <= size) [[likely]] {
    w = LoadBitsUnchecked(data, pos);
    // More than the 64 - shift bits of the load: the ninth byte, which
    // pos + n <= 8 * size puts inside the block.
    if (static_cast<unsigned>(n) + shift > 64) w |= data[byte + 8] >> (8 - shift);
  } else {
    w = 0;
    for (size_t i = 0; i < 8; ++i) w = (w << 8) | (byte + i < size ? data[byte + i] : 0u);
    w <<= shift;
  }
  return w >> (64 - n);
}

// The position (0..63, from the top) of the k-th one bit of y, counted
// from the top. REQUIRES: 1 <= k <= popcount(y).
inline int SelectFromTop(uint64_t y, uint32_t k) {
  // Halves of 32, 16, ... bits: skip the top one when it holds fewer than
  // k ones (branch-free: which half it is depends on the data).
  int pos = 0;
  for (int s = 32; s > 0; s >>= 1) {
    const uint32_t c = static_cast<uint32_t>(std::popcount(y >> (64 - s)));
    const bool skip = c < k;
    k -= skip ? c : 0;
    y = skip ? y << s : y;
    pos += skip ? s : 0;
  }
  return pos;
}

// One block being read: its bytes, head and layout. Positions in the upper
// bits count from their start.
struct Block {
  const uint8_t* data;
  size_t size;
  uint64_t head;
  EfLayout layout;

  // The upper bits from position p on, left-aligned: *valid of them (at
  // least 1 when p is inside), the bits after them zero.
  uint64_t UpperWindow(size_t p, size_t* valid) const {
    const size_t at = layout.upper_start + p;
    const size_t byte = at >> 3;
    uint64_t w;
    size_t v = 64 - (at & 7);
    if (byte + 8 <= size) [[likely]] {
      w = LoadBitsUnchecked(data, at);
    } else {
      w = 0;
      for (size_t i = 0; i < 8; ++i) w = (w << 8) | (byte + i < size ? data[byte + i] : 0u);
      w <<= at & 7;
    }
    const size_t left = layout.upper_bits - p;
    if (left < v) {
      v = left;
      w = v == 0 ? 0 : w & (~uint64_t{0} << (64 - v));
    }
    *valid = v;
    return w;
  }

  // The position of the first one at or after p, or kNone.
  size_t NextOne(size_t p) const {
    while (p < layout.upper_bits) {
      size_t valid;
      const uint64_t w = UpperWindow(p, &valid);
      if (w != 0) return p + static_cast<size_t>(std::countl_zero(w));
      p += valid;
    }
    return kNone;
  }

  // The position just after the k-th zero at or after p, or kNone.
  // REQUIRES: k >= 1.
  size_t AfterZeros(size_t p, uint64_t k) const {
    while (p < layout.upper_bits) {
      size_t valid;
      const uint64_t w = UpperWindow(p, &valid);
      const uint64_t zeros = valid - static_cast<uint64_t>(std::popcount(w));
      if (zeros >= k) {
        const uint64_t z = ~w & (~uint64_t{0} << (64 - valid));
        return p + static_cast<size_t>(SelectFromTop(z, static_cast<uint32_t>(k))) + 1;
      }
      k -= zeros;
      p += valid;
    }
    return kNone;
  }

  // The low bits of entry i (1..count-1).
  uint64_t Low(uint32_t i) const {
    return ReadBits(data, size, layout.lower_start + size_t{i - 1} * layout.low_width, layout.low_width);
  }

  // The start of select sample j (1..M) in the upper bits.
  size_t Sample(uint32_t j) const {
    const int w = EfFieldBits(size);
    return ReadBits(data, size, layout.samples_start + size_t{j - 1} * w, w);
  }
};

enum class Outcome { kEnd, kAboveHi, kOutOfOrder, kOverflow, kEarlyEnd, kLongUpper, kBadSample };

// Checks the count and the fields and lays the block out.
Status OpenBlock(const uint8_t* ptr, size_t block_size, uint64_t head, Block* b) {
  b->data = ptr;
  b->size = block_size;
  b->head = head;
  const uint32_t count = DecodeFixed16(ptr + 4);
  if (count == 0) return Status::Corruption("bad entry count 0");
  const int w = EfFieldBits(block_size);
  const uint64_t fields = ReadBits(ptr, block_size, EfLayout::kStreamStart, kEfLowWidthBits + w);
  const int low_width = static_cast<int>(fields >> w);
  const uint32_t zeros = static_cast<uint32_t>(fields & ((uint64_t{1} << w) - 1));
  if (count == 1 && zeros != 0) return Status::Corruption("bucket " + std::to_string(zeros) + " without entries");
  b->layout = EfLayout::For(block_size, count, low_width, zeros);
  if (b->layout.end > block_size * 8) {
    return Status::Corruption("the bit stream (" + std::to_string(b->layout.end - EfLayout::kStreamStart) +
                              " bits) overruns the block");
  }
  return Status::OK();
}

// Where decoding stands: entry i (1..count; count when none is left) and
// the position of its one in the upper bits, and the last value decoded.
struct Cursor {
  uint32_t i;
  size_t p;
  uint64_t prev;
  uint64_t decoded;  // values decoded, the head included
};

// Moves the cursor to entry 1 (the first after the head).
inline Outcome StartAtFirst(const Block& b, Cursor* c) {
  c->i = 1;
  c->p = 0;
  if (b.layout.count == 1) return Outcome::kEnd;
  c->p = b.NextOne(0);
  return c->p == kNone ? Outcome::kEarlyEnd : Outcome::kEnd;
}

// Moves the cursor to the first entry whose value is >= lo (c->i = count
// when there is none). REQUIRES: lo > head.
inline Outcome Seek(const Block& b, uint64_t lo, Cursor* c) {
  const EfLayout& l = b.layout;
  const uint64_t d = lo - b.head;
  const uint64_t bucket = d >> l.low_width;
  if (bucket > l.zeros || l.count == 1) {
    c->i = l.count;  // every value lies below lo
    return Outcome::kEnd;
  }
  // The start of bucket `bucket`: after that many zeros, from the sample
  // before it.
  const uint32_t j = std::min(static_cast<uint32_t>(bucket / kEfSampleSpacing), l.samples);
  size_t p = j == 0 ? 0 : b.Sample(j);
  if (p > l.upper_bits) return Outcome::kBadSample;
  const uint64_t more = bucket - uint64_t{j} * kEfSampleSpacing;
  if (more > 0) p = b.AfterZeros(p, more);
  if (p == kNone) return Outcome::kEarlyEnd;
  // p - bucket ones lie before p: the entries of lower buckets.
  if (p < bucket || p - bucket > l.count - 1) return Outcome::kBadSample;
  c->i = static_cast<uint32_t>(p - bucket) + 1;
  c->p = p;
  // The bucket's entries (its ones from p on) below lo's low bits.
  const uint64_t low_lo = l.low_width == 0 ? 0 : d & ((uint64_t{1} << l.low_width) - 1);
  while (c->i < l.count) {
    size_t valid;
    const uint64_t w = b.UpperWindow(c->p, &valid);
    if ((w >> 63) == 0) {
      // The bucket ends: the next entry lies in a higher one, above lo.
      c->p = b.NextOne(c->p);
      return c->p == kNone ? Outcome::kEarlyEnd : Outcome::kEnd;
    }
    if (b.Low(c->i) >= low_lo) return Outcome::kEnd;
    ++c->decoded;  // an entry below lo
    ++c->i;
    ++c->p;
  }
  // Every entry lies below lo, the bucket's last one closing the upper bits.
  return c->p == l.upper_bits ? Outcome::kEnd : Outcome::kLongUpper;
}

// Decodes entries from the cursor on, calling keep(v) until it returns
// false (kAboveHi) or the block ends (kEnd). Checks that each value is at
// least the one before (c->prev). The upper bits are read a window at a
// time (about twenty entries' ones), the low bits one after the other; the
// loop keeps its state in locals, since keep() writes memory the compiler
// cannot tell from the block's fields.
template <typename Keep>
inline Outcome Entries(const Block& b, Cursor* c, Keep&& keep) {
  const uint32_t count = b.layout.count;
  const int l = b.layout.low_width;
  const uint64_t head = b.head;
  const uint8_t* const data = b.data;
  // Buckets below this one give values well within 2^64 (a bucket at or
  // above it is checked in full).
  const uint64_t safe_bucket = ~head >> l;
  // Low bits at a bit below this are one word load (inside the block,
  // within the load's 57 sure bits).
  const size_t fast_low_end = l <= 57 && b.size >= 8 ? (b.size - 8) * 8 : 0;
  const uint32_t first = c->i;
  uint32_t i = c->i;
  size_t p = c->p;
  size_t low_at = b.layout.lower_start + size_t{i - 1} * l;
  uint64_t prev = c->prev;
  // The upper bits from p on: `rest` holds `avail` of them, left-aligned
  // (its top bit is entry i's one).
  size_t avail;
  uint64_t rest = b.UpperWindow(p, &avail);
  Outcome outcome = Outcome::kEnd;
  while (i < count) {
    const uint64_t bucket = p - (i - 1);
    uint64_t low = 0;
    if (low_at < fast_low_end) [[likely]] {
      if (l > 0) low = LoadBitsUnchecked(data, low_at) >> (64 - l);
    } else {
      low = ReadBits(data, b.size, low_at, l);
    }
    if (bucket >= safe_bucket) [[unlikely]] {
      if (bucket > (~uint64_t{0} >> l) || ((bucket << l) | low) > ~head) {
        outcome = Outcome::kOverflow;
        break;
      }
    }
    const uint64_t v = head + ((bucket << l) | low);
    if (v < prev) [[unlikely]] {
      outcome = Outcome::kOutOfOrder;
      break;
    }
    if (!keep(v)) {
      outcome = Outcome::kAboveHi;
      break;
    }
    prev = v;
    low_at += l;
    if (++i == count) {
      // The last entry's one closes the upper bits: they hold Z zeros.
      outcome = p + 1 == b.layout.upper_bits ? Outcome::kEnd : Outcome::kLongUpper;
      break;
    }
    // The next one after p.
    rest <<= 1;
    --avail;
    ++p;
    while (rest == 0) {
      p += avail;
      if (p >= b.layout.upper_bits) [[unlikely]] {
        outcome = Outcome::kEarlyEnd;
        break;
      }
      rest = b.UpperWindow(p, &avail);
    }
    if (outcome == Outcome::kEarlyEnd) break;
    const int skip = std::countl_zero(rest);
    rest <<= skip;
    avail -= static_cast<size_t>(skip);
    p += static_cast<size_t>(skip);
  }
  c->decoded += i - first + (outcome == Outcome::kAboveHi ? 1 : 0);  // the refused value was decoded
  c->i = i;
  c->p = p;
  c->prev = prev;
  return outcome;
}

// Turns an outcome into a status; at the end of the block, when strict,
// checks the padding.
Status Finish(const Block& b, const BlockReadOptions& options, Outcome o, const Cursor& c) {
  switch (o) {
    case Outcome::kEnd:
      if (options.strict && !PaddingIsZero(b.data, b.size, b.layout.end)) return Status::Corruption("nonzero padding");
      return Status::OK();
    case Outcome::kAboveHi:
      return Status::OK();
    case Outcome::kOutOfOrder:
      return Status::Corruption("entry " + std::to_string(c.i) + " out of order");
    case Outcome::kOverflow:
      return Status::Corruption("entry " + std::to_string(c.i) + " passes 2^64 - 1");
    case Outcome::kEarlyEnd:
      return Status::Corruption("the upper bits end early");
    case Outcome::kLongUpper:
      return Status::Corruption("the upper bits go on after the last entry");
    case Outcome::kBadSample:
      break;
  }
  return Status::Corruption("bad select sample");
}

// Runs keep() over the block's values from the first >= lo (lo = 0: from
// the head); values below lo are not passed to it. Sets *end_index to the
// entry index of the first value keep() refused, or count.
template <typename Keep>
Status Run(const Block& b, const BlockReadOptions& options, uint64_t lo, uint32_t* end_index, bool* reached_end,
           uint64_t* decoded, Keep&& keep) {
  Cursor c{1, 0, b.head, 1};
  Outcome o;
  *reached_end = false;
  if (lo <= b.head) {
    if (!keep(b.head)) {
      *end_index = 0;
      *decoded = 1;
      return Status::OK();
    }
    o = StartAtFirst(b, &c);
  } else {
    o = Seek(b, lo, &c);
  }
  if (o == Outcome::kEnd) o = Entries(b, &c, keep);
  *decoded = c.decoded;
  *end_index = c.i;
  *reached_end = o == Outcome::kEnd;
  return Finish(b, options, o, c);
}

// The samples of a block whose values (head first) are `values`: sample j
// must be where bucket j * S starts, after j * S zeros and the ones of the
// entries in lower buckets.
Status CheckSamples(const Block& b, const std::vector<uint64_t>& values) {
  const EfLayout& l = b.layout;
  size_t below = 1;  // entries 1.. in buckets below the target
  for (uint32_t j = 1; j <= l.samples; ++j) {
    const uint64_t target = uint64_t{j} * kEfSampleSpacing;
    while (below < values.size() && ((values[below] - b.head) >> l.low_width) < target) ++below;
    if (b.Sample(j) != target + below - 1) return Status::Corruption("bad select sample " + std::to_string(j));
  }
  return Status::OK();
}

// EfScanBlock, also giving the end index (BlockScan::end_index).
Status Scan(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head, uint64_t lo, uint64_t hi,
            const BlockReadOptions& options, std::vector<uint64_t>* out, bool* reached_end, uint32_t* end_index,
            BlockScanStats* stats) {
  assert(lo <= hi);
  *reached_end = false;
  *end_index = 0;
  SIMDEX_RETURN_IF_ERROR(CheckBlockFrame(ptr, limit, block_size, options));
  const size_t before = out->size();
  Block b;
  uint64_t decoded = 0;
  Status s = OpenBlock(ptr, block_size, head, &b);
  if (s.ok()) {
    s = Run(b, options, lo, end_index, reached_end, &decoded, KeepInRange{lo, hi, out});
  }
  CountScan(stats, decoded, out->size() - before);
  return s;
}

}  // namespace

Status EfScanBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head, uint64_t lo,
                   uint64_t hi, const BlockReadOptions& options, std::vector<uint64_t>* out, bool* reached_end,
                   BlockScanStats* stats) {
  uint32_t end_index;
  return Scan(ptr, limit, block_size, head, lo, hi, options, out, reached_end, &end_index, stats);
}

Status EfDecoder::DecodeBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                              const BlockReadOptions& options, std::vector<uint64_t>* out) const {
  out->clear();
  SIMDEX_RETURN_IF_ERROR(CheckBlockFrame(ptr, limit, block_size, options));
  Block b;
  SIMDEX_RETURN_IF_ERROR(OpenBlock(ptr, block_size, head, &b));
  out->reserve(b.layout.count);
  uint32_t end_index;
  bool reached_end;
  uint64_t decoded;
  SIMDEX_RETURN_IF_ERROR(Run(b, options, 0, &end_index, &reached_end, &decoded, [out](uint64_t v) {
    out->push_back(v);
    return true;
  }));
  return CheckSamples(b, *out);
}

void EfDecoder::ScanBlocks(BlockScan* scans, size_t n, size_t block_size, const BlockReadOptions& options,
                           BlockScanStats* stats) const {
  for (size_t j = 0; j < n; ++j) {
    BlockScan& s = scans[j];
    BlockReadOptions o = options;
    o.seed = s.seed;
    o.verified = s.verified;
    o.block = s.block;
    s.status = Scan(s.ptr, s.limit, block_size, s.head, s.lo, s.hi, o, s.out, &s.reached_end, &s.end_index, stats);
  }
}

Status EfDecoder::CountInBlock(const uint8_t* ptr, const uint8_t* limit, size_t block_size, uint64_t head,
                               uint64_t v, int restart_guess, const BlockReadOptions& options, uint64_t* below,
                               uint64_t* equal, bool* reached_end, BlockScanStats* stats) const {
  *below = 0;
  *equal = 0;
  *reached_end = false;
  SIMDEX_RETURN_IF_ERROR(CheckBlockFrame(ptr, limit, block_size, options));
  Block b;
  uint64_t decoded = 0;
  uint32_t end_index = 0;
  uint64_t n_equal = 0;
  Status s = OpenBlock(ptr, block_size, head, &b);
  if (s.ok()) {
    s = Run(b, options, v, &end_index, reached_end, &decoded, CountEqual{v, &n_equal});
  }
  // keep() saw every value from the first >= v on: the entries before
  // end_index are at most v, those it counted equal to it.
  *below = end_index - n_equal;
  *equal = n_equal;
  CountScan(stats, decoded, n_equal);
  return s;
}

int EfDecoder::PrefetchScan(const uint8_t* block, size_t block_size, double fraction) const {
  // Where a full block of the table's usual shape (its usual L, and
  // zeros_per_value zeros in the upper bits per value) keeps the value at
  // `fraction`: its sample, its one in the upper bits (and the line
  // before, where the count from the sample may start), and its low bits
  // (two lines either side: the place of lo among the block's values is
  // known to about sqrt(count) values).
  const double w = EfFieldBits(block_size);
  const double l = low_width_;
  const double r = zeros_per_value_;
  const double header = EfLayout::kStreamStart + kEfLowWidthBits + w;
  const double count = (static_cast<double>(block_size * 8) - header) / (l + 1 + r + w * r / kEfSampleSpacing);
  const double upper_start = header + std::floor(count * r / kEfSampleSpacing) * w;
  const double at = fraction * count;
  auto line = [&](double bit) {
    const size_t byte = std::min(block_size - 1, static_cast<size_t>(std::max(0.0, bit) / 8));
    PrefetchLine(block + (byte & ~size_t{63}));
  };
  PrefetchLine(block);
  if (block_size > 4096) line(header + std::floor(at * r / kEfSampleSpacing) * w);
  const double upper = upper_start + at * (1 + r);
  line(upper - 512);
  line(upper);
  const double lower = upper_start + count * (1 + r) + at * l;
  for (int i = -2; i <= 2; ++i) line(lower + i * 512);
  return 0;
}

}  // namespace simdex::format
