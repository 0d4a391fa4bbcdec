#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "format/card/block_builder.h"
#include "format/card/block_reader.h"
#include "format/coding.h"
#include "format/head_search.h"
#include "tests/format/table_util.h"

namespace simdex::format {
namespace {

using testing::BlockSeed;
using testing::EncodedTable;
using testing::EncodeTable;

// Sorted data sets that stress different symbols and block boundaries.
std::vector<uint64_t> MakeData(const std::string& kind, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v;
  if (kind == "uniform") {
    for (size_t i = 0; i < n; ++i) v.push_back(rng());
  } else if (kind == "clustered") {  // top 20 bits constant, a few dense clusters
    for (size_t i = 0; i < n; ++i) v.push_back((0xabcdeULL << 44) | ((rng() % 4) << 40) | (rng() >> 44));
  } else if (kind == "duplicates") {  // a pool of 40 values, each repeated
    std::vector<uint64_t> pool(40);
    for (auto& x : pool) x = rng();
    for (size_t i = 0; i < n; ++i) v.push_back(pool[rng() % pool.size()]);
  } else if (kind == "last_bit") {  // pairs that differ only in the last bit
    for (size_t i = 0; i + 1 < n; i += 2) {
      const uint64_t x = rng() & ~uint64_t{1};
      v.push_back(x);
      v.push_back(x | 1);
    }
  } else if (kind == "extremes") {  // 0, UINT64_MAX and the top-bit flip (n = 0)
    for (size_t i = 0; i < n; ++i) {
      const uint64_t r = rng() % 6;
      v.push_back(r == 0 ? 0 : r == 1 ? ~uint64_t{0} : r == 2 ? uint64_t{1} << 63 : r == 3 ? (uint64_t{1} << 63) - 1 : rng());
    }
  } else if (kind == "long_run") {  // one value repeated past any block's capacity
    v.assign(n, 0x5555'5555'5555'5555ULL);
    for (size_t i = 0; i < 100; ++i) v.push_back(rng());
  }
  std::sort(v.begin(), v.end());
  return v;
}

const char* const kKinds[] = {"uniform", "clustered", "duplicates", "last_bit", "extremes", "long_run"};

class BlockRoundTrip : public ::testing::TestWithParam<std::tuple<size_t, bool, int>> {
 protected:
  size_t block_size() const { return std::get<0>(GetParam()); }
  bool plain() const { return std::get<1>(GetParam()); }
  int restarts() const { return std::get<2>(GetParam()); }
  // Enough values for several blocks of this size.
  size_t DataSize() const { return std::min<size_t>(block_size() * 3 / 2, 40000) + 10; }
};

TEST_P(BlockRoundTrip, DecodesEveryDataSetExactly) {
  for (const char* kind : kKinds) {
    const size_t n = std::string(kind) == "long_run" ? 70000 : DataSize();
    const std::vector<uint64_t> values = MakeData(kind, n, block_size());
    const EncodedTable t = EncodeTable(values, block_size(), 7, restarts());
    ASSERT_EQ(t.blocks.size(), t.heads.size() * block_size());
    std::vector<uint64_t> decoded;
    const Status s = testing::DecodeTable(t, plain(), &decoded);
    ASSERT_TRUE(s.ok()) << kind << ": " << s.ToString();
    ASSERT_EQ(decoded, values) << kind;
  }
}

// ScanBlock over [lo, hi] from the block FindLastLess names, continued while
// the range may go on, gives the values of the table within the range.
TEST_P(BlockRoundTrip, ScanFindsExactlyTheValuesInRange) {
  std::mt19937_64 rng(block_size());
  for (const char* kind : kKinds) {
    const std::vector<uint64_t> values = MakeData(kind, DataSize(), block_size() + 1);
    const EncodedTable t = EncodeTable(values, block_size(), 0, restarts());
    std::string heads_le;
    for (uint64_t h : t.heads) PutFixed64(&heads_le, h);
    for (int q = 0; q < 50; ++q) {
      uint64_t lo = values[rng() % values.size()] - (q % 3 == 0 ? rng() % 1000 : 0);
      uint64_t hi = q % 5 == 0 ? lo : lo + (rng() >> (rng() % 64));
      if (hi < lo) std::swap(lo, hi);
      std::vector<uint64_t> expected;
      for (uint64_t v : values) {
        if (v >= lo && v <= hi) expected.push_back(v);
      }
      size_t b = FindLastLess(reinterpret_cast<const uint8_t*>(heads_le.data()), t.heads.size(), lo, nullptr);
      if (b == kNoHead) b = 0;
      std::vector<uint64_t> got;
      BlockScanStats stats;
      BlockReadOptions options;
      options.force_plain = plain();
      for (bool more = true; more && b < t.heads.size(); ++b) {
        const uint8_t* p = t.block(b);
        const Status s = ScanBlock(p, p + block_size(), block_size(), t.heads[b], t.decoder, lo, hi, options,
                                   &got, &more, &stats);
        ASSERT_TRUE(s.ok()) << s.ToString();
      }
      ASSERT_EQ(got, expected) << kind << " [" << lo << ", " << hi << "]";
      EXPECT_EQ(stats.values_in_range, expected.size());
      EXPECT_GE(stats.values_decoded, expected.size());
    }
  }
}

// Per block: ScanBlock equals DecodeBlock's output filtered to [lo, hi], and
// reached_end says whether the block's last value is <= hi.
TEST_P(BlockRoundTrip, ScanMatchesFilteredDecodePerBlock) {
  std::mt19937_64 rng(block_size() * 3);
  const std::vector<uint64_t> values = MakeData("uniform", DataSize(), 11);
  const EncodedTable t = EncodeTable(values, block_size(), 0, restarts());
  BlockReadOptions options;
  options.force_plain = plain();
  std::vector<uint64_t> all, got;
  for (size_t b = 0; b < t.heads.size(); ++b) {
    const uint8_t* p = t.block(b);
    ASSERT_TRUE(DecodeBlock(p, p + block_size(), block_size(), t.heads[b], t.decoder, options, &all).ok());
    for (int q = 0; q < 20; ++q) {
      uint64_t lo = all[rng() % all.size()], hi = all[rng() % all.size()];
      if (q % 4 == 0) lo = 0;
      if (q % 4 == 1) hi = ~uint64_t{0};
      if (hi < lo) std::swap(lo, hi);
      got.clear();
      bool reached_end = false;
      ASSERT_TRUE(ScanBlock(p, p + block_size(), block_size(), t.heads[b], t.decoder, lo, hi, options, &got,
                            &reached_end, nullptr)
                      .ok());
      std::vector<uint64_t> expected;
      std::copy_if(all.begin(), all.end(), std::back_inserter(expected),
                   [&](uint64_t v) { return v >= lo && v <= hi; });
      ASSERT_EQ(got, expected);
      ASSERT_EQ(reached_end, all.back() <= hi);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryBlockSize, BlockRoundTrip,
                         ::testing::Combine(::testing::Values(64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384,
                                                              32768, 65536),
                                            ::testing::Bool(), ::testing::Values(0, 1, 3, 15)));

// With R restart points a scan for a key near a block's end decodes about
// 1/(R+1) of the block, not all of it; without them it decodes the block.
TEST(BlockRestarts, ScanNearTheEndDecodesOnlyTheLastSegment) {
  const std::vector<uint64_t> values = MakeData("uniform", 4000, 5);
  for (int restarts : {0, 3, 15}) {
    const EncodedTable t = EncodeTable(values, 4096, 0, restarts);
    std::vector<uint64_t> all, got;
    ASSERT_TRUE(DecodeBlock(t.block(0), t.block(0) + 4096, 4096, t.heads[0], t.decoder, {}, &all).ok());
    const uint64_t key = all[all.size() - 2];
    BlockScanStats stats;
    bool reached_end = false;
    ASSERT_TRUE(
        ScanBlock(t.block(0), t.block(0) + 4096, 4096, t.heads[0], t.decoder, key, key, {}, &got, &reached_end, &stats)
            .ok());
    ASSERT_EQ(got, std::vector<uint64_t>{key});
    // The head, the restart probes and the last segment's entries.
    const uint64_t segment = all.size() / (restarts + 1) + 1;
    EXPECT_LE(stats.values_decoded, 1 + restarts + segment) << restarts;
    EXPECT_GE(stats.values_decoded, segment - 2) << restarts;
  }
}

// Restart points cost bits, so a block holds fewer entries; the offset
// table of a block too small for them stays zero and decodes.
TEST(BlockRestarts, CostEntriesAndSmallBlocksKeepZeroOffsets) {
  const std::vector<uint64_t> values = MakeData("uniform", 30000, 6);
  const EncodedTable none = EncodeTable(values, 1024, 0, 0);
  const EncodedTable three = EncodeTable(values, 1024, 0, 3);
  EXPECT_GT(three.heads.size(), none.heads.size());
  EXPECT_LT(three.heads.size(), none.heads.size() * 11 / 10);
  const std::vector<uint64_t> few = {1, 2, 3};
  const EncodedTable small = EncodeTable(few, 64, 0, 15);
  std::vector<uint64_t> decoded;
  ASSERT_TRUE(testing::DecodeTable(small, false, &decoded).ok());
  EXPECT_EQ(decoded, few);
}

TEST(BlockBuilder, BlockWithOnlyItsHeadDecodes) {
  HuffmanCodeLengths lengths;
  lengths.lengths[64] = 1;
  const HuffmanEncoderTable code(lengths);
  CardDecoder decoder;
  ASSERT_TRUE(decoder.Init(lengths).ok());
  BlockBuilder builder(64, code);
  builder.Start(42);
  EXPECT_EQ(builder.count(), 1u);
  const std::string block(builder.Finish(9));
  ASSERT_EQ(block.size(), 64u);
  EXPECT_EQ(DecodeFixed16(block.data() + 4), 1);
  const auto* p = reinterpret_cast<const uint8_t*>(block.data());
  std::vector<uint64_t> out;
  BlockReadOptions options{true, 9, true, false};
  ASSERT_TRUE(DecodeBlock(p, p + 64, 64, 42, decoder, options, &out).ok());
  EXPECT_EQ(out, std::vector<uint64_t>{42});
}

TEST(BlockBuilder, CountStopsAt65535) {
  const std::vector<uint64_t> values(200000, 77);
  const EncodedTable t = EncodeTable(values, 65536);
  ASSERT_EQ(t.heads.size(), 4u);  // 3 * 65535 + 3395
  for (size_t b = 0; b < 3; ++b) EXPECT_EQ(DecodeFixed16(t.block(b) + 4), 65535);
  EXPECT_EQ(DecodeFixed16(t.block(3) + 4), 200000 - 3 * 65535);
}

TEST(BlockBuilder, FullBlockRejectsTheNextValueAndStaysUnchanged) {
  const std::vector<uint64_t> values = MakeData("uniform", 200, 5);
  std::array<uint64_t, kHuffmanSymbols> freqs{};
  BlockBuilder::CountPrefixSymbols(values.data(), values.size(), freqs.data());
  const HuffmanEncoderTable code(HuffmanCodeLengths::FromFrequencies(freqs.data()));
  BlockBuilder builder(64, code);
  builder.Start(values[0]);
  size_t i = 1;
  while (builder.Add(values[i])) ++i;
  const uint32_t count = builder.count();
  EXPECT_EQ(count, i);
  EXPECT_FALSE(builder.Add(values[i]));
  EXPECT_EQ(builder.count(), count);
  // 58 stream bytes hold the entries of ~55 bits of uniform data: 8 entries.
  EXPECT_GE(count, 8u);
}

// stream_bits() after every Add equals the stream's size counted entry by
// entry from the layout (offset table, restart points at RestartIndex coded
// against the head with the 7-bit symbol, the rest after their predecessor),
// whether Add() computed it exactly or only bounded it, up to a full block.
TEST(BlockBuilder, StreamBitsCountTheLayoutExactlyAfterEveryAdd) {
  const std::vector<uint64_t> values = MakeData("uniform", 40000, 8);
  std::array<uint64_t, kHuffmanSymbols> freqs{};
  BlockBuilder::CountPrefixSymbols(values.data(), values.size(), freqs.data());
  const HuffmanCodeLengths lengths = HuffmanCodeLengths::FromFrequencies(freqs.data());
  const HuffmanEncoderTable code(lengths);
  for (const size_t block_size : {size_t{64}, size_t{1024}, size_t{8192}}) {
    for (const int restarts : {0, 1, 3, 15}) {
      BlockBuilder builder(block_size, code, restarts);
      builder.Start(values[0]);
      auto expected = [&](uint32_t count) {
        size_t bits = RestartTableBits(block_size, restarts);
        for (uint32_t i = 1; i < count; ++i) {
          bool restart = false;
          for (int r = 1; r <= restarts && HasRestarts(count, restarts); ++r) {
            restart = restart || RestartIndex(r, count, restarts) == i;
          }
          const int n = PrefixSymbol(restart ? values[0] : values[i - 1], values[i]);
          bits += (restart ? kRestartSymbolBits : code[n].length) + SuffixBits(n);
        }
        return bits;
      };
      size_t i = 1;
      for (; builder.Add(values[i]); ++i) {
        ASSERT_EQ(builder.stream_bits(), expected(builder.count())) << block_size << " R " << restarts << " " << i;
      }
      // The block is full: the value it refused would not have fitted.
      ASSERT_EQ(builder.count(), i);
      EXPECT_LE(builder.stream_bits(), (block_size - kBlockHeaderSize) * 8);
      EXPECT_GT(expected(builder.count() + 1), (block_size - kBlockHeaderSize) * 8) << block_size << " R " << restarts;
    }
  }
}

TEST(BlockBuilder, CountPrefixSymbolsCountsConsecutivePairs) {
  const std::vector<uint64_t> values = {0, 0, 1, uint64_t{1} << 63, ~uint64_t{0}};
  std::array<uint64_t, kHuffmanSymbols> freqs{};
  BlockBuilder::CountPrefixSymbols(values.data(), values.size(), freqs.data());
  EXPECT_EQ(freqs[64], 1u);  // 0, 0
  EXPECT_EQ(freqs[63], 1u);  // 0, 1
  EXPECT_EQ(freqs[0], 1u);   // 1, 2^63
  EXPECT_EQ(freqs[1], 1u);   // 2^63, max
}

}  // namespace
}  // namespace simdex::format
