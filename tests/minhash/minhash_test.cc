// MinHasher, the estimators and the band keys (include/simdex/minhash.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "engine/minhash/signature/sign_kernel.h"
#include "simdex/minhash.h"

namespace simdex {
namespace {

std::unique_ptr<MinHasher> MakeHasher(int num_perm = 128, uint64_t seed = 1) {
  MinHashOptions o;
  o.num_perm = num_perm;
  o.seed = seed;
  std::unique_ptr<MinHasher> h;
  EXPECT_TRUE(MinHasher::Create(o, &h).ok());
  return h;
}

// Two random sets of `size` hashes each with `common` in common.
void SetsWithOverlap(std::mt19937_64& rng, size_t size, size_t common, std::vector<uint64_t>* a,
                     std::vector<uint64_t>* b) {
  a->clear();
  b->clear();
  for (size_t i = 0; i < common; ++i) {
    const uint64_t x = rng();
    a->push_back(x);
    b->push_back(x);
  }
  for (size_t i = common; i < size; ++i) {
    a->push_back(rng());
    b->push_back(rng());
  }
}

TEST(MinHasher, RejectsNumPermOutOfRange) {
  std::unique_ptr<MinHasher> h;
  MinHashOptions o;
  o.num_perm = 0;
  EXPECT_TRUE(MinHasher::Create(o, &h).IsInvalidArgument());
  o.num_perm = kMaxNumPerm + 1;
  EXPECT_TRUE(MinHasher::Create(o, &h).IsInvalidArgument());
  o.num_perm = 64;
  o.shingles.word_n = 0;
  EXPECT_TRUE(MinHasher::Create(o, &h).IsInvalidArgument());
}

TEST(MinHasher, SignatureOfTextIsSignatureOfItsShingleSet) {
  auto h = MakeHasher(64);
  std::unique_ptr<ShingleMaker> maker;
  ASSERT_TRUE(ShingleMaker::Create(ShingleOptions(), &maker).ok());
  const std::string text = "The quick brown fox jumps over the lazy dog, twice over the lazy dog.";
  std::vector<uint64_t> shingles;
  EXPECT_EQ(maker->Make(text, &shingles), ShingleKind::kWords);
  std::vector<uint32_t> from_text(64), from_set(64);
  EXPECT_EQ(h->Sign(text, from_text.data()), ShingleKind::kWords);
  h->SignShingles(shingles, from_set.data());
  EXPECT_EQ(from_text, from_set);
}

TEST(MinHasher, OrderAndRepeatsOfShinglesDoNotMatter) {
  auto h = MakeHasher(32);
  std::vector<uint64_t> set = {5, 1, 99, 1ull << 63, 42};
  std::vector<uint64_t> shuffled = {42, 1ull << 63, 99, 1, 5, 5, 99};
  std::vector<uint32_t> x(32), y(32);
  h->SignShingles(set, x.data());
  h->SignShingles(shuffled, y.data());
  EXPECT_EQ(x, y);
}

TEST(MinHasher, EmptyTextGetsTheEmptySignatureThatEstimatesZero) {
  auto h = MakeHasher(16);
  std::vector<uint32_t> empty(16), blank(16), text(16);
  EXPECT_EQ(h->Sign("", empty.data()), ShingleKind::kNone);
  EXPECT_EQ(h->Sign(" \t\n ", blank.data()), ShingleKind::kNone);
  EXPECT_TRUE(IsEmptySignature(empty.data(), 16));
  EXPECT_EQ(empty, std::vector<uint32_t>(16, kEmptyMinimum));
  EXPECT_EQ(h->Sign("hello", text.data()), ShingleKind::kWords);
  EXPECT_FALSE(IsEmptySignature(text.data(), 16));
  EXPECT_EQ(EstimateJaccard(empty.data(), blank.data(), 16), 0.0);
  EXPECT_EQ(EstimateJaccard(empty.data(), text.data(), 16), 0.0);
  EXPECT_EQ(EstimateJaccard(text.data(), text.data(), 16), 1.0);
}

TEST(MinHasher, OneShingleTextsAgreeOnlyWhenTheyNormaliseAlike) {
  auto h = MakeHasher(128);
  std::vector<uint32_t> a(128), b(128), c(128);
  h->Sign("Hello  World", a.data());
  h->Sign("hello world", b.data());
  h->Sign("hello there", c.data());
  EXPECT_EQ(a, b);
  EXPECT_LT(EstimateJaccard(a.data(), c.data(), 128), 0.05);
}

TEST(MinHasher, CloneAndSameSeedGiveTheSameSignatureAndOtherSeedsDiffer) {
  auto h = MakeHasher(64, 7);
  auto clone = h->Clone();
  auto other = MakeHasher(64, 8);
  std::vector<uint32_t> x(64), y(64), z(64);
  const std::string text = "one two three four five six seven eight nine ten";
  h->Sign(text, x.data());
  clone->Sign(text, y.data());
  other->Sign(text, z.data());
  EXPECT_EQ(x, y);
  EXPECT_LT(EstimateJaccard(x.data(), z.data(), 64), 0.1);
}

// The estimate is unbiased: over many pairs of known J its mean is J within
// a few standard errors, for each J and each b of the b-bit estimator.
TEST(MinHasher, EstimatesAreUnbiasedForKnownJaccard) {
  constexpr int kPerm = 128;
  auto h = MakeHasher(kPerm, 3);
  std::mt19937_64 rng(11);
  for (const double j : {0.2, 0.5, 0.8, 0.95}) {
    // |A| = |B| = 200, common c: J = c / (400 - c).
    const size_t c = static_cast<size_t>(std::lround(400 * j / (1 + j)));
    const double truth = static_cast<double>(c) / static_cast<double>(400 - c);
    constexpr int kTrials = 200;
    double full = 0;
    std::vector<double> packed(6, 0);
    const int bits[] = {1, 2, 4, 8, 16, 32};
    std::vector<uint64_t> a, b;
    std::vector<uint32_t> x(kPerm), y(kPerm);
    std::vector<uint8_t> px(4 * kPerm), py(4 * kPerm);
    for (int t = 0; t < kTrials; ++t) {
      SetsWithOverlap(rng, 200, c, &a, &b);
      h->SignShingles(a, x.data());
      h->SignShingles(b, y.data());
      full += EstimateJaccard(x.data(), y.data(), kPerm);
      for (int i = 0; i < 6; ++i) {
        PackSignature(x.data(), kPerm, bits[i], px.data());
        PackSignature(y.data(), kPerm, bits[i], py.data());
        packed[i] += EstimateJaccardPacked(px.data(), py.data(), kPerm, bits[i]);
      }
    }
    // Standard error of the mean: sqrt(J(1-J)/k / trials) <= 0.0032; b = 1
    // has about 4x the variance (and clamping at 0 biases J = 0.2 up a little).
    EXPECT_NEAR(full / kTrials, truth, 0.012) << "J " << truth;
    for (int i = 0; i < 6; ++i) {
      EXPECT_NEAR(packed[i] / kTrials, truth, bits[i] == 1 ? 0.03 : 0.015) << "J " << truth << " b " << bits[i];
    }
  }
}

TEST(PackedSignature, PacksLowBitsLittleEndianValueAfterValue) {
  const uint32_t sig[4] = {0x12345678u, 0x9abcdef0u, 0x0000000fu, 0xffffffffu};
  EXPECT_EQ(PackedSignatureBytes(4, 4), 2u);
  EXPECT_EQ(PackedSignatureBytes(3, 4), 2u);
  EXPECT_EQ(PackedSignatureBytes(128, 4), 64u);
  uint8_t out[16];
  PackSignature(sig, 4, 4, out);
  EXPECT_EQ(out[0], 0x08);  // value 0's low nibble 8, value 1's 0
  EXPECT_EQ(out[1], 0xff);
  PackSignature(sig, 4, 8, out);
  EXPECT_EQ(out[0], 0x78);
  EXPECT_EQ(out[1], 0xf0);
  EXPECT_EQ(out[3], 0xff);
  PackSignature(sig, 2, 16, out);
  EXPECT_EQ(out[0], 0x78);
  EXPECT_EQ(out[1], 0x56);
  EXPECT_EQ(out[2], 0xf0);
  EXPECT_EQ(out[3], 0xde);
  PackSignature(sig, 3, 1, out);
  EXPECT_EQ(out[0], 0x04);  // bits 0, 0, 1
  EXPECT_TRUE(ValidSignatureBits(4));
  EXPECT_FALSE(ValidSignatureBits(3));
  EXPECT_FALSE(ValidSignatureBits(64));
}

TEST(PackedSignature, IdenticalSignaturesEstimateOneAndChanceAgreementIsCorrected) {
  uint32_t x[64], y[64];
  for (int i = 0; i < 64; ++i) {
    x[i] = static_cast<uint32_t>(i * 2654435761u);
    y[i] = x[i];
  }
  uint8_t px[256], py[256];
  PackSignature(x, 64, 4, px);
  PackSignature(y, 64, 4, py);
  EXPECT_EQ(EstimateJaccardPacked(px, py, 64, 4), 1.0);
  // Exactly 1 in 16 values agreeing on 4 bits is the chance rate: J = 0.
  for (int i = 0; i < 64; ++i) y[i] = (x[i] & ~0xfu) | ((x[i] + (i % 16 == 0 ? 0 : 1)) & 0xfu);
  PackSignature(y, 64, 4, py);
  EXPECT_EQ(EstimateJaccardPacked(px, py, 64, 4), 0.0);
}

TEST(LshBands, OptimalBandsMatchTheUsualChoices) {
  // datasketch's MinHashLSH picks these for 128 permutations.
  const LshBands b8 = OptimalLshBands(0.8, 128);
  EXPECT_EQ(b8.bands, 9);
  EXPECT_EQ(b8.rows, 13);
  const LshBands b5 = OptimalLshBands(0.5, 128);
  EXPECT_LE(b5.bands * b5.rows, 128);
  EXPECT_GT(b5.bands, b8.bands);
}

// The AVX-512 build of the signing loop (where the processor has it) and
// the portable one give the same bits, at signature lengths that leave
// every tail of the vector loops, on sets of every size.
TEST(MinHasher, SignaturesAreTheSameBitsWithAndWithoutAvx512) {
  std::mt19937_64 rng(23);
  if (!minhash::FastSignKernel()) std::printf("this processor has no AVX-512: both runs are portable\n");
  for (int num_perm : {1, 3, 7, 8, 9, 64, 128, 131, 1024}) {
    const std::unique_ptr<MinHasher> h = MakeHasher(num_perm, 3);
    std::vector<uint32_t> fast(num_perm), portable(num_perm);
    for (size_t size : {0, 1, 2, 5, 17, 100, 1000}) {
      std::vector<uint64_t> set(size);
      for (uint64_t& x : set) x = rng();
      h->SignShingles(set, fast.data());
      minhash::UseFastSignKernel(false);
      h->SignShingles(set, portable.data());
      minhash::UseFastSignKernel(true);
      ASSERT_EQ(fast, portable) << num_perm << " values, " << size << " shingles";
    }
  }
}

// The search as include/simdex/minhash.h states it, every (b, r) in turn
// with std::pow on Simpson's rule's 513 points per area.
LshBands ExhaustiveLshBands(double t, int num_perm, double fp_weight, double fn_weight) {
  auto integrate = [](auto f, double lo, double hi) {
    if (hi <= lo) return 0.0;
    const double h = (hi - lo) / 512;
    double sum = f(lo) + f(hi);
    for (int i = 1; i < 512; ++i) sum += f(lo + i * h) * (i % 2 ? 4 : 2);
    return sum * h / 3;
  };
  LshBands best;
  double best_error = INFINITY;
  for (int b = 1; b <= num_perm; ++b) {
    for (int r = 1; r <= num_perm / b; ++r) {
      auto p = [b, r](double s) { return 1 - std::pow(1 - std::pow(s, r), b); };
      const double error = fp_weight * integrate(p, 0, t) + fn_weight * integrate([&p](double s) { return 1 - p(s); }, t, 1);
      if (error < best_error) best_error = error, best = {b, r};
    }
  }
  return best;
}

TEST(LshBands, OptimalBandsAreTheExhaustiveSearchsAnswer) {
  const double weights[][2] = {{0.5, 0.5}, {0.05, 0.95}, {0.9, 0.1}};
  for (int num_perm : {1, 2, 3, 7, 16, 33}) {
    for (int i = 0; i <= 10; ++i) {
      for (const auto& w : weights) {
        const double t = i / 10.0;
        const LshBands want = ExhaustiveLshBands(t, num_perm, w[0], w[1]);
        const LshBands got = OptimalLshBands(t, num_perm, w[0], w[1]);
        EXPECT_EQ(got.bands, want.bands) << t << " " << num_perm << " " << w[0];
        EXPECT_EQ(got.rows, want.rows) << t << " " << num_perm << " " << w[0];
      }
    }
  }
  for (double t : {0.55, 0.7, 0.8}) {  // thresholds `simdex dedup` is run at, and below (the exact check's bands)
    for (const auto& w : weights) {
      const LshBands want = ExhaustiveLshBands(t, 128, w[0], w[1]);
      const LshBands got = OptimalLshBands(t, 128, w[0], w[1]);
      EXPECT_EQ(got.bands, want.bands) << t;
      EXPECT_EQ(got.rows, want.rows) << t;
    }
  }
}

// The defaults of simdex dedup --method minhash (docs/minhash.md, "Defaults").
TEST(LshBands, DefaultsFavourRecallAndFilterTwoStandardErrorsBelow) {
  const LshBands b = DefaultLshBands(0.8, 128);
  EXPECT_EQ(b.bands, 16);
  EXPECT_EQ(b.rows, 8);
  EXPECT_NEAR(DefaultEstimateFilter(0.8, 128), 0.8 - 2 * std::sqrt(0.16 / 128), 1e-12);
  EXPECT_EQ(DefaultEstimateFilter(0.01, 1), 0.0);
}

TEST(LshBands, CheckRefusesBandsBeyondNumPerm) {
  EXPECT_TRUE(CheckLshBands({9, 13}, 128).ok());
  EXPECT_TRUE(CheckLshBands({16, 8}, 128).ok());
  EXPECT_TRUE(CheckLshBands({17, 8}, 128).IsInvalidArgument());
  EXPECT_TRUE(CheckLshBands({0, 8}, 128).IsInvalidArgument());
  EXPECT_TRUE(CheckLshBands({8, 0}, 128).IsInvalidArgument());
}

TEST(BandKeys, EqualRowsGiveEqualKeysAndBandsAreSeparate) {
  uint32_t x[12], y[12];
  for (int i = 0; i < 12; ++i) x[i] = y[i] = static_cast<uint32_t>(1000 + i);
  y[5] ^= 1;  // band 1 of 3 x 4 rows differs
  uint64_t kx[3], ky[3];
  BandKeys(x, {3, 4}, kx);
  BandKeys(y, {3, 4}, ky);
  EXPECT_EQ(kx[0], ky[0]);
  EXPECT_NE(kx[1], ky[1]);
  EXPECT_EQ(kx[2], ky[2]);
  // The same rows in two bands give two keys (the seed is the band).
  uint32_t same[8] = {1, 2, 3, 4, 1, 2, 3, 4};
  uint64_t ks[2];
  BandKeys(same, {2, 4}, ks);
  EXPECT_NE(ks[0], ks[1]);
}

}  // namespace
}  // namespace simdex
