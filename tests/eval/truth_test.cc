// The pairwise truth of include/simdex/eval.h: shingle sets by the documented
// rules, Jaccard pairs against hand-computed values and a brute-force
// all-pairs oracle, and the scoring of fingerprints and predicted pairs.
#include <algorithm>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "simdex/confirm.h"
#include "simdex/eval.h"

namespace simdex {
namespace {

std::vector<uint64_t> Shingles(std::string_view text, ShingleKind* kind = nullptr) {
  std::unique_ptr<ShingleMaker> maker;
  EXPECT_TRUE(ShingleMaker::Create(ShingleOptions(), &maker).ok());
  std::vector<uint64_t> out;
  const ShingleKind k = maker->Make(text, &out);
  if (kind != nullptr) *kind = k;
  return out;
}

// |A ∩ B| / |A ∪ B| by merging: the oracle.
double BruteJaccard(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  std::vector<uint64_t> common;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
  const size_t all = a.size() + b.size() - common.size();
  return all == 0 ? 0.0 : static_cast<double>(common.size()) / static_cast<double>(all);
}

double PairJaccard(const std::vector<JaccardPair>& pairs, uint32_t a, uint32_t b) {
  for (const JaccardPair& p : pairs) {
    if (p.a == a && p.b == b) return p.jaccard();
  }
  return 0.0;
}

TEST(ShingleMaker, WordShinglesAreXxh3OfFiveNormalizedWordsJoinedBySpaces) {
  ShingleKind kind;
  const std::vector<uint64_t> got = Shingles("The  QUICK\tbrown fox\n jumps over", &kind);
  EXPECT_EQ(kind, ShingleKind::kWords);
  std::vector<uint64_t> want;
  for (std::string s : {"the quick brown fox jumps", "quick brown fox jumps over"}) {
    want.push_back(XXH3_64bits_withSeed(s.data(), s.size(), 1));
  }
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
}

TEST(ShingleMaker, CharacterShinglesForUnspacedTextWithoutItsSpaces) {
  ShingleKind kind;
  const std::vector<uint64_t> got = Shingles("中文文本 的去", &kind);  // 6 code points besides the space
  EXPECT_EQ(kind, ShingleKind::kChars);
  std::vector<uint64_t> want;
  for (std::string s : {"中文文本的", "文文本的去"}) want.push_back(XXH3_64bits_withSeed(s.data(), s.size(), 2));
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
}

TEST(ShingleMaker, ShortTextIsOneShingleAndEmptyTextNone) {
  ShingleKind kind;
  EXPECT_EQ(Shingles("two words", &kind).size(), 1u);
  EXPECT_EQ(kind, ShingleKind::kWords);
  const std::string two = "two words";
  EXPECT_EQ(Shingles(" Two\n\nWORDS ")[0], XXH3_64bits_withSeed(two.data(), two.size(), 1));
  EXPECT_TRUE(Shingles("", &kind).empty());
  EXPECT_EQ(kind, ShingleKind::kNone);
  EXPECT_TRUE(Shingles(" \t\n\u3000", &kind).empty());  // ideographic space too
  EXPECT_EQ(kind, ShingleKind::kNone);
}

TEST(ShingleMaker, UnspacedWhenHanLettersOutnumberWordsOfOtherScripts) {
  ShingleKind kind;
  Shingles("ls - 列出目录内容 --all", &kind);  // 6 Han letters, 2 words
  EXPECT_EQ(kind, ShingleKind::kChars);
  Shingles("see the 中 page of the manual", &kind);  // 1 Han letter, 6 words
  EXPECT_EQ(kind, ShingleKind::kWords);
  Shingles("한국어 문장은 띄어 씁니다", &kind);  // Hangul counts as spaced
  EXPECT_EQ(kind, ShingleKind::kWords);
  Shingles("ภาษาไทยไม่เว้นวรรค", &kind);  // Thai (with its combining vowels)
  EXPECT_EQ(kind, ShingleKind::kChars);
}

TEST(ShingleMaker, NfkcAndCaseFoldingMakeVariantsEqual) {
  EXPECT_EQ(Shingles("ＡＢＣ def GHI jkl MNO"), Shingles("abc DEF ghi JKL mno"));
  EXPECT_EQ(Shingles("Straße ﬁve ① two three"), Shingles("STRASSE five 1 two three"));
}

TEST(ShingleMaker, RejectsBadOptions) {
  std::unique_ptr<ShingleMaker> maker;
  ShingleOptions o;
  o.word_n = 0;
  EXPECT_TRUE(ShingleMaker::Create(o, &maker).IsInvalidArgument());
  o = ShingleOptions();
  o.unspaced_share = 0;
  EXPECT_TRUE(ShingleMaker::Create(o, &maker).IsInvalidArgument());
}

TEST(FindJaccardPairs, MatchesHandComputedJaccard) {
  // Word 5-shingles: "a b c d e f" has 2, "a b c d e f g" 3 (2 shared):
  // J = 2/3. "x y" and "X  y" are one equal shingle: J = 1. The Chinese
  // texts have 5 character shingles each, 3 shared: J = 3/7. "ａ b c d e f"
  // is "a b c d e f" after NFKC: J = 1; with the 7-word text 2/3.
  const std::vector<std::string> texts = {"a b c d e f", "A  b\tc d e f g", "x y", "X  y", "",
                                          "中文文本的去重测试", "中文文本的去重实验", "ａ b c d e f"};
  std::vector<std::vector<uint64_t>> sets;
  for (const std::string& t : texts) sets.push_back(Shingles(t));
  EXPECT_EQ(sets[0].size(), 2u);
  EXPECT_EQ(sets[1].size(), 3u);
  EXPECT_EQ(sets[5].size(), 5u);
  std::vector<JaccardPair> pairs;
  ASSERT_TRUE(FindJaccardPairs(sets, 1e-9, &pairs).ok());
  ASSERT_EQ(pairs.size(), 5u);
  EXPECT_DOUBLE_EQ(PairJaccard(pairs, 0, 1), 2.0 / 3.0);
  EXPECT_EQ(pairs[0].intersection, 2u);
  EXPECT_EQ(pairs[0].union_size, 3u);
  EXPECT_DOUBLE_EQ(PairJaccard(pairs, 0, 7), 1.0);
  EXPECT_DOUBLE_EQ(PairJaccard(pairs, 1, 7), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(PairJaccard(pairs, 2, 3), 1.0);
  EXPECT_DOUBLE_EQ(PairJaccard(pairs, 5, 6), 3.0 / 7.0);
  ASSERT_TRUE(FindJaccardPairs(sets, 0.5, &pairs).ok());
  EXPECT_EQ(pairs.size(), 4u);  // 3/7 is below
  ASSERT_TRUE(FindJaccardPairs(sets, 1.0, &pairs).ok());
  EXPECT_EQ(pairs.size(), 2u);
}

TEST(FindJaccardPairs, EqualsABruteForceAllPairsOracleOnRandomDocuments) {
  // 300 documents of words from a small vocabulary, many copied from one
  // another with edits, so that every class of Jaccard occurs.
  std::mt19937_64 rng(20);
  const std::vector<std::string> vocabulary = {"alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta"};
  std::vector<std::string> texts;
  for (int d = 0; d < 300; ++d) {
    std::vector<std::string> words;
    if (d > 0 && rng() % 2) {  // an edited copy of an earlier document
      std::string base = texts[rng() % texts.size()];
      for (size_t p = 0, q; p < base.size(); p = q + 1) {
        q = base.find(' ', p);
        if (q == std::string::npos) q = base.size();
        words.push_back(base.substr(p, q - p));
      }
      for (int e = 0, edits = static_cast<int>(rng() % 4); e < edits && !words.empty(); ++e) {
        words[rng() % words.size()] = vocabulary[rng() % vocabulary.size()];
      }
    } else {
      for (int w = 0, len = static_cast<int>(rng() % 40); w < len; ++w) words.push_back(vocabulary[rng() % 8]);
    }
    std::string text;
    for (const std::string& w : words) {
      if (!text.empty()) text += ' ';
      text += w;
    }
    texts.push_back(text);
  }
  std::vector<std::vector<uint64_t>> sets;
  for (const std::string& t : texts) sets.push_back(Shingles(t));
  for (double threshold : {1e-9, 0.2, 0.5, 0.8, 1.0}) {
    std::vector<JaccardPair> got;
    ASSERT_TRUE(FindJaccardPairs(sets, threshold, &got).ok());
    std::vector<std::pair<uint32_t, uint32_t>> want;
    for (uint32_t a = 0; a < sets.size(); ++a) {
      for (uint32_t b = a + 1; b < sets.size(); ++b) {
        const double j = BruteJaccard(sets[a], sets[b]);
        if (j > 0 && j >= threshold) want.emplace_back(a, b);
      }
    }
    ASSERT_EQ(got.size(), want.size()) << threshold;
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i].a, want[i].first);
      ASSERT_EQ(got[i].b, want[i].second);
      ASSERT_DOUBLE_EQ(got[i].jaccard(), BruteJaccard(sets[got[i].a], sets[got[i].b]));
    }
  }
}

TEST(FindJaccardPairs, RejectsAThresholdOutsideZeroToOne) {
  std::vector<std::vector<uint64_t>> sets(2);
  std::vector<JaccardPair> out;
  EXPECT_TRUE(FindJaccardPairs(sets, 0.0, &out).IsInvalidArgument());
  EXPECT_TRUE(FindJaccardPairs(sets, 1.5, &out).IsInvalidArgument());
}

FingerprintResult Fp(uint64_t v) {
  FingerprintResult r;
  r.fingerprint = v;
  r.reason = EmptyReason::kNotEmpty;
  return r;
}

TEST(EvaluateAgainstTruth, CountsAHandMadeBatch) {
  // 0-1 positive (J 0.9) at 2 bits; 0-2 between (J 0.6) at 1 bit; 1-2
  // negative (J 0.3) at 3 bits; every pair with 3 unrelated (J 0) at 4, 5
  // and 6 bits; 4 has no fingerprint.
  const std::vector<std::string_view> texts = {"a", "b", "c", "d", "e"};
  const std::vector<FingerprintResult> fps = {Fp(0), Fp(0b11), Fp(0b100), Fp(0xf0), FingerprintResult()};
  const std::vector<JaccardPair> truth = {{0, 1, 9, 10}, {0, 2, 6, 10}, {1, 2, 3, 10}};
  TruthOptions options;
  options.max_k = 8;
  options.list_negative_within = 5;
  options.list_positive_beyond = 1;
  std::vector<TruthBucket> b;
  std::vector<ListedPair> listed;
  ASSERT_TRUE(EvaluateAgainstTruth(texts, fps, truth, options, &b, &listed).ok());
  ASSERT_EQ(b.size(), 4u);
  const TruthBucket& s = b[0];
  EXPECT_EQ(s.positives, 1u);
  EXPECT_EQ(s.between, 1u);
  EXPECT_EQ(s.negatives, 8u);  // 1-2 and the 7 unrelated pairs
  EXPECT_EQ(s.unrelated, 7u);
  EXPECT_EQ(s.tp[1], 0u);
  EXPECT_EQ(s.tp[2], 1u);
  EXPECT_EQ(s.between_predicted[1], 1u);
  EXPECT_EQ(s.fp[3], 1u);
  EXPECT_EQ(s.fp[4], 2u);  // 0-3 at 4
  EXPECT_EQ(s.unrelated_predicted[4], 1u);
  EXPECT_EQ(s.unrelated_predicted[8], 3u);
  // At k = 3: 0-1 true, 0-2 (J 0.6) false strictly and left out leniently, 1-2 false.
  EXPECT_EQ(s.FalsePositives(3, Scoring::kStrict), 2u);
  EXPECT_EQ(s.FalsePositives(3, Scoring::kLenient), 1u);
  EXPECT_DOUBLE_EQ(s.Precision(3, Scoring::kStrict), 1.0 / 3);
  EXPECT_DOUBLE_EQ(s.Precision(3, Scoring::kLenient), 0.5);
  EXPECT_DOUBLE_EQ(s.Recall(2), 1.0);
  EXPECT_DOUBLE_EQ(s.MeanUnrelatedDistance(), 5.0);  // 0-3: 4, 1-3: 6, 2-3: 5
  EXPECT_DOUBLE_EQ(s.MedianUnrelatedDistance(), 5.0);
  EXPECT_EQ(s.unrelated_distances[4] + s.unrelated_distances[5] + s.unrelated_distances[6], 3u);
  ASSERT_EQ(listed.size(), 4u);  // 0-1 beyond 1 bit; 0-3, 1-2 and 2-3 negatives within 5
  EXPECT_EQ(listed[0].b, 1u);
  EXPECT_DOUBLE_EQ(listed[0].jaccard, 0.9);
  EXPECT_EQ(listed[1].b, 3u);
  EXPECT_EQ(listed[1].distance, 4);
  EXPECT_EQ(listed[2].a, 1u);
  EXPECT_DOUBLE_EQ(listed[2].jaccard, 0.3);
  EXPECT_EQ(b[3].name, "all");
  EXPECT_EQ(b[3].tp, s.tp);
  // -1 lists every positive pair, 0-1 at 2 bits included; 2 lists none of them.
  options.list_negative_within = -1;
  for (const int beyond : {-1, 2}) {
    options.list_positive_beyond = beyond;
    listed.clear();
    ASSERT_TRUE(EvaluateAgainstTruth(texts, fps, truth, options, &b, &listed).ok());
    EXPECT_EQ(listed.size(), beyond == -1 ? 1u : 0u) << beyond;
  }
}

// A hand-made batch of reported pairs, one per class: 0-1 at J = 0.9, 0-2 at
// J = 0.7 (in between), 1-3 at J = 0.3; 2-3 at J = 0.85 is not reported.
TEST(EvaluatePairsAgainstTruth, APairAtJ07IsFalseStrictlyAndLeftOutLeniently) {
  const std::vector<std::string_view> texts = {"a", "b", "c", "d"};
  const std::vector<JaccardPair> truth = {{0, 1, 9, 10}, {0, 2, 7, 10}, {1, 3, 3, 10}, {2, 3, 17, 20}};
  const std::vector<uint64_t> predicted = {PackPair(0, 1), PackPair(0, 2), PackPair(1, 3)};
  std::vector<TruthBucket> out;
  ASSERT_TRUE(EvaluatePairsAgainstTruth(texts, predicted, truth, TruthOptions(), &out).ok());
  const TruthBucket& all = out.back();
  EXPECT_EQ(all.positives, 2u);
  EXPECT_EQ(all.between, 1u);
  EXPECT_EQ(all.tp[0], 1u);
  EXPECT_EQ(all.between_predicted[0], 1u);  // the in-between count: 0-2
  EXPECT_EQ(all.fp[0], 1u);
  EXPECT_EQ(all.FalsePositives(0, Scoring::kStrict), 2u);  // 0-2 and 1-3
  EXPECT_EQ(all.FalsePositives(0, Scoring::kLenient), 1u);  // 1-3 only
  EXPECT_DOUBLE_EQ(all.Recall(0), 0.5);
  EXPECT_DOUBLE_EQ(all.Precision(0, Scoring::kStrict), 1.0 / 3);
  EXPECT_DOUBLE_EQ(all.Precision(0, Scoring::kLenient), 0.5);
  EXPECT_DOUBLE_EQ(all.F1(0, Scoring::kStrict), 0.4);  // 2 (1/3)(1/2) / (1/3 + 1/2)
  EXPECT_DOUBLE_EQ(all.F1(0, Scoring::kLenient), 0.5);
  // With the band closed (negative = positive) the two scorings agree.
  TruthOptions closed;
  closed.negative = closed.positive;
  ASSERT_TRUE(EvaluatePairsAgainstTruth(texts, predicted, truth, closed, &out).ok());
  EXPECT_EQ(out.back().between_predicted[0], 0u);
  EXPECT_EQ(out.back().FalsePositives(0, Scoring::kLenient), 2u);
  EXPECT_DOUBLE_EQ(out.back().F1(0, Scoring::kLenient), out.back().F1(0, Scoring::kStrict));
}

TEST(EvaluateAgainstTruth, EqualsABruteForceRecountOnRandomBatches) {
  std::mt19937_64 rng(21);
  for (int round = 0; round < 10; ++round) {
    const uint32_t n = 2 + static_cast<uint32_t>(rng() % 50);
    std::vector<std::string> storage(n);
    std::vector<std::string_view> texts(n);
    std::vector<FingerprintResult> fps(n);
    for (uint32_t i = 0; i < n; ++i) {
      storage[i] = std::string(rng() % 700, 'x');
      texts[i] = storage[i];
      if (rng() % 10) fps[i] = Fp(rng() & rng() & rng());
    }
    std::vector<JaccardPair> truth;
    std::vector<double> j(static_cast<size_t>(n) * n, 0.0);
    std::vector<uint64_t> predicted;
    for (uint32_t a = 0; a < n; ++a) {
      for (uint32_t b = a + 1; b < n; ++b) {
        if (rng() % 4 == 0) predicted.push_back(PackPair(a, b));
        if (rng() % 3) continue;
        const uint32_t all = 1 + static_cast<uint32_t>(rng() % 10), common = static_cast<uint32_t>(rng() % (all + 1));
        if (static_cast<double>(common) / all < 0.2) continue;  // the truth lists J >= unrelated only
        truth.push_back({a, b, common, all});
        j[a * n + b] = static_cast<double>(common) / all;
      }
    }
    TruthOptions options;
    options.max_k = 16;
    std::vector<TruthBucket> got, got_pairs;
    ASSERT_TRUE(EvaluateAgainstTruth(texts, fps, truth, options, &got).ok());
    ASSERT_TRUE(EvaluatePairsAgainstTruth(texts, predicted, truth, options, &got_pairs).ok());
    for (size_t bucket = 0; bucket < 3; ++bucket) {
      uint64_t pos = 0, between = 0, neg = 0, pair_tp = 0, pair_fp = 0, pair_strict_fp = 0;
      std::vector<uint64_t> tp(17, 0), fp(17, 0), strict_fp(17, 0);
      for (uint32_t a = 0; a < n; ++a) {
        for (uint32_t b = a + 1; b < n; ++b) {
          const size_t shorter = std::min(texts[a].size(), texts[b].size());
          if ((shorter < 140 ? 0u : shorter < 500 ? 1u : 2u) != bucket) continue;
          const double v = j[a * n + b];
          const bool positive = v >= 0.8, negative = v < 0.5;
          pos += positive;
          between += !positive && !negative;
          neg += negative;
          const bool in_pairs = std::binary_search(predicted.begin(), predicted.end(), PackPair(a, b));
          pair_tp += in_pairs && positive;
          pair_fp += in_pairs && negative;
          pair_strict_fp += in_pairs && !positive;
          if (fps[a].empty() || fps[b].empty()) continue;
          const int d = HammingDistance(fps[a].fingerprint, fps[b].fingerprint);
          for (int k = d; k <= 16; ++k) {
            tp[k] += positive;
            fp[k] += negative;
            strict_fp[k] += !positive;
          }
        }
      }
      EXPECT_EQ(got[bucket].positives, pos);
      EXPECT_EQ(got[bucket].between, between);
      EXPECT_EQ(got[bucket].negatives, neg);
      EXPECT_EQ(got[bucket].tp, tp) << "round " << round << " bucket " << bucket;
      EXPECT_EQ(got[bucket].fp, fp) << "round " << round << " bucket " << bucket;
      for (int k = 0; k <= 16; ++k) {
        EXPECT_EQ(got[bucket].FalsePositives(k, Scoring::kStrict), strict_fp[k]) << round << " " << bucket << " " << k;
        EXPECT_EQ(got[bucket].FalsePositives(k, Scoring::kLenient), fp[k]) << round << " " << bucket << " " << k;
      }
      EXPECT_EQ(got_pairs[bucket].tp[0], pair_tp);
      EXPECT_EQ(got_pairs[bucket].fp[0], pair_fp);
      EXPECT_EQ(got_pairs[bucket].FalsePositives(0, Scoring::kStrict), pair_strict_fp);
      EXPECT_EQ(got_pairs[bucket].positives, pos);
    }
  }
}

TEST(EvaluateAgainstTruth, ConfirmingByTheTruthsOwnShinglesLeavesNoFalsePairAndMissesNone) {
  // With every pair within k (all fingerprints equal), confirmation by
  // jaccard-shingles5 at the positive threshold predicts exactly the
  // positives: the confirmer computes the truth's J, shingling each text once.
  std::mt19937_64 rng(22);
  const char* vocabulary[] = {"Alpha", "beta,", "gamma", "delta.", "eps", "zeta", "eta", "theta", "床前明月光"};
  std::vector<std::string> storage;
  for (int d = 0; d < 120; ++d) {
    std::string text;
    if (d > 0 && rng() % 2) {
      text = storage[rng() % storage.size()];
      for (int e = 0, edits = static_cast<int>(rng() % 3); e < edits; ++e) text += std::string(" ") + vocabulary[rng() % 9];
    } else {
      for (int w = 0, len = 3 + static_cast<int>(rng() % 60); w < len; ++w) text += std::string(vocabulary[rng() % 9]) + " ";
    }
    storage.push_back(text);
  }
  std::vector<std::string_view> texts(storage.begin(), storage.end());
  std::vector<std::vector<uint64_t>> sets;
  for (std::string_view t : texts) sets.push_back(Shingles(t));
  std::vector<JaccardPair> truth;
  ASSERT_TRUE(FindJaccardPairs(sets, 0.2, &truth).ok());
  ConfirmOptions confirm;
  ASSERT_TRUE(ParseConfirmSpec("jaccard-shingles5:0.8", &confirm).ok());
  std::unique_ptr<Confirmer> confirmer;
  ASSERT_TRUE(Confirmer::Create(confirm, &confirmer).ok());
  TruthOptions options;
  options.max_k = 0;
  options.confirmer = confirmer.get();
  const std::vector<FingerprintResult> fps(texts.size(), Fp(42));
  std::vector<TruthBucket> got;
  ASSERT_TRUE(EvaluateAgainstTruth(texts, fps, truth, options, &got).ok());
  const TruthBucket& all = got.back();
  EXPECT_GT(all.positives, 20u);
  EXPECT_GT(all.negatives, 1000u);
  EXPECT_EQ(all.tp[0], all.positives);
  EXPECT_EQ(all.fp[0], 0u);
  EXPECT_EQ(all.between_predicted[0], 0u);
  EXPECT_EQ(all.confirmed, all.positives);
}

TEST(EvaluateAgainstTruth, RejectsUnsortedTruthAndBadThresholds) {
  const std::vector<std::string_view> texts = {"a", "b", "c"};
  const std::vector<FingerprintResult> fps = {Fp(0), Fp(1), Fp(2)};
  std::vector<TruthBucket> out;
  const std::vector<JaccardPair> unsorted = {{1, 2, 1, 1}, {0, 1, 1, 1}};
  EXPECT_TRUE(EvaluateAgainstTruth(texts, fps, unsorted, TruthOptions(), &out).IsInvalidArgument());
  const std::vector<JaccardPair> outside = {{1, 3, 1, 1}};
  EXPECT_TRUE(EvaluateAgainstTruth(texts, fps, outside, TruthOptions(), &out).IsInvalidArgument());
  TruthOptions bad;
  bad.negative = 0.9;  // above positive
  EXPECT_TRUE(EvaluateAgainstTruth(texts, fps, {}, bad, &out).IsInvalidArgument());
  const std::vector<uint64_t> backwards = {PackPair(2, 1)};
  EXPECT_TRUE(EvaluatePairsAgainstTruth(texts, backwards, {}, TruthOptions(), &out).IsInvalidArgument());
}

TEST(ReadReportedPairs, PlacesPairsOfStringAndNumberIdsOnceEachInOrder) {
  std::vector<LabelledDocument> docs(4);
  for (size_t i = 0; i < docs.size(); ++i) docs[i].id = i == 3 ? "x-3" : std::to_string(10 + i);
  const std::string path = ::testing::TempDir() + "/reported_pairs.jsonl";
  {
    std::ofstream out(path);
    out << "{\"a\":12,\"b\":10,\"estimate\":0.9}\n\n{\"a\":\"x-3\",\"b\":\"11\"}\n{\"b\":12,\"a\":\"10\"}\n";
  }
  std::vector<uint64_t> pairs;
  ASSERT_TRUE(ReadReportedPairs(path, docs, &pairs).ok());
  EXPECT_EQ(pairs, (std::vector<uint64_t>{PackPair(0, 2), PackPair(1, 3)}));
  for (const char* bad : {"{\"a\":10}", "{\"a\":10,\"b\":99}", "{\"a\":10,\"b\":10}", "{\"a\":1.5,\"b\":10}",
                          "[10, 11]", "not json"}) {
    {
      std::ofstream out(path);
      out << "{\"a\":10,\"b\":11}\n" << bad << "\n";
    }
    const Status s = ReadReportedPairs(path, docs, &pairs);
    EXPECT_TRUE(s.IsInvalidArgument()) << bad;
    EXPECT_EQ(s.message().rfind(path + ":2: ", 0), 0u) << s.message();
  }
  EXPECT_TRUE(ReadReportedPairs(path + ".missing", docs, &pairs).IsIOError());
  docs[1].id = "10";
  EXPECT_TRUE(ReadReportedPairs(path, docs, &pairs).IsInvalidArgument());  // one id twice
}

}  // namespace
}  // namespace simdex
