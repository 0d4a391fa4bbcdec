// The registry of index kinds: OpenIndexFile opens each kind with its own
// reader, whose IndexFile methods answer as the typed ones do; the
// visitor reaches the typed reader; preload reads every kind's file; and
// ReloadingIndexFile switches a MinHash-LSH index as ReloadingIndex does a
// SimHash one, refusing a file of another kind or layout; and the merger
// the registry makes for a file writes the kind's own merger's bytes.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "simdex/index_file.h"
#include "simdex/lsh_index.h"
#include "simdex/merge.h"
#include "simdex/reloading_index.h"
#include "tests/index/test_data.h"

namespace simdex {
namespace {

// n random signatures of 128 values, each document's id its ordinal.
std::vector<std::vector<uint32_t>> RandomSignatures(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<uint32_t>> out(n, std::vector<uint32_t>(128));
  for (auto& s : out) {
    for (auto& v : s) v = static_cast<uint32_t>(rng());
  }
  return out;
}

Status BuildLsh(const std::string& path, const std::vector<std::vector<uint32_t>>& signatures, uint64_t first_id,
                const LshBuildOptions& options = LshBuildOptions()) {
  std::unique_ptr<LshIndexBuilder> builder;
  SIMDEX_RETURN_IF_ERROR(LshIndexBuilder::Create(path, options, &builder));
  for (size_t i = 0; i < signatures.size(); ++i) SIMDEX_RETURN_IF_ERROR(builder->Add(first_id + i, signatures[i].data()));
  return builder->Finish();
}

class IndexFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto fps = testing::UniformFingerprints(3000, 3);
    ASSERT_TRUE(testing::BuildIndex(simhash_, BuildOptions(), testing::AssignIds(fps, testing::IdStyle::kSequential, 1)).ok());
    ASSERT_TRUE(BuildLsh(lsh_, RandomSignatures(400, 5), 0).ok());
  }
  testing::ScopedTempDir dir_;
  std::string simhash_ = dir_.File("simhash.sdx");
  std::string lsh_ = dir_.File("lsh.sdx");
};

TEST_F(IndexFileTest, OpensEachKindWithItsOwnReader) {
  std::unique_ptr<IndexFile> file;
  ASSERT_TRUE(OpenIndexFile(simhash_, ReaderOptions(), &file).ok());
  EXPECT_EQ(file->kind(), IndexKind::kSimHash);
  EXPECT_EQ(file->records(), 3000u);
  EXPECT_EQ(file->VerifySummary().rfind("3000 entries, ", 0), 0u) << file->VerifySummary();
  EXPECT_EQ(VisitIndexFile<std::string>(*file, Overloads{[](const IndexReader&) { return std::string("simhash"); },
                                                         [](const LshIndexReader&) { return std::string("lsh"); }}),
            "simhash");

  ASSERT_TRUE(IndexFile::Open(lsh_, ReaderOptions(), &file).ok());
  EXPECT_EQ(file->kind(), IndexKind::kMinHashLsh);
  EXPECT_EQ(file->records(), 400u);
  EXPECT_TRUE(file->Verify().ok());
  EXPECT_EQ(file->VerifySummary(), "400 documents, 16 band tables");
  EXPECT_EQ(file->InspectJson().rfind("{\n  \"kind\": \"minhash-lsh\",\n  \"documents\": 400,", 0), 0u)
      << file->InspectJson();
  const uint64_t bands = VisitIndexFile<uint64_t>(
      *file, Overloads{[](const IndexReader&) { return uint64_t{0}; },
                       [](const LshIndexReader& index) { return static_cast<uint64_t>(index.bands().bands); }});
  EXPECT_EQ(bands, 16u);
}

TEST_F(IndexFileTest, RegistryNamesEveryKindAndItsMethod) {
  EXPECT_EQ(IndexKindNames(), "simhash, minhash-lsh");
  ASSERT_NE(FindIndexKind("minhash-lsh"), nullptr);
  EXPECT_EQ(FindIndexKind("minhash-lsh")->kind(), IndexKind::kMinHashLsh);
  EXPECT_EQ(FindIndexKind(IndexKind::kMinHashLsh)->method(), "minhash");
  EXPECT_EQ(FindIndexKind(IndexKind::kSimHash)->method(), "simhash");
  EXPECT_EQ(FindIndexKind("lsh"), nullptr);
}

TEST_F(IndexFileTest, AKindOpensOnlyItsOwnFiles) {
  std::unique_ptr<IndexFile> file;
  const Status s = FindIndexKind(IndexKind::kSimHash)->Open(lsh_, ReaderOptions(), &file);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("a MinHash-LSH index where a SimHash index is needed"), std::string::npos)
      << s.message();
  // The bytes alone open by their kind as well.
  ASSERT_TRUE(OpenIndexFile(NewMemoryFile(testing::ReadFileOrDie(lsh_)), ReaderOptions(), &file).ok());
  EXPECT_EQ(file->kind(), IndexKind::kMinHashLsh);
}

TEST_F(IndexFileTest, DamageIsTheHeadersErrorNamingTheFile) {
  const std::string cut = dir_.File("cut.sdx");
  testing::WriteFileOrDie(cut, testing::ReadFileOrDie(lsh_).substr(0, 100));
  std::unique_ptr<IndexFile> file;
  const Status s = OpenIndexFile(cut, ReaderOptions(), &file);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find(cut), std::string::npos) << s.message();
}

TEST_F(IndexFileTest, PreloadReadsTheWholeFileOfEitherKind) {
  for (const std::string& path : {simhash_, lsh_}) {
    std::unique_ptr<IndexFile> file;
    ASSERT_TRUE(OpenIndexFile(path, ReaderOptions(), &file).ok());
    PreloadResult result;
    ASSERT_TRUE(file->Preload(/*lock=*/false, &result).ok());
    EXPECT_EQ(result.bytes, testing::ReadFileOrDie(path).size()) << path;
    EXPECT_FALSE(result.locked);
  }
}

// Gives both mergers the records add(merger, i) for i < n and the
// deletions, finishes both, and expects one file: the generic merger's
// (out/generic.sdx) is the typed one's (out/typed.sdx).
template <class Typed, class Add>
void ExpectTheSameFile(IndexFileMerger* generic, Typed* typed, size_t n, const Add& add,
                       const std::vector<uint64_t>& gone, const testing::ScopedTempDir& dir) {
  for (size_t i = 0; i < n; ++i) ASSERT_TRUE(add(generic, i).ok() && add(typed, i).ok());
  for (uint64_t g : gone) ASSERT_TRUE(generic->Delete(g).ok() && typed->Delete(g).ok());
  ASSERT_TRUE(generic->Finish().ok());
  ASSERT_TRUE(typed->Finish().ok());
  EXPECT_EQ(testing::ReadFileOrDie(dir.File("generic.sdx")), testing::ReadFileOrDie(dir.File("typed.sdx")));
}

// A batch and deletions merged into `old`, by the kind's own merger (typed)
// and by the one the registry makes (generic): the same bytes, the same
// figures, for numeric and string ids.
TEST_F(IndexFileTest, TheRegistrysMergerWritesTheKindsOwnMergersBytes) {
  MergeOptions options;
  options.existing_ids = ExistingIds::kRefuse;
  const auto fps = testing::UniformFingerprints(500, 8);
  const auto signatures = RandomSignatures(200, 9);
  const std::vector<uint64_t> gone = {0, 7, 2999, 123456};  // the last is no record's
  for (bool strings : {false, true}) {
    SCOPED_TRACE(strings ? "string ids" : "numeric ids");
    auto id = [&](size_t i) { return "doc-" + std::to_string(i); };
    std::unique_ptr<IndexFile> file;
    std::unique_ptr<IndexFileMerger> generic;

    // SimHash: IndexMerger.
    ASSERT_TRUE(OpenIndexFile(simhash_, ReaderOptions(), &file).ok());
    ASSERT_TRUE(IndexFileMerger::Create(*file, dir_.File("generic.sdx"), options, &generic).ok());
    std::unique_ptr<IndexReader> old;
    ASSERT_TRUE(IndexReader::Open(simhash_, ReaderOptions(), &old).ok());
    std::unique_ptr<IndexMerger> typed;
    ASSERT_TRUE(IndexMerger::Create(old.get(), dir_.File("typed.sdx"), options, &typed).ok());
    auto add_fingerprint = [&](auto* merger, size_t i) {
      return strings ? merger->Add(id(i), fps[i]) : merger->Add(10000 + i, fps[i]);
    };
    ExpectTheSameFile(generic.get(), typed.get(), fps.size(), add_fingerprint, gone, dir_);
    EXPECT_EQ(generic->stats().entries, typed->stats().entries);
    EXPECT_EQ(generic->stats().ids_not_found, 1u);

    // MinHash-LSH: LshIndexMerger.
    ASSERT_TRUE(OpenIndexFile(lsh_, ReaderOptions(), &file).ok());
    ASSERT_TRUE(IndexFileMerger::Create(*file, dir_.File("generic.sdx"), options, &generic).ok());
    std::unique_ptr<LshIndexReader> lsh_old;
    ASSERT_TRUE(LshIndexReader::Open(lsh_, ReaderOptions(), &lsh_old).ok());
    LshMergeOptions lsh_options;
    lsh_options.existing_ids = ExistingIds::kRefuse;
    std::unique_ptr<LshIndexMerger> lsh_typed;
    ASSERT_TRUE(LshIndexMerger::Create(lsh_old.get(), dir_.File("typed.sdx"), lsh_options, &lsh_typed).ok());
    auto add_signature = [&](auto* merger, size_t i) {
      return strings ? merger->Add(id(i), signatures[i].data()) : merger->Add(1000 + i, signatures[i].data());
    };
    ExpectTheSameFile(generic.get(), lsh_typed.get(), signatures.size(), add_signature, gone, dir_);
    EXPECT_EQ(generic->stats().entries, lsh_typed->stats().documents);
    EXPECT_EQ(generic->stats().old_entries, 400u);
    EXPECT_EQ(generic->stats().deleted, 2u);
  }
}

TEST_F(IndexFileTest, TheRegistrysMergerRefusesAnotherKindsRecords) {
  std::unique_ptr<IndexFile> file;
  std::unique_ptr<IndexFileMerger> merger;
  ASSERT_TRUE(OpenIndexFile(lsh_, ReaderOptions(), &file).ok());
  ASSERT_TRUE(IndexFileMerger::Create(*file, dir_.File("out.sdx"), MergeOptions(), &merger).ok());
  Status s = merger->Add(7, uint64_t{42});
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ(s.message(), "a minhash-lsh index merges signatures, not fingerprints");
  merger->Abandon();
  ASSERT_TRUE(OpenIndexFile(simhash_, ReaderOptions(), &file).ok());
  ASSERT_TRUE(IndexFileMerger::Create(*file, dir_.File("out.sdx"), MergeOptions(), &merger).ok());
  const std::vector<uint32_t> signature(128, 1);
  s = merger->Add("doc", signature.data());
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ(s.message(), "a simhash index merges fingerprints, not signatures");
  merger->Abandon();
  EXPECT_FALSE(std::filesystem::exists(dir_.File("out.sdx")));
}

// Puts `from` in place of `to` as build and merge do: a copy renamed over it.
void Replace(const std::string& from, const std::string& to) {
  testing::WriteFileOrDie(to + ".tmp", testing::ReadFileOrDie(from));
  ASSERT_EQ(std::rename((to + ".tmp").c_str(), to.c_str()), 0);
}

// The ids the serving version finds for a signature.
std::vector<uint64_t> Found(const ReloadingIndexFile& index, const std::vector<uint32_t>& signature) {
  std::vector<LshMatch> found;
  EXPECT_TRUE(index.CurrentAs<LshIndexReader>()->Query(signature.data(), LshQueryOptions(), &found).ok());
  std::vector<uint64_t> ids;
  for (const LshMatch& m : found) ids.push_back(m.id);
  return ids;
}

TEST_F(IndexFileTest, ReloadSwitchesAnLshIndexToAFileRenamedIntoPlace) {
  const auto signatures = RandomSignatures(400, 5);
  const std::string served = dir_.File("served.sdx");
  Replace(lsh_, served);
  std::unique_ptr<ReloadingIndexFile> index;
  ASSERT_TRUE(ReloadingIndexFile::Open(served, ReloadOptions(), &index).ok());
  EXPECT_EQ(index->kind().name(), "minhash-lsh");
  EXPECT_EQ(index->CurrentAs<IndexReader>(), nullptr);
  const std::shared_ptr<const LshIndexReader> old = index->CurrentAs<LshIndexReader>();
  ASSERT_NE(old, nullptr);
  EXPECT_EQ(Found(*index, signatures[7]), std::vector<uint64_t>{7});

  ASSERT_TRUE(BuildLsh(dir_.File("v2.sdx"), signatures, 1000).ok());
  Replace(dir_.File("v2.sdx"), served);
  bool switched = false;
  ASSERT_TRUE(index->Reload(&switched).ok());
  EXPECT_TRUE(switched);
  EXPECT_EQ(index->version(), 2u);
  EXPECT_EQ(Found(*index, signatures[7]), std::vector<uint64_t>{1007});
  std::vector<LshMatch> before;  // the old mapping lives while its snapshot does
  ASSERT_TRUE(old->Query(signatures[7].data(), LshQueryOptions(), &before).ok());
  ASSERT_EQ(before.size(), 1u);
  EXPECT_EQ(before[0].id, 7u);
}

TEST_F(IndexFileTest, ReloadRefusesAFileOfAnotherKindAndKeepsServing) {
  const std::string served = dir_.File("served.sdx");
  Replace(lsh_, served);
  std::unique_ptr<ReloadingIndexFile> index;
  ASSERT_TRUE(ReloadingIndexFile::Open(served, ReloadOptions(), &index).ok());
  Replace(simhash_, served);
  bool switched = true;
  const Status s = index->Reload(&switched);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find(served + ": a SimHash index where a MinHash-LSH index is needed"), std::string::npos)
      << s.message();
  EXPECT_FALSE(switched);
  EXPECT_EQ(index->version(), 1u);
  EXPECT_EQ(Found(*index, RandomSignatures(400, 5)[3]), std::vector<uint64_t>{3});
  // ReloadingIndex holds SimHash files alone.
  std::unique_ptr<ReloadingIndex> simhash;
  EXPECT_TRUE(ReloadingIndex::Open(lsh_, ReloadOptions(), &simhash).IsInvalidArgument());
}

TEST_F(IndexFileTest, ReloadRefusesOtherBandsUnlessAllowed) {
  const auto signatures = RandomSignatures(400, 5);
  LshBuildOptions other;
  other.bands = {32, 4};
  ASSERT_TRUE(BuildLsh(dir_.File("bands.sdx"), signatures, 0, other).ok());
  for (bool require : {true, false}) {
    const std::string served = dir_.File("served.sdx");
    Replace(lsh_, served);
    ReloadOptions options;
    options.require_same_scheme = require;
    std::unique_ptr<ReloadingIndexFile> index;
    ASSERT_TRUE(ReloadingIndexFile::Open(served, options, &index).ok());
    Replace(dir_.File("bands.sdx"), served);
    bool switched = false;
    const Status s = index->Reload(&switched);
    EXPECT_EQ(switched, !require);
    if (require) {
      EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
      EXPECT_EQ(s.message(), served + ": the new file's 32 bands of 4 rows, threshold 0.8 are not the serving "
                                      "index's 16 bands of 8 rows, threshold 0.8");
    } else {
      EXPECT_TRUE(s.ok()) << s.ToString();
    }
  }
}

TEST_F(IndexFileTest, ReloadPreloadsAndVerifiesAnLshFileBeforeSwitching) {
  const std::string served = dir_.File("served.sdx");
  Replace(lsh_, served);
  ReloadOptions options;
  options.verify_before_switch = true;
  options.preload_before_switch = true;
  std::unique_ptr<ReloadingIndexFile> index;
  ASSERT_TRUE(ReloadingIndexFile::Open(served, options, &index).ok());
  // A flipped byte in the middle (the band tables or signatures): Verify
  // finds it before the switch.
  std::string bytes = testing::ReadFileOrDie(lsh_);
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x5a);
  testing::WriteFileOrDie(dir_.File("bad.sdx"), bytes);
  Replace(dir_.File("bad.sdx"), served);
  bool switched = true;
  const Status s = index->Reload(&switched);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_FALSE(switched);
  EXPECT_EQ(index->version(), 1u);
}

}  // namespace
}  // namespace simdex
