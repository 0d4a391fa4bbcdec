// LshIndexMerger: an old index plus a batch, minus deleted ids, is byte
// for byte the file a fresh build of the same documents writes (numeric,
// string and mixed ids; in place), and a merge whose deletions shrink the
// ordinal width stays sound and answers as the fresh build does; another
// index added whole (AddIndex) is the same; and a builder fed band keys
// and b-bit signatures (AddBanded) writes the file of the signatures.
#include <gtest/gtest.h>

#include <filesystem>
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

// m.sdx (a merge) keeps `merged_bits` ordinal bits where a fresh build of
// `left` keeps `fresh_bits`, verifies, and answers every query of `queries`
// as that fresh build does.
void ExpectAnswersOfAFreshBuild(const ScopedTempDir& dir, const std::vector<LshDocument>& left,
                                const std::vector<LshDocument>& queries, int merged_bits, int fresh_bits) {
  ASSERT_TRUE(BuildLshIndex(dir.File("fresh.sdx"), LshBuildOptions(), left).ok());
  std::unique_ptr<LshIndexReader> merged, fresh;
  ASSERT_TRUE(LshIndexReader::Open(dir.File("m.sdx"), ReaderOptions(), &merged).ok());
  ASSERT_TRUE(LshIndexReader::Open(dir.File("fresh.sdx"), ReaderOptions(), &fresh).ok());
  EXPECT_EQ(merged->Info().ordinal_bits, merged_bits);
  EXPECT_EQ(fresh->Info().ordinal_bits, fresh_bits);
  EXPECT_TRUE(merged->Verify().ok());
  for (const auto& d : queries) {
    std::vector<LshMatch> a, b;
    ASSERT_TRUE(merged->Query(d.signature.data(), LshQueryOptions(), &a).ok());
    ASSERT_TRUE(fresh->Query(d.signature.data(), LshQueryOptions(), &b).ok());
    EXPECT_EQ(a, b);
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
  ExpectAnswersOfAFreshBuild(dir, std::vector<LshDocument>(docs.begin(), docs.begin() + 100), docs, 9, 7);
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

// Documents ids 0..n-1 (distinct), for deletions that name one each.
std::vector<LshDocument> NumberedDocuments(size_t n, int num_perm, uint64_t seed) {
  std::vector<LshDocument> docs = ClusteredDocuments(n, num_perm, seed);
  for (size_t i = 0; i < docs.size(); ++i) docs[i].id = i;
  return docs;
}

// Builds a.sdx of `a` and b.sdx of `b`, and merges a with b added whole,
// minus the ids `gone`, into m.sdx.
Status MergeTwo(const ScopedTempDir& dir, const std::vector<LshDocument>& a, const std::vector<LshDocument>& b,
                const std::vector<uint64_t>& gone, LshMergeStats* stats = nullptr) {
  SIMDEX_RETURN_IF_ERROR(BuildLshIndex(dir.File("a.sdx"), LshBuildOptions(), a));
  SIMDEX_RETURN_IF_ERROR(BuildLshIndex(dir.File("b.sdx"), LshBuildOptions(), b));
  std::unique_ptr<LshIndexReader> ra, rb;
  SIMDEX_RETURN_IF_ERROR(LshIndexReader::Open(dir.File("a.sdx"), ReaderOptions(), &ra));
  SIMDEX_RETURN_IF_ERROR(LshIndexReader::Open(dir.File("b.sdx"), ReaderOptions(), &rb));
  std::unique_ptr<LshIndexMerger> merger;
  SIMDEX_RETURN_IF_ERROR(LshIndexMerger::Create(ra.get(), dir.File("m.sdx"), &merger));
  SIMDEX_RETURN_IF_ERROR(merger->AddIndex(rb.get()));
  for (uint64_t id : gone) SIMDEX_RETURN_IF_ERROR(merger->Delete(id));
  SIMDEX_RETURN_IF_ERROR(merger->Finish());
  if (stats != nullptr) *stats = merger->stats();
  return Status::OK();
}

// Every LSH merge of a batch that repeats old ids stored them twice. With
// ExistingIds::kRefuse they are refused by name (old ids and those of an
// index added whole), with kReplace the old documents give way (the fresh
// build of the rest plus the batch), with kKeep both stay.
TEST(LshMergeTest, IdsTheOldIndexHoldsAreRefusedReplacedOrKept) {
  ScopedTempDir dir;
  std::vector<LshDocument> all = NumberedDocuments(300, 128, 31);
  for (LshDocument& d : all) d.string_id = "doc-" + std::to_string(d.id);
  const std::vector<LshDocument> old_docs(all.begin(), all.begin() + 200);
  std::vector<LshDocument> batch(all.begin() + 150, all.end());  // ids 150..199 are old ones
  for (size_t i = 0; i < 50; ++i) batch[i].signature = all[i].signature;  // other texts
  for (const bool strings : {false, true}) {
    SCOPED_TRACE(strings ? "string ids" : "numeric ids");
    std::filesystem::remove(dir.File("m.sdx"));
    ASSERT_TRUE(BuildLshIndex(dir.File("old.sdx"), LshBuildOptions(), old_docs, strings).ok());
    std::unique_ptr<LshIndexReader> old;
    ASSERT_TRUE(LshIndexReader::Open(dir.File("old.sdx"), ReaderOptions(), &old).ok());
    auto merge = [&](ExistingIds existing, LshMergeStats* stats) {
      LshMergeOptions o;
      o.existing_ids = existing;
      std::unique_ptr<LshIndexMerger> merger;
      SIMDEX_RETURN_IF_ERROR(LshIndexMerger::Create(old.get(), dir.File("m.sdx"), o, &merger));
      for (const LshDocument& d : batch) {
        SIMDEX_RETURN_IF_ERROR(strings ? merger->Add(d.string_id, d.signature.data())
                                       : merger->Add(d.id, d.signature.data()));
      }
      SIMDEX_RETURN_IF_ERROR(merger->Finish());
      *stats = merger->stats();
      return Status::OK();
    };
    LshMergeStats stats;
    const Status s = merge(ExistingIds::kRefuse, &stats);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_EQ(s.message(), std::string("id '") + (strings ? "doc-150" : "150") +
                               "' is in the old index already (and 49 more ids of the batch are): each would be "
                               "stored twice");
    EXPECT_FALSE(std::filesystem::exists(dir.File("m.sdx")));
    ASSERT_TRUE(merge(ExistingIds::kReplace, &stats).ok());
    EXPECT_EQ(stats.replaced, 50u);
    EXPECT_EQ(stats.documents, 300u);
    std::vector<LshDocument> fresh(all.begin(), all.begin() + 150);
    fresh.insert(fresh.end(), batch.begin(), batch.end());
    ASSERT_TRUE(BuildLshIndex(dir.File("fresh.sdx"), LshBuildOptions(), fresh, strings).ok());
    EXPECT_EQ(ReadFileOrDie(dir.File("m.sdx")), ReadFileOrDie(dir.File("fresh.sdx")));
    ASSERT_TRUE(merge(ExistingIds::kKeep, &stats).ok());
    EXPECT_EQ(stats.documents, 350u) << "each of the 50 ids twice";
  }
}

TEST(LshMergeTest, AnotherIndexAddedWholeMinusDeletedIsTheFreshBuildByteForByte) {
  ScopedTempDir dir;
  const std::vector<LshDocument> all = NumberedDocuments(900, 128, 31);
  const std::vector<LshDocument> a(all.begin(), all.begin() + 600), b(all.begin() + 600, all.end());
  LshMergeStats stats;
  ASSERT_TRUE(MergeTwo(dir, a, b, {3, 650, 899}, &stats).ok());
  EXPECT_EQ(stats.deleted, 3u);
  EXPECT_EQ(stats.ids_not_found, 0u);
  std::vector<LshDocument> left;
  for (const auto& d : all) {
    if (d.id != 3 && d.id != 650 && d.id != 899) left.push_back(d);
  }
  ASSERT_TRUE(BuildLshIndex(dir.File("fresh.sdx"), LshBuildOptions(), left).ok());
  EXPECT_EQ(ReadFileOrDie(dir.File("m.sdx")), ReadFileOrDie(dir.File("fresh.sdx")));
}

// DeleteRange, over the old index and one added whole: ranges that overlap,
// touch or hold no document delete what Delete() of their ids does, byte
// for byte (the docId service expires a prefix of seqs with one range).
TEST(LshMergeTest, DeletedRangesAreTheirIdsDeletedOneByOne) {
  ScopedTempDir dir;
  const std::vector<LshDocument> all = NumberedDocuments(900, 128, 33);
  const std::vector<LshDocument> a(all.begin(), all.begin() + 600), b(all.begin() + 600, all.end());
  std::vector<uint64_t> gone;
  for (uint64_t id = 10; id <= 340; ++id) gone.push_back(id);
  for (uint64_t id = 590; id <= 620; ++id) gone.push_back(id);
  ASSERT_TRUE(MergeTwo(dir, a, b, gone).ok());
  const std::string one_by_one = ReadFileOrDie(dir.File("m.sdx"));

  std::unique_ptr<LshIndexReader> ra, rb;
  ASSERT_TRUE(LshIndexReader::Open(dir.File("a.sdx"), ReaderOptions(), &ra).ok());
  ASSERT_TRUE(LshIndexReader::Open(dir.File("b.sdx"), ReaderOptions(), &rb).ok());
  std::unique_ptr<LshIndexMerger> merger;
  ASSERT_TRUE(LshIndexMerger::Create(ra.get(), dir.File("r.sdx"), &merger).ok());
  ASSERT_TRUE(merger->AddIndex(rb.get()).ok());
  EXPECT_TRUE(merger->DeleteRange(5, 4).IsInvalidArgument());
  for (auto [first, last] : {std::pair<uint64_t, uint64_t>{10, 200}, {150, 300}, {301, 340}, {590, 620},
                             {5000, ~uint64_t{0}}}) {
    ASSERT_TRUE(merger->DeleteRange(first, last).ok());
  }
  ASSERT_TRUE(merger->Finish().ok());
  EXPECT_EQ(merger->stats().deleted, gone.size());
  EXPECT_EQ(ReadFileOrDie(dir.File("r.sdx")), one_by_one);
}

// The index added holds wider ordinals (more documents) than the result
// needs: its keys are cut at its width, so the result keeps that width and
// answers every query as a fresh build of the documents left does.
TEST(LshMergeTest, AnIndexAddedWithWiderOrdinalsKeepsItsWidthAndAnswersAsAFreshBuild) {
  ScopedTempDir dir;
  const std::vector<LshDocument> all = NumberedDocuments(650, 128, 32);
  const std::vector<LshDocument> a(all.begin(), all.begin() + 50), b(all.begin() + 50, all.end());
  std::vector<uint64_t> gone;
  for (uint64_t id = 100; id < 650; ++id) gone.push_back(id);
  ASSERT_TRUE(MergeTwo(dir, a, b, gone).ok());  // a: 6 ordinal bits, b: 10
  ExpectAnswersOfAFreshBuild(dir, std::vector<LshDocument>(all.begin(), all.begin() + 100), all, 10, 7);
}

TEST(LshMergeTest, AnIndexOfOtherBandsOrSignaturesIsRefusedNamingWhatDiffers) {
  ScopedTempDir dir;
  const std::vector<LshDocument> docs = NumberedDocuments(40, 128, 33);
  LshBuildOptions other_bands;
  other_bands.bands = {8, 16};
  LshBuildOptions other_seed;
  other_seed.minhash.seed = 9;
  ASSERT_TRUE(BuildLshIndex(dir.File("a.sdx"), LshBuildOptions(), docs).ok());
  ASSERT_TRUE(BuildLshIndex(dir.File("bands.sdx"), other_bands, docs).ok());
  ASSERT_TRUE(BuildLshIndex(dir.File("seed.sdx"), other_seed, docs).ok());
  std::unique_ptr<LshIndexReader> a, bands, seed;
  ASSERT_TRUE(LshIndexReader::Open(dir.File("a.sdx"), ReaderOptions(), &a).ok());
  ASSERT_TRUE(LshIndexReader::Open(dir.File("bands.sdx"), ReaderOptions(), &bands).ok());
  ASSERT_TRUE(LshIndexReader::Open(dir.File("seed.sdx"), ReaderOptions(), &seed).ok());
  std::unique_ptr<LshIndexMerger> merger;
  ASSERT_TRUE(LshIndexMerger::Create(a.get(), dir.File("m.sdx"), &merger).ok());
  Status s = merger->AddIndex(bands.get());
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("bands"), std::string::npos) << s.message();
  s = merger->AddIndex(seed.get());
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("seed:9"), std::string::npos) << s.message();
}

TEST(LshMergeTest, ABuilderFedBandKeysAndBitSignaturesWritesTheFileOfTheSignatures) {
  ScopedTempDir dir;
  std::vector<LshDocument> docs = NumberedDocuments(500, 128, 34);
  std::erase_if(docs, [](const LshDocument& d) { return IsEmptySignature(d.signature.data(), 128); });
  ASSERT_TRUE(BuildLshIndex(dir.File("signatures.sdx"), LshBuildOptions(), docs).ok());
  std::unique_ptr<LshIndexBuilder> builder;
  ASSERT_TRUE(LshIndexBuilder::Create(dir.File("banded.sdx"), LshBuildOptions(), &builder).ok());
  const LshBuildOptions& o = builder->options();
  std::vector<uint64_t> keys(static_cast<size_t>(o.bands.bands));
  std::vector<uint8_t> packed(PackedSignatureBytes(128, o.signature_bits));
  for (const auto& d : docs) {
    BandKeys(d.signature.data(), o.bands, keys.data());
    PackSignature(d.signature.data(), 128, o.signature_bits, packed.data());
    ASSERT_TRUE(builder->AddBanded(d.id, keys.data(), packed.data()).ok());
  }
  ASSERT_TRUE(builder->Finish().ok());
  EXPECT_EQ(ReadFileOrDie(dir.File("banded.sdx")), ReadFileOrDie(dir.File("signatures.sdx")));
}

}  // namespace
}  // namespace simdex
