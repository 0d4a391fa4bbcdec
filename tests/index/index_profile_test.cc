// The fingerprint profile an index records (BuildOptions::profile): written
// by the builder, returned by the reader, refused when it cannot be stored.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "simdex/index.h"
#include "simdex/profile.h"
#include "tests/index/test_data.h"

namespace simdex::testing {
namespace {

const std::vector<Entry> kEntries = {{1, 0x1234}, {2, 0xfeed}, {3, 0x1235}};

std::unique_ptr<IndexReader> OpenOrDie(const std::string& path) {
  std::unique_ptr<IndexReader> reader;
  Status s = IndexReader::Open(path, ReaderOptions(), &reader);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return reader;
}

TEST(IndexProfileTest, TheReaderReturnsTheProfileTheBuilderRecorded) {
  ScopedTempDir dir;
  FingerprintOptions fo;
  BuildOptions options;
  ASSERT_TRUE(FingerprintProfile(fo, &options.profile).ok());
  ASSERT_TRUE(BuildIndex(dir.File("a.sdx"), options, kEntries).ok());
  auto reader = OpenOrDie(dir.File("a.sdx"));
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->profile(), options.profile);
  EXPECT_EQ(reader->Info().profile, options.profile);
  EXPECT_TRUE(reader->Verify().ok());
}

TEST(IndexProfileTest, AnIndexBuiltWithoutAProfileRecordsNone) {
  ScopedTempDir dir;
  ASSERT_TRUE(BuildIndex(dir.File("a.sdx"), BuildOptions(), kEntries).ok());
  auto reader = OpenOrDie(dir.File("a.sdx"));
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->profile(), "");
}

TEST(IndexProfileTest, SetProfileBeforeFinishIsWhatTheFileRecords) {
  ScopedTempDir dir;
  std::unique_ptr<IndexBuilder> builder;
  ASSERT_TRUE(IndexBuilder::Create(dir.File("a.sdx"), BuildOptions(), &builder).ok());
  ASSERT_TRUE(builder->Add(7, 0xabc).ok());
  ASSERT_TRUE(builder->SetProfile("learned later").ok());
  ASSERT_TRUE(builder->Finish().ok());
  EXPECT_TRUE(builder->SetProfile("too late").IsInvalidArgument());
  auto reader = OpenOrDie(dir.File("a.sdx"));
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->profile(), "learned later");
}

TEST(IndexProfileTest, AProfileThatCannotBeStoredIsRefusedAndNothingIsWritten) {
  ScopedTempDir dir;
  for (const std::string& bad : {std::string("two\nlines"), std::string(kMaxProfileLength + 1, 'p')}) {
    BuildOptions options;
    options.profile = bad;
    std::unique_ptr<IndexBuilder> builder;
    EXPECT_TRUE(IndexBuilder::Create(dir.File("a.sdx"), options, &builder).IsInvalidArgument());
    ASSERT_TRUE(IndexBuilder::Create(dir.File("a.sdx"), BuildOptions(), &builder).ok());
    ASSERT_TRUE(builder->Add(1, 2).ok());
    EXPECT_TRUE(builder->SetProfile(bad).IsInvalidArgument());
    EXPECT_FALSE(builder->Finish().ok()) << "a failed builder stays failed";
  }
  EXPECT_TRUE(dir.List().empty());
}

}  // namespace
}  // namespace simdex::testing
