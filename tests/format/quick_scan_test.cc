// The card reader's quick path (CardDecoder::quick_table, QuickStep and the
// slots of ScanCardBlocks) against the plain reader (BlockReadOptions::
// force_plain) on blocks that reach every case it hands back: codes longer
// than the quick table's bits, entries longer than one word load, symbols
// 0 and 64, restart points, the end of a block, and garbage.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <random>
#include <vector>

#include "format/card/block_reader.h"
#include "format/card/card_format.h"
#include "format/card/huffman.h"
#include "tests/format/table_util.h"

namespace simdex::format {
namespace {

using testing::EncodedTable;
using testing::EncodeTable;

// A sorted sequence whose consecutive values share n leading bits, n drawn
// by pick(rng) in 0..64 (64: a duplicate); an n whose bit is already set
// in the predecessor is drawn again, up to 100 times (then a duplicate:
// the walk may reach the top of the range).
template <typename Pick>
std::vector<uint64_t> WalkOfSymbols(size_t count, uint64_t seed, Pick&& pick) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v = {rng() >> 40};
  int tries = 0;
  while (v.size() < count) {
    const uint64_t p = v.back();
    const int n = ++tries > 100 ? 64 : pick(rng);
    if (n == 64) {
      v.push_back(p);
      tries = 0;
      continue;
    }
    const uint64_t lead = uint64_t{1} << (63 - n);
    if ((p & lead) != 0) continue;
    v.push_back((p & ~(lead | (lead - 1))) | lead | (rng() & (lead - 1)));
    tries = 0;
  }
  return v;
}

// Data sets by code shape: every symbol about equally often (codes of 6-7
// bits, entries of up to 70 bits); a geometric spread around n = 20 (codes
// up to 11 bits); mostly duplicates (1-bit codes).
std::vector<std::vector<uint64_t>> CodeShapes(size_t count) {
  std::vector<std::vector<uint64_t>> sets;
  sets.push_back(WalkOfSymbols(count, 1, [](std::mt19937_64& rng) { return static_cast<int>(rng() % 65); }));
  sets.push_back(WalkOfSymbols(count, 2, [](std::mt19937_64& rng) {
    const int tail = std::countr_zero(rng() | (uint64_t{1} << 40));  // geometric
    return std::min(64, rng() % 2 == 0 ? 20 + tail : std::max(0, 20 - tail));
  }));
  sets.push_back(WalkOfSymbols(count, 3, [](std::mt19937_64& rng) {
    return rng() % 8 == 0 ? static_cast<int>(rng() % 64) : 64;
  }));
  return sets;
}

struct ScanResult {
  Status status;
  std::vector<uint64_t> values;
  bool reached_end = false;
  uint64_t below = 0, equal = 0;
};

ScanResult Scan(const EncodedTable& t, size_t b, uint64_t lo, uint64_t hi, bool plain) {
  BlockReadOptions options;
  options.force_plain = plain;
  ScanResult r;
  const uint8_t* p = t.block(b);
  r.status = ScanBlock(p, p + t.block_size, t.block_size, t.heads[b], t.decoder, lo, hi, options, &r.values,
                       &r.reached_end, nullptr);
  return r;
}

ScanResult Count(const EncodedTable& t, size_t b, uint64_t v, bool plain) {
  BlockReadOptions options;
  options.force_plain = plain;
  ScanResult r;
  const uint8_t* p = t.block(b);
  r.status = CountInBlock(p, p + t.block_size, t.block_size, t.heads[b], t.decoder, v, t.decoder.restarts() / 2,
                          options, &r.below, &r.equal, &r.reached_end, nullptr);
  return r;
}

void ExpectSame(const ScanResult& fast, const ScanResult& plain) {
  ASSERT_EQ(fast.status.ToString(), plain.status.ToString());
  ASSERT_EQ(fast.values, plain.values);
  if (fast.status.ok()) {
    ASSERT_EQ(fast.reached_end, plain.reached_end);
    ASSERT_EQ(fast.below, plain.below);
    ASSERT_EQ(fast.equal, plain.equal);
  }
}

TEST(CardQuickScan, QuickTableHoldsTheShortCodesWholeEntries) {
  for (const auto& values : CodeShapes(3000)) {
    const EncodedTable t = EncodeTable(values, 4096);
    const HuffmanDecoder& huffman = t.decoder.huffman();
    int quick = 0;
    for (uint32_t x = 0; x < (1u << CardDecoder::kQuickBits); ++x) {
      const HuffmanDecoder::Entry e = huffman.Lookup(x << (kMaxCodeLength - CardDecoder::kQuickBits));
      const bool whole = e.length != 0 && e.length <= CardDecoder::kQuickBits && e.total_bits <= 57;
      EXPECT_EQ(t.decoder.quick_table()[x] & 0xff, whole ? e.total_bits : 0) << x;
      quick += whole;
    }
    EXPECT_GT(quick, 0);
  }
  EXPECT_EQ(CardDecoder().quick_table()[0] & 0xff, 0u);  // uninitialized: nothing is quick
}

// Every scan, count and whole decode gives the same outcome on both paths,
// and the interleaved scan of many blocks the same as one block at a time.
TEST(CardQuickScan, FastPathEqualsPlainOnEveryCodeShape) {
  std::mt19937_64 rng(7);
  for (const auto& values : CodeShapes(6000)) {
    for (size_t block_size : {64, 256, 4096}) {
      for (int restarts : {0, 6, 15}) {
        const EncodedTable t = EncodeTable(values, block_size, 0, restarts);
        std::vector<BlockScan> scans;
        std::vector<std::vector<uint64_t>> outs(t.heads.size() * 4);
        for (size_t b = 0; b < t.heads.size(); ++b) {
          std::vector<uint64_t> fast_all, plain_all;
          BlockReadOptions options;
          const uint8_t* p = t.block(b);
          ASSERT_TRUE(DecodeBlock(p, p + block_size, block_size, t.heads[b], t.decoder, options, &fast_all).ok());
          options.force_plain = true;
          ASSERT_TRUE(DecodeBlock(p, p + block_size, block_size, t.heads[b], t.decoder, options, &plain_all).ok());
          ASSERT_EQ(fast_all, plain_all);
          for (int q = 0; q < 4; ++q) {
            // A value of the block, one past it, or a range around it.
            const uint64_t v = fast_all[rng() % fast_all.size()] + (q == 1 ? 1 : 0);
            const uint64_t lo = q == 2 ? v - std::min<uint64_t>(v, rng() >> 30) : v;
            const uint64_t hi = q == 3 ? v + std::min<uint64_t>(~v, rng() >> 20) : v;
            ExpectSame(Scan(t, b, lo, hi, false), Scan(t, b, lo, hi, true));
            ExpectSame(Count(t, b, v, false), Count(t, b, v, true));
            BlockScan s;
            s.ptr = p;
            s.limit = p + block_size;
            s.head = t.heads[b];
            s.decoder = &t.decoder;
            s.lo = lo;
            s.hi = hi;
            s.restart_guess = static_cast<int>(rng() % (restarts + 1));
            s.out = &outs[scans.size()];
            scans.push_back(s);
          }
        }
        ScanCardBlocks(scans.data(), scans.size(), block_size, BlockReadOptions(), nullptr);
        for (const BlockScan& s : scans) {
          const size_t b = static_cast<size_t>(s.ptr - t.block(0)) / block_size;
          const ScanResult one = Scan(t, b, s.lo, s.hi, true);
          ASSERT_EQ(s.status.ToString(), one.status.ToString());
          ASSERT_EQ(*s.out, one.values);
          ASSERT_EQ(s.reached_end, one.reached_end);
        }
      }
    }
  }
}

// Random bytes under a code with many short codes (most 8-bit prefixes are
// quick entries): both paths give the same status and values, whether the
// stream ends inside the block or runs past it.
TEST(CardQuickScan, GarbageBlocksGiveTheSameOutcomeOnBothPaths) {
  std::mt19937_64 rng(9);
  const EncodedTable shapes = EncodeTable(CodeShapes(3000)[0], 256);
  for (size_t block_size : {64, 256, 1024}) {
    for (int restarts : {0, 6}) {
      CardDecoder decoder;
      ASSERT_TRUE(decoder.Init(shapes.lengths, restarts).ok());
      for (int trial = 0; trial < 2000; ++trial) {
        std::vector<uint8_t> block(block_size);
        for (auto& byte : block) byte = static_cast<uint8_t>(rng());
        block[4] = static_cast<uint8_t>(rng() % 256);  // count: low byte
        block[5] = static_cast<uint8_t>(rng() % 2);    // and at most 511
        const uint64_t head = rng() >> (rng() % 64);
        const uint64_t lo = head + (rng() >> (rng() % 64)), hi = lo + (rng() >> (rng() % 64));
        std::array<ScanResult, 2> r;
        for (bool plain : {false, true}) {
          BlockReadOptions options;
          options.force_plain = plain;
          r[plain].status = ScanBlock(block.data(), block.data() + block_size, block_size, head, decoder, lo,
                                      std::max(lo, hi), options, &r[plain].values, &r[plain].reached_end, nullptr);
        }
        ExpectSame(r[0], r[1]);
        std::vector<uint64_t> out;
        BlockScan s;
        s.ptr = block.data();
        s.limit = block.data() + block_size;
        s.head = head;
        s.decoder = &decoder;
        s.lo = lo;
        s.hi = std::max(lo, hi);
        s.restart_guess = restarts;
        s.out = &out;
        ScanCardBlocks(&s, 1, block_size, BlockReadOptions(), nullptr);
        ASSERT_EQ(s.status.ToString(), r[1].status.ToString());
        ASSERT_EQ(out, r[1].values);
      }
    }
  }
}

}  // namespace
}  // namespace simdex::format
