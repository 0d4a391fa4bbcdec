// MinHash-LSH builds and merges past their memory budget: the documents go
// to scratch files and are sorted externally (engine/minhash/index/lsh_spill.h), and
// the file is byte for byte the one an in-memory build writes (numeric and
// string ids, repeated ids, empty signatures, both codecs, several block
// sizes); a full or read-only scratch directory is a clean IOError that
// leaves neither the output nor a scratch file.
#include <sys/mount.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <tuple>

#include "tests/index/test_data.h"
#include "tests/lsh/lsh_data.h"

namespace simdex {
namespace {

using testing::ClusteredDocuments;
using testing::LshDocument;
using testing::ReadFileOrDie;
using testing::ScopedTempDir;

// 32 values in 4 bands of 8, 8-bit signatures (32 bytes): the smallest
// budget (512 KiB) holds 1472 documents in memory, sorts 3840 values of a
// band in a run and places 2048 signatures in a bucket.
constexpr size_t kTinyBudget = size_t{512} << 10;

LshBuildOptions SmallOptions() {
  LshBuildOptions o;
  o.minhash.num_perm = 32;
  o.bands = {4, 8};
  o.signature_bits = 8;
  return o;
}

// n clustered documents, plus a run of 40 sharing id 7 (some of them copies
// of one signature, some empty), string ids "doc-<id>".
std::vector<LshDocument> Documents(size_t n, int num_perm, uint64_t seed) {
  std::vector<LshDocument> docs = ClusteredDocuments(n, num_perm, seed);
  for (int i = 0; i < 40; ++i) {
    LshDocument d = docs[static_cast<size_t>(i % 3)];
    if (i % 7 == 0) d.signature.assign(static_cast<size_t>(num_perm), kEmptyMinimum);
    d.id = 7;
    docs.push_back(d);
  }
  for (auto& d : docs) d.string_id = "doc-" + std::to_string(d.id);
  return docs;
}

Status Build(const std::string& path, const LshBuildOptions& options, const std::vector<LshDocument>& docs,
             bool string_ids, LshBuildStats* stats) {
  std::unique_ptr<LshIndexBuilder> builder;
  SIMDEX_RETURN_IF_ERROR(LshIndexBuilder::Create(path, options, &builder));
  for (const LshDocument& d : docs) {
    SIMDEX_RETURN_IF_ERROR(string_ids ? builder->Add(d.string_id, d.signature.data())
                                      : builder->Add(d.id, d.signature.data()));
  }
  SIMDEX_RETURN_IF_ERROR(builder->Finish());
  *stats = builder->stats();
  return Status::OK();
}

class LshSpillTest : public ::testing::TestWithParam<std::tuple<bool, const char*, uint32_t>> {};

TEST_P(LshSpillTest, SpilledBuildIsTheInMemoryBuildByteForByte) {
  const auto [string_ids, codec, block_size] = GetParam();
  ScopedTempDir dir;
  const std::vector<LshDocument> docs = Documents(6000, 32, 5);
  LshBuildOptions options = SmallOptions();
  options.codec = codec;
  options.block_size = block_size;
  LshBuildStats in_memory, spilled;
  ASSERT_TRUE(Build(dir.File("memory.sdx"), options, docs, string_ids, &in_memory).ok());
  EXPECT_EQ(in_memory.spilled_bytes, 0u);
  options.memory_bytes = kTinyBudget;
  Status s = Build(dir.File("spilled.sdx"), options, docs, string_ids, &spilled);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_GT(spilled.spilled_runs, 0u);
  EXPECT_GT(spilled.spilled_bytes, 0u);
  EXPECT_EQ(spilled.documents, docs.size());
  EXPECT_EQ(spilled.banded, in_memory.banded);
  EXPECT_EQ(in_memory.id_map_runs, 0u);
  EXPECT_EQ(spilled.id_map_runs > 0, string_ids);
  EXPECT_EQ(ReadFileOrDie(dir.File("spilled.sdx")), ReadFileOrDie(dir.File("memory.sdx")));
  EXPECT_EQ(dir.List(), (std::vector<std::string>{"memory.sdx", "spilled.sdx"})) << "a scratch file was left";
}

INSTANTIATE_TEST_SUITE_P(IdsCodecsBlocks, LshSpillTest,
                         ::testing::Combine(::testing::Bool(), ::testing::Values("ef", "card"),
                                            ::testing::Values(64u, 4096u)),
                         [](const auto& p) {
                           return std::string(std::get<0>(p.param) ? "Strings" : "Numbers") + "_" +
                                  std::get<1>(p.param) + "_" + std::to_string(std::get<2>(p.param));
                         });

// Builds docs with `options` in memory and again within `budget` bytes, as
// numeric ids: the second spills and writes the same bytes.
void ExpectSpillsAndIsTheInMemoryBuild(LshBuildOptions options, size_t budget, const std::vector<LshDocument>& docs) {
  ScopedTempDir dir;
  LshBuildStats in_memory, spilled;
  ASSERT_TRUE(Build(dir.File("memory.sdx"), options, docs, false, &in_memory).ok());
  options.memory_bytes = budget;
  const Status s = Build(dir.File("spilled.sdx"), options, docs, false, &spilled);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_GT(spilled.spilled_runs, 0u);
  EXPECT_EQ(ReadFileOrDie(dir.File("spilled.sdx")), ReadFileOrDie(dir.File("memory.sdx")));
}

TEST(LshSpillBuildTest, DefaultOptionsSpilledAreTheInMemoryBuild) {
  const std::vector<LshDocument> docs = Documents(6000, 128, 9);
  // 128 values, 16 bands of 8, 4-bit signatures; 2 MiB is the smallest budget for 16 bands.
  ExpectSpillsAndIsTheInMemoryBuild(LshBuildOptions(), size_t{2} << 20, docs);
}

TEST(LshSpillBuildTest, MoreSignaturesThanTheOpenBucketsPlaceAtOnceAreTheInMemoryBuild) {
  // At 512 KiB 16 bucket files are open at once and 2,048 signatures placed
  // at a time: 40,000 documents put 2,500 in a bucket, placed in two reads
  // (the path that 2^30 documents take at the default options and 1 GiB:
  // 512 buckets of 2^21). Before, more than 32,768 were refused.
  const std::vector<LshDocument> docs = Documents(40000, 32, 17);
  ExpectSpillsAndIsTheInMemoryBuild(SmallOptions(), kTinyBudget, docs);
}

TEST(LshSpillBuildTest, NumbersThenStringsSpilledAreTheInMemoryBuild) {
  // The first string id comes after the documents went to scratch files:
  // the numbers so far become decimal strings there.
  ScopedTempDir dir;
  const std::vector<LshDocument> docs = Documents(4000, 32, 13);
  for (size_t budget : {size_t{1} << 30, kTinyBudget}) {
    LshBuildOptions options = SmallOptions();
    options.memory_bytes = budget;
    std::unique_ptr<LshIndexBuilder> builder;
    ASSERT_TRUE(LshIndexBuilder::Create(dir.File(std::to_string(budget)), options, &builder).ok());
    for (size_t i = 0; i < docs.size(); ++i) {
      const LshDocument& d = docs[i];
      Status s = i < 3000 ? builder->Add(d.id, d.signature.data()) : builder->Add(d.string_id, d.signature.data());
      ASSERT_TRUE(s.ok()) << s.ToString();
    }
    ASSERT_TRUE(builder->Finish().ok());
  }
  EXPECT_EQ(ReadFileOrDie(dir.File(std::to_string(kTinyBudget))), ReadFileOrDie(dir.File(std::to_string(size_t{1} << 30))));
}

TEST(LshSpillBuildTest, BudgetBelowTheMinimumIsRefused) {
  ScopedTempDir dir;
  LshBuildOptions options = SmallOptions();
  options.memory_bytes = kTinyBudget - 1;
  std::unique_ptr<LshIndexBuilder> builder;
  Status s = LshIndexBuilder::Create(dir.File("x.sdx"), options, &builder);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("memory budget"), std::string::npos) << s.ToString();
}

TEST(LshSpillBuildTest, ARunOfOneIdBeyondAnEighthOfTheBudgetIsAClearErrorAndLeavesNoFile) {
  // The smallest budget orders up to 8,192 documents of one id (8 bytes
  // each in an eighth of 512 KiB); 8,200 are refused.
  ScopedTempDir dir;
  std::vector<LshDocument> docs = ClusteredDocuments(8200, 32, 23);
  for (auto& d : docs) d.id = 42;
  LshBuildOptions options = SmallOptions();
  options.memory_bytes = kTinyBudget;
  LshBuildStats stats;
  Status s = Build(dir.File("x.sdx"), options, docs, false, &stats);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("more than 8192 documents share the id 42"), std::string::npos) << s.ToString();
  EXPECT_EQ(dir.List(), std::vector<std::string>{});
}

// Merges old (a file) with batch, deleting `gone`, within `budget`.
Status Merge(const std::string& old_path, const std::string& out, const std::vector<LshDocument>& batch,
             const std::vector<uint64_t>& gone, bool string_ids, size_t budget, LshMergeStats* stats) {
  std::unique_ptr<LshIndexReader> old;
  SIMDEX_RETURN_IF_ERROR(LshIndexReader::Open(old_path, ReaderOptions(), &old));
  LshMergeOptions options;
  options.memory_bytes = budget;
  std::unique_ptr<LshIndexMerger> merger;
  SIMDEX_RETURN_IF_ERROR(LshIndexMerger::Create(old.get(), out, options, &merger));
  for (const auto& d : batch) {
    SIMDEX_RETURN_IF_ERROR(string_ids ? merger->Add(d.string_id, d.signature.data())
                                      : merger->Add(d.id, d.signature.data()));
  }
  for (uint64_t id : gone) {
    SIMDEX_RETURN_IF_ERROR(string_ids ? merger->Delete("doc-" + std::to_string(id)) : merger->Delete(id));
  }
  SIMDEX_RETURN_IF_ERROR(merger->Finish());
  *stats = merger->stats();
  return Status::OK();
}

TEST(LshSpillMergeTest, MergeWithinATinyBudgetIsTheFreshBuildByteForByte) {
  // 17,000 old documents: each band table is read once, its keys sorted by
  // document within 128 KiB (half of 1 MiB, the smallest budget, over 4
  // bands): they spill. (Before, every table was read once per 15,887
  // documents here, and 258 times for 2^30 at the default budget.)
  ScopedTempDir dir;
  std::vector<LshDocument> all = Documents(19000, 32, 17);
  const std::vector<LshDocument> old_docs(all.begin(), all.begin() + 17000);
  const std::vector<LshDocument> batch(all.begin() + 17000, all.end());
  const std::vector<uint64_t> gone = {3, 7, 16999, 123456789};
  for (bool string_ids : {false, true}) {
    SCOPED_TRACE(string_ids ? "string ids" : "numeric ids");
    LshBuildOptions options = SmallOptions();
    options.memory_bytes = kTinyBudget;
    LshBuildStats built;
    ASSERT_TRUE(Build(dir.File("old.sdx"), options, old_docs, string_ids, &built).ok());
    LshMergeStats stats;
    Status s = Merge(dir.File("old.sdx"), dir.File("merged.sdx"), batch, gone, string_ids, 2 * kTinyBudget, &stats);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_GT(stats.spilled_runs, 0u);
    EXPECT_GT(stats.spilled_bytes, 0u);
    std::unique_ptr<LshIndexReader> old;
    ASSERT_TRUE(LshIndexReader::Open(dir.File("old.sdx"), ReaderOptions(), &old).ok());
    uint64_t blocks = 0;
    for (const auto& t : old->Info().tables) blocks += t.blocks;
    EXPECT_EQ(stats.blocks_read, blocks);
    std::vector<LshDocument> kept;
    for (const auto& d : old_docs) {
      if (d.id != 3 && d.id != 7 && d.id != 16999) kept.push_back(d);
    }
    EXPECT_EQ(stats.deleted, old_docs.size() - kept.size());
    kept.insert(kept.end(), batch.begin(), batch.end());
    options.memory_bytes = size_t{1} << 30;
    ASSERT_TRUE(Build(dir.File("fresh.sdx"), options, kept, string_ids, &built).ok());
    EXPECT_EQ(built.spilled_bytes, 0u);
    EXPECT_EQ(ReadFileOrDie(dir.File("merged.sdx")), ReadFileOrDie(dir.File("fresh.sdx")));
    EXPECT_EQ(dir.List(), (std::vector<std::string>{"fresh.sdx", "merged.sdx", "old.sdx"}));
  }
}

// A 64 KiB tmpfs as the scratch directory, mounted read-write (full after
// 64 KiB) or read-only; needs root, as CI runs it.
class LshScratchDiskTest : public ::testing::Test {
 protected:
  void Mount(unsigned long flags) {
    ASSERT_EQ(::mkdir(scratch_.c_str(), 0700), 0) << scratch_ << ": " << std::strerror(errno);
    if (::mount("tmpfs", scratch_.c_str(), "tmpfs", MS_NOSUID | MS_NODEV | flags, "size=64k") != 0) {
      FAIL() << "cannot mount a 64 KiB tmpfs on " << scratch_ << " (" << std::strerror(errno)
             << "): this test needs root (CAP_SYS_ADMIN), as CI runs it";
    }
    mounted_ = true;
  }
  void TearDown() override {
    if (mounted_ && ::umount2(scratch_.c_str(), MNT_DETACH) != 0) {
      ADD_FAILURE() << "cannot unmount " << scratch_ << ": " << std::strerror(errno);
    }
    ::rmdir(scratch_.c_str());
  }

  // A build within the tiny budget with scratch files in the small disk
  // fails with an IOError naming it and leaves no file anywhere.
  void ExpectCleanIOError() {
    LshBuildOptions options = SmallOptions();
    options.memory_bytes = kTinyBudget;
    options.tmpdir = scratch_;
    LshBuildStats stats;
    Status s = Build(dir_.File("out.sdx"), options, Documents(6000, 32, 3), false, &stats);
    EXPECT_TRUE(s.IsIOError()) << s.ToString();
    EXPECT_NE(s.ToString().find(scratch_), std::string::npos) << s.ToString();
    EXPECT_EQ(dir_.List(), std::vector<std::string>{"scratch"}) << "a partial output was left";
    std::vector<std::string> left;
    for (const auto& e : std::filesystem::directory_iterator(scratch_)) left.push_back(e.path().filename().string());
    EXPECT_EQ(left, std::vector<std::string>{}) << "a scratch file was left";
  }

  ScopedTempDir dir_;
  std::string scratch_ = dir_.File("scratch");
  bool mounted_ = false;
};

TEST_F(LshScratchDiskTest, FullScratchDirectoryIsACleanIOError) {
  Mount(0);
  ExpectCleanIOError();
}

TEST_F(LshScratchDiskTest, ReadOnlyScratchDirectoryIsACleanIOError) {
  Mount(MS_RDONLY);
  ExpectCleanIOError();
}

}  // namespace
}  // namespace simdex
