// The Elias-Fano codec (format/ef/), reached through the Codec and
// TableDecoder interfaces as the engine reaches it, checked against plain
// vectors: round trips, every scan and count against a brute-force answer,
// the encoder's choice of width and of where blocks end, and damaged blocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "format/codec.h"
#include "format/coding.h"
#include "format/ef/ef_block_builder.h"
#include "format/ef/ef_format.h"

namespace simdex::format {
namespace {

const Codec& Ef() { return *FindCodec("ef"); }

std::vector<uint64_t> Uniform(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = rng();
  std::sort(v.begin(), v.end());
  return v;
}

// Clusters of near values, runs of equal values, dense and sparse
// stretches, and both ends of the 64-bit range.
std::vector<uint64_t> Mixed(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v = {0, 0, 1, ~uint64_t{0}, ~uint64_t{0}, ~uint64_t{0} - 5};
  while (v.size() < n) {
    const uint64_t centre = rng();
    switch (rng() % 4) {
      case 0:  // a run of equal values
        for (int i = 0, len = static_cast<int>(rng() % 300); i < len; ++i) v.push_back(centre);
        break;
      case 1:  // a dense stretch: only the low 12 bits vary
        for (int i = 0; i < 200; ++i) v.push_back((centre & ~uint64_t{0xfff}) | (rng() & 0xfff));
        break;
      case 2:  // a cluster: single bits flipped
        for (int i = 0; i < 8; ++i) v.push_back(centre ^ (uint64_t{1} << (rng() % 64)));
        break;
      default:
        v.push_back(centre);
    }
  }
  v.resize(n);
  std::sort(v.begin(), v.end());
  return v;
}

struct Encoded {
  EncodedTable table;
  std::string blocks;
  uint32_t block_size = 0;
  std::unique_ptr<TableDecoder> decoder;

  const uint8_t* block(size_t b) const { return reinterpret_cast<const uint8_t*>(blocks.data()) + b * block_size; }
  const uint8_t* end() const { return reinterpret_cast<const uint8_t*>(blocks.data()) + blocks.size(); }
  size_t first(size_t b) const { return table.ranks[b]; }
  size_t last(size_t b, size_t n) const { return b + 1 < table.ranks.size() ? table.ranks[b + 1] : n; }
};

Encoded Encode(const std::vector<uint64_t>& values, uint32_t block_size) {
  Encoded e;
  e.block_size = block_size;
  TableEncoding encoding;
  encoding.block_size = block_size;
  encoding.table = 5;
  Status s = Ef().EncodeTable(values, encoding, [&](std::string_view block) {
    EXPECT_EQ(block.size(), block_size);
    e.blocks.append(block);
    return Status::OK();
  }, &e.table);
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(e.table.codec, CodecTag::kEliasFano);
  EXPECT_TRUE(Ef().CheckParams(e.table.params).ok());
  s = Ef().NewDecoder(e.table.params, 6, &e.decoder);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return e;
}

TEST(EfCodec, TheRegistryHasItByTagAndName) {
  const Codec* ef = FindCodec("ef");
  ASSERT_NE(ef, nullptr);
  EXPECT_EQ(ef, FindCodec(uint8_t{1}));
  EXPECT_EQ(ef->tag(), CodecTag::kEliasFano);
  EXPECT_EQ(CodecNames(), "card, ef");
}

TEST(EfCodec, ParametersAreTheUsualWidthAndZerosPerValue) {
  EXPECT_TRUE(Ef().CheckParams(std::string("\0\0", 2)).ok());
  EXPECT_TRUE(Ef().CheckParams("\x3f\xff").ok());
  EXPECT_EQ(Ef().CheckParams("\x40\x40").message(), "ef codec low-bit width 64");
  EXPECT_EQ(Ef().CheckParams("").message(), "ef codec parameters of 0 bytes (expected 2)");
  EXPECT_EQ(Ef().CheckParams("\x20").message(), "ef codec parameters of 1 bytes (expected 2)");
  std::unique_ptr<TableDecoder> decoder;
  EXPECT_TRUE(Ef().NewDecoder("abc", 0, &decoder).IsCorruption());
  EXPECT_TRUE(Ef().NewDecoder("\x20\x40", 16, &decoder).IsCorruption());
  // Uniform values with gaps of 2^64 / 20000 = 2^49.71 on average: the
  // blocks take L = 49 (a block's bits fall by about 1 per value from L to
  // L + 1 and rise by its zeros, span / 2^(L+1), times 1 + w / S: the
  // best L leaves 1 / (ln 2 (1 + w / S)) = 1.36 zeros per value, within a
  // factor of sqrt 2), here 2^0.71 = 1.64 zeros per value.
  const Encoded e = Encode(Uniform(20000, 9), 4096);
  ASSERT_EQ(e.table.params.size(), 2u);
  EXPECT_EQ(static_cast<uint8_t>(e.table.params[0]), 49);
  EXPECT_NEAR(static_cast<uint8_t>(e.table.params[1]) / 64.0, 1.64, 0.05);
}

// Every block size and data shape: the blocks decode (checksums and strict
// checks on) to the values, the ranks count them, and every block but the
// last is full (the next value would not fit at any width).
TEST(EfCodec, RoundTripsAndFillsEveryBlock) {
  for (uint32_t block_size : {64u, 256u, 4096u, 65536u}) {
    for (int shape = 0; shape < 2; ++shape) {
      SCOPED_TRACE(testing::Message() << "block size " << block_size << ", shape " << shape);
      const size_t n = block_size == 65536 ? 40000 : 6000;
      const std::vector<uint64_t> values = shape == 0 ? Uniform(n, block_size) : Mixed(n, block_size);
      const Encoded e = Encode(values, block_size);
      std::vector<uint64_t> all, block;
      BlockReadOptions strict;
      strict.verify_checksum = true;
      strict.strict = true;
      for (size_t b = 0; b < e.table.heads.size(); ++b) {
        strict.seed = BlockSeed(5, b);
        ASSERT_EQ(e.table.ranks[b], all.size());
        Status s = e.decoder->DecodeBlock(e.block(b), e.end(), block_size, e.table.heads[b], strict, &block);
        ASSERT_TRUE(s.ok()) << "block " << b << ": " << s.ToString();
        ASSERT_EQ(block.front(), e.table.heads[b]);
        all.insert(all.end(), block.begin(), block.end());
        if (b + 1 < e.table.heads.size()) {
          const uint64_t next = values[all.size()] - e.table.heads[b];
          const uint32_t count = static_cast<uint32_t>(block.size()) + 1;
          const int l = EfBestLowWidth(block_size, count, next, 0);
          EXPECT_TRUE(count > kMaxBlockEntries || EfStreamBits(block_size, count, next, l) > (block_size - 6) * 8)
              << "block " << b << " had room for the next value";
        }
      }
      ASSERT_EQ(all, values);
    }
  }
}

// The width the encoder picks is the smallest that minimizes the block's
// bits, whatever the guess the search starts from.
TEST(EfCodec, BestWidthIsTheSmallestMinimum) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const uint32_t count = 1 + static_cast<uint32_t>(rng() % 3000);
    const uint64_t last = rng() >> (rng() % 64);
    const size_t block_size = size_t{64} << (rng() % 11);
    int best = 0;
    for (int l = 1; l <= kEfMaxLowWidth; ++l) {
      if (EfStreamBits(block_size, count, last, l) < EfStreamBits(block_size, count, last, best)) best = l;
    }
    const int guess = static_cast<int>(rng() % 64);
    ASSERT_EQ(EfBestLowWidth(block_size, count, last, guess), best)
        << "count " << count << ", last " << last << ", guess " << guess;
  }
}

// ScanBlocks over ranges that start below the head, inside buckets, between
// values, past the last value, and span blocks, against the values
// themselves; CountInBlock likewise.
TEST(EfCodec, ScansAndCountsEqualBruteForce) {
  std::mt19937_64 rng(11);
  for (uint32_t block_size : {64u, 256u, 4096u}) {
    for (int shape = 0; shape < 2; ++shape) {
      SCOPED_TRACE(testing::Message() << "block size " << block_size << ", shape " << shape);
      const std::vector<uint64_t> values = shape == 0 ? Uniform(4000, 3) : Mixed(4000, 3);
      const Encoded e = Encode(values, block_size);
      const size_t nblocks = e.table.heads.size();
      for (int round = 0; round < 20; ++round) {
        std::vector<BlockScan> scans(nblocks);
        std::vector<std::vector<uint64_t>> outs(nblocks);
        for (size_t b = 0; b < nblocks; ++b) {
          const uint64_t pick = values[e.first(b) + rng() % (e.last(b, values.size()) - e.first(b))];
          const uint64_t width = ~uint64_t{0} >> (rng() % 65 == 64 ? 63 : rng() % 64);
          uint64_t lo = round % 5 == 0 ? rng() : pick - std::min<uint64_t>(pick, rng() & width);
          uint64_t hi = lo + std::min(~lo, rng() & width);
          if (round % 7 == 0) hi = lo;
          BlockScan& s = scans[b];
          s.ptr = e.block(b);
          s.limit = e.end();
          s.head = e.table.heads[b];
          s.decoder = e.decoder.get();
          s.lo = lo;
          s.hi = hi;
          s.seed = BlockSeed(5, b);
          s.restart_guess = e.decoder->PrefetchScan(s.ptr, block_size, (rng() % 100) / 99.0);
          s.out = &outs[b];
        }
        BlockReadOptions verify;
        verify.verify_checksum = true;
        BlockScanStats stats;
        ScanBlocks(scans.data(), nblocks, block_size, verify, &stats);
        uint64_t in_range = 0;
        for (size_t b = 0; b < nblocks; ++b) {
          const BlockScan& s = scans[b];
          ASSERT_TRUE(s.status.ok()) << "block " << b << ": " << s.status.ToString();
          std::vector<uint64_t> want;
          size_t end = e.first(b);
          const size_t stop = e.last(b, values.size());
          while (end < stop && values[end] <= s.hi) {
            if (values[end] >= s.lo) want.push_back(values[end]);
            ++end;
          }
          ASSERT_EQ(outs[b], want) << "block " << b << ", lo " << s.lo << ", hi " << s.hi;
          EXPECT_EQ(s.reached_end, end == stop) << "block " << b;
          if (!want.empty()) {
            EXPECT_EQ(s.end_index, end - e.first(b)) << "block " << b;
          }
          in_range += want.size();

          uint64_t below, equal;
          bool reached_end;
          const uint64_t v = round % 2 == 0 ? s.lo : values[e.first(b) + rng() % (stop - e.first(b))];
          BlockReadOptions count_options = verify;
          count_options.seed = s.seed;
          Status cs = e.decoder->CountInBlock(s.ptr, s.limit, block_size, s.head, v, 0, count_options, &below, &equal,
                                              &reached_end, nullptr);
          ASSERT_TRUE(cs.ok()) << cs.ToString();
          const auto lower = std::lower_bound(values.begin() + e.first(b), values.begin() + stop, v);
          const auto upper = std::upper_bound(values.begin() + e.first(b), values.begin() + stop, v);
          EXPECT_EQ(below, static_cast<uint64_t>(lower - values.begin()) - e.first(b)) << "block " << b << ", v " << v;
          EXPECT_EQ(equal, static_cast<uint64_t>(upper - lower)) << "block " << b << ", v " << v;
          EXPECT_EQ(reached_end, upper == values.begin() + stop) << "block " << b << ", v " << v;
        }
        EXPECT_EQ(stats.blocks, nblocks);
        EXPECT_EQ(stats.values_in_range, in_range);
        EXPECT_GE(stats.values_decoded, in_range);
      }
    }
  }
}

TEST(EfCodec, TruncatedBlocksAreCorruption) {
  const Encoded e = Encode(Uniform(500, 4), 256);
  std::vector<uint64_t> out;
  for (size_t len = 0; len < 256; ++len) {
    // The block's bytes alone, cut short, in a buffer of exactly that size.
    std::vector<uint8_t> bytes(e.block(0), e.block(0) + len);
    Status s = e.decoder->DecodeBlock(bytes.data(), bytes.data() + len, 256, e.table.heads[0], BlockReadOptions(), &out);
    EXPECT_EQ(s.message(), "truncated block");
  }
}

// Every single bit flipped in blocks of each size: with checksums checked
// each is Corruption; without, every decode, scan and count returns a
// status without reading outside the block (the buffer is exactly the
// block, for AddressSanitizer), and what a full decode accepts is sorted.
TEST(EfCodec, EveryBitFlipIsCaughtOrHarmless) {
  std::mt19937_64 rng(5);
  for (uint32_t block_size : {64u, 256u}) {
    for (const std::vector<uint64_t>& values : {Uniform(300, 8), Mixed(300, 8)}) {
      const Encoded e = Encode(values, block_size);
      for (size_t b = 0; b < std::min<size_t>(e.table.heads.size(), 3); ++b) {
        for (size_t bit = 0; bit < block_size * 8; ++bit) {
          std::vector<uint8_t> bytes(e.block(b), e.block(b) + block_size);
          bytes[bit / 8] ^= static_cast<uint8_t>(0x80 >> (bit % 8));
          const uint8_t* p = bytes.data();
          const uint8_t* limit = p + block_size;
          const uint64_t head = e.table.heads[b];
          std::vector<uint64_t> out;
          BlockReadOptions options;
          options.verify_checksum = true;
          options.seed = BlockSeed(5, b);
          EXPECT_TRUE(e.decoder->DecodeBlock(p, limit, block_size, head, options, &out).IsCorruption()) << bit;
          options = BlockReadOptions();
          options.strict = true;
          Status s = e.decoder->DecodeBlock(p, limit, block_size, head, options, &out);
          if (s.ok()) {
            EXPECT_TRUE(std::is_sorted(out.begin(), out.end())) << bit;
          } else {
            EXPECT_TRUE(s.IsCorruption()) << bit << ": " << s.ToString();
          }
          const uint64_t lo = rng(), hi = lo + (rng() >> (rng() % 64)) % (~lo + 1);
          BlockScan scan;
          scan.ptr = p;
          scan.limit = limit;
          scan.head = head;
          scan.decoder = e.decoder.get();
          scan.lo = std::min(lo, hi);
          scan.hi = std::max(lo, hi);
          scan.out = &out;
          out.clear();
          ScanBlocks(&scan, 1, block_size, BlockReadOptions(), nullptr);
          EXPECT_TRUE(scan.status.ok() || scan.status.IsCorruption()) << bit;
          uint64_t below, equal;
          bool reached_end;
          s = e.decoder->CountInBlock(p, limit, block_size, head, lo, 0, BlockReadOptions(), &below, &equal,
                                      &reached_end, nullptr);
          EXPECT_TRUE(s.ok() || s.IsCorruption()) << bit;
        }
      }
    }
  }
}

// Damage that the checksum would catch, made with a valid checksum, so
// that the decoder's own checks are what find it.
TEST(EfCodec, StructuralDamageIsNamed) {
  // One block of 256 bytes: 1000, 1001, 1020, 1021, 1040, ... (pairs that
  // share a bucket).
  std::vector<uint64_t> values;
  for (uint64_t k = 0; k < 40; ++k) values.push_back(1000 + k / 2 * 20 + k % 2);
  const Encoded e = Encode(values, 256);
  ASSERT_EQ(e.table.heads.size(), 1u);
  auto decode = [&](std::vector<uint8_t> bytes) {
    EncodeFixed32(reinterpret_cast<char*>(bytes.data()), BlockChecksum(bytes.data(), 256, 0));
    std::vector<uint64_t> out;
    BlockReadOptions options;
    options.verify_checksum = true;
    options.strict = true;
    return e.decoder->DecodeBlock(bytes.data(), bytes.data() + 256, 256, 1000, options, &out);
  };
  const std::vector<uint8_t> good(e.block(0), e.block(0) + 256);
  EXPECT_TRUE(decode(good).ok());
  // The fields: 6 bits of L, then w = 11 bits of Z, from byte 6.
  const uint32_t fields = uint32_t{good[6]} << 16 | uint32_t{good[7]} << 8 | good[8];
  const uint32_t zeros = (fields >> 7) & 0x7ff;
  ASSERT_EQ(zeros, (values.back() - 1000) >> (fields >> 18));

  std::vector<uint8_t> bytes = good;
  EncodeFixed16(reinterpret_cast<char*>(bytes.data() + 4), 0);
  EXPECT_EQ(decode(bytes).message(), "bad entry count 0");

  bytes = good;
  bytes[255] = 1;
  EXPECT_EQ(decode(bytes).message(), "nonzero padding");

  bytes = good;
  bytes[6] |= 0xfc;  // L = 63: the lower bits overrun the block
  const EfLayout overrun = EfLayout::For(256, 40, 63, zeros);
  EXPECT_EQ(decode(bytes).message(),
            "the bit stream (" + std::to_string(overrun.end - 48) + " bits) overruns the block");

  bytes = good;
  EncodeFixed16(reinterpret_cast<char*>(bytes.data() + 4), 1);
  EXPECT_EQ(decode(bytes).message(), "bucket " + std::to_string(zeros) + " without entries");

  // One more entry than the upper bits hold.
  bytes = good;
  EncodeFixed16(reinterpret_cast<char*>(bytes.data() + 4), 41);
  EXPECT_FALSE(decode(bytes).ok());

  // Two entries of one bucket with their low bits swapped: out of order.
  const int l = static_cast<int>(fields >> 18);
  const EfLayout layout = EfLayout::For(256, 40, l, zeros);
  size_t i = 1;
  while (i + 1 < 40 && (values[i] - 1000) >> l != (values[i + 1] - 1000) >> l) ++i;
  ASSERT_LT(i + 1, 40u) << "no two entries share a bucket";
  auto put = [](std::vector<uint8_t>* b, size_t pos, int n, uint64_t v) {
    for (int k = 0; k < n; ++k, ++pos) {
      const uint8_t bit = static_cast<uint8_t>(0x80 >> (pos % 8));
      (*b)[pos / 8] = static_cast<uint8_t>(((v >> (n - 1 - k)) & 1) ? (*b)[pos / 8] | bit : (*b)[pos / 8] & ~bit);
    }
  };
  const uint64_t mask = (uint64_t{1} << l) - 1;
  bytes = good;
  put(&bytes, layout.lower_start + (i - 1) * l, l, (values[i + 1] - 1000) & mask);
  put(&bytes, layout.lower_start + i * l, l, (values[i] - 1000) & mask);
  EXPECT_EQ(decode(bytes).message(), "entry " + std::to_string(i + 1) + " out of order");

  // A select sample that does not say where its bucket starts: a block
  // with Z >= 256 (values 0, 1, ... at L = 0 have one zero each).
  std::vector<uint64_t> dense;
  for (uint64_t v = 0; v < 300; ++v) dense.push_back(v);
  const Encoded d = Encode(dense, 256);
  std::vector<uint8_t> sampled(d.block(0), d.block(0) + 256);
  const uint32_t dense_fields = uint32_t{sampled[6]} << 16 | uint32_t{sampled[7]} << 8 | sampled[8];
  ASSERT_EQ(dense_fields >> 18, 0u) << "L = 0";
  ASSERT_GE((dense_fields >> 7) & 0x7ff, 256u) << "one sample at least";
  const uint32_t sample = (dense_fields & 0x7f) << 4 | sampled[9] >> 4;
  put(&sampled, 48 + 6 + 11, 11, sample + 1);
  EncodeFixed32(reinterpret_cast<char*>(sampled.data()), BlockChecksum(sampled.data(), 256, 0));
  std::vector<uint64_t> out;
  EXPECT_EQ(d.decoder->DecodeBlock(sampled.data(), sampled.data() + 256, 256, 0, BlockReadOptions(), &out).message(),
            "bad select sample 1");
}

}  // namespace
}  // namespace simdex::format
