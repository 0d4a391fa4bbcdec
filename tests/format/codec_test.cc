// The codec seam (format/codec.h): the registry, and the card codec reached
// only through the Codec and TableDecoder interfaces, as the engine reaches
// every codec.
#include "format/codec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "format/coding.h"

namespace simdex::format {
namespace {

std::vector<uint64_t> SortedClusters(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v;
  while (v.size() < n) {
    const uint64_t centre = rng();
    for (int i = 0, members = static_cast<int>(rng() % 8); i <= members && v.size() < n; ++i) {
      v.push_back(centre ^ (uint64_t{1} << (rng() % 64)) * (i > 0));
    }
  }
  std::sort(v.begin(), v.end());
  return v;
}

struct Encoded {
  EncodedTable table;
  std::string blocks;
};

Encoded Encode(const Codec& codec, const std::vector<uint64_t>& values, uint32_t block_size, int restarts) {
  Encoded e;
  TableEncoding encoding;
  encoding.block_size = block_size;
  encoding.restarts = restarts;
  encoding.table = 3;
  Status s = codec.EncodeTable(values, encoding, [&](std::string_view block) {
    EXPECT_EQ(block.size(), block_size);
    e.blocks.append(block);
    return Status::OK();
  }, &e.table);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return e;
}

TEST(Codec, TheRegistryFindsTheCardCodecByTagAndName) {
  const Codec* card = FindCodec("card");
  ASSERT_NE(card, nullptr);
  EXPECT_EQ(card, FindCodec(static_cast<uint8_t>(CodecTag::kCard)));
  EXPECT_EQ(card, &DefaultCodec());
  EXPECT_EQ(card->name(), "card");
  EXPECT_EQ(FindCodec("elias-fano-that-is-not-here"), nullptr);
  EXPECT_EQ(FindCodec(uint8_t{255}), nullptr);
  EXPECT_EQ(CodecNames(), "card, ef");
}

// Every block size and restart count: the values come back whole through
// DecodeBlock, and ScanBlocks finds every value's range, across blocks.
TEST(Codec, CardRoundTripsThroughTheInterfaces) {
  const Codec& codec = DefaultCodec();
  const std::vector<uint64_t> values = SortedClusters(5000, 1);
  for (uint32_t block_size : {64u, 256u, 4096u}) {
    for (int restarts : {0, 3, 15}) {
      SCOPED_TRACE(testing::Message() << "block size " << block_size << ", restarts " << restarts);
      const Encoded e = Encode(codec, values, block_size, restarts);
      ASSERT_EQ(e.table.codec, CodecTag::kCard);
      ASSERT_TRUE(codec.CheckParams(e.table.params).ok());
      std::unique_ptr<TableDecoder> decoder;
      ASSERT_TRUE(codec.NewDecoder(e.table.params, restarts, &decoder).ok());
      ASSERT_EQ(decoder->tag(), CodecTag::kCard);
      const auto* base = reinterpret_cast<const uint8_t*>(e.blocks.data());
      const uint8_t* end = base + e.blocks.size();
      std::vector<uint64_t> all, block;
      BlockReadOptions strict;
      strict.verify_checksum = true;
      strict.strict = true;
      for (size_t b = 0; b < e.table.heads.size(); ++b) {
        strict.seed = BlockSeed(3, b);
        ASSERT_EQ(e.table.ranks[b], all.size());
        Status s = decoder->DecodeBlock(base + b * block_size, end, block_size, e.table.heads[b], strict, &block);
        ASSERT_TRUE(s.ok()) << "block " << b << ": " << s.ToString();
        all.insert(all.end(), block.begin(), block.end());
      }
      ASSERT_EQ(all, values);
      // One scan per block, each for the range of a value in it.
      std::vector<BlockScan> scans(e.table.heads.size());
      std::vector<std::vector<uint64_t>> outs(scans.size());
      for (size_t b = 0; b < scans.size(); ++b) {
        BlockScan& s = scans[b];
        s.ptr = base + b * block_size;
        s.limit = end;
        s.head = e.table.heads[b];
        s.decoder = decoder.get();
        s.lo = s.head & ~0xffffULL;
        s.hi = s.head | 0xffffULL;
        s.seed = BlockSeed(3, b);
        s.restart_guess = decoder->PrefetchScan(s.ptr, block_size, 0.0);
        s.out = &outs[b];
      }
      ScanBlocks(scans.data(), scans.size(), block_size, BlockReadOptions(), nullptr);
      for (size_t b = 0; b < scans.size(); ++b) {
        ASSERT_TRUE(scans[b].status.ok()) << scans[b].status.ToString();
        // The head's range within the block: values from the head on, up to hi.
        const auto first = values.begin() + static_cast<std::ptrdiff_t>(e.table.ranks[b]);
        const auto last = b + 1 < scans.size() ? values.begin() + static_cast<std::ptrdiff_t>(e.table.ranks[b + 1])
                                               : values.end();
        std::vector<uint64_t> want;
        for (auto it = first; it != last && *it <= scans[b].hi; ++it) want.push_back(*it);
        EXPECT_EQ(outs[b], want) << "block " << b;
      }
    }
  }
}

TEST(Codec, CardParametersAreCheckedBeforeADecoderIsMade) {
  std::unique_ptr<TableDecoder> decoder;
  EXPECT_TRUE(DefaultCodec().CheckParams("short").IsCorruption());
  EXPECT_TRUE(DefaultCodec().NewDecoder("short", 0, &decoder).IsCorruption());
  const Encoded e = Encode(DefaultCodec(), SortedClusters(300, 2), 256, 2);
  EXPECT_TRUE(DefaultCodec().NewDecoder(e.table.params, 16, &decoder).IsCorruption());  // restarts past 15
}

// The frame's checks come before any codec reads the payload.
TEST(Codec, TruncatedOrMisplacedBlocksFailTheFrameChecks) {
  const Encoded e = Encode(DefaultCodec(), SortedClusters(2000, 3), 256, 2);
  std::unique_ptr<TableDecoder> decoder;
  ASSERT_TRUE(DefaultCodec().NewDecoder(e.table.params, 2, &decoder).ok());
  const auto* base = reinterpret_cast<const uint8_t*>(e.blocks.data());
  std::vector<uint64_t> out;
  BlockReadOptions options;
  Status s = decoder->DecodeBlock(base, base + 255, 256, e.table.heads[0], options, &out);
  EXPECT_EQ(s.message(), "truncated block");
  options.verify_checksum = true;
  options.seed = BlockSeed(3, 1);  // block 0 read as block 1
  s = decoder->DecodeBlock(base, base + 256, 256, e.table.heads[0], options, &out);
  EXPECT_EQ(s.message(), "checksum mismatch");
}

// A null sink only cuts the table (what `--codec auto` counts with): the
// same blocks, heads and ranks as the encoding, for every codec, on spread,
// clustered and repeated values, at every block size and restart count.
TEST(Codec, CuttingWithoutASinkGivesTheEncodingsBlocks) {
  const std::vector<uint64_t> uniform = [] {
    std::vector<uint64_t> v(20000);
    std::mt19937_64 rng(5);
    for (uint64_t& x : v) x = rng();
    std::sort(v.begin(), v.end());
    return v;
  }();
  const std::vector<uint64_t> clusters = SortedClusters(20000, 4);
  const std::vector<uint64_t> repeated(3000, uint64_t{0x0123456789abcdef});
  for (std::string_view name : {"card", "ef"}) {
    const Codec& codec = *FindCodec(name);
    for (const std::vector<uint64_t>* values : {&uniform, &clusters, &repeated}) {
      for (uint32_t block_size : {64u, 512u, 4096u}) {
        for (int restarts : {0, 6, 15}) {
          SCOPED_TRACE(testing::Message() << name << ", " << values->size() << " values, block size " << block_size
                                          << ", restarts " << restarts);
          const Encoded e = Encode(codec, *values, block_size, restarts);
          TableEncoding encoding;
          encoding.block_size = block_size;
          encoding.restarts = restarts;
          EncodedTable cut;
          ASSERT_TRUE(codec.EncodeTable(*values, encoding, nullptr, &cut).ok());
          EXPECT_EQ(cut.heads, e.table.heads);
          EXPECT_EQ(cut.ranks, e.table.ranks);
          EXPECT_EQ(e.blocks.size(), e.table.heads.size() * block_size);
        }
      }
    }
  }
}

}  // namespace
}  // namespace simdex::format
