// LshIndexMerger: an old index plus a batch, minus deleted ids, is byte
// for byte the file a fresh build of the same documents writes (numeric,
// string and mixed ids; in place), and a merge whose deletions shrink the
// ordinal width stays sound and answers as the fresh build does.
#include <gtest/gtest.h>

#include <random>

#include "tests/index/test_data.h"
#include "tests/lsh/lsh_data.h"

namespace simdex {
namespace {

using testing::BuildLshIndex;
using testing::ClusteredDocuments;
using testing::LshDocument;
using testing::ReadFileOrDie;
using testing::ScopedTempDir;

enum class Ids { kNumbers, kStrings, kNumbersThenStrings };

// Merges `batch` into the index at old_path (docs `old`), deleting `gone`
// (the old documents' ids), into out.
Status Merge(const std::string& old_path, const std::string& out, const std::vector<LshDocument>& batch,
             const std::vector<uint64_t>& gone, bool batch_strings, LshMergeStats* stats = nullptr) {
  std::unique_ptr<LshIndexReader> old;
  SIMDEX_RETURN_IF_ERROR(LshIndexReader::Open(old_path, ReaderOptions(), &old));
  std::unique_ptr<LshIndexMerger> merger;
  SIMDEX_RETURN_IF_ERROR(LshIndexMerger::Create(old.get(), out, &merger));
  for (const auto& d : batch) {
    SIMDEX_RETURN_IF_ERROR(batch_strings ? merger->Add(d.string_id, d.signature.data())
                                         : merger->Add(d.id, d.signature.data()));
  }
  for (uint64_t id : gone) {
    if (old->has_string_ids()) SIMDEX_RETURN_IF_ERROR(merger->Delete("doc-" + std::to_string(id)));
    else SIMDEX_RETURN_IF_ERROR(merger->Delete(id));
  }
  SIMDEX_RETURN_IF_ERROR(merger->Finish());
  if (stats != nullptr) *stats = merger->stats();
  return Status::OK();
}

TEST(LshMergeTest, OldPlusBatchMinusDeletedIsTheFreshBuildByteForByte) {
  ScopedTempDir dir;
  std::vector<LshDocument> all = ClusteredDocuments(900, 64, 21);
  for (size_t i = 0; i < all.size(); ++i) {
    all[i].id = i;  // distinct ids, so that a deletion names one document
    all[i].string_id = "doc-" + std::to_string(i);
  }
  const std::vector<LshDocument> old_docs(all.begin(), all.begin() + 600);
  const std::vector<LshDocument> batch(all.begin() + 600, all.end());
  const std::vector<uint64_t> gone = {3, 77, 599, 123456};  // the last is no document's
  for (Ids ids : {Ids::kNumbers, Ids::kStrings, Ids::kNumbersThenStrings}) {
    for (const char* codec : {"ef", "card"}) {
      SCOPED_TRACE(std::string(codec) + " ids " + std::to_string(static_cast<int>(ids)));
      LshBuildOptions options;
      options.minhash.num_perm = 64;
      options.bands = {8, 8};
      options.codec = codec;
      options.block_size = 256;
      const bool old_strings = ids == Ids::kStrings;
      const bool batch_strings = ids != Ids::kNumbers;
      ASSERT_TRUE(BuildLshIndex(dir.File("old.sdx"), options, old_docs, old_strings).ok());
      LshMergeStats stats;
      Status s = Merge(dir.File("old.sdx"), dir.File("merged.sdx"), batch, gone, batch_strings, &stats);
      ASSERT_TRUE(s.ok()) << s.ToString();
      EXPECT_EQ(stats.old_documents, 600u);
      EXPECT_EQ(stats.added, 300u);
      EXPECT_EQ(stats.deleted, 3u);
      EXPECT_EQ(stats.ids_not_found, 1u);
      EXPECT_EQ(stats.documents, 897u);

      // The fresh build of the same documents; mixed ids are built as the
      // merger met them: numbers first, then the first string.
      std::unique_ptr<LshIndexBuilder> builder;
      ASSERT_TRUE(LshIndexBuilder::Create(dir.File("fresh.sdx"), options, &builder).ok());
      for (const auto& d : old_docs) {
        if (d.id == 3 || d.id == 77 || d.id == 599) continue;
        ASSERT_TRUE((old_strings ? builder->Add(d.string_id, d.signature.data()) : builder->Add(d.id, d.signature.data())).ok());
      }
      for (const auto& d : batch) {
        ASSERT_TRUE((batch_strings ? builder->Add(d.string_id, d.signature.data()) : builder->Add(d.id, d.signature.data())).ok());
      }
      ASSERT_TRUE(builder->Finish().ok());
      EXPECT_EQ(ReadFileOrDie(dir.File("merged.sdx")), ReadFileOrDie(dir.File("fresh.sdx")));
    }
  }
}

TEST(LshMergeTest, MergesInPlace) {
  ScopedTempDir dir;
  const auto docs = ClusteredDocuments(300, 128, 22);
  const std::vector<LshDocument> first(docs.begin(), docs.begin() + 200), second(docs.begin() + 200, docs.end());
  ASSERT_TRUE(BuildLshIndex(dir.File("x.sdx"), LshBuildOptions(), first).ok());
  ASSERT_TRUE(Merge(dir.File("x.sdx"), dir.File("x.sdx"), second, {}, false).ok());
  ASSERT_TRUE(BuildLshIndex(dir.File("fresh.sdx"), LshBuildOptions(), docs).ok());
  EXPECT_EQ(ReadFileOrDie(dir.File("x.sdx")), ReadFileOrDie(dir.File("fresh.sdx")));
  EXPECT_EQ(dir.List(), (std::vector<std::string>{"fresh.sdx", "x.sdx"}));
}

TEST(LshMergeTest, DeletionsThatShrinkTheOrdinalsKeepTheOldWidthAndAnswerAsAFreshBuild) {
  ScopedTempDir dir;
  std::vector<LshDocument> docs = ClusteredDocuments(300, 128, 23);
  for (size_t i = 0; i < docs.size(); ++i) docs[i].id = i;
  ASSERT_TRUE(BuildLshIndex(dir.File("old.sdx"), LshBuildOptions(), docs).ok());  // 9 ordinal bits
  std::vector<uint64_t> gone;
  for (uint64_t i = 100; i < 300; ++i) gone.push_back(i);
  ASSERT_TRUE(Merge(dir.File("old.sdx"), dir.File("m.sdx"), {}, gone, false).ok());  // 100 left: 7 bits would do
  const std::vector<LshDocument> left(docs.begin(), docs.begin() + 100);
  ASSERT_TRUE(BuildLshIndex(dir.File("fresh.sdx"), LshBuildOptions(), left).ok());
  std::unique_ptr<LshIndexReader> merged, fresh;
  ASSERT_TRUE(LshIndexReader::Open(dir.File("m.sdx"), ReaderOptions(), &merged).ok());
  ASSERT_TRUE(LshIndexReader::Open(dir.File("fresh.sdx"), ReaderOptions(), &fresh).ok());
  EXPECT_EQ(merged->Info().ordinal_bits, 9);
  EXPECT_EQ(fresh->Info().ordinal_bits, 7);
  EXPECT_TRUE(merged->Verify().ok());
  for (const auto& d : docs) {
    std::vector<LshMatch> a, b;
    ASSERT_TRUE(merged->Query(d.signature.data(), LshQueryOptions(), &a).ok());
    ASSERT_TRUE(fresh->Query(d.signature.data(), LshQueryOptions(), &b).ok());
    EXPECT_EQ(a, b);
  }
}

TEST(LshMergeTest, AddAfterFinishIsRefusedAndAnAbandonedMergeLeavesNoFile) {
  ScopedTempDir dir;
  const auto docs = ClusteredDocuments(50, 128, 24);
  ASSERT_TRUE(BuildLshIndex(dir.File("old.sdx"), LshBuildOptions(), docs).ok());
  std::unique_ptr<LshIndexReader> old;
  ASSERT_TRUE(LshIndexReader::Open(dir.File("old.sdx"), ReaderOptions(), &old).ok());
  std::unique_ptr<LshIndexMerger> merger;
  ASSERT_TRUE(LshIndexMerger::Create(old.get(), dir.File("new.sdx"), &merger).ok());
  ASSERT_TRUE(merger->Add(1, docs[0].signature.data()).ok());
  merger->Abandon();
  EXPECT_TRUE(merger->Add(2, docs[1].signature.data()).IsInvalidArgument());
  EXPECT_EQ(dir.List(), std::vector<std::string>{"old.sdx"});
}

}  // namespace
}  // namespace simdex
