// ScanBlocks (interleaved) gives exactly ScanBlock's results, block by block.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "format/card/block_reader.h"
#include "tests/format/table_util.h"

namespace simdex::format {
namespace {

using testing::BlockSeed;
using testing::EncodedTable;
using testing::EncodeTable;

std::vector<uint64_t> SortedRandom(size_t n, uint64_t seed, uint64_t mask) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = rng() & mask;
  std::sort(v.begin(), v.end());
  return v;
}

// Scans a random block of each table, one range per block, both ways. With
// random_guess the interleaved scans start their restart search anywhere:
// the results must not change, only the work (values_decoded).
void CompareWithScanBlock(const std::vector<EncodedTable>& tables, std::mt19937_64& rng, bool verify,
                          bool random_guess = false) {
  const size_t bs = tables[0].block_size;
  std::vector<BlockScan> scans(tables.size());
  std::vector<std::vector<uint64_t>> got(tables.size());
  for (size_t t = 0; t < tables.size(); ++t) {
    const EncodedTable& table = tables[t];
    const size_t b = rng() % table.heads.size();
    uint64_t lo = rng(), hi = rng();
    if (rng() % 2) {  // a range around the block's head: the common query shape
      lo = table.heads[b] + (rng() % 4096) - 2048;
      hi = lo + (rng() % (uint64_t{1} << 40));
    }
    if (lo > hi) std::swap(lo, hi);
    const uint8_t* limit = reinterpret_cast<const uint8_t*>(table.blocks.data()) + table.blocks.size();
    BlockScan& s = scans[t];
    s.ptr = table.block(b);
    s.limit = limit;
    s.head = table.heads[b];
    s.decoder = &table.decoder;
    s.lo = lo;
    s.hi = hi;
    s.seed = BlockSeed(table.table, b);
    if (random_guess) s.restart_guess = static_cast<int>(rng() % (kMaxRestarts + 1));
    s.out = &got[t];
  }
  BlockReadOptions options;
  options.verify_checksum = verify;
  BlockScanStats many;
  ScanBlocks(scans.data(), scans.size(), bs, options, &many);
  BlockScanStats one;
  for (size_t t = 0; t < tables.size(); ++t) {
    const BlockScan& s = scans[t];
    std::vector<uint64_t> want;
    bool reached_end = false;
    BlockReadOptions o = options;
    o.seed = s.seed;
    const CardDecoder& decoder = static_cast<const CardDecoder&>(*s.decoder);
    Status st = ScanBlock(s.ptr, s.limit, bs, s.head, decoder, s.lo, s.hi, o, &want, &reached_end, &one);
    EXPECT_EQ(s.status.ToString(), st.ToString()) << "table " << t;
    EXPECT_EQ(got[t], want) << "table " << t;
    if (st.ok()) {
      EXPECT_EQ(s.reached_end, reached_end) << "table " << t;
      // end_index places the values in the block (a damaged block may scan
      // cleanly up to the range and still fail to decode whole).
      std::vector<uint64_t> all;
      if (!DecodeBlock(s.ptr, s.limit, bs, s.head, decoder, BlockReadOptions(), &all).ok()) continue;
      ASSERT_GE(s.end_index, got[t].size()) << "table " << t;
      ASSERT_LE(s.end_index, all.size()) << "table " << t;
      EXPECT_EQ(std::vector<uint64_t>(all.begin() + (s.end_index - got[t].size()), all.begin() + s.end_index), got[t])
          << "table " << t;
      if (s.reached_end) {
        EXPECT_EQ(s.end_index, all.size()) << "table " << t;
      }
    }
  }
  EXPECT_EQ(many.blocks, one.blocks);
  if (!random_guess) {
    EXPECT_EQ(many.values_decoded, one.values_decoded);
  }
  EXPECT_EQ(many.values_in_range, one.values_in_range);
}

TEST(ScanBlocks, InterleavedScansEqualScanBlock) {
  std::mt19937_64 rng(11);
  for (size_t bs : {64, 256, 1024, 4096}) {
    std::vector<EncodedTable> tables;
    for (int t = 0; t < 12; ++t) {
      const uint64_t mask = t % 3 == 0 ? ~0ULL : (t % 3 == 1 ? 0xFFFFFFFFULL : 0xFF000000000000FFULL);
      const int restarts = t % 4 == 0 ? 0 : (t % 4 == 1 ? 3 : (t % 4 == 2 ? 6 : 15));
      tables.push_back(EncodeTable(SortedRandom(3000, 100 + t, mask), bs, t, restarts));
    }
    for (int round = 0; round < 200; ++round) CompareWithScanBlock(tables, rng, round % 2 == 0, round % 4 >= 2);
  }
}

TEST(ScanBlocks, DamagedBlocksGiveScanBlocksErrors) {
  std::mt19937_64 rng(12);
  std::vector<EncodedTable> tables;
  for (int t = 0; t < 5; ++t) tables.push_back(EncodeTable(SortedRandom(2000, 200 + t, ~0ULL), 256, t));
  for (int round = 0; round < 300; ++round) {
    std::vector<EncodedTable> damaged = tables;
    for (auto& t : damaged) {
      for (int k = 0; k < 3; ++k) t.blocks[rng() % t.blocks.size()] ^= static_cast<char>(1 + rng() % 255);
    }
    CompareWithScanBlock(damaged, rng, round % 3 == 0);
  }
}

}  // namespace
}  // namespace simdex::format
