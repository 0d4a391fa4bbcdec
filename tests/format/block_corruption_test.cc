#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "format/bit_writer.h"
#include "format/card/card_format.h"
#include "format/card/block_reader.h"
#include "format/coding.h"
#include "tests/format/table_util.h"

namespace simdex::format {
namespace {

using testing::BlockSeed;
using testing::EncodedTable;
using testing::EncodeTable;

std::vector<uint64_t> UniformSorted(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = rng();
  std::sort(v.begin(), v.end());
  return v;
}

// One decode of a block held in a buffer of exactly block_size bytes, so
// that AddressSanitizer reports any read past it.
struct Outcome {
  Status status;
  std::vector<uint64_t> values;
  bool reached_end = false;
};

Outcome Decode(const std::vector<uint8_t>& block, uint64_t head, const CardDecoder& decoder,
               BlockReadOptions options) {
  Outcome o;
  o.status = DecodeBlock(block.data(), block.data() + block.size(), block.size(), head, decoder, options, &o.values);
  return o;
}

Outcome Scan(const std::vector<uint8_t>& block, uint64_t head, const CardDecoder& decoder, uint64_t lo,
             uint64_t hi, bool plain) {
  Outcome o;
  BlockReadOptions options;
  options.force_plain = plain;
  o.status = ScanBlock(block.data(), block.data() + block.size(), block.size(), head, decoder, lo, hi, options,
                       &o.values, &o.reached_end, nullptr);
  return o;
}

std::vector<uint8_t> BlockBytes(const EncodedTable& t, size_t b) {
  return std::vector<uint8_t>(t.block(b), t.block(b) + t.block_size);
}

TEST(BlockCorruption, EverySingleByteChangeFailsTheChecksum) {
  for (size_t block_size : {64, 512}) {
    const EncodedTable t = EncodeTable(UniformSorted(block_size, 1), block_size, 3);
    const std::vector<uint8_t> good = BlockBytes(t, 0);
    BlockReadOptions options;
    options.verify_checksum = true;
    options.seed = BlockSeed(3, 0);
    ASSERT_TRUE(Decode(good, t.heads[0], t.decoder, options).status.ok());
    for (size_t i = 0; i < block_size; ++i) {
      for (uint8_t flip : {0x01, 0x80, 0xff}) {
        std::vector<uint8_t> bad = good;
        bad[i] ^= flip;
        const Status s = Decode(bad, t.heads[0], t.decoder, options).status;
        ASSERT_TRUE(s.IsCorruption()) << "byte " << i << " flip " << int{flip};
        if (i < 4) {
          EXPECT_EQ(s.message(), "checksum mismatch");
        }
      }
    }
  }
}

TEST(BlockCorruption, MisplacedBlockFailsTheChecksum) {
  const EncodedTable t = EncodeTable(UniformSorted(3000, 2), 256, 5);
  ASSERT_GT(t.heads.size(), 2u);
  BlockReadOptions options;
  options.verify_checksum = true;
  options.seed = BlockSeed(5, 2);  // block 1's bytes read as block 2
  EXPECT_EQ(Decode(BlockBytes(t, 1), t.heads[1], t.decoder, options).status.message(), "checksum mismatch");
  options.seed = BlockSeed(4, 1);  // the right block of another table
  EXPECT_EQ(Decode(BlockBytes(t, 1), t.heads[1], t.decoder, options).status.message(), "checksum mismatch");
}

// A reader's VerifiedBlocks: the first decode of a block checks its
// checksum and remembers it; a block that fails is not remembered and fails
// again; a remembered block is not hashed again (its bytes are immutable
// while a reader lives, which the test breaks on purpose to show it).
TEST(VerifiedBlocks, TheFirstDecodeChecksAndRemembersOnlyAGoodBlock) {
  const EncodedTable t = EncodeTable(UniformSorted(3000, 7), 256, 3);
  ASSERT_GT(t.heads.size(), 3u);
  const VerifiedBlocks verified(t.heads.size());
  auto decode = [&](const std::vector<uint8_t>& bytes, uint64_t b) {
    BlockReadOptions options;
    options.verified = &verified;
    options.block = b;
    options.seed = BlockSeed(3, b);
    return Decode(bytes, t.heads[b], t.decoder, options).status;
  };
  std::vector<uint8_t> block1 = BlockBytes(t, 1);
  EXPECT_FALSE(verified.Contains(1));
  ASSERT_TRUE(decode(block1, 1).ok());
  EXPECT_TRUE(verified.Contains(1));
  std::vector<uint8_t> block2 = BlockBytes(t, 2);
  block2[4] ^= 0x01;  // the count
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(decode(block2, 2).message(), "checksum mismatch");
    EXPECT_FALSE(verified.Contains(2));
  }
  EXPECT_EQ(decode(BlockBytes(t, 1), 2).message(), "checksum mismatch");  // block 1's bytes at block 2's place
  block1[0] ^= 0x01;  // only the stored checksum: the values decode as before
  EXPECT_TRUE(decode(block1, 1).ok());
  EXPECT_FALSE(verified.Contains(0));
  EXPECT_FALSE(verified.Contains(3));
}

// ScanBlock, CountInBlock and every lane of ScanBlocks check through the
// VerifiedBlocks they are given, each lane its own block.
TEST(VerifiedBlocks, EveryEntryPointChecksTheBlockFirst) {
  const EncodedTable t = EncodeTable(UniformSorted(4000, 8), 128, 2, 3);
  ASSERT_GT(t.heads.size(), 6u);
  std::vector<uint8_t> bytes(t.blocks.begin(), t.blocks.end());
  bytes[3 * t.block_size + 4] ^= 0x01;  // block 3's count
  const uint8_t* base = bytes.data();
  const uint8_t* limit = base + bytes.size();
  const VerifiedBlocks verified(t.heads.size());
  BlockReadOptions options;
  options.verified = &verified;
  std::vector<uint64_t> out;
  bool reached_end = false;
  for (uint64_t b : {uint64_t{0}, uint64_t{3}}) {
    options.block = b;
    options.seed = BlockSeed(2, b);
    const Status scan = ScanBlock(base + b * t.block_size, limit, t.block_size, t.heads[b], t.decoder, 0, ~uint64_t{0},
                                  options, &out, &reached_end, nullptr);
    uint64_t below = 0, equal = 0;
    const Status count = CountInBlock(base + b * t.block_size, limit, t.block_size, t.heads[b], t.decoder, t.heads[b],
                                      0, options, &below, &equal, &reached_end, nullptr);
    EXPECT_EQ(scan.message(), b == 3 ? "checksum mismatch" : "") << b;
    EXPECT_EQ(count.message(), b == 3 ? "checksum mismatch" : "") << b;
  }
  std::vector<BlockScan> scans(6);
  std::vector<std::vector<uint64_t>> outs(scans.size());
  for (size_t b = 1; b < scans.size(); ++b) {
    scans[b].ptr = base + b * t.block_size;
    scans[b].limit = limit;
    scans[b].head = t.heads[b];
    scans[b].decoder = &t.decoder;
    scans[b].hi = ~uint64_t{0};
    scans[b].seed = BlockSeed(2, b);
    scans[b].verified = &verified;
    scans[b].block = b;
    scans[b].out = &outs[b];
  }
  ScanBlocks(scans.data() + 1, scans.size() - 1, t.block_size, BlockReadOptions(), nullptr);
  for (size_t b = 1; b < scans.size(); ++b) {
    EXPECT_EQ(scans[b].status.message(), b == 3 ? "checksum mismatch" : "") << b;
    EXPECT_EQ(verified.Contains(b), b != 3) << b;
  }
}

// Without the checksum, random damage must give Corruption or some values,
// never a crash or a read outside the block; both reader paths must agree
// on the outcome, errors included.
TEST(BlockCorruption, DamagedBlocksNeverCrashAndBothPathsAgree) {
  std::mt19937_64 rng(4);
  for (size_t block_size : {64, 128, 1024}) {
    const EncodedTable t = EncodeTable(UniformSorted(block_size * 2, block_size), block_size);
    for (int trial = 0; trial < 3000; ++trial) {
      const size_t b = rng() % t.heads.size();
      std::vector<uint8_t> bad = BlockBytes(t, b);
      const int changes = 1 + static_cast<int>(rng() % 4);
      for (int c = 0; c < changes; ++c) bad[4 + rng() % (block_size - 4)] ^= static_cast<uint8_t>(1 + rng() % 255);
      if (trial % 7 == 0) EncodeFixed16(reinterpret_cast<char*>(bad.data()) + 4, static_cast<uint16_t>(rng()));
      for (bool strict : {false, true}) {
        BlockReadOptions options;
        options.strict = strict;
        const Outcome fast = Decode(bad, t.heads[b], t.decoder, options);
        options.force_plain = true;
        const Outcome plain = Decode(bad, t.heads[b], t.decoder, options);
        ASSERT_EQ(fast.status.ToString(), plain.status.ToString());
        if (fast.status.ok()) {
          ASSERT_EQ(fast.values, plain.values);
          ASSERT_TRUE(std::is_sorted(fast.values.begin(), fast.values.end()));
        }
      }
      const uint64_t lo = rng(), hi = lo + (rng() >> 4);
      const Outcome fast_scan = Scan(bad, t.heads[b], t.decoder, lo, std::max(lo, hi), false);
      const Outcome plain_scan = Scan(bad, t.heads[b], t.decoder, lo, std::max(lo, hi), true);
      ASSERT_EQ(fast_scan.status.ToString(), plain_scan.status.ToString());
      ASSERT_EQ(fast_scan.values, plain_scan.values);
    }
  }
}

TEST(BlockCorruption, TruncatedBlockIsCorruption) {
  const EncodedTable t = EncodeTable(UniformSorted(100, 5), 128);
  const std::vector<uint8_t> block = BlockBytes(t, 0);
  std::vector<uint64_t> out;
  bool reached_end;
  EXPECT_EQ(DecodeBlock(block.data(), block.data() + 127, 128, t.heads[0], t.decoder, {}, &out).message(),
            "truncated block");
  EXPECT_EQ(ScanBlock(block.data(), block.data(), 128, t.heads[0], t.decoder, 0, 1, {}, &out, &reached_end, nullptr)
                .message(),
            "truncated block");
}

// Hand-made blocks: lengths {symbol 0: 1 bit "0", symbol 64: 1 bit "1"}.
class CraftedBlock : public ::testing::Test {
 protected:
  void SetUp() override {
    lengths_.lengths[0] = 1;
    lengths_.lengths[64] = 1;
    ASSERT_TRUE(decoder_.Init(lengths_).ok());
  }

  // A 64-byte block with the given count and stream bits.
  template <typename Fn>
  std::vector<uint8_t> Make(uint16_t count, Fn write_stream) {
    std::string s(kBlockHeaderSize, '\0');
    BitWriter w(&s);
    write_stream(w);
    w.Finish();
    s.resize(64, '\0');
    EncodeFixed16(s.data() + 4, count);
    return std::vector<uint8_t>(s.begin(), s.end());
  }

  std::string Error(const std::vector<uint8_t>& block, uint64_t head, bool strict = false) {
    for (bool plain : {false, true}) {
      BlockReadOptions options;
      options.strict = strict;
      options.force_plain = plain;
      const Status fast = Decode(block, head, decoder_, options).status;
      options.force_plain = !plain;
      EXPECT_EQ(fast.ToString(), Decode(block, head, decoder_, options).status.ToString());
    }
    BlockReadOptions options;
    options.strict = strict;
    return Decode(block, head, decoder_, options).status.message();
  }

  HuffmanCodeLengths lengths_;
  CardDecoder decoder_;
};

TEST_F(CraftedBlock, ZeroCountIsCorruption) {
  EXPECT_EQ(Error(Make(0, [](BitWriter&) {}), 1), "bad entry count 0");
}

TEST_F(CraftedBlock, CountBeyondTheStreamCapacityIsCorruption) {
  // 58 stream bytes hold at most 464 entries of one bit after the head.
  EXPECT_EQ(Error(Make(466, [](BitWriter&) {}), 1), "bad entry count 466");
}

TEST_F(CraftedBlock, InvalidCodeIsCorruption) {
  HuffmanCodeLengths single;
  single.lengths[64] = 1;  // "0" is the only code; "1" is invalid
  ASSERT_TRUE(decoder_.Init(single).ok());
  const auto block = Make(4, [](BitWriter& w) { w.Write(0b001, 3); });
  EXPECT_EQ(Error(block, 1), "invalid Huffman code at bit 2");
}

TEST_F(CraftedBlock, EntryOutOfOrderIsCorruption) {
  // Entry 2 has n = 0: its top bit must flip from 0 to 1, but entry 1 (a
  // duplicate of the head) already has it set.
  const auto block = Make(3, [](BitWriter& w) {
    w.Write(1, 1);
    w.Write(0, 1);
    w.Write(5, 63);
  });
  EXPECT_EQ(Error(block, uint64_t{1} << 63), "entry 2 out of order");
}

TEST_F(CraftedBlock, StreamRunningPastTheBlockIsCorruption) {
  // 460 one-bit duplicates, then n = 0 whose 63 suffix bits do not fit.
  const auto block = Make(462, [](BitWriter& w) {
    for (int i = 0; i < 460; ++i) w.Write(1, 1);
    w.Write(0, 1);
  });
  EXPECT_EQ(Error(block, 0), "bit stream overruns the block");
}

TEST_F(CraftedBlock, NonzeroPaddingIsCorruptionOnlyWhenStrict) {
  auto block = Make(2, [](BitWriter& w) { w.Write(1, 1); });
  EXPECT_EQ(Error(block, 9, true), "");
  block[63] = 1;
  EXPECT_EQ(Error(block, 9, false), "");
  EXPECT_EQ(Error(block, 9, true), "nonzero padding");
  block[63] = 0;
  block[6] = 0x81;  // the bit right after the only entry
  EXPECT_EQ(Error(block, 9, true), "nonzero padding");
}

TEST_F(CraftedBlock, DecodesAHandWrittenBlock) {
  // Head 0x10; entry 1: n = 0 ("0"), suffix 63 bits = 0x...07; entry 2: dup ("1").
  const auto block = Make(3, [](BitWriter& w) {
    w.Write(0, 1);
    w.Write(7, 63);
    w.Write(1, 1);
  });
  std::vector<uint64_t> out;
  BlockReadOptions options;
  options.strict = true;
  ASSERT_TRUE(DecodeBlock(block.data(), block.data() + 64, 64, 0x10, decoder_, options, &out).ok());
  const uint64_t v = (uint64_t{1} << 63) | 7;
  EXPECT_EQ(out, (std::vector<uint64_t>{0x10, v, v}));
}

}  // namespace
}  // namespace simdex::format
