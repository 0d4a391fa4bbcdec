// The weight caps of FingerprintOptions (tf_cap, max_share), issue 37 item 6:
// under tf a word repeated often enough outweighs every other feature and
// decides all 64 bits, so two unrelated texts that repeat it get one
// fingerprint (numpy's `numpy.matrix.H` and `numpy.outer` docstrings, exact
// word 5-shingle Jaccard 0.005, both full of the `j` of complex numbers).
// The weights are checked against values computed by hand, CapShare against
// its defining equation on random weights.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/text/share_cap.h"
#include "simdex/fingerprint.h"

namespace simdex {
namespace {

std::unique_ptr<Fingerprinter> Make(const FingerprintOptions& o) {
  std::unique_ptr<Fingerprinter> fp;
  EXPECT_TRUE(Fingerprinter::Create(o, &fp).ok());
  return fp;
}

FingerprintOptions Capped(uint32_t tf_cap, double max_share) {
  FingerprintOptions o;
  o.tf_cap = tf_cap;
  o.max_share = max_share;
  return o;
}

int Distance(const FingerprintOptions& o, const std::string& a, const std::string& b) {
  auto fp = Make(o);
  const FingerprintResult ra = fp->Fingerprint(a), rb = fp->Fingerprint(b);
  EXPECT_FALSE(ra.empty() || rb.empty());
  return HammingDistance(ra.fingerprint, rb.fingerprint);
}

std::vector<double> Weights(const FingerprintOptions& o, const std::string& text) {
  auto fp = Make(o);
  std::vector<WeightedFeature> features;
  fp->ExtractFeatures(text, &features);
  std::vector<double> w;
  for (const auto& f : features) w.push_back(f.weight);
  return w;
}

std::string Repeat(const std::string& word, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += word + " ";
  return s;
}

// Two short notes on unrelated subjects, each with the `j` of 20 complex
// numbers: the j weighs 20 under tf, the other words 8 together.
const std::string kMatrixNote =
    "conjugate transpose matrix returns hermitian complex self equivalent " + Repeat("j", 20);
const std::string kGridNote = "mandelbrot grid coarse vectors letters product compute outer " + Repeat("j", 20);

TEST(WeightCaps, OneRepeatedTokenDecidesEveryBitUnderRawTf) {
  EXPECT_EQ(Distance(Capped(0, 0), kMatrixNote, kGridNote), 0);  // profile 3's default
}

TEST(WeightCaps, TheDefaultTellsTextsSharingOneRepeatedTokenApart) {
  EXPECT_EQ(FingerprintOptions().max_share, 0.1);  // since profile 4
  EXPECT_GT(Distance(FingerprintOptions(), kMatrixNote, kGridNote), 3);
}

TEST(WeightCaps, CappedTfTellsTextsSharingOneRepeatedTokenApart) {
  EXPECT_GT(Distance(Capped(3, 0), kMatrixNote, kGridNote), 3);
}

TEST(WeightCaps, ShareCapTellsTextsSharingOneRepeatedTokenApart) {
  EXPECT_GT(Distance(Capped(0, 0.2), kMatrixNote, kGridNote), 3);
}

TEST(WeightCaps, SublinearTfTellsTextsSharingOneRepeatedTokenApart) {
  FingerprintOptions o = Capped(0, 0);  // 1 + ln 20 = 4.0 against 8 words of weight 1
  o.weighting = Weighting::kLogTf;
  EXPECT_GT(Distance(o, kMatrixNote, kGridNote), 3);
}

// "alpha" 5 times, "beta" twice, "gamma" once; stop words off.
const char kCounts[] = "alpha beta alpha gamma alpha beta alpha alpha";

FingerprintOptions NoStop(uint32_t tf_cap, double max_share) {
  FingerprintOptions o = Capped(tf_cap, max_share);
  o.stop_words.clear();
  return o;
}

TEST(WeightCaps, TfCapLimitsTheCountOfEveryTfWeighting) {
  EXPECT_EQ(Weights(NoStop(0, 0), kCounts), (std::vector<double>{5, 2, 1}));
  EXPECT_EQ(Weights(NoStop(3, 0), kCounts), (std::vector<double>{3, 2, 1}));
  EXPECT_EQ(Weights(NoStop(1, 0), kCounts), (std::vector<double>{1, 1, 1}));
  FingerprintOptions log = NoStop(3, 0);
  log.weighting = Weighting::kLogTf;
  const std::vector<double> w = Weights(log, kCounts);
  ASSERT_EQ(w.size(), 3u);
  EXPECT_DOUBLE_EQ(w[0], 1 + std::log(3.0));
  EXPECT_DOUBLE_EQ(w[1], 1 + std::log(2.0));
  EXPECT_DOUBLE_EQ(w[2], 1.0);
  FingerprintOptions idf = NoStop(3, 0);
  auto table = std::make_shared<IdfTable>();
  table->Set("alpha", 0.5);
  table->Set("beta", 2.0);
  idf.weighting = Weighting::kTfIdf;
  idf.idf = table;
  EXPECT_EQ(Weights(idf, kCounts), (std::vector<double>{1.5, 4.0, 1.0}));  // gamma: default idf 1
}

void ExpectWeights(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_DOUBLE_EQ(got[i], want[i]) << "weight " << i;
}

TEST(WeightCaps, ShareCapLowersTheHeaviestToItsShare) {
  // tf {5, 2, 1}, total 8: at 0.5 alpha is 5/8 > 0.5; c = 0.5 (c + 3): c = 3.
  ExpectWeights(Weights(NoStop(0, 0.5), kCounts), {3, 2, 1});
  // At 0.4: c = 0.4 (c + 3) gives 2, at least beta's 2: {2, 2, 1}, 2/5 = 0.4.
  ExpectWeights(Weights(NoStop(0, 0.4), kCounts), {2, 2, 1});
  // Below 1/3 three features cannot be capped so: equal weights.
  ExpectWeights(Weights(NoStop(0, 0.3), kCounts), {1, 1, 1});
  // tf {5, 4, 1, 1} at 0.3: c = 0.3 (c + 6) gives 2.57, below beta's 4, so
  // alpha and beta go down together: c = 0.3 (2c + 2) gives 1.5, 1.5/5 = 0.3.
  ExpectWeights(Weights(NoStop(0, 0.3), "alpha beta alpha beta alpha gamma beta alpha delta beta alpha"),
                {1.5, 1.5, 1, 1});
  // Within the share: unchanged.
  EXPECT_EQ(Weights(NoStop(0, 0.7), kCounts), (std::vector<double>{5, 2, 1}));
  // After the tf cap: {3, 2, 1}, 3/6 = 0.5 is within 0.5.
  EXPECT_EQ(Weights(NoStop(3, 0.5), kCounts), (std::vector<double>{3, 2, 1}));
}

TEST(WeightCaps, FingerprintIsTheCombineOfTheCappedWeights) {
  for (const FingerprintOptions& o : {NoStop(2, 0), NoStop(0, 0.3), NoStop(3, 0.25)}) {
    auto fp = Make(o);
    std::vector<WeightedFeature> features;
    fp->ExtractFeatures(kMatrixNote, &features);
    std::vector<WeightedHash> hashes;
    for (const auto& f : features) hashes.push_back({fp->HashFeature(f.text), f.weight});
    EXPECT_EQ(fp->Fingerprint(kMatrixNote).fingerprint, CombineWeightedHashes(hashes));
  }
}

TEST(WeightCaps, ADocumentOfOneFeatureKeepsItsFingerprint) {
  auto raw = Make(NoStop(0, 0));
  auto capped = Make(NoStop(2, 0.1));
  const FingerprintResult r = capped->Fingerprint("echo echo echo");
  ASSERT_FALSE(r.empty());
  EXPECT_EQ(r.fingerprint, raw->Fingerprint("echo echo echo").fingerprint);
}

TEST(WeightCaps, ShareOutsideZeroToOneIsRefused) {
  std::unique_ptr<Fingerprinter> fp;
  for (double bad : {-0.1, 1.5, std::nan("")}) {
    const Status s = Fingerprinter::Create(Capped(0, bad), &fp);
    EXPECT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.ToString().find("max_share"), std::string::npos) << s.ToString();
  }
  EXPECT_TRUE(Fingerprinter::Create(Capped(0, 1), &fp).ok());
}

// CapShare against its definition on random weights: weights within the
// share stay; else, when n positive weights can be capped to the share
// (max_share x n > 1), each becomes min(weight, c) with c = max_share x the
// new total; else they become equal.
TEST(WeightCaps, CapShareMeetsItsDefinitionOnRandomWeights) {
  std::mt19937_64 rng(37);
  std::vector<double> scratch;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<double> w(1 + rng() % 12);
    for (double& x : w) x = rng() % 4 == 0 ? 0.0 : std::ldexp(static_cast<double>(rng() % 1000 + 1), -3);
    const double share = std::ldexp(static_cast<double>(rng() % 64 + 1), -6);
    double total = 0, top = 0, positive = 0;
    for (double x : w) {
      total += x;
      top = std::max(top, x);
      positive += x > 0;
    }
    std::vector<double> capped = w;
    text::CapShare(share, capped, &scratch);
    if (top <= share * total) {
      EXPECT_EQ(capped, w) << trial;
    } else if (share * positive <= 1) {
      const double c = *std::max_element(capped.begin(), capped.end());
      for (size_t i = 0; i < w.size(); ++i) EXPECT_EQ(capped[i], w[i] > 0 ? c : 0.0) << trial;
    } else {
      const double c = *std::max_element(capped.begin(), capped.end());
      double sum = 0;
      for (size_t i = 0; i < w.size(); ++i) {
        EXPECT_EQ(capped[i], std::min(w[i], c)) << trial;
        sum += capped[i];
      }
      EXPECT_LT(c, top) << trial;
      EXPECT_NEAR(c, share * sum, 1e-9 * c) << trial;
    }
  }
}

}  // namespace
}  // namespace simdex
