// ReaderOptions::access: the advice an IndexReader opened from a path gives
// the kernel (read from /proc/self/smaps: "rr" in VmFlags is MADV_RANDOM),
// and the same answers, id reads, table streams and Verify() under each
// (LshIndexReader's: tests/lsh/lsh_access_test.cc); ReaderOptions::cold_reads:
// the brute-force answers whether a search asks for its blocks ahead or not.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/simhash/index/table_cursor.h"
#include "simdex/index.h"
#include "tests/index/mapping_flags.h"
#include "tests/index/test_data.h"

namespace simdex::testing {
namespace {

using Access = ReaderOptions::Access;

std::unique_ptr<IndexReader> OpenWith(const std::string& path, Access access) {
  ReaderOptions options;
  options.access = access;
  std::unique_ptr<IndexReader> reader;
  Status s = IndexReader::Open(path, options, &reader);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return reader;
}

// Drops the file's pages from the page cache (those not mapped in).
void EvictFromPageCache(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0) << path;
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

class ReaderAccessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (DataSet& set : StandardDataSets()) {
      if (set.name == "uniform") data_ = std::move(set);  // 1,000 entries: many blocks of 256 bytes
    }
    ASSERT_FALSE(data_.entries.empty());
    BuildOptions options;
    options.block_size = 256;
    path_ = dir_.File("index.sdx");
    ASSERT_TRUE(BuildIndex(path_, options, data_.entries).ok());
  }
  ScopedTempDir dir_;
  DataSet data_;
  std::string path_;
};

TEST_F(ReaderAccessTest, TheMappingIsAdvisedAsAsked) { ExpectTheMappingAdvisedAsAsked<IndexReader>(path_); }

TEST_F(ReaderAccessTest, AnswersStreamsAndVerifyAreTheSameUnderRandomAccess) {
  auto around = OpenWith(path_, Access::kReadAround);
  ReaderOptions lazy;  // the heads and ids checked on first use, under MADV_RANDOM
  lazy.access = Access::kRandom;
  lazy.verify_heads_on_open = false;
  std::unique_ptr<IndexReader> random;
  ASSERT_TRUE(IndexReader::Open(path_, lazy, &random).ok());
  ASSERT_TRUE(AdvisedRandom(path_));
  for (size_t i = 0; i < data_.entries.size(); i += 7) {
    std::vector<Match> want, got;
    ASSERT_TRUE(around->Search(data_.entries[i].fingerprint, 3, &want).ok());
    ASSERT_TRUE(random->Search(data_.entries[i].fingerprint, 3, &got).ok());
    EXPECT_EQ(got, want) << i;
  }
  for (int t = 0; t < random->scheme().num_tables(); ++t) {
    simhash::TableCursor a(*around, t), b(*random, t);
    ASSERT_TRUE(a.Seek(0).ok());
    ASSERT_TRUE(b.Seek(0).ok());
    uint64_t values = 0;
    while (a.Valid()) {
      ASSERT_TRUE(b.Valid());
      ASSERT_EQ(a.value(), b.value());
      ASSERT_TRUE(a.Next().ok());
      ASSERT_TRUE(b.Next().ok());
      ++values;
    }
    EXPECT_FALSE(b.Valid());
    EXPECT_EQ(values, data_.entries.size());
  }
  EXPECT_TRUE(random->Verify().ok());
}

// ReaderOptions::cold_reads: asking for a query's blocks ahead changes
// speed, never answers. The file is evicted after Open() (where the file
// system lets it be), so that the blocks asked for are read from the disk;
// kAlways and kWhenMissing (from a fresh reader's first search) ask, kNever
// does not.
TEST_F(ReaderAccessTest, ColdReadsGiveTheBruteForceAnswersAndAskAsTold) {
  using ColdReads = ReaderOptions::ColdReads;
  std::mt19937_64 rng(39);
  std::vector<uint64_t> queries;
  for (size_t i = 0; i < data_.entries.size(); i += 5) {
    queries.push_back(FlipRandomBits(data_.entries[i].fingerprint, static_cast<int>(i % 4), rng));
    queries.push_back(rng());
  }
  for (const ColdReads cold_reads : {ColdReads::kNever, ColdReads::kWhenMissing, ColdReads::kAlways}) {
    ReaderOptions options;
    options.access = Access::kRandom;
    options.verify_heads_on_open = false;
    options.cold_reads = cold_reads;
    std::unique_ptr<IndexReader> reader;
    ASSERT_TRUE(IndexReader::Open(path_, options, &reader).ok());
    EvictFromPageCache(path_);
    SearchStats stats;
    for (const uint64_t q : queries) {
      std::vector<Match> got;
      ASSERT_TRUE(reader->Search(q, 3, &got, &stats).ok());
      EXPECT_EQ(got, BruteForceSearch(data_.entries, q, 3)) << q;
    }
    // Every k, whose tables differ: a batch chunk that asked scans with
    // the probes it placed.
    for (int k = 0; k <= 3; ++k) {
      SearchResults batch;
      ASSERT_TRUE(reader->Search(queries, k, &batch, 2, &stats).ok());
      for (size_t i = 0; i < queries.size(); ++i) {
        const std::vector<Match> got(batch.matches.begin() + static_cast<std::ptrdiff_t>(batch.lims[i]),
                                     batch.matches.begin() + static_cast<std::ptrdiff_t>(batch.lims[i + 1]));
        EXPECT_EQ(got, BruteForceSearch(data_.entries, queries[i], k)) << i << " k " << k;
      }
    }
    // kWhenMissing asks from a fresh reader's first search on, until a
    // scan finds its blocks in memory.
    if (cold_reads == ColdReads::kNever) {
      EXPECT_EQ(stats.blocks_asked, 0u);
    } else {
      EXPECT_GT(stats.blocks_asked, 0u);
    }
  }
}

}  // namespace
}  // namespace simdex::testing
