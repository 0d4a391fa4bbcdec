// IdfLearner and IdfTermWriter (include/simdex/idf_learner.h): document
// frequencies against a brute-force count, the boilerplate case, spilling
// under a tiny memory bound, the table's bound, and the term file read back
// by IdfTable::Load giving the same fingerprints.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "simdex/fingerprint.h"
#include "simdex/idf_learner.h"
#include "tests/text/boilerplate_batch.h"

namespace simdex {
namespace {

std::string TempDir() { return std::filesystem::temp_directory_path().string(); }

Status Learn(const FingerprintOptions& options, const std::vector<std::string>& texts, size_t memory,
             std::shared_ptr<const IdfTable>* table, IdfLearnerStats* stats = nullptr,
             double max_idf = std::numeric_limits<double>::infinity()) {
  std::unique_ptr<IdfLearner> learner;
  SIMDEX_RETURN_IF_ERROR(
      IdfLearner::Create(options, {.memory_bytes = memory, .tmpdir = TempDir(), .max_idf = max_idf}, &learner));
  for (const std::string& t : texts) SIMDEX_RETURN_IF_ERROR(learner->Add(t));
  SIMDEX_RETURN_IF_ERROR(learner->Finish(table));
  if (stats != nullptr) *stats = learner->stats();
  return Status::OK();
}

std::vector<uint64_t> FingerprintsOf(FingerprintOptions options, std::shared_ptr<const IdfTable> idf,
                                     const std::vector<std::string>& texts,
                                     Weighting weighting = Weighting::kTfIdf) {
  if (idf != nullptr) {
    options.weighting = weighting;
    options.idf = std::move(idf);
  }
  std::unique_ptr<Fingerprinter> f;
  EXPECT_TRUE(Fingerprinter::Create(options, &f).ok());
  std::vector<uint64_t> out;
  for (const std::string& t : texts) {
    const FingerprintResult r = f->Fingerprint(t);
    EXPECT_FALSE(r.empty()) << t;
    out.push_back(r.fingerprint);
  }
  return out;
}

// Random texts over a small vocabulary (so features repeat across
// documents), some English, some Chinese.
std::vector<std::string> RandomTexts(int n, int words, unsigned seed) {
  std::mt19937 rng(seed);
  const char* cjk[] = {"床前", "明月", "光", "疑是", "地上", "霜", "举头", "望"};
  std::vector<std::string> out;
  for (int d = 0; d < n; ++d) {
    std::string t;
    for (int w = 0; w < words; ++w) {
      if (d % 5 == 0) t.append(cjk[rng() % 8]);
      else t.append("w").append(std::to_string(rng() % 2000)).append(" ");
    }
    out.push_back(t);
  }
  return out;
}

// The document frequency of every feature of texts, by brute force.
std::map<uint64_t, uint64_t> DocumentFrequencies(const FingerprintOptions& options,
                                                 const std::vector<std::string>& texts) {
  std::unique_ptr<Fingerprinter> f;
  EXPECT_TRUE(Fingerprinter::Create(options, &f).ok());
  std::map<uint64_t, uint64_t> df;
  for (const std::string& t : texts) {
    std::vector<uint64_t> hashes;
    f->FeatureHashes(t, &hashes);
    for (uint64_t h : std::set<uint64_t>(hashes.begin(), hashes.end())) ++df[h];
  }
  return df;
}

TEST(IdfLearner, IdfIsLnOfNPlusOneOverTheBruteForceDocumentFrequency) {
  const std::vector<std::string> texts = RandomTexts(300, 40, 3);
  FingerprintOptions options;
  std::shared_ptr<const IdfTable> table;
  IdfLearnerStats stats;
  ASSERT_TRUE(Learn(options, texts, size_t{64} << 20, &table, &stats).ok());
  const std::map<uint64_t, uint64_t> df = DocumentFrequencies(options, texts);
  const double n1 = static_cast<double>(texts.size()) + 1;
  uint64_t kept = 0;
  for (const auto& [hash, count] : df) {
    kept += count >= 2;
    EXPECT_DOUBLE_EQ(table->LookupHash(hash), std::log(n1 / (count >= 2 ? static_cast<double>(count) : 1.0)));
  }
  EXPECT_EQ(stats.documents, texts.size());
  EXPECT_EQ(stats.features, df.size());
  EXPECT_EQ(stats.kept, kept);
  EXPECT_GT(kept, 100u);
  EXPECT_EQ(table->size(), kept);
  EXPECT_DOUBLE_EQ(table->LookupHash(0x1234567887654321ull), std::log(n1));  // never seen
}

TEST(IdfLearner, ACapMakesEveryIdfAboveItTheCapAndKeepsOnlyTheFeaturesBelow) {
  // 2,000 words in 240 documents (df about 5, idf about 3.9) and 8 Chinese
  // words in 60 (df about 60, idf about 1.6): a cap of 2 keeps the Chinese.
  const std::vector<std::string> texts = RandomTexts(300, 40, 3);
  const double cap = 2.0;
  FingerprintOptions options;
  std::shared_ptr<const IdfTable> table;
  IdfLearnerStats stats;
  ASSERT_TRUE(Learn(options, texts, size_t{64} << 20, &table, &stats, cap).ok());
  const double n1 = static_cast<double>(texts.size()) + 1;
  uint64_t below = 0, at_cap = 0;
  for (const auto& [hash, count] : DocumentFrequencies(options, texts)) {
    const double idf = std::log(n1 / (count >= 2 ? static_cast<double>(count) : 1.0));
    if (count >= 2) ++(idf < cap ? below : at_cap);
    EXPECT_DOUBLE_EQ(table->LookupHash(hash), std::min(idf, cap));
  }
  EXPECT_GE(below, 8u);
  EXPECT_GT(at_cap, 1000u);
  EXPECT_EQ(table->size(), below);
  EXPECT_EQ(stats.kept, below);
  EXPECT_EQ(stats.capped, at_cap);
  EXPECT_EQ(table->default_idf(), cap);
  EXPECT_EQ(table->LookupHash(0x1234567887654321ull), cap);  // never seen
  // A cap above every idf changes nothing.
  std::shared_ptr<const IdfTable> uncapped, high;
  ASSERT_TRUE(Learn(options, texts, size_t{64} << 20, &uncapped).ok());
  ASSERT_TRUE(Learn(options, texts, size_t{64} << 20, &high, nullptr, std::log(n1) + 1).ok());
  ASSERT_EQ(high->hash_entries().size(), uncapped->hash_entries().size());
  EXPECT_TRUE(std::equal(high->hash_entries().begin(), high->hash_entries().end(), uncapped->hash_entries().begin()));
  EXPECT_EQ(high->default_idf(), uncapped->default_idf());
}

TEST(IdfLearner, ACapThatIsNotAboveZeroIsRefused) {
  std::unique_ptr<IdfLearner> learner;
  for (const double cap : {0.0, -1.0, std::nan("")}) {
    const Status s = IdfLearner::Create(FingerprintOptions(), {.max_idf = cap}, &learner);
    EXPECT_TRUE(s.IsInvalidArgument()) << cap;
    EXPECT_NE(s.message().find("cap on idf values must be above 0"), std::string::npos) << s.message();
  }
}

// The largest distance of any two fingerprints, and the smallest and mean.
struct Spread {
  int min = 64, max = 0;
  double mean = 0;
};
Spread SpreadOf(const std::vector<uint64_t>& fingerprints) {
  Spread s;
  double sum = 0, pairs = 0;
  for (size_t i = 0; i < fingerprints.size(); ++i) {
    for (size_t j = i + 1; j < fingerprints.size(); ++j) {
      const int d = HammingDistance(fingerprints[i], fingerprints[j]);
      s.min = std::min(s.min, d);
      s.max = std::max(s.max, d);
      sum += d;
      ++pairs;
    }
  }
  s.mean = sum / pairs;
  return s;
}

TEST(IdfLearner, UnrelatedDocumentsSharingABoilerplateBlockMoveFarApart) {
  const std::vector<std::string> texts = testdata::BoilerplateBatch(40);
  FingerprintOptions options;
  std::shared_ptr<const IdfTable> table, capped;
  ASSERT_TRUE(Learn(options, texts, size_t{64} << 20, &table).ok());
  ASSERT_TRUE(Learn(options, texts, size_t{64} << 20, &capped, nullptr, std::log(2.0)).ok());
  EXPECT_LE(SpreadOf(FingerprintsOf(options, nullptr, texts)).max, 3);  // tf: the block decides every fingerprint
  // Learned idf, and log-tf-idf with the idf capped at ln 2 (only what more
  // than half the batch holds weighs less): the bodies decide.
  for (const auto& [idf, weighting] : {std::pair{table, Weighting::kTfIdf}, {capped, Weighting::kLogTfIdf}}) {
    const Spread s = SpreadOf(FingerprintsOf(options, idf, texts, weighting));
    EXPECT_GE(s.min, 12) << (weighting == Weighting::kTfIdf ? "tf-idf" : "log-tf-idf capped");
    EXPECT_GT(s.mean, 26.0);
  }
}

TEST(IdfLearner, ATinyMemoryBoundSpillsAndLearnsTheSameTable) {
  const std::vector<std::string> texts = RandomTexts(400, 60, 4);
  std::shared_ptr<const IdfTable> big, tiny;
  IdfLearnerStats big_stats, tiny_stats;
  ASSERT_TRUE(Learn(FingerprintOptions(), texts, size_t{64} << 20, &big, &big_stats).ok());
  ASSERT_TRUE(Learn(FingerprintOptions(), texts, size_t{128} << 10, &tiny, &tiny_stats).ok());
  EXPECT_EQ(big_stats.runs_spilled, 0u);
  EXPECT_GT(tiny_stats.runs_spilled, 1u);
  ASSERT_EQ(big->hash_entries().size(), tiny->hash_entries().size());
  EXPECT_TRUE(std::equal(big->hash_entries().begin(), big->hash_entries().end(), tiny->hash_entries().begin()));
  EXPECT_EQ(FingerprintsOf(FingerprintOptions(), big, texts), FingerprintsOf(FingerprintOptions(), tiny, texts));
}

TEST(IdfLearner, AddBatchOnAnyNumberOfThreadsLearnsTheSameTable) {
  // The reference: one document at a time on one thread. Then batches of
  // uneven sizes (one document, a few, many) on 1..4 threads, in memory and
  // spilled: the same table, the same counts.
  const std::vector<std::string> texts = RandomTexts(500, 50, 6);
  std::shared_ptr<const IdfTable> want;
  IdfLearnerStats want_stats;
  ASSERT_TRUE(Learn(FingerprintOptions(), texts, size_t{64} << 20, &want, &want_stats).ok());
  ASSERT_GT(want->size(), 100u);
  for (int threads : {1, 2, 4}) {
    for (size_t memory : {size_t{64} << 20, size_t{128} << 10}) {
      std::unique_ptr<IdfLearner> learner;
      ASSERT_TRUE(
          IdfLearner::Create(FingerprintOptions(), {.memory_bytes = memory, .tmpdir = TempDir(), .threads = threads},
                             &learner)
              .ok());
      std::vector<std::string_view> views(texts.begin(), texts.end());
      const size_t cuts[] = {0, 1, 4, 260, texts.size()};
      for (size_t c = 0; c + 1 < std::size(cuts); ++c) {
        ASSERT_TRUE(learner->AddBatch(std::span(views).subspan(cuts[c], cuts[c + 1] - cuts[c])).ok());
      }
      std::shared_ptr<const IdfTable> got;
      ASSERT_TRUE(learner->Finish(&got).ok());
      const std::string what = std::to_string(threads) + " threads, memory " + std::to_string(memory);
      EXPECT_EQ(learner->stats().runs_spilled > 0, memory < (size_t{1} << 20)) << what;
      EXPECT_EQ(learner->stats().documents, want_stats.documents) << what;
      EXPECT_EQ(learner->stats().document_features, want_stats.document_features) << what;
      EXPECT_EQ(learner->stats().features, want_stats.features) << what;
      EXPECT_EQ(learner->stats().kept, want_stats.kept) << what;
      ASSERT_EQ(got->hash_entries().size(), want->hash_entries().size()) << what;
      EXPECT_TRUE(std::equal(got->hash_entries().begin(), got->hash_entries().end(), want->hash_entries().begin()))
          << what;
      EXPECT_EQ(got->default_idf(), want->default_idf()) << what;
    }
  }
  std::unique_ptr<IdfLearner> learner;
  EXPECT_TRUE(IdfLearner::Create(FingerprintOptions(), {.threads = 0}, &learner).IsInvalidArgument());
}

TEST(IdfLearner, FeatureHashesFoundElsewhereCountAsTheirTexts) {
  const std::vector<std::string> texts = RandomTexts(200, 40, 7);
  std::shared_ptr<const IdfTable> want, got;
  IdfLearnerStats want_stats;
  ASSERT_TRUE(Learn(FingerprintOptions(), texts, size_t{64} << 20, &want, &want_stats).ok());
  std::unique_ptr<IdfLearner> learner;
  ASSERT_TRUE(IdfLearner::Create(FingerprintOptions(), {.tmpdir = TempDir()}, &learner).ok());
  std::unique_ptr<Fingerprinter> clone = learner->features().Clone();
  std::vector<uint64_t> hashes;
  for (size_t i = texts.size(); i-- > 0;) {  // in reverse: the order does not matter
    clone->FeatureHashes(texts[i], &hashes);
    ASSERT_TRUE(learner->AddFeatureHashes(hashes).ok());
  }
  ASSERT_TRUE(learner->Finish(&got).ok());
  EXPECT_EQ(learner->stats().document_features, want_stats.document_features);
  ASSERT_EQ(got->hash_entries().size(), want->hash_entries().size());
  EXPECT_TRUE(std::equal(got->hash_entries().begin(), got->hash_entries().end(), want->hash_entries().begin()));
}

TEST(IdfLearner, ATableBeyondHalfTheMemoryBoundIsRefused) {
  // 128 KiB: 4,096 entries of 16 bytes. 6,000 features, each in two documents.
  std::vector<std::string> texts;
  for (int d = 0; d < 120; ++d) {
    std::string t;
    for (int w = 0; w < 100; ++w) t.append("t").append(std::to_string((d / 2) * 100 + w)).append(" ");
    texts.push_back(t);
  }
  std::shared_ptr<const IdfTable> table;
  const Status s = Learn(FingerprintOptions(), texts, size_t{128} << 10, &table);
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("more than half of the memory bound (131072 bytes)"), std::string::npos) << s.message();
  EXPECT_TRUE(Learn(FingerprintOptions(), texts, size_t{1} << 20, &table).ok());
}

TEST(IdfLearner, ThePythonProfileAndATinyBoundAreRefused) {
  std::unique_ptr<IdfLearner> learner;
  FingerprintOptions python;
  python.compat = Compat::kPythonSimhash;
  EXPECT_TRUE(IdfLearner::Create(python, {}, &learner).IsNotSupported());
  const Status s = IdfLearner::Create(FingerprintOptions(), {.memory_bytes = 1000}, &learner);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("at least 128 KiB"), std::string::npos) << s.message();
}

TEST(IdfTermWriter, TheWrittenFileLoadsToTheSameFingerprints) {
  std::vector<std::string> texts = RandomTexts(200, 30, 5);
  for (const std::string& t : testdata::BoilerplateBatch(20)) texts.push_back(t);
  texts.push_back("Ｆｕｌｌ-width ＡＢＣ and Ünïcödé, ÜNÏCÖDÉ twice; ﬁne ligature");
  texts.push_back("Ｆｕｌｌ-width ＡＢＣ again");
  const double kNoCap = std::numeric_limits<double>::infinity();
  for (const auto& [normalize, cap] : {std::pair{true, kNoCap}, {true, 2.0}, {false, kNoCap}, {false, 2.0}}) {
    SCOPED_TRACE(testing::Message() << "normalize " << normalize << ", cap " << cap);
    FingerprintOptions options;
    options.normalize = normalize;
    options.seed = 9;
    std::shared_ptr<const IdfTable> learned;
    ASSERT_TRUE(Learn(options, texts, size_t{64} << 20, &learned, nullptr, cap).ok());
    std::unique_ptr<IdfTermWriter> writer;
    ASSERT_TRUE(IdfTermWriter::Create(options, learned, &writer).ok());
    std::string file;
    writer->Head(texts.size(), &file);
    EXPECT_EQ(file.find("the terms listed are those below the cap") != std::string::npos, cap == 2.0) << file;
    for (const std::string& t : texts) writer->Add(t, &file);
    EXPECT_EQ(writer->written(), learned->size());
    EXPECT_EQ(writer->left_out(), 0u);
    const std::string path = TempDir() + "/idf_learner_test_" + std::to_string(normalize) + ".idf";
    std::ofstream(path) << file;
    auto loaded = std::make_shared<IdfTable>();
    const Status s = IdfTable::Load(path, normalize, loaded.get());
    std::remove(path.c_str());
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(loaded->size(), learned->size());
    EXPECT_DOUBLE_EQ(loaded->default_idf(), learned->default_idf());
    EXPECT_EQ(FingerprintsOf(options, loaded, texts), FingerprintsOf(options, learned, texts));
    EXPECT_EQ(FingerprintsOf(options, loaded, texts, Weighting::kLogTfIdf),
              FingerprintsOf(options, learned, texts, Weighting::kLogTfIdf));
  }
}

TEST(IdfTable, ReadsTheDefaultIdfLineAndNamesABadOne) {
  const std::string path = TempDir() + "/idf_learner_test_default.idf";
  std::ofstream(path) << "# a comment\n#default-idf\t2.5\nalpha\t0.5\n";
  IdfTable table;
  ASSERT_TRUE(IdfTable::Load(path, true, &table).ok());
  EXPECT_DOUBLE_EQ(table.default_idf(), 2.5);
  EXPECT_DOUBLE_EQ(table.Lookup("alpha"), 0.5);
  EXPECT_DOUBLE_EQ(table.Lookup("beta"), 2.5);
  std::ofstream(path) << "alpha\t0.5\n#default-idf\tlots\n";
  const Status s = IdfTable::Load(path, true, &table);
  std::remove(path.c_str());
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ(s.message(), path + ":2: #default-idf is 'lots', not a number");
}

TEST(Fingerprinter, AHashKeyedTableOfAnotherSeedIsRefused) {
  FingerprintOptions options;
  options.weighting = Weighting::kTfIdf;
  options.idf = std::make_shared<const IdfTable>(IdfTable::FromHashes({}, 7, 1.0));
  std::unique_ptr<Fingerprinter> f;
  const Status s = Fingerprinter::Create(options, &f);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("seed 7"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace simdex
