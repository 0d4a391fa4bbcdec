// FingerprintOptions: validation, weighting modes, idf tables and stop words.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <limits>
#include <string>
#include <vector>

#include "simdex/fingerprint.h"
#include "tests/text/fingerprinter_helpers.h"

namespace simdex {
namespace {

using testing::FromFeatures;

std::unique_ptr<Fingerprinter> Make(const FingerprintOptions& options) { return testing::MakeFingerprinter(options); }

std::map<std::string, double> WeightsOf(Fingerprinter* fp, std::string_view text) {
  std::vector<WeightedFeature> features;
  fp->ExtractFeatures(text, &features);
  std::map<std::string, double> out;
  for (const auto& f : features) out[f.text] = f.weight;
  return out;
}

// A file in a fresh temporary directory, removed with the object.
class TempFile {
 public:
  explicit TempFile(const std::string& contents) {
    dir_ = std::filesystem::temp_directory_path() /
           ("simdex_text_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "list.txt").string();
    std::ofstream(path_, std::ios::binary) << contents;
  }
  ~TempFile() { std::filesystem::remove_all(dir_); }
  const std::string& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  std::filesystem::path dir_;
  std::string path_;
};

constexpr const char* kText = "spam spam spam eggs eggs ham";

TEST(FingerprintOptions, CreateRejectsBadOptions) {
  std::unique_ptr<Fingerprinter> fp;
  FingerprintOptions o;
  o.ngram = 0;
  EXPECT_TRUE(Fingerprinter::Create(o, &fp).IsInvalidArgument());
  o.ngram = 17;
  EXPECT_TRUE(Fingerprinter::Create(o, &fp).IsInvalidArgument());
  o = FingerprintOptions();
  o.weighting = Weighting::kTfIdf;
  Status s = Fingerprinter::Create(o, &fp);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("idf"), std::string::npos) << s.ToString();
  o = FingerprintOptions();
  o.tokenizer = static_cast<Tokenizer>(42);
  EXPECT_TRUE(Fingerprinter::Create(o, &fp).IsInvalidArgument());
  EXPECT_EQ(fp, nullptr);
}

// The python-simhash profile through the public API: the package's
// published values (build_by_features) and its text path.
TEST(FingerprintOptions, PythonSimhashCompatReproducesThePackage) {
  std::unique_ptr<Fingerprinter> fp;
  FingerprintOptions o;
  o.compat = Compat::kPythonSimhash;
  ASSERT_TRUE(Fingerprinter::Create(o, &fp).ok());
  std::vector<WeightedFeature> ab = {{"aaa", 1}, {"bbb", 1}};
  EXPECT_EQ(FromFeatures(fp.get(), ab).fingerprint, 57087923692560392ULL);
  std::vector<WeightedFeature> numbers, weighted;
  for (int i = 0; i < 500; ++i) {
    numbers.push_back({std::to_string(i), 1});
    weighted.push_back({std::to_string(i), 50.0 * i});
  }
  EXPECT_EQ(FromFeatures(fp.get(), numbers).fingerprint, 7984652473404407437ULL);
  EXPECT_EQ(FromFeatures(fp.get(), weighted).fingerprint, 3372825719632739723ULL);

  // Values from tests/compat/python_simhash_reference.py features TEXT.
  const std::map<std::string, uint64_t> texts = {{"How are you? I am fine. Thanks.", 3419227768443824139ULL},
                                                 {"你好，世界。今天天气很好", 6826856171305757007ULL},
                                                 {"ΟΔΟΣ ΣΑΣ", 2450241325866541073ULL},
                                                 {"ab", 3404963397999061920ULL}};
  for (const auto& [text, want] : texts) {
    const FingerprintResult r = fp->Fingerprint(text);
    EXPECT_FALSE(r.empty()) << text;
    EXPECT_EQ(r.fingerprint, want) << text;
    std::vector<WeightedFeature> features;
    fp->ExtractFeatures(text, &features);
    EXPECT_EQ(FromFeatures(fp.get(), features).fingerprint, want) << text;
  }
  EXPECT_EQ(fp->Fingerprint("  \n").reason, EmptyReason::kNoText);
  EXPECT_EQ(fp->Fingerprint("!!! ...").reason, EmptyReason::kNoFeatures);
  EXPECT_EQ(fp->Clone()->Fingerprint("hello world").fingerprint, fp->Fingerprint("hello world").fingerprint);
}

// The weights of step 5 before the share cap, which the default applies
// since profile 4 (weight_caps_test): kText's three words would weigh alike.
FingerprintOptions Uncapped() {
  FingerprintOptions o;
  o.max_share = 0;
  return o;
}

TEST(FingerprintOptions, TermFrequencyCountsOccurrences) {
  FingerprintOptions o = Uncapped();
  auto fp = Make(o);
  EXPECT_EQ(WeightsOf(fp.get(), kText),
            (std::map<std::string, double>{{"spam", 3}, {"eggs", 2}, {"ham", 1}}));
  FingerprintResult r = fp->Fingerprint(kText);
  EXPECT_EQ(r.features, 3u);
  EXPECT_EQ(r.occurrences, 6u);
}

TEST(FingerprintOptions, BinaryWeighsEveryFeatureOnce) {
  FingerprintOptions o = Uncapped();
  o.weighting = Weighting::kBinary;
  auto binary = Make(o);
  EXPECT_EQ(WeightsOf(binary.get(), kText),
            (std::map<std::string, double>{{"spam", 1}, {"eggs", 1}, {"ham", 1}}));
  // With counts that differ, tf and binary give different fingerprints.
  auto tf = Make(Uncapped());
  std::string skewed = "alpha beta gamma delta";
  for (int i = 0; i < 50; ++i) skewed += " alpha";
  EXPECT_NE(tf->Fingerprint(skewed).fingerprint, binary->Fingerprint(skewed).fingerprint);
  EXPECT_EQ(binary->Fingerprint(skewed).fingerprint,
            binary->Fingerprint("alpha beta gamma delta").fingerprint);
}

TEST(FingerprintOptions, LogTfIsOnePlusLnCount) {
  FingerprintOptions o = Uncapped();
  o.weighting = Weighting::kLogTf;
  auto fp = Make(o);
  auto w = WeightsOf(fp.get(), kText);
  EXPECT_DOUBLE_EQ(w["spam"], 1 + std::log(3.0));
  EXPECT_DOUBLE_EQ(w["eggs"], 1 + std::log(2.0));
  EXPECT_DOUBLE_EQ(w["ham"], 1.0);
  EXPECT_FALSE(fp->Fingerprint(kText).empty());
}

TEST(FingerprintOptions, TfIdfMultipliesCountByIdfFromFile) {
  TempFile file("# term<TAB>idf\nSPAM\t0.5\neggs\t2.25\n\nzero\t0\n");
  auto idf = std::make_shared<IdfTable>();
  idf->set_default_idf(1.5);
  ASSERT_TRUE(IdfTable::Load(file.path(), /*normalize=*/true, idf.get()).ok());
  EXPECT_EQ(idf->size(), 3u);
  EXPECT_EQ(idf->Lookup("spam"), 0.5);  // normalized on load
  EXPECT_EQ(idf->Lookup("unknown"), 1.5);
  FingerprintOptions o = Uncapped();
  o.weighting = Weighting::kTfIdf;
  o.idf = idf;
  auto fp = Make(o);
  EXPECT_EQ(WeightsOf(fp.get(), kText),
            (std::map<std::string, double>{{"spam", 1.5}, {"eggs", 4.5}, {"ham", 1.5}}));
  EXPECT_FALSE(fp->Fingerprint(kText).empty());
  FingerprintResult zero = fp->Fingerprint("zero zero");
  EXPECT_EQ(zero.reason, EmptyReason::kZeroWeight);
}

TEST(FingerprintOptions, LogTfIdfMultipliesOnePlusLnCountByIdf) {
  TempFile file("SPAM\t0.5\neggs\t2.25\n");
  auto idf = std::make_shared<IdfTable>();
  idf->set_default_idf(1.5);
  ASSERT_TRUE(IdfTable::Load(file.path(), /*normalize=*/true, idf.get()).ok());
  FingerprintOptions o = Uncapped();
  o.weighting = Weighting::kLogTfIdf;
  o.idf = idf;
  auto fp = Make(o);
  EXPECT_EQ(WeightsOf(fp.get(), kText), (std::map<std::string, double>{{"spam", (1 + std::log(3.0)) * 0.5},
                                                                      {"eggs", (1 + std::log(2.0)) * 2.25},
                                                                      {"ham", 1.5}}));
  EXPECT_FALSE(fp->Fingerprint(kText).empty());
  o.idf = nullptr;
  std::unique_ptr<Fingerprinter> none;
  const Status s = Fingerprinter::Create(o, &none);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("log-tf-idf needs an idf table"), std::string::npos) << s.ToString();
}

TEST(FingerprintOptions, ATermTableKeyedByHashWeighsAndHashesAsItself) {
  TempFile file("#default-idf\t1.25\nspam\t0.5\neggs\t2.25\n床前\t3\n");
  IdfTable terms;
  ASSERT_TRUE(IdfTable::Load(file.path(), /*normalize=*/true, &terms).ok());
  for (const uint64_t seed : {0ull, 7ull}) {
    const IdfTable hashed = terms.KeyedByHash(seed);
    FingerprintOptions o;
    o.seed = seed;
    auto fp = Make(o);
    EXPECT_TRUE(hashed.keyed_by_hash());
    EXPECT_EQ(hashed.hash_seed(), seed);
    EXPECT_EQ(hashed.size(), 3u);
    for (const char* term : {"spam", "eggs", "床前", "ham"}) {
      EXPECT_EQ(hashed.LookupHash(fp->HashFeature(term)), terms.Lookup(term)) << term;
    }
    EXPECT_EQ(hashed.default_idf(), 1.25);
    EXPECT_EQ(hashed.ContentHash(seed), terms.ContentHash(seed));
  }
}

TEST(FingerprintOptions, IdfLoadReportsFileAndLine) {
  auto idf = std::make_shared<IdfTable>();
  TempFile bad("good\t1\nbad line\n");
  Status s = IdfTable::Load(bad.path(), true, idf.get());
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find(bad.path() + ":2"), std::string::npos) << s.ToString();
  TempFile nan("x\tabc\n");
  EXPECT_TRUE(IdfTable::Load(nan.path(), true, idf.get()).IsInvalidArgument());
  TempFile negative("x\t-1\n");
  EXPECT_TRUE(IdfTable::Load(negative.path(), true, idf.get()).IsInvalidArgument());
  struct Case {
    const char* contents;
    const char* message;  // after "<path>:"
  } const cases[] = {
      {"#default-idf\t1e308\nx\t1\n", "1: #default-idf is 1e+308: a weight must be a finite number from 0 to 1e+288"},
      {"x\t1\ny\t1e300\n", "2: idf of 'y' is 1e+300: a weight must be"},
      {"x\tinf\n", "1: idf of 'x' is inf: a weight must be"},
      {"x\tnan\n", "1: idf of 'x' is nan: a weight must be"},
      {"x\t-3.0\n", "1: idf of 'x' is -3: a weight must be"},
      {"x\t1e400\n", "1: idf of 'x' is '1e400', not a number"},
  };
  for (const Case& c : cases) {
    TempFile file(c.contents);
    s = IdfTable::Load(file.path(), true, idf.get());
    EXPECT_TRUE(s.IsInvalidArgument()) << c.contents;
    EXPECT_NE(s.message().find(file.path() + ":" + c.message), std::string::npos) << s.ToString();
  }
  TempFile largest("#default-idf\t1e288\nx\t1e288\n");
  EXPECT_TRUE(IdfTable::Load(largest.path(), true, idf.get()).ok());
  EXPECT_TRUE(IdfTable::Load("/nonexistent/simdex/idf.tsv", true, idf.get()).IsIOError());
}

// A term listed twice was taken from its last line, silently; so was a
// second #default-idf line. Both are refused, naming the lines; terms are
// compared as the fingerprinter sees them (normalized).
TEST(FingerprintOptions, IdfFileGivingATermTwiceIsRefusedNamingBothLines) {
  auto idf = std::make_shared<IdfTable>();
  TempFile twice("apache\t1\n\nhadoop\t2\napache\t3\n");
  Status s = IdfTable::Load(twice.path(), true, idf.get());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(s.message(), twice.path() + ":4: term 'apache' is given again (first at line 1)");
  TempFile folded("apache\t1\nＡｐａｃｈｅ\t3\n");
  s = IdfTable::Load(folded.path(), true, idf.get());
  EXPECT_EQ(s.message(), folded.path() + ":2: term 'Ａｐａｃｈｅ' ('apache') is given again (first at line 1)");
  EXPECT_TRUE(IdfTable::Load(folded.path(), /*normalize=*/false, idf.get()).ok()) << "two terms unnormalized";
  TempFile defaults("#default-idf\t1\nx\t1\n#default-idf\t2\n");
  s = IdfTable::Load(defaults.path(), true, idf.get());
  EXPECT_EQ(s.message(), defaults.path() + ":3: #default-idf is given again (first at line 1)");
}

// One rule for every idf (CheckWeight): a finite number from 0 to
// kMaxFeatureWeight. A table given in memory (as Python's dict gives it) is
// checked by Create, naming the term, the feature hash or the default.
TEST(FingerprintOptions, NonFiniteNegativeOrOverflowingIdfIsRefusedNamingIt) {
  for (const double bad : {std::nan(""), std::numeric_limits<double>::infinity(), -3.0, 1e308, -0.5, kMaxFeatureWeight * 2}) {
    SCOPED_TRACE(bad);
    FingerprintOptions o;
    o.weighting = Weighting::kTfIdf;
    auto term = std::make_shared<IdfTable>();
    term->Set("apache", bad);
    o.idf = term;
    std::unique_ptr<Fingerprinter> fp;
    Status s = Fingerprinter::Create(o, &fp);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.message().find("idf of 'apache' is "), std::string::npos) << s.ToString();
    EXPECT_NE(s.message().find("a weight must be a finite number from 0 to 1e+288"), std::string::npos)
        << s.ToString();
    EXPECT_EQ(fp, nullptr);

    auto by_default = std::make_shared<IdfTable>();
    by_default->set_default_idf(bad);
    o.idf = by_default;
    s = Fingerprinter::Create(o, &fp);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.message().find("default idf is "), std::string::npos) << s.ToString();

    o.idf = std::make_shared<IdfTable>(IdfTable::FromHashes({{0x2a, bad}}, o.seed, 1.0));
    s = Fingerprinter::Create(o, &fp);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.message().find("idf of feature hash 000000000000002a is "), std::string::npos) << s.ToString();
    EXPECT_EQ(fp, nullptr);
  }
  FingerprintOptions o;
  o.weighting = Weighting::kLogTfIdf;
  auto edge = std::make_shared<IdfTable>();
  edge->Set("apache", kMaxFeatureWeight);
  edge->Set("hadoop", 0);
  o.idf = edge;
  EXPECT_FALSE(Make(o)->Fingerprint("apache hadoop").empty());
}

// At the largest weight the sums stay finite: a constant idf of
// kMaxFeatureWeight scales every sum alike, so tf-idf gives tf's
// fingerprint (counts 1, 2, 4, 8, 16: no bit's sum is 0, so rounding cannot
// flip a sign). An idf of 1e308 made two words' sums inf - inf = NaN, bits
// of 0; it is refused.
TEST(FingerprintOptions, SumsAtTheLargestWeightAreTfSumsScaled) {
  std::string text;
  for (int w = 0, count = 1; w < 5; ++w, count *= 2) {
    for (int i = 0; i < count; ++i) text += "word" + std::to_string(w) + " ";
  }
  FingerprintOptions tf;
  tf.stop_words.clear();
  FingerprintOptions o = tf;
  o.weighting = Weighting::kTfIdf;
  auto idf = std::make_shared<IdfTable>();
  idf->set_default_idf(kMaxFeatureWeight);
  o.idf = idf;
  const FingerprintResult scaled = Make(o)->Fingerprint(text);
  ASSERT_FALSE(scaled.empty());
  EXPECT_EQ(scaled.fingerprint, Make(tf)->Fingerprint(text).fingerprint);
}

TEST(FingerprintOptions, BuiltinStopWordsAreDropped) {
  ASSERT_GE(BuiltinStopWords("en").size(), 100u);
  ASSERT_GE(BuiltinStopWords("zh").size(), 50u);
  EXPECT_TRUE(BuiltinStopWords("xx").empty());
  FingerprintOptions o;
  o.stop_words = BuiltinStopWords("en");
  auto fp = Make(o);
  EXPECT_EQ(WeightsOf(fp.get(), "The cat and THE hat"),
            (std::map<std::string, double>{{"cat", 1}, {"hat", 1}}));
  EXPECT_EQ(fp->Fingerprint("The and of it").reason, EmptyReason::kAllStopWords);
  o.stop_words = BuiltinStopWords("zh");
  auto zh = Make(o);
  auto w = WeightsOf(zh.get(), "我们的中国人");
  EXPECT_EQ(w.count("的"), 0u);
  EXPECT_EQ(w.count("我们"), 0u);
  EXPECT_EQ(w.count("中国人"), 1u);
}

TEST(FingerprintOptions, StopWordsFromFileAreNormalized) {
  TempFile file("# my list\n  Ｆｏｏ  \n\nBAR\n");
  std::vector<std::string> words;
  ASSERT_TRUE(LoadStopWords(file.path(), &words).ok());
  EXPECT_EQ(words, (std::vector<std::string>{"Ｆｏｏ", "BAR"}));
  FingerprintOptions o;
  o.stop_words = words;
  auto fp = Make(o);
  EXPECT_EQ(WeightsOf(fp.get(), "foo bar baz"), (std::map<std::string, double>{{"baz", 1}}));
  EXPECT_TRUE(LoadStopWords("/nonexistent/simdex/stop.txt", &words).IsIOError());
}

TEST(FingerprintOptions, StopWordsAreRemovedBeforeShingling) {
  FingerprintOptions o;
  o.tokenizer = Tokenizer::kWordNgrams;
  o.ngram = 2;
  o.stop_words = {"the"};
  auto fp = Make(o);
  EXPECT_EQ(WeightsOf(fp.get(), "the cat the hat"),
            (std::map<std::string, double>{{"cat hat", 1}}));
  EXPECT_EQ(fp->Fingerprint("the the").reason, EmptyReason::kAllStopWords);
  o.tokenizer = Tokenizer::kCharNgrams;
  o.ngram = 3;
  o.stop_words = {"abc"};
  auto grams = Make(o);
  EXPECT_EQ(WeightsOf(grams.get(), "abcd"), (std::map<std::string, double>{{"bcd", 1}}));
  EXPECT_EQ(grams->Fingerprint("a b c").reason, EmptyReason::kAllStopWords);
}

}  // namespace
}  // namespace simdex
