// Fingerprint profiles (include/simdex/profile.h): every option that can
// change a fingerprint changes the descriptor, options that cannot do not,
// and the checks name both sides.
#include "simdex/profile.h"

#include <gtest/gtest.h>
#include <xxhash.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <set>
#include <string>

#include "simdex/fingerprint.h"

namespace simdex {
namespace {

std::string ProfileOf(const FingerprintOptions& o) {
  std::string p;
  Status s = FingerprintProfile(o, &p);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return p;
}

// The default is pinned word for word: a change here is a change of what
// users store, and must come with a new profile version
// (kDefaultFingerprintProfileVersion, docs/fingerprint.md's changelog).
TEST(ProfileTest, DefaultOptionsGiveThePinnedDescriptor) {
  EXPECT_EQ(ProfileOf(FingerprintOptions()),
            "simdex-fp/" + std::to_string(kDefaultFingerprintProfileVersion) +
                " words nfkc-casefold clean cap-numbers stop:en+zh tf max-share:0.1 seed:0");
  EXPECT_EQ(kDefaultFingerprintProfileVersion, 4);
}

// The caps are written where they apply and only when set, so that every
// profile without them reads as it did.
TEST(ProfileTest, WeightCapsAreNamedAfterTheWeighting) {
  FingerprintOptions o;
  o.tf_cap = 3;
  o.max_share = 0.2;
  EXPECT_EQ(ProfileOf(o), "simdex-fp/" + std::to_string(kDefaultFingerprintProfileVersion) +
                              " words nfkc-casefold clean cap-numbers stop:en+zh tf tf-cap:3 max-share:0.2 seed:0");
  // binary weights are equal, capped or not: the caps change nothing, and say nothing.
  o.weighting = Weighting::kBinary;
  o.max_share = 0;
  FingerprintOptions binary;
  binary.weighting = Weighting::kBinary;
  EXPECT_EQ(ProfileOf(o), ProfileOf(binary));
  // A share of 1 caps nothing: the same descriptor as no cap.
  FingerprintOptions one, none;
  one.max_share = 1;
  none.max_share = 0;
  EXPECT_EQ(ProfileOf(one), ProfileOf(none));
  // Mismatched caps are refused as any other option is.
  FingerprintOptions capped;
  capped.tf_cap = 3;
  const Status s = CheckSameProfile("idx.sdx", ProfileOf(capped), "the query's options", ProfileOf(FingerprintOptions()));
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("tf-cap:3"), std::string::npos) << s.ToString();
}

// Profile 3 differs from 4 only in the default share cap, which its
// descriptors do not name: a version 3 file is compared with fingerprints
// made with max_share 0, and refused against the capped default.
TEST(ProfileTest, AVersionThreeProfileIsVersionFourWithoutTheShareCap) {
  const std::string v3 = "simdex-fp/3 words nfkc-casefold clean cap-numbers stop:en+zh tf seed:0";
  FingerprintOptions uncapped;
  uncapped.max_share = 0;
  EXPECT_EQ(ProfileOf(uncapped), "simdex-fp/4 words nfkc-casefold clean cap-numbers stop:en+zh tf seed:0");
  EXPECT_TRUE(CheckSameProfile("old.sdx", v3, "the options", ProfileOf(uncapped)).ok());
  EXPECT_TRUE(CheckSameProfile("the options", ProfileOf(uncapped), "old.sdx", v3).ok());
  const Status s = CheckSameProfile("old.sdx", v3, "the options", ProfileOf(FingerprintOptions()));
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find(v3), std::string::npos) << s.ToString();
  // Binary weights cannot be capped: the same fingerprints under either version.
  FingerprintOptions binary;
  binary.weighting = Weighting::kBinary;
  EXPECT_TRUE(CheckSameProfile("old.sdx", "simdex-fp/3 words nfkc-casefold clean cap-numbers stop:en+zh binary seed:0",
                               "the options", ProfileOf(binary)).ok());
  // Other versions are compared as written.
  EXPECT_FALSE(CheckSameProfile("old.sdx", "simdex-fp/2 words nfkc-casefold stop:en+zh tf seed:0", "the options",
                                "simdex-fp/4 words nfkc-casefold stop:en+zh tf seed:0").ok());
}

TEST(ProfileTest, FingerprinterReportsTheSameDescriptorAsTheOptions) {
  FingerprintOptions o;
  o.seed = 9;
  std::unique_ptr<Fingerprinter> fp;
  ASSERT_TRUE(Fingerprinter::Create(o, &fp).ok());
  EXPECT_EQ(fp->profile(), ProfileOf(o));
  EXPECT_EQ(fp->Clone()->profile(), fp->profile());
}

TEST(ProfileTest, EveryOptionThatChangesFingerprintsChangesTheDescriptor) {
  const std::string base = ProfileOf(FingerprintOptions());
  auto idf = std::make_shared<IdfTable>();
  idf->Set("simdex", 2.5);
  const std::pair<const char*, std::function<void(FingerprintOptions*)>> changes[] = {
      {"char n-grams", [](FingerprintOptions* o) { o->tokenizer = Tokenizer::kCharNgrams; }},
      {"word n-grams", [](FingerprintOptions* o) { o->tokenizer = Tokenizer::kWordNgrams; }},
      {"no normalization", [](FingerprintOptions* o) { o->normalize = false; }},
      {"no cleaning", [](FingerprintOptions* o) { o->clean_text = false; }},
      {"numbers not capped", [](FingerprintOptions* o) { o->cap_numbers = false; }},
      {"no stop words", [](FingerprintOptions* o) { o->stop_words.clear(); }},
      {"English stop words", [](FingerprintOptions* o) { o->stop_words = BuiltinStopWords("en"); }},
      {"own stop words", [](FingerprintOptions* o) { o->stop_words = {"lorem", "ipsum"}; }},
      {"binary weights", [](FingerprintOptions* o) { o->weighting = Weighting::kBinary; }},
      {"log-tf weights", [](FingerprintOptions* o) { o->weighting = Weighting::kLogTf; }},
      {"tf-idf", [&](FingerprintOptions* o) {
         o->weighting = Weighting::kTfIdf;
         o->idf = idf;
       }},
      {"log-tf-idf", [&](FingerprintOptions* o) {
         o->weighting = Weighting::kLogTfIdf;
         o->idf = idf;
       }},
      {"tf capped at 3", [](FingerprintOptions* o) { o->tf_cap = 3; }},
      {"tf capped at 4", [](FingerprintOptions* o) { o->tf_cap = 4; }},
      {"share capped at 0.2", [](FingerprintOptions* o) { o->max_share = 0.2; }},
      {"share capped at 0.25", [](FingerprintOptions* o) { o->max_share = 0.25; }},
      {"share not capped", [](FingerprintOptions* o) { o->max_share = 0; }},
      {"seed", [](FingerprintOptions* o) { o->seed = 1; }},
      {"python-simhash", [](FingerprintOptions* o) { o->compat = Compat::kPythonSimhash; }},
  };
  std::set<std::string> seen{base};
  for (const auto& [what, change] : changes) {
    FingerprintOptions o;
    change(&o);
    const std::string p = ProfileOf(o);
    EXPECT_TRUE(seen.insert(p).second) << what << " gave a descriptor already seen: " << p;
  }
}

TEST(ProfileTest, NgramSizeIsPartOfAnNgramTokenizersDescriptor) {
  FingerprintOptions a, b;
  a.tokenizer = b.tokenizer = Tokenizer::kCharNgrams;
  a.ngram = 3;
  b.ngram = 4;
  EXPECT_NE(ProfileOf(a), ProfileOf(b));
  EXPECT_NE(ProfileOf(a).find("char-ngrams:3"), std::string::npos) << ProfileOf(a);
}

TEST(ProfileTest, OptionsThatCannotChangeAFingerprintLeaveTheDescriptorAlone) {
  // ngram outside n-gram tokenizers, cap_numbers outside the word
  // tokenizer, and the order, case and repeats of stop words (compared
  // after normalization) decide nothing.
  FingerprintOptions a, b;
  b.ngram = 7;
  EXPECT_EQ(ProfileOf(a), ProfileOf(b));
  FingerprintOptions c, d;
  c.tokenizer = d.tokenizer = Tokenizer::kCharNgrams;
  d.cap_numbers = false;
  EXPECT_EQ(ProfileOf(c), ProfileOf(d));
  FingerprintOptions e, f;
  e.stop_words = {"Lorem", "ipsum", "lorem"};
  f.stop_words = {"ipsum", "LOREM"};
  EXPECT_EQ(ProfileOf(e), ProfileOf(f));
  FingerprintOptions g, h;
  g.compat = h.compat = Compat::kPythonSimhash;
  h.seed = 5;
  h.stop_words.clear();
  EXPECT_EQ(ProfileOf(g), ProfileOf(h));
  EXPECT_EQ(ProfileOf(g), "python-simhash");
}

TEST(ProfileTest, IdfTablesAreNamedByTheirContent) {
  auto a = std::make_shared<IdfTable>();
  auto b = std::make_shared<IdfTable>();
  a->Set("alpha", 1.5);
  a->Set("beta", 2.0);
  b->Set("beta", 2.0);
  b->Set("alpha", 1.5);
  EXPECT_EQ(a->ContentHash(0), b->ContentHash(0)) << "insertion order must not matter";
  b->Set("alpha", 1.25);
  EXPECT_NE(a->ContentHash(0), b->ContentHash(0));
  auto c = std::make_shared<IdfTable>();
  c->Set("alpha", 1.5);
  c->Set("beta", 2.0);
  c->set_default_idf(3.0);
  EXPECT_NE(a->ContentHash(0), c->ContentHash(0)) << "the default idf decides unlisted terms";
  const IdfTable by_hash = IdfTable::FromHashes({{1, 1.5}, {2, 2.0}}, 0, 1.0);
  EXPECT_NE(by_hash.ContentHash(0), a->ContentHash(0));
  // A table keyed by the terms' hashes reads as the table of the terms.
  std::vector<std::pair<uint64_t, double>> keys = {{XXH3_64bits_withSeed("alpha", 5, 9), 1.5},
                                                   {XXH3_64bits_withSeed("beta", 4, 9), 2.0}};
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(IdfTable::FromHashes(keys, 9, 1.0).ContentHash(9), a->ContentHash(9));
  EXPECT_NE(a->ContentHash(9), a->ContentHash(0)) << "another seed reads other keys";
  FingerprintOptions x, y;
  x.weighting = y.weighting = Weighting::kTfIdf;
  x.idf = a;
  y.idf = b;
  EXPECT_NE(ProfileOf(x), ProfileOf(y));
}

TEST(ProfileTest, InvalidOptionsHaveNoProfile) {
  FingerprintOptions o;
  o.weighting = Weighting::kTfIdf;  // without a table
  std::string p = "untouched";
  EXPECT_TRUE(FingerprintProfile(o, &p).IsInvalidArgument());
}

TEST(ProfileTest, DifferentProfilesAreRefusedNamingBoth) {
  Status s = CheckSameProfile("idx.sdx", "simdex-fp/3 a", "the query's options", "simdex-fp/3 b");
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("idx.sdx has \"simdex-fp/3 a\""), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("the query's options \"simdex-fp/3 b\""), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find('\n'), std::string::npos);
}

TEST(ProfileTest, AnUnrecordedProfileIsCompatibleWithEvery) {
  EXPECT_TRUE(CheckSameProfile("a", "", "b", "simdex-fp/3 x").ok());
  EXPECT_TRUE(CheckSameProfile("a", "simdex-fp/3 x", "b", "").ok());
  EXPECT_TRUE(CheckSameProfile("a", "simdex-fp/3 x", "b", "simdex-fp/3 x").ok());
}

TEST(ProfileTest, ProfileCheckKeepsTheFirstRecordedAndRefusesAnother) {
  ProfileCheck check;
  EXPECT_TRUE(check.Add("old.fp", "").ok());
  EXPECT_EQ(check.profile(), "");
  EXPECT_TRUE(check.Add("a.fp", "P").ok());
  EXPECT_TRUE(check.Add("b.fp", "").ok());
  EXPECT_TRUE(check.Add("c.fp", "P").ok());
  EXPECT_EQ(check.profile(), "P");
  Status s = check.Add("d.fp", "Q");
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("a.fp has \"P\""), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("d.fp \"Q\""), std::string::npos) << s.message();
  EXPECT_EQ(check.profile(), "P");
}

TEST(ProfileTest, OnlyShortPrintableAsciiCanBeRecorded) {
  EXPECT_TRUE(CheckProfileText("").ok());
  EXPECT_TRUE(CheckProfileText("simdex-fp/3 words seed:0").ok());
  EXPECT_TRUE(CheckProfileText(std::string(kMaxProfileLength, 'x')).ok());
  EXPECT_TRUE(CheckProfileText(std::string(kMaxProfileLength + 1, 'x')).IsInvalidArgument());
  EXPECT_TRUE(CheckProfileText("tab\there").IsInvalidArgument());
  EXPECT_TRUE(CheckProfileText("new\nline").IsInvalidArgument());
  EXPECT_TRUE(CheckProfileText("caf\xC3\xA9").IsInvalidArgument());
}

}  // namespace
}  // namespace simdex
