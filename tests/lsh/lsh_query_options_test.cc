// Thresholds and top-k chosen at query time (LshQueryOptions): an index
// built for a lowest threshold answers every threshold at or above it by
// one rule (a candidate passes T when its estimate is at least
// DefaultEstimateFilter(T, num_perm)), labels each match with the highest
// threshold it passes, and keeps the K highest estimates, equal ones in id
// order; all against a brute-force oracle. A threshold below the index's
// is refused naming both.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "tests/index/test_data.h"
#include "tests/lsh/lsh_data.h"

namespace simdex {
namespace {

using testing::LshDocument;
using testing::ScopedTempDir;

// What Query must answer with `options`, from the oracle's candidates
// (testing::BruteForceLsh::Query(query, 0): every banded document sharing
// a band key, with its stored signature's estimate against the query's):
// the filter, labels and order written out again here.
std::vector<LshMatch> ExpectedMatches(const std::vector<LshMatch>& candidates, const LshQueryOptions& options,
                                      double index_threshold, int num_perm) {
  std::vector<LshMatch> out;
  for (LshMatch m : candidates) {
    if (options.thresholds.empty()) {
      const double filter =
          options.min_estimate < 0 ? DefaultEstimateFilter(index_threshold, num_perm) : options.min_estimate;
      if (m.estimate >= filter) out.push_back(m);
      continue;
    }
    for (double t : options.thresholds) {
      if (m.estimate >= DefaultEstimateFilter(t, num_perm)) m.threshold = std::max(m.threshold, t);
    }
    if (m.threshold > 0) out.push_back(m);
  }
  if (options.top_k > 0) {
    std::stable_sort(out.begin(), out.end(), [](const LshMatch& a, const LshMatch& b) {
      return a.estimate != b.estimate ? a.estimate > b.estimate : a.id < b.id;
    });
    if (out.size() > options.top_k) out.resize(options.top_k);
  }
  return out;
}

struct Built {
  std::vector<LshDocument> docs;
  LshBuildOptions options;
  std::unique_ptr<LshIndexReader> reader;
};

// An index of clustered documents (estimates spread over [0, 1], repeated
// ids) built for `threshold`.
void Build(const ScopedTempDir& dir, const std::string& name, double threshold, int bits, bool string_ids, Built* b) {
  b->docs = testing::ClusteredDocuments(600, 64, 11);
  b->options.minhash.num_perm = 64;
  b->options.threshold = threshold;
  b->options.signature_bits = bits;
  ASSERT_TRUE(testing::BuildLshIndex(dir.File(name), b->options, b->docs, string_ids).ok());
  ASSERT_TRUE(LshIndexReader::Open(dir.File(name), ReaderOptions(), &b->reader).ok());
}

// Every 5th document's signature and a fresh one.
std::vector<std::vector<uint32_t>> Queries(const std::vector<LshDocument>& docs) {
  std::vector<std::vector<uint32_t>> queries;
  for (size_t i = 0; i < docs.size(); i += 5) queries.push_back(docs[i].signature);
  std::mt19937 rng(3);
  std::vector<uint32_t> fresh(docs[0].signature.size());
  for (auto& v : fresh) v = static_cast<uint32_t>(rng());
  queries.push_back(fresh);
  return queries;
}

TEST(LshQueryOptionsTest, ThresholdsAndTopKEqualTheOracle) {
  ScopedTempDir dir;
  const std::vector<std::vector<double>> threshold_sets = {
      {}, {0.5}, {0.7}, {0.9}, {0.5, 0.7, 0.9}, {0.95, 0.6, 0.75}, {1.0}};
  size_t compared = 0, labelled_above_lowest = 0, ties = 0;
  int i = 0;
  for (int bits : {1, 4, 32}) {
    for (bool string_ids : {false, true}) {
      Built b;
      ASSERT_NO_FATAL_FAILURE(Build(dir, "x" + std::to_string(i++) + ".sdx", 0.5, bits, string_ids, &b));
      const testing::BruteForceLsh oracle(b.docs, b.options, string_ids);
      const std::vector<std::vector<uint32_t>> queries = Queries(b.docs);
      std::vector<std::vector<LshMatch>> candidates;
      for (const auto& q : queries) candidates.push_back(oracle.Query(q.data(), 0));
      for (const std::vector<double>& thresholds : threshold_sets) {
        for (uint64_t k : {0, 1, 3, 10, 1000}) {
          for (double min_estimate : {-1.0, 0.0, 0.3}) {
            if (min_estimate >= 0 && !thresholds.empty()) continue;  // two filters: refused (below)
            LshQueryOptions options;
            options.thresholds = thresholds;
            options.top_k = k;
            options.min_estimate = min_estimate;
            SCOPED_TRACE("bits " + std::to_string(bits) + " string ids " + std::to_string(string_ids) + " k " +
                         std::to_string(k) + " thresholds " + std::to_string(thresholds.size()) + " min_estimate " +
                         std::to_string(min_estimate));
            for (size_t x = 0; x < queries.size(); ++x) {
              std::vector<LshMatch> got;
              const Status s = b.reader->Query(queries[x].data(), options, &got);
              ASSERT_TRUE(s.ok()) << s.ToString();
              ASSERT_EQ(got, ExpectedMatches(candidates[x], options, 0.5, 64));
              compared += got.size();
              for (size_t j = 0; j < got.size(); ++j) {
                if (!thresholds.empty() && got[j].threshold > *std::min_element(thresholds.begin(), thresholds.end())) {
                  ++labelled_above_lowest;
                }
                if (k > 0 && j > 0 && got[j].estimate == got[j - 1].estimate) ++ties;
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 10000u);
  EXPECT_GT(labelled_above_lowest, 1000u);  // the labels are not all the lowest threshold
  EXPECT_GT(ties, 1000u);                   // equal estimates, ordered by id
}

// The index's own threshold given at query time is its default filter:
// one rule, the same matches.
TEST(LshQueryOptionsTest, TheIndexsThresholdAtQueryTimeIsItsDefaultFilter) {
  ScopedTempDir dir;
  Built b;
  ASSERT_NO_FATAL_FAILURE(Build(dir, "a.sdx", 0.6, 4, false, &b));
  LshQueryOptions at;
  at.thresholds = {0.6};
  size_t found = 0;
  for (const auto& q : Queries(b.docs)) {
    std::vector<LshMatch> by_default, by_threshold;
    ASSERT_TRUE(b.reader->Query(q.data(), LshQueryOptions(), &by_default).ok());
    ASSERT_TRUE(b.reader->Query(q.data(), at, &by_threshold).ok());
    ASSERT_EQ(by_default.size(), by_threshold.size());
    for (size_t j = 0; j < by_default.size(); ++j) {
      EXPECT_EQ(by_default[j].id, by_threshold[j].id);
      EXPECT_EQ(by_default[j].estimate, by_threshold[j].estimate);
      EXPECT_EQ(by_default[j].threshold, 0);
      EXPECT_EQ(by_threshold[j].threshold, 0.6);
    }
    found += by_default.size();
  }
  EXPECT_GT(found, 100u);
}

// With several thresholds, the matches labelled T or higher are exactly
// what the query at T alone finds; each label is the highest passed.
TEST(LshQueryOptionsTest, EachMatchIsLabelledWithTheHighestThresholdItPasses) {
  ScopedTempDir dir;
  Built b;
  ASSERT_NO_FATAL_FAILURE(Build(dir, "a.sdx", 0.5, 8, false, &b));
  const std::vector<double> thresholds = {0.9, 0.5, 0.7};
  LshQueryOptions all;
  all.thresholds = thresholds;
  size_t labels[3] = {0, 0, 0};
  for (const auto& q : Queries(b.docs)) {
    std::vector<LshMatch> got;
    ASSERT_TRUE(b.reader->Query(q.data(), all, &got).ok());
    for (const LshMatch& m : got) {
      ASSERT_TRUE(m.threshold == 0.5 || m.threshold == 0.7 || m.threshold == 0.9) << m.threshold;
      EXPECT_GE(m.estimate, DefaultEstimateFilter(m.threshold, 64));
      for (double higher : thresholds) {
        if (higher > m.threshold) {
          EXPECT_LT(m.estimate, DefaultEstimateFilter(higher, 64)) << m.id;
        }
      }
      ++labels[m.threshold == 0.5 ? 0 : m.threshold == 0.7 ? 1 : 2];
    }
    for (double t : thresholds) {
      LshQueryOptions one;
      one.thresholds = {t};
      std::vector<LshMatch> alone;
      ASSERT_TRUE(b.reader->Query(q.data(), one, &alone).ok());
      std::vector<uint64_t> want, have;
      for (const LshMatch& m : alone) want.push_back(m.id);
      for (const LshMatch& m : got) {
        if (m.threshold >= t) have.push_back(m.id);
      }
      EXPECT_EQ(have, want) << "threshold " << t;
    }
  }
  for (size_t x = 0; x < 3; ++x) EXPECT_GT(labels[x], 20u) << "label " << x;
}

// top_k: highest estimates first, equal estimates in id order, and each K
// a prefix of a larger K's answer.
TEST(LshQueryOptionsTest, TopKIsTheHighestEstimatesThenTheLowestIds) {
  ScopedTempDir dir;
  Built b;
  ASSERT_NO_FATAL_FAILURE(Build(dir, "a.sdx", 0.5, 2, false, &b));
  size_t full_answers = 0;
  for (const auto& q : Queries(b.docs)) {
    LshQueryOptions options;
    options.min_estimate = 0;
    options.top_k = 100000;
    std::vector<LshMatch> every;
    ASSERT_TRUE(b.reader->Query(q.data(), options, &every).ok());
    for (size_t j = 1; j < every.size(); ++j) {
      ASSERT_TRUE(every[j - 1].estimate > every[j].estimate ||
                  (every[j - 1].estimate == every[j].estimate && every[j - 1].id <= every[j].id))
          << j;
    }
    if (every.size() >= 5) ++full_answers;
    for (uint64_t k : {1, 2, 5}) {
      options.top_k = k;
      std::vector<LshMatch> top;
      ASSERT_TRUE(b.reader->Query(q.data(), options, &top).ok());
      ASSERT_EQ(top.size(), std::min<size_t>(k, every.size()));
      EXPECT_TRUE(std::equal(top.begin(), top.end(), every.begin())) << "k " << k;
    }
  }
  EXPECT_GT(full_answers, 10u);
}

TEST(LshQueryOptionsTest, AThresholdBelowTheIndexsIsRefusedNamingBoth) {
  ScopedTempDir dir;
  Built b;
  ASSERT_NO_FATAL_FAILURE(Build(dir, "a.sdx", 0.8, 4, false, &b));
  const std::vector<uint32_t> empty(64, kEmptyMinimum);
  for (const std::vector<double>& thresholds : {std::vector<double>{0.7}, std::vector<double>{0.9, 0.75}}) {
    LshQueryOptions options;
    options.thresholds = thresholds;
    EXPECT_TRUE(options.Validate().ok());
    for (const uint32_t* q : std::vector<const uint32_t*>{b.docs[0].signature.data(), empty.data()}) {
      std::vector<LshMatch> got = {LshMatch{1, 1, 0}};
      const Status s = b.reader->Query(q, options, &got);
      EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
      EXPECT_NE(s.ToString().find("threshold " + std::string(thresholds.size() == 1 ? "0.7" : "0.75") +
                                  " is below the index's 0.8"),
                std::string::npos)
          << s.ToString();
      EXPECT_NE(s.ToString().find("a.sdx"), std::string::npos) << s.ToString();
      EXPECT_TRUE(got.empty());
    }
  }
  LshQueryOptions at;
  at.thresholds = {0.8, 1};
  EXPECT_TRUE(b.reader->ValidateQuery(at).ok());
}

TEST(LshQueryOptionsTest, ValidateRefusesBadOptionsNamingThem) {
  for (double t : {0.0, -0.5, 1.5, std::nan("")}) {
    LshQueryOptions o;
    o.thresholds = {0.8, t};
    const Status s = o.Validate();
    EXPECT_TRUE(s.IsInvalidArgument()) << t;
    EXPECT_NE(s.ToString().find("is not in (0, 1]"), std::string::npos) << s.ToString();
  }
  LshQueryOptions o;
  o.min_estimate = 1.5;
  EXPECT_NE(o.Validate().ToString().find("min_estimate 1.5 is above 1"), std::string::npos) << o.Validate().ToString();
  o.min_estimate = 0.5;
  o.thresholds = {0.8};
  EXPECT_NE(o.Validate().ToString().find("min_estimate and thresholds are two filters"), std::string::npos);
  o.min_estimate = -1;
  o.top_k = 3;
  EXPECT_TRUE(o.Validate().ok());
}

}  // namespace
}  // namespace simdex
