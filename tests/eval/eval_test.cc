#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/eval.h"

namespace simdex {
namespace {

FingerprintResult Fp(uint64_t v) {
  FingerprintResult r;
  r.fingerprint = v;
  r.reason = EmptyReason::kNotEmpty;
  return r;
}

std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(ReadLabelledSet, ReadsIdTextClusterAndTopic) {
  const std::string path = WriteFile("set.jsonl",
                                     "{\"id\":\"a\",\"text\":\"x y\",\"cluster\":\"c1\",\"topic\":\"t\",\"rate\":0.1}\n"
                                     "\n"
                                     "{\"id\":\"b\",\"text\":\"\",\"cluster\":\"c2\"}\n");
  std::vector<LabelledDocument> docs;
  ASSERT_TRUE(ReadLabelledSet(path, &docs).ok());
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0].id, "a");
  EXPECT_EQ(docs[0].text, "x y");
  EXPECT_EQ(docs[0].cluster, "c1");
  EXPECT_EQ(docs[0].topic, "t");
  EXPECT_EQ(docs[1].topic, "");
}

TEST(ReadLabelledSet, BadLinesNameFileAndLine) {
  const struct {
    const char* line;
    const char* why;
  } cases[] = {{"{\"id\":\"a\",\"text\":\"x\"}", "field 'cluster' is missing"},
               {"{\"id\":1,\"text\":\"x\",\"cluster\":\"c\"}", "field 'id' is not a string"},
               {"[1,2]", "not a JSON object"},
               {"{\"id\":", "not JSON"}};
  for (const auto& c : cases) {
    std::string text = "{\"id\":\"a\",\"text\":\"x\",\"cluster\":\"c\"}\n";
    text.append(c.line).push_back('\n');
    const std::string path = WriteFile("bad.jsonl", text);
    std::vector<LabelledDocument> docs;
    const Status s = ReadLabelledSet(path, &docs);
    EXPECT_TRUE(s.IsInvalidArgument()) << c.line;
    EXPECT_NE(s.message().find(path + ":2: " + c.why), std::string::npos) << s.message();
    EXPECT_TRUE(docs.empty());
  }
  std::vector<LabelledDocument> docs;
  EXPECT_TRUE(ReadLabelledSet(::testing::TempDir() + "/missing.jsonl", &docs).IsIOError());
}

TEST(ParseEvalConfig, ReadsTokenizerWeightingAndStopWords) {
  EvalConfig config;
  const FingerprintOptions& o = config.options;
  ASSERT_TRUE(ParseEvalConfig("chars4,log-tf,stop,no-normalize", &config).ok());
  EXPECT_EQ(o.tokenizer, Tokenizer::kCharNgrams);
  EXPECT_EQ(o.ngram, 4);
  EXPECT_EQ(o.weighting, Weighting::kLogTf);
  EXPECT_FALSE(o.normalize);
  EXPECT_EQ(o.stop_words.size(), BuiltinStopWords("en").size() + BuiltinStopWords("zh").size());
  ASSERT_TRUE(ParseEvalConfig("shingles2,binary,no-stop", &config).ok());
  EXPECT_EQ(o.tokenizer, Tokenizer::kWordNgrams);
  EXPECT_EQ(o.ngram, 2);
  EXPECT_EQ(o.weighting, Weighting::kBinary);
  EXPECT_TRUE(o.stop_words.empty());
  ASSERT_TRUE(ParseEvalConfig("python-simhash", &config).ok());
  EXPECT_EQ(o.compat, Compat::kPythonSimhash);
  ASSERT_TRUE(ParseEvalConfig("default", &config).ok());
  EXPECT_EQ(o.stop_words, FingerprintOptions().stop_words);
}

TEST(ParseEvalConfig, IdfAutoAsksForTfIdfWithATableLearnedLater) {
  EvalConfig config;
  ASSERT_TRUE(ParseEvalConfig("default,idf-auto", &config).ok());
  EXPECT_EQ(config.options.weighting, Weighting::kTfIdf);
  EXPECT_EQ(config.options.idf, nullptr);
  EXPECT_EQ(config.options.tokenizer, Tokenizer::kWords);
  EXPECT_TRUE(std::isinf(config.max_idf));
}

TEST(ParseEvalConfig, IdfAutoWithLogTfAndACapInAnyOrder) {
  for (const char* spec : {"default,log-tf,idf-auto,idf-cap0.7", "default,idf-cap0.7,idf-auto,log-tf"}) {
    EvalConfig config;
    ASSERT_TRUE(ParseEvalConfig(spec, &config).ok()) << spec;
    EXPECT_EQ(config.options.weighting, Weighting::kLogTfIdf) << spec;
    EXPECT_EQ(config.options.idf, nullptr);
    EXPECT_EQ(config.max_idf, 0.7);
  }
}

TEST(ParseEvalConfig, ReadsTheWeightCaps) {
  EvalConfig config;
  ASSERT_TRUE(ParseEvalConfig("default,tf-cap3,max-share0.25", &config).ok());
  EXPECT_EQ(config.options.tf_cap, 3u);
  EXPECT_EQ(config.options.max_share, 0.25);
  EXPECT_EQ(config.options.weighting, Weighting::kTermFrequency);
  ASSERT_TRUE(ParseEvalConfig("default,max-share0", &config).ok());  // profile 3's weights
  EXPECT_EQ(config.options.max_share, 0.0);
}

TEST(ParseEvalConfig, RejectsUnknownWords) {
  for (const char* bad : {"", "word", "chars0", "chars17", "words,idf", "python-simhash,stop", "words,",
                          "default,idf-cap0.7", "default,idf-auto,idf-cap0", "default,idf-auto,idf-cap-1",
                          "default,idf-auto,idf-cap", "default,idf-auto,idf-capx", "default,idf-auto,idf-capinf",
                          "default,binary,idf-auto", "default,tf-cap0", "default,tf-cap-2", "default,max-share-0.1",
                          "default,max-share1.5", "default,max-sharenan"}) {
    EvalConfig config;
    EXPECT_TRUE(ParseEvalConfig(bad, &config).IsInvalidArgument()) << bad;
  }
}

TEST(Evaluate, CountsAHandMadeSet) {
  // a and b are copies (distance 2); c is unrelated to both (distance 10
  // and 8) but shares a's topic; d is empty.
  std::vector<LabelledDocument> docs = {{"a", "text a", "x", "t"}, {"b", "text b", "x", ""},
                                        {"c", "text c", "y", "t"}, {"d", "", "x", ""}};
  std::vector<FingerprintResult> fps = {Fp(0), Fp(0b11), Fp(0x3ff), FingerprintResult()};
  EvalOptions options;
  options.max_k = 8;
  std::vector<EvalBucket> b;
  ASSERT_TRUE(Evaluate(docs, fps, options, &b).ok());
  ASSERT_EQ(b.size(), 4u);
  const EvalBucket& s = b[0];  // every text is short
  EXPECT_EQ(s.name, "short");
  EXPECT_EQ(s.positives, 3u);  // a-b, a-d, b-d
  EXPECT_EQ(s.negatives, 3u);  // a-c, b-c, c-d
  EXPECT_EQ(s.hard_negatives, 1u);
  EXPECT_EQ(s.tp[1], 0u);
  EXPECT_EQ(s.tp[2], 1u);
  EXPECT_EQ(s.fp[7], 0u);
  EXPECT_EQ(s.fp[8], 1u);  // b-c at 8
  EXPECT_EQ(s.hard_fp[8], 0u);
  EXPECT_DOUBLE_EQ(s.Recall(2), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(s.Precision(2), 1.0);
  EXPECT_DOUBLE_EQ(s.Precision(8), 0.5);
  EXPECT_DOUBLE_EQ(s.negative_distance_sum / s.negative_distance_count, 9.0);
  EXPECT_EQ(b[3].name, "all");
  EXPECT_EQ(b[3].positives, 3u);
  EXPECT_EQ(b[3].tp, s.tp);
}

TEST(Evaluate, EqualsABruteForceRecountOnRandomSets) {
  std::mt19937_64 rng(5);
  ConfirmOptions co;
  ASSERT_TRUE(ParseConfirmSpec("jaccard-chars2:0.3", &co).ok());
  std::unique_ptr<Confirmer> confirmer;
  ASSERT_TRUE(Confirmer::Create(co, &confirmer).ok());
  for (int round = 0; round < 20; ++round) {
    const size_t n = 2 + rng() % 60;
    std::vector<LabelledDocument> docs(n);
    std::vector<FingerprintResult> fps(n);
    for (size_t i = 0; i < n; ++i) {
      docs[i].id = std::to_string(i);
      docs[i].text = std::string(rng() % 700, static_cast<char>('a' + rng() % 3));
      docs[i].cluster = std::to_string(rng() % (n / 2 + 1));
      docs[i].topic = rng() % 3 ? "" : "t" + std::to_string(rng() % 2);
      if (rng() % 10) fps[i] = Fp(rng() & rng());  // sparse bits: small distances
    }
    EvalOptions options;
    options.max_k = 20;
    options.confirmer = round % 2 ? confirmer.get() : nullptr;
    std::vector<EvalBucket> got;
    ASSERT_TRUE(Evaluate(docs, fps, options, &got).ok());
    for (size_t bucket = 0; bucket < 3; ++bucket) {
      for (int k = 0; k <= options.max_k; ++k) {
        uint64_t tp = 0, fp = 0, hard_fp = 0, pos = 0;
        for (size_t i = 0; i < n; ++i) {
          for (size_t j = i + 1; j < n; ++j) {
            const size_t shorter = std::min(docs[i].text.size(), docs[j].text.size());
            if ((shorter < 140 ? 0 : shorter < 500 ? 1 : 2) != bucket) continue;
            const bool positive = docs[i].cluster == docs[j].cluster;
            pos += positive;
            const bool predicted =
                !fps[i].empty() && !fps[j].empty() &&
                HammingDistance(fps[i].fingerprint, fps[j].fingerprint) <= k &&
                (options.confirmer == nullptr || confirmer->Similarity(docs[i].text, docs[j].text) >= 0.3);
            if (!predicted) continue;
            positive ? ++tp : ++fp;
            hard_fp += !positive && !docs[i].topic.empty() && docs[i].topic == docs[j].topic;
          }
        }
        EXPECT_EQ(got[bucket].positives, pos);
        EXPECT_EQ(got[bucket].tp[k], tp) << "round " << round << " bucket " << bucket << " k " << k;
        EXPECT_EQ(got[bucket].fp[k], fp) << "round " << round << " bucket " << bucket << " k " << k;
        EXPECT_EQ(got[bucket].hard_fp[k], hard_fp);
      }
    }
  }
}

TEST(Evaluate, RejectsMismatchedInputs) {
  std::vector<LabelledDocument> docs(2);
  std::vector<FingerprintResult> fps(1);
  std::vector<EvalBucket> out;
  EXPECT_TRUE(Evaluate(docs, fps, EvalOptions(), &out).IsInvalidArgument());
  fps.resize(2);
  EvalOptions bad;
  bad.bounds = {500, 140};
  EXPECT_TRUE(Evaluate(docs, fps, bad, &out).IsInvalidArgument());
}

}  // namespace
}  // namespace simdex
