// TableCursor against the sorted permuted values it must produce: whole
// tables read in order, and increasing seeks, over every standard data set,
// scheme and a few block sizes (tiny blocks put runs of equal values across
// block boundaries).
#include "engine/simhash/index/table_cursor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "simdex/index.h"
#include "tests/index/test_data.h"

namespace simdex::testing {
namespace {

struct Built {
  std::unique_ptr<IndexReader> reader;
  std::vector<std::vector<uint64_t>> tables;  // expected sorted permuted values
};

Built BuildAndOpen(const ScopedTempDir& dir, const DataSet& data, const std::string& scheme, uint32_t block_size) {
  BuildOptions options;
  options.scheme = SchemeOrDie(scheme);
  options.block_size = block_size;
  const std::string path = dir.File(data.name + ".sdx");
  Status s = BuildIndex(path, options, data.entries);
  EXPECT_TRUE(s.ok()) << s.ToString();
  Built b;
  s = IndexReader::Open(path, ReaderOptions(), &b.reader);
  EXPECT_TRUE(s.ok()) << s.ToString();
  for (int t = 0; t < options.scheme.num_tables(); ++t) {
    std::vector<uint64_t> v;
    for (const Entry& e : data.entries) v.push_back(options.scheme.table(t).Apply(e.fingerprint));
    std::sort(v.begin(), v.end());
    b.tables.push_back(std::move(v));
  }
  return b;
}

class TableCursorTest : public ::testing::TestWithParam<std::tuple<std::string, uint32_t>> {};

TEST_P(TableCursorTest, ReadsEveryTableInSortedOrder) {
  const auto& [scheme, block_size] = GetParam();
  ScopedTempDir dir;
  for (const DataSet& data : StandardDataSets(2)) {
    Built b = BuildAndOpen(dir, data, scheme, block_size);
    for (size_t t = 0; t < b.tables.size(); ++t) {
      simhash::TableCursor cursor(*b.reader, static_cast<int>(t));
      std::vector<uint64_t> got;
      Status s = cursor.Seek(0);
      while (s.ok() && cursor.Valid()) {
        // Table 0 has a rank index: a value's rank is its position.
        if (t == 0) {
          EXPECT_EQ(cursor.Rank(), got.size()) << data.name;
        }
        got.push_back(cursor.value());
        s = cursor.Next();
      }
      ASSERT_TRUE(s.ok()) << s.ToString();
      EXPECT_EQ(got, b.tables[t]) << data.name << " table " << t;
    }
  }
}

TEST_P(TableCursorTest, IncreasingSeeksLandOnTheFirstValueNotBelowTheTarget) {
  const auto& [scheme, block_size] = GetParam();
  ScopedTempDir dir;
  std::mt19937_64 rng(7);
  for (const DataSet& data : StandardDataSets(2)) {
    Built b = BuildAndOpen(dir, data, scheme, block_size);
    for (size_t t = 0; t < b.tables.size(); ++t) {
      const std::vector<uint64_t>& want = b.tables[t];
      // Targets: stored values (runs of equal values included), values just
      // above and below them, and random values, in increasing order; some
      // repeated, so that a seek to where the cursor already is stays.
      std::vector<uint64_t> targets;
      for (size_t i = 0; i < want.size(); i += 1 + rng() % 7) {
        targets.push_back(want[i]);
        if (want[i] > 0) targets.push_back(want[i] - 1);
        targets.push_back(want[i] + 1);
      }
      for (int i = 0; i < 50; ++i) targets.push_back(rng());
      std::sort(targets.begin(), targets.end());
      simhash::TableCursor cursor(*b.reader, static_cast<int>(t));
      size_t passed = 0;  // values the cursor has moved past (it never moves back)
      for (uint64_t lo : targets) {
        ASSERT_TRUE(cursor.Seek(lo).ok());
        const size_t expect = std::max<size_t>(passed, std::lower_bound(want.begin(), want.end(), lo) - want.begin());
        if (expect == want.size()) {
          EXPECT_FALSE(cursor.Valid()) << data.name << " table " << t << " seek " << lo;
          break;
        }
        ASSERT_TRUE(cursor.Valid()) << data.name << " table " << t << " seek " << lo;
        EXPECT_EQ(cursor.value(), want[expect]) << data.name << " table " << t << " seek " << lo;
        passed = expect;
      }
      EXPECT_LE(cursor.blocks_decoded(), b.reader->Info().tables[t].blocks);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Schemes, TableCursorTest,
                         ::testing::Combine(::testing::Values("t4", "t10", "32,32:1", "64:0"),
                                            ::testing::Values(64u, 4096u)));

TEST(TableCursorTest, DamagedBlockIsCorruptionNamingBlockAndTable) {
  ScopedTempDir dir;
  std::vector<Entry> entries = AssignIds(UniformFingerprints(2000, 3), IdStyle::kSequential, 3);
  BuildOptions options;
  options.block_size = 64;
  const std::string path = dir.File("x.sdx");
  ASSERT_TRUE(BuildIndex(path, options, entries).ok());
  std::unique_ptr<IndexReader> reader;
  ASSERT_TRUE(IndexReader::Open(path, ReaderOptions(), &reader).ok());
  // Overwrite the count of table 1's block 3 with 0 (an invalid count).
  // docs/format.md: the 64-byte header, then table 0's blocks and head
  // index, then table 1's blocks, aligned to min(B, 4096) = 64 bytes.
  const IndexInfo info = reader->Info();
  reader.reset();
  std::string bytes = ReadFileOrDie(path);
  const uint64_t table0_end = 64 + info.tables[0].blocks * 64 + info.tables[0].blocks * 8;
  const uint64_t offset = (table0_end + 63) / 64 * 64 + 3 * 64;
  bytes[offset + 4] = 0;
  bytes[offset + 5] = 0;
  std::unique_ptr<IndexReader> damaged;
  ASSERT_TRUE(IndexReader::Open(NewMemoryFile(bytes), ReaderOptions(), &damaged).ok());
  simhash::TableCursor cursor(*damaged, 1);
  Status s = cursor.Seek(0);
  while (s.ok() && cursor.Valid()) s = cursor.Next();
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find("block 3 of table 1"), std::string::npos) << s.message();
  EXPECT_FALSE(cursor.Valid());
}

}  // namespace
}  // namespace simdex::testing
