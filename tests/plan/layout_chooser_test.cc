// IndexBuilder::SetLayoutChooser: the layout is settled at Finish() from the
// count, checked as Create() checks it, and its errors fail the build.
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "simdex/index.h"

namespace simdex {
namespace {

class LayoutChooser : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir_);
    ASSERT_TRUE(IndexBuilder::Create(path_, BuildOptions(), &builder_).ok());
    std::mt19937_64 rng(11);
    for (uint64_t i = 0; i < kEntries; ++i) ASSERT_TRUE(builder_->Add(i, rng()).ok());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static constexpr uint64_t kEntries = 2000;
  const std::string dir_ =
      std::filesystem::temp_directory_path() / ("simdex-layout-" + std::to_string(getpid()));
  const std::string path_ = dir_ + "/index.sdx";
  std::unique_ptr<IndexBuilder> builder_;
};

TEST_F(LayoutChooser, ChoiceMadeFromTheCountShapesTheFile) {
  uint64_t seen = 0;
  builder_->SetLayoutChooser([&seen](uint64_t entries, BuildOptions* options) {
    seen = entries;
    options->block_size = 1024;
    options->codec = "ef";
    options->memory_bytes = 1;  // not the chooser's to change: ignored
    return Scheme::Parse("t4", &options->scheme);
  });
  const Status s = builder_->Finish();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(seen, kEntries);
  std::unique_ptr<IndexReader> reader;
  ASSERT_TRUE(IndexReader::Open(path_, ReaderOptions(), &reader).ok());
  const IndexInfo info = reader->Info();
  EXPECT_EQ(info.scheme, "t4");
  EXPECT_EQ(info.block_size, 1024u);
  ASSERT_EQ(info.tables.size(), 4u);
  for (const IndexInfo::Table& t : info.tables) EXPECT_EQ(t.codec, "ef");
  EXPECT_TRUE(reader->Verify().ok());
}

TEST_F(LayoutChooser, ChoosersErrorFailsTheBuildAndLeavesNoFile) {
  builder_->SetLayoutChooser([](uint64_t, BuildOptions*) { return Status::InvalidArgument("no plan fits"); });
  const Status s = builder_->Finish();
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ(s.message(), "no plan fits");
  EXPECT_FALSE(std::filesystem::exists(path_));
}

TEST_F(LayoutChooser, BadBlockSizeFromTheChooserIsRefused) {
  builder_->SetLayoutChooser([](uint64_t, BuildOptions* options) {
    options->block_size = 1000;
    return Status::OK();
  });
  const Status s = builder_->Finish();
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("block size 1000"), std::string::npos) << s.message();
  EXPECT_FALSE(std::filesystem::exists(path_));
}

}  // namespace
}  // namespace simdex
