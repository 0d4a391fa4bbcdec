// ReaderOptions::access: the advice an IndexReader opened from a path gives
// the kernel (read from /proc/self/smaps: "rr" in VmFlags is MADV_RANDOM),
// and the same answers, id reads, table streams and Verify() under each
// (LshIndexReader's: tests/lsh/lsh_access_test.cc).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/index/table_cursor.h"
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

class ReaderAccessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    data_ = StandardDataSets(3)[0];
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
    index::TableCursor a(*around, t), b(*random, t);
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

}  // namespace
}  // namespace simdex::testing
