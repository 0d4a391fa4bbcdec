// DeduplicateBySimHash (include/simdex/batch.h): the texts' fingerprints
// (a Fingerprinter's, made here) de-duplicated as a brute-force oracle does
// (every pair within k, union-find clusters, the nearest index entry by a
// scan: tests/dedup/dedup_oracle.h); the same texts in a file and their
// fingerprints in a fingerprint file decided alike; the confirmed pairs the
// oracle's whose texts reach the threshold; the idf learned as a separate
// IdfLearner learns it; options refused naming their field.
#include <algorithm>
#include <fstream>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/batch.h"
#include "simdex/confirm.h"
#include "simdex/fingerprint.h"
#include "simdex/fingerprint_file.h"
#include "simdex/idf_learner.h"
#include "simdex/profile.h"
#include "tests/dedup/dedup_oracle.h"
#include "tests/index/test_data.h"
#include "tests/pipeline/repeated_ids.h"

namespace simdex {
namespace {

// n texts: bases of 40 words and copies with a word or two changed, some
// exact copies and empty texts.
std::vector<std::string> Texts(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::string>> bases;
  std::vector<std::string> out;
  auto word = [&rng] { return "w" + std::to_string(rng() % 2000); };
  auto join = [](const std::vector<std::string>& words) {
    std::string t;
    for (const std::string& w : words) t += (t.empty() ? "" : " ") + w;
    return t;
  };
  for (int i = 0; i < n; ++i) {
    const uint64_t kind = rng() % 10;
    if (bases.empty() || kind < 4) {
      bases.emplace_back();
      for (int w = 0; w < 40; ++w) bases.back().push_back(word());
      out.push_back(join(bases.back()));
    } else if (kind < 8) {
      std::vector<std::string> words = bases[rng() % bases.size()];
      for (uint64_t e = 1 + rng() % 2; e > 0; --e) words[rng() % words.size()] = word();
      out.push_back(join(words));
    } else if (kind < 9) {
      out.push_back(join(bases[rng() % bases.size()]));
    } else {
      out.push_back("");
    }
  }
  return out;
}

std::vector<testing::Doc> Fingerprinted(const std::vector<std::string>& texts, const FingerprintOptions& options) {
  std::unique_ptr<Fingerprinter> fingerprinter;
  EXPECT_TRUE(Fingerprinter::Create(options, &fingerprinter).ok());
  std::vector<testing::Doc> docs;
  for (const std::string& t : texts) {
    const FingerprintResult r = fingerprinter->Fingerprint(t);
    docs.push_back({r.empty(), r.empty() ? 0 : r.fingerprint, 0});
  }
  return docs;
}

void ExpectRecords(const SimHashDedupResult& r, const std::vector<DedupResult>& want) {
  ASSERT_EQ(r.size(), want.size());
  for (uint64_t o = 0; o < want.size(); ++o) {
    const SimHashDedupRecord got = r.Record(o);
    ASSERT_EQ(got.representative, want[o].representative) << o;
    ASSERT_EQ(got.distance, want[o].distance) << o;
    ASSERT_EQ(got.duplicate, want[o].duplicate) << o;
    ASSERT_EQ(got.empty, want[o].empty) << o;
    ASSERT_EQ(got.against_index, want[o].against_index) << o;
    if (got.against_index >= 0) {
      ASSERT_EQ(got.against_id, want[o].against_id) << o;
      ASSERT_EQ(got.against_distance, want[o].against_distance) << o;
    }
  }
}

std::vector<testing::OraclePair> Pairs(SimHashDedupResult* r) {
  std::vector<testing::OraclePair> pairs;
  EXPECT_TRUE(r->ForEachPair([&](const SimHashDedupPair& p) {
                 pairs.push_back({p.a, p.b, p.distance});
                 return Status::OK();
               }).ok());
  return pairs;
}

TEST(SimHashBatch, TextsAreDecidedAsABruteForceOracleOverTheirFingerprints) {
  const std::vector<std::string> texts = Texts(400, 3);
  const std::vector<std::string_view> views(texts.begin(), texts.end());
  const std::vector<testing::Doc> docs = Fingerprinted(texts, FingerprintOptions());
  // Against an index of every fourth document's fingerprint, ids 1000 + i.
  testing::ScopedTempDir dir;
  std::vector<testing::Entry> entries;
  for (size_t i = 0; i < docs.size(); i += 4) {
    if (!docs[i].empty) entries.push_back({1000 + i, docs[i].fingerprint});
  }
  BuildOptions build;
  build.scheme = testing::SchemeOrDie("8,7,7,7,7,7,7,7,7:6");  // the index k reaches 6
  ASSERT_TRUE(FingerprintProfile(FingerprintOptions(), &build.profile).ok());
  ASSERT_TRUE(testing::BuildIndex(dir.File("idx.sdx"), build, entries).ok());
  std::unique_ptr<IndexReader> index;
  ASSERT_TRUE(IndexReader::Open(dir.File("idx.sdx"), ReaderOptions(), &index).ok());
  for (const int k : {3, 6}) {
    SimHashDedupOptions o;
    o.k = k;
    o.keep_pairs = true;
    o.threads = 2;
    o.against = {index.get()};
    std::unique_ptr<SimHashDedupResult> r;
    ASSERT_TRUE(DeduplicateBySimHash(views, {}, o, nullptr, &r).ok());
    const testing::Oracle want = testing::ExpectedDedup(docs, k, {&entries});
    ExpectRecords(*r, want.results);
    EXPECT_EQ(Pairs(r.get()), want.pairs) << "k " << k;
    EXPECT_EQ(r->stats().join.clusters, want.clusters);
    EXPECT_EQ(r->stats().k, k);
    EXPECT_EQ(r->EmptyReason(std::find(texts.begin(), texts.end(), "") - texts.begin()), "no-text");
    // 195 of 400 at k 3 (144 matched in the index), 265 at k 6: the oracle
    // is not checked on singletons alone.
    EXPECT_GT(r->stats().duplicates, 150u);
    EXPECT_GT(r->stats().join.against_matches, 100u);
  }
}

TEST(SimHashBatch, TheSameTextsInAFileAndTheirFingerprintFileAreDecidedAlike) {
  const std::vector<std::string> texts = Texts(300, 5);
  const std::vector<std::string_view> views(texts.begin(), texts.end());
  testing::ScopedTempDir dir;
  const std::string path = dir.File("docs.txt");
  {
    std::ofstream out(path);
    for (const std::string& t : texts) out << t << "\n";
  }
  std::unique_ptr<Fingerprinter> fingerprinter;
  ASSERT_TRUE(Fingerprinter::Create(FingerprintOptions(), &fingerprinter).ok());
  std::unique_ptr<FingerprintFileWriter> writer;
  ASSERT_TRUE(FingerprintFileWriter::Open(dir.File("docs.fp"), FingerprintFileForm::kText,
                                          fingerprinter->profile(), &writer)
                  .ok());
  for (size_t i = 0; i < texts.size(); ++i) {
    const FingerprintResult fp = fingerprinter->Fingerprint(texts[i]);
    ASSERT_TRUE(
        (fp.empty() ? writer->AddEmpty(i + 1, EmptyReasonName(fp.reason)) : writer->Add(i + 1, fp.fingerprint)).ok());
  }
  ASSERT_TRUE(writer->Finish().ok());
  SimHashDedupOptions o;
  o.k = 4;
  std::unique_ptr<SimHashDedupResult> from_texts, from_file, from_fingerprints;
  ASSERT_TRUE(DeduplicateBySimHash(views, {}, o, nullptr, &from_texts).ok());
  DocumentFiles files;
  files.paths = {path};
  ASSERT_TRUE(DeduplicateBySimHash(files, o, nullptr, &from_file).ok());
  ASSERT_TRUE(DeduplicateBySimHash(FingerprintFiles{{dir.File("docs.fp")}}, o, nullptr, &from_fingerprints).ok());
  // One per line: empty lines are documents too (ids are line numbers).
  ASSERT_EQ(from_file->size(), texts.size());
  ASSERT_EQ(from_fingerprints->size(), texts.size());
  for (uint64_t i = 0; i < texts.size(); ++i) {
    const SimHashDedupRecord want = from_texts->Record(i);
    for (const SimHashDedupResult* r : {from_file.get(), from_fingerprints.get()}) {
      ASSERT_EQ(r->Record(i).representative, want.representative) << i;
      ASSERT_EQ(r->Record(i).distance, want.distance) << i;
      ASSERT_EQ(r->IdNumber(i), i + 1);
    }
    ASSERT_EQ(from_texts->IdNumber(i), i);
  }
  EXPECT_EQ(from_file->Place(3), path + ":4");
  EXPECT_EQ(from_fingerprints->stats().join.pairs, from_texts->stats().join.pairs);
  // Files the command writes: the same records from either input but ids.
  ASSERT_TRUE(from_file->WriteRecords(dir.File("a.jsonl"), {}).ok());
  ASSERT_TRUE(from_fingerprints->WriteRecords(dir.File("b.jsonl"), {}).ok());
  EXPECT_EQ(testing::ReadFileOrDie(dir.File("a.jsonl")), testing::ReadFileOrDie(dir.File("b.jsonl")));
}

// With a confirm spec: the pairs are the oracle's within k whose texts reach
// the threshold, and the clusters those pairs make (the first document
// represents each).
TEST(SimHashBatch, ConfirmedPairsAreTheOraclesWhoseTextsReachTheThreshold) {
  const std::vector<std::string> texts = Texts(300, 7);
  const std::vector<std::string_view> views(texts.begin(), texts.end());
  const std::vector<testing::Doc> docs = Fingerprinted(texts, FingerprintOptions());
  ConfirmOptions spec;
  ASSERT_TRUE(ParseConfirmSpec("jaccard-words:0.9", &spec).ok());
  std::unique_ptr<Confirmer> confirmer;
  ASSERT_TRUE(Confirmer::Create(spec, &confirmer).ok());
  SimHashDedupOptions o;
  o.k = 8;
  o.confirm = "jaccard-words:0.9";
  o.keep_pairs = true;
  std::unique_ptr<SimHashDedupResult> r;
  ASSERT_TRUE(DeduplicateBySimHash(views, {}, o, nullptr, &r).ok());
  std::vector<testing::OraclePair> want;
  std::vector<uint64_t> parent(texts.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&parent](uint64_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  uint64_t candidates = 0;
  for (const testing::OraclePair& p : testing::ExpectedDedup(docs, 8, {}).pairs) {
    ++candidates;
    if (confirmer->Similarity(texts[p.a], texts[p.b]) < 0.9) continue;
    want.push_back(p);
    const uint64_t ra = find(p.a), rb = find(p.b);
    parent[std::max(ra, rb)] = std::min(ra, rb);
  }
  EXPECT_EQ(Pairs(r.get()), want);
  EXPECT_GT(want.size(), 50u);          // 114 here
  EXPECT_LT(want.size(), candidates);  // of 268 candidates
  EXPECT_EQ(r->stats().confirm.candidates, candidates);
  for (uint64_t i = 0; i < texts.size(); ++i) {
    const uint64_t rep = docs[i].empty ? i : find(i);
    ASSERT_EQ(r->Record(i).representative, rep) << i;
    ASSERT_EQ(r->Record(i).distance, HammingDistance(docs[i].fingerprint, docs[rep].fingerprint)) << i;
  }
}

TEST(SimHashBatch, LearnedIdfIsTheTableAnIdfLearnerLearnsFromTheTexts) {
  const std::vector<std::string> texts = Texts(300, 9);
  const std::vector<std::string_view> views(texts.begin(), texts.end());
  FingerprintOptions features;
  features.weighting = Weighting::kTfIdf;
  std::unique_ptr<IdfLearner> learner;
  ASSERT_TRUE(IdfLearner::Create(features, IdfLearnerOptions(), &learner).ok());
  for (const std::string& t : texts) ASSERT_TRUE(learner->Add(t).ok());
  std::shared_ptr<const IdfTable> table;
  ASSERT_TRUE(learner->Finish(&table).ok());
  SimHashDedupOptions o;
  o.features = features;
  o.learn_idf = true;
  o.threads = 3;
  std::unique_ptr<SimHashDedupResult> r;
  ASSERT_TRUE(DeduplicateBySimHash(views, {}, o, nullptr, &r).ok());
  ASSERT_NE(r->learned_idf(), nullptr);
  EXPECT_EQ(r->learned_idf()->ContentHash(0), table->ContentHash(0));
  EXPECT_EQ(r->stats().idf.documents, texts.size());
  features.idf = table;
  ExpectRecords(*r, testing::ExpectedDedup(Fingerprinted(texts, features), 3, {}).results);
}

TEST(SimHashBatch, OptionsOutOfRangeAreRefusedNamingTheirField) {
  struct Case {
    const char* name;
    void (*set)(SimHashDedupOptions*);
    const char* message;
  };
  const Case cases[] = {
      {"k", [](SimHashDedupOptions* o) { o->k = 65; }, "k 65 is not in -1..64"},
      {"k_short", [](SimHashDedupOptions* o) { o->k_short = -2; }, "k_short -2 is not in -1..64"},
      {"scheme", [](SimHashDedupOptions* o) { o->scheme = "x"; }, "unknown scheme 'x'"},
      {"k of scheme", [](SimHashDedupOptions* o) { o->scheme = "t20", o->k = 4; },
       "k 4 is larger than scheme t20 supports (3)"},
      {"confirm", [](SimHashDedupOptions* o) { o->confirm = "cosine:1"; }, "cosine:1"},
      {"memory", [](SimHashDedupOptions* o) { o->memory_bytes = 10; }, "memory bound 10 is below the minimum"},
      {"threads", [](SimHashDedupOptions* o) { o->threads = 0; }, "threads 0 is below 1"},
      {"learn_idf weighting", [](SimHashDedupOptions* o) { o->learn_idf = true; }, "learn_idf weighs features by tf-idf"},
      {"learn_idf memory",
       [](SimHashDedupOptions* o) {
         o->learn_idf = true;
         o->features.weighting = Weighting::kTfIdf;
         o->memory_bytes = 100 << 10;
       },
       "below learn_idf's minimum of 128 KiB"},
      {"max_idf", [](SimHashDedupOptions* o) { o->max_idf = 2; }, "max_idf caps the idf that learn_idf learns"},
      {"features", [](SimHashDedupOptions* o) { o->features.ngram = 0; }, "ngram"},
  };
  const std::string_view text = "one text";
  for (const Case& c : cases) {
    SimHashDedupOptions o;
    c.set(&o);
    std::unique_ptr<SimHashDedupResult> r;
    const Status s = DeduplicateBySimHash(std::span(&text, 1), {}, o, nullptr, &r);
    EXPECT_TRUE(s.IsInvalidArgument()) << c.name << ": " << s.ToString();
    EXPECT_NE(s.message().find(c.message), std::string::npos) << c.name << ": " << s.message();
    EXPECT_EQ(r, nullptr);
  }
  SimHashDedupOptions o;
  o.confirm = "edit:0.9";
  std::unique_ptr<SimHashDedupResult> r;
  EXPECT_EQ(DeduplicateBySimHash(FingerprintFiles{{"any.fp"}}, o, nullptr, &r).message(),
            "confirm needs documents, not fingerprint files");
  const double score = 1;
  EXPECT_EQ(DeduplicateBySimHash(std::span(&text, 1), std::span(&score, 1), SimHashDedupOptions(), nullptr, &r).ok(),
            true);
  EXPECT_EQ(DeduplicateBySimHash({}, std::span(&score, 1), SimHashDedupOptions(), nullptr, &r).message(),
            "1 scores for 0 texts");
}

TEST(SimHashBatch, TwoDocumentsWithOneIdAreRefusedUnlessAllowed) {
  testing::ScopedTempDir dir;
  const auto dedup = [](const DocumentFiles& files, const SimHashDedupOptions& o, std::unique_ptr<SimHashDedupResult>* out) {
    return DeduplicateBySimHash(files, o, nullptr, out);
  };
  const auto r = testing::ExpectRepeatedIdRefusedUnlessAllowed<SimHashDedupOptions, SimHashDedupResult>(dir.File("ids.jsonl"), dedup);
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->WritePairs(dir.File("p.jsonl")).IsInvalidArgument());  // no keep_pairs
}

}  // namespace
}  // namespace simdex
