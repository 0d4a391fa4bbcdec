// ReaderOptions::access for MinHash-LSH indexes: the advice an
// LshIndexReader opened from a path gives the kernel (/proc/self/smaps), and
// under MADV_RANDOM with the sections checked on first use the same
// answers, a passing Verify() and a merge that writes the same bytes as
// from a reader under the kernel's default.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "simdex/lsh_index.h"
#include "tests/index/mapping_flags.h"
#include "tests/index/test_data.h"
#include "tests/lsh/lsh_data.h"

namespace simdex {
namespace {

using Access = ReaderOptions::Access;
using testing::AdvisedRandom;
using testing::ExpectTheMappingAdvisedAsAsked;
using testing::ReadFileOrDie;
using testing::ScopedTempDir;

std::unique_ptr<LshIndexReader> OpenWith(const std::string& path, Access access, bool lazy = false) {
  ReaderOptions options;
  options.access = access;
  options.verify_heads_on_open = !lazy;
  std::unique_ptr<LshIndexReader> reader;
  Status s = LshIndexReader::Open(path, options, &reader);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return reader;
}

// Rewrites the index `old` holds, adding and deleting nothing, into out.
Status Rewrite(const LshIndexReader* old, const std::string& out) {
  std::unique_ptr<LshIndexMerger> merger;
  SIMDEX_RETURN_IF_ERROR(LshIndexMerger::Create(old, out, &merger));
  return merger->Finish();
}

class LshAccessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    docs_ = testing::ClusteredDocuments(600, 128, 3);
    options_.block_size = 64;  // many blocks per band table
    path_ = dir_.File("lsh.sdx");
    ASSERT_TRUE(testing::BuildLshIndex(path_, options_, docs_).ok());
  }
  ScopedTempDir dir_;
  std::vector<testing::LshDocument> docs_;
  LshBuildOptions options_;
  std::string path_;
};

TEST_F(LshAccessTest, TheMappingIsAdvisedAsAsked) { ExpectTheMappingAdvisedAsAsked<LshIndexReader>(path_); }

TEST_F(LshAccessTest, AnswersVerifyAndMergesAreTheSameUnderRandomAccess) {
  auto around = OpenWith(path_, Access::kReadAround);
  auto random = OpenWith(path_, Access::kRandom, /*lazy=*/true);
  ASSERT_TRUE(AdvisedRandom(path_));
  LshQueryOptions keep_all;
  keep_all.min_estimate = 0;
  size_t found = 0;
  for (size_t i = 0; i < docs_.size(); i += 5) {
    std::vector<LshMatch> want, got;
    ASSERT_TRUE(around->Query(docs_[i].signature.data(), keep_all, &want).ok());
    ASSERT_TRUE(random->Query(docs_[i].signature.data(), keep_all, &got).ok());
    EXPECT_EQ(got, want) << i;
    found += got.size();
  }
  EXPECT_GT(found, docs_.size() / 5);
  Status s = random->Verify();
  EXPECT_TRUE(s.ok()) << s.ToString();

  ASSERT_TRUE(Rewrite(around.get(), dir_.File("around.sdx")).ok());
  ASSERT_TRUE(Rewrite(random.get(), dir_.File("random.sdx")).ok());
  EXPECT_EQ(ReadFileOrDie(dir_.File("random.sdx")), ReadFileOrDie(dir_.File("around.sdx")));
}

}  // namespace
}  // namespace simdex
