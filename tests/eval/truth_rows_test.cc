// EvaluateSetAgainstTruth (include/simdex/eval.h), `simdex eval --truth
// jaccard` of one set: its truth pairs against every pair's Jaccard by one
// merge (Confirmer::JaccardOfShingles, not the truth's inverted index), one
// row per configuration, baseline, MinHash mode and reported file, in that
// order; the truth's own pairs, reported, score perfectly.
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/confirm.h"
#include "simdex/eval.h"

namespace simdex {
namespace {

std::string WriteSet(const std::string& name, const std::vector<std::string>& texts) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream out(path, std::ios::binary);
  for (size_t i = 0; i < texts.size(); ++i) out << "{\"id\":\"d" << i << "\",\"text\":\"" << texts[i] << "\"}\n";
  return path;
}

// 60 texts of 150 words: bases and copies with one to six words changed, so
// that pairs fall above, between and below the thresholds.
std::vector<std::string> Texts() {
  std::mt19937_64 rng(38);
  std::vector<std::vector<std::string>> bases;
  std::vector<std::string> out;
  for (int i = 0; i < 60; ++i) {
    std::vector<std::string> words;
    if (bases.empty() || rng() % 3 == 0) {
      for (int w = 0; w < 150; ++w) words.push_back("w" + std::to_string(rng() % 500));
      bases.push_back(words);
    } else {
      words = bases[rng() % bases.size()];
      for (uint64_t e = 1 + rng() % 6; e > 0; --e) words[rng() % words.size()] = "x" + std::to_string(rng() % 500);
    }
    std::string t;
    for (const std::string& w : words) t += (t.empty() ? "" : " ") + w;
    out.push_back(t);
  }
  return out;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(EvaluateSetAgainstTruth, TruthPairsAreEveryPairAtThePositiveJaccard) {
  const std::vector<std::string> texts = Texts();
  const std::string set = WriteSet("truth_rows_set.jsonl", texts);
  TruthEvalOptions options;
  options.truth_pairs = true;
  TruthEvalOutput out;
  const Status s = EvaluateSetAgainstTruth(set, options, nullptr, &out);
  ASSERT_TRUE(s.ok()) << s.ToString();

  std::unique_ptr<ShingleMaker> maker;
  ASSERT_TRUE(ShingleMaker::Create(options.shingles, &maker).ok());
  std::vector<std::vector<uint64_t>> sets(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) maker->Make(texts[i], &sets[i]);
  std::vector<std::string> want;
  for (size_t a = 0; a < texts.size(); ++a) {
    for (size_t b = a + 1; b < texts.size(); ++b) {
      const double j = Confirmer::JaccardOfShingles(sets[a], sets[b]);
      if (j < options.truth.positive) continue;
      char jaccard[32];
      std::snprintf(jaccard, sizeof jaccard, "%.6g", j);
      want.push_back("{\"kind\":\"pair\",\"set\":\"" + set + "\",\"a\":\"d" + std::to_string(a) + "\",\"b\":\"d" +
                     std::to_string(b) + "\",\"jaccard\":" + jaccard + "}");
    }
  }
  ASSERT_GT(want.size(), 5u);
  EXPECT_EQ(Lines(out.truth_pairs), want);
  EXPECT_TRUE(out.listed.empty());
  // No configuration, baseline or file: the truth's row alone.
  ASSERT_EQ(Lines(out.rows).size(), 1u);
  EXPECT_EQ(out.rows.rfind("{\"kind\":\"truth\",\"set\":", 0), 0u) << out.rows;
  EXPECT_NE(out.rows.find("\"documents\":60,"), std::string::npos) << out.rows;
  EXPECT_TRUE(out.summary.empty());
}

TEST(EvaluateSetAgainstTruth, OneRowPerConfigurationMethodAndReportedFileInOrder) {
  const std::string set = WriteSet("truth_rows_rows.jsonl", Texts());
  TruthEvalOptions options;
  options.truth_pairs = true;
  TruthEvalOutput truth;
  ASSERT_TRUE(EvaluateSetAgainstTruth(set, options, nullptr, &truth).ok());
  const std::string reported = ::testing::TempDir() + "/truth_rows_reported.jsonl";
  std::ofstream(reported, std::ios::binary) << truth.truth_pairs;

  options.truth_pairs = false;
  options.config_names = {"words"};
  options.configs.resize(1);
  ASSERT_TRUE(ParseEvalConfig("words", &options.configs[0]).ok());
  options.baseline = true;
  options.minhash = true;
  options.reported = {reported};
  TruthEvalOutput out;
  const Status s = EvaluateSetAgainstTruth(set, options, nullptr, &out);
  ASSERT_TRUE(s.ok()) << s.ToString();
  const std::vector<std::string> rows = Lines(out.rows);
  const std::vector<std::string> kinds = {"truth",   "simhash", "baseline", "baseline", "minhash",
                                          "minhash", "minhash", "minhash",  "reported"};
  ASSERT_EQ(rows.size(), kinds.size()) << out.rows;
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].rfind("{\"kind\":\"" + kinds[i] + "\",", 0), 0u) << i << ": " << rows[i];
  }
  const std::vector<std::string> summary = Lines(out.summary);
  ASSERT_EQ(summary.size(), kinds.size() - 1);  // every row but the truth's
  EXPECT_NE(summary.back().find("pairs of " + reported + ": strict P/R/F1 1.000/1.000/1.000"), std::string::npos)
      << summary.back();
}

TEST(EvaluateSetAgainstTruth, AMissingSetIsAnErrorNamingIt) {
  TruthEvalOutput out;
  const std::string missing = ::testing::TempDir() + "/truth_rows_missing.jsonl";
  const Status s = EvaluateSetAgainstTruth(missing, TruthEvalOptions(), nullptr, &out);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("truth_rows_missing.jsonl"), std::string::npos) << s.ToString();
}

}  // namespace
}  // namespace simdex
