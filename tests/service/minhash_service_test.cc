// DocIdService with MinHash-LSH contents (ContentMethod::kMinHash): answers
// equal to a brute-force oracle across compactions and merges, the same
// answers after a restart, the window expiring MinHash entries, a state of
// another method or MinHash profile refused, the state's word definition
// kept unless another is asked for, near-duplicates submitted at
// once getting one docId, and the HTTP answer of a content match.
#include <algorithm>
#include <bit>
#include <random>
#include <regex>

#include <gtest/gtest.h>

#include "simdex/batch.h"
#include "simdex/confirm.h"
#include "simdex/fingerprint.h"
#include "simdex/minhash.h"
#include "simdex/service.h"
#include "tests/index/test_data.h"
#include "tests/service/http_client.h"
#include "tests/service/served_service.h"
#include "tests/service/service_test_util.h"

namespace simdex {
namespace {

using servicetest::EditWords;
using servicetest::RandomText;
using testing::ScopedTempDir;

// A content as the service signs it (its default MinHash options).
struct Signed {
  bool has = false;
  std::vector<uint64_t> keys;
  std::vector<uint8_t> packed;
};

class Signer {
 public:
  // The bands of a state made with exact false (DefaultLshBands), or true
  // (ExactCandidateBands).
  explicit Signer(bool exact = false) {
    EXPECT_TRUE(MinHasher::Create(MinHashOptions(), &hasher_).ok());
    bands_ = exact ? ExactCandidateBands(0.8, 128) : DefaultLshBands(0.8, 128);
  }
  Signed Sign(const std::string& text) {
    Signed s;
    std::vector<uint32_t> sig(128);
    s.has = hasher_->Sign(text, sig.data()) != ShingleKind::kNone;
    s.keys.resize(static_cast<size_t>(bands_.bands));
    s.packed.resize(PackedSignatureBytes(128, 4));
    BandKeys(sig.data(), bands_, s.keys.data());
    PackSignature(sig.data(), 128, 4, s.packed.data());
    return s;
  }
  // The estimate of J when a and b share a band key, else -1.
  static double Candidate(const Signed& a, const Signed& b) {
    if (!a.has || !b.has) return -1;
    for (size_t j = 0; j < a.keys.size(); ++j) {
      if (a.keys[j] == b.keys[j]) return EstimateJaccardPacked(a.packed.data(), b.packed.data(), 128, 4);
    }
    return -1;
  }

 private:
  std::unique_ptr<MinHasher> hasher_;
  LshBands bands_;
};

// n contents: new texts of 200 words, copies of an earlier one with 1 to 8
// words edited (estimates spread around 0.8), exact copies, empty and
// blank contents, and short texts of one shingle (some repeated).
std::vector<std::string> Stream(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> bases, out;
  const char* const shorts[] = {"breaking news", "breaking  NEWS", "sports results today"};
  for (int i = 0; i < n; ++i) {
    const uint64_t kind = rng() % 20;
    if (bases.empty() || kind < 6) {
      bases.push_back(RandomText(seed * 1000003 + static_cast<uint64_t>(i), 200));
      out.push_back(bases.back());
    } else if (kind < 15) {
      out.push_back(EditWords(bases[rng() % bases.size()], rng(), 1 + static_cast<int>(rng() % 8)));
    } else if (kind < 17) {
      out.push_back(bases[rng() % bases.size()]);
    } else if (kind == 17) {
      out.push_back(rng() % 2 ? "" : "   \n ");
    } else {
      out.push_back(shorts[rng() % 3]);
    }
  }
  return out;
}

class MinHashServiceTest : public ::testing::Test {
 protected:
  ServiceOptions Options() {
    ServiceOptions o;
    o.data_dir = dir_.path();
    o.background_compaction = false;
    o.clock = [this] { return now_.load(); };
    o.content_method = ContentMethod::kMinHash;
    // The band stage alone, by its estimate (the oracle below); the exact
    // check and the short-content stage have their own oracles.
    o.confirm = "off";
    o.exact = false;
    return o;
  }
  void Open(const ServiceOptions& o) {
    Status s = DocIdService::Open(o, &service_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  DocIdAnswer Submit(const std::string& id, const std::string& content) {
    Article a;
    a.id_json = id;
    a.content = content;
    const std::string json = servicetest::ArticleJson("", "", "", content);
    a.json = json;
    DocIdAnswer answer;
    Status s = service_->Submit(a, &answer);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return answer;
  }
  DocIdAnswer Check(const std::string& content) {
    Article a;
    a.content = content;
    DocIdAnswer answer;
    EXPECT_TRUE(service_->Check(a, &answer).ok());
    return answer;
  }

  ScopedTempDir dir_;
  std::atomic<int64_t> now_{1700000000};
  std::unique_ptr<DocIdService> service_;
  Signer signer_;
};

// Each article against every earlier docId's signature: the highest
// estimate >= 0.8 among those sharing a band key, the oldest among equals;
// through compactions every 60 articles (small deltas, so that files merge).
TEST_F(MinHashServiceTest, AnswersEqualABruteForceOracleAcrossCompactionsAndMerges) {
  ServiceOptions o = Options();
  o.compact_entries = 25;
  Open(o);
  const std::vector<std::string> contents = Stream(420, 5);
  std::vector<Signed> sigs;
  std::vector<size_t> leaders;  // articles that made docIds
  std::vector<DocIdAnswer> answers;
  int duplicates = 0, edited_new = 0;
  for (size_t i = 0; i < contents.size(); ++i) {
    answers.push_back(Submit("\"a" + std::to_string(i) + "\"", contents[i]));
    if (i % 60 == 59) {
      ASSERT_TRUE(service_->Compact().ok());
    }
    sigs.push_back(signer_.Sign(contents[i]));
    double best = -1;
    size_t who = i;
    for (size_t l : leaders) {
      const double e = Signer::Candidate(sigs[i], sigs[l]);
      if (e >= 0.8 && e > best) best = e, who = l;
    }
    if (who == i) leaders.push_back(i);
    ASSERT_EQ(answers[i].duplicate, who != i) << i;
    ASSERT_EQ(answers[i].doc_id, answers[who].doc_id) << i;
    if (who != i) {
      ++duplicates;
      ASSERT_EQ(answers[i].reason, FilterReason::kContent) << i;
      ASSERT_EQ(answers[i].similarity, best) << i;
    } else {
      edited_new += sigs[i].has;
      ASSERT_EQ(answers[i].similarity, 0) << i;
    }
  }
  const ServiceStats stats = service_->stats();
  EXPECT_GT(duplicates, 150);
  EXPECT_GT(stats.merges, 0u);
  EXPECT_GT(stats.files, 0u);
  EXPECT_GT(stats.content_candidates, 0u);
  EXPECT_EQ(stats.content_estimates, stats.content_candidates);
  EXPECT_EQ(stats.file_entries + stats.delta_entries, static_cast<uint64_t>(edited_new));
  // The answer replayed from the database keeps the estimate.
  DocIdAnswer looked;
  for (size_t i = 0; i < answers.size(); ++i) {
    if (!answers[i].duplicate) continue;
    ASSERT_TRUE(service_->LookupArticle("\"a" + std::to_string(i) + "\"", &looked).ok());
    EXPECT_EQ(looked.similarity, answers[i].similarity);
    EXPECT_EQ(looked.doc_id, answers[i].doc_id);
  }
}

// The exact check (the default): each content against every earlier
// docId's: the candidates sharing a band key (the state's bands, 21 x 6)
// whose estimate passes ExactEstimateFilter, the 32 of highest estimate
// (oldest among equals); of those, the one of highest exact Jaccard of the
// texts' shingles at or above 0.8 (oldest among equals), which the answer
// gives as its similarity. Through compactions and merges.
TEST_F(MinHashServiceTest, ExactAnswersEqualABruteForceOracleOfTheCheck) {
  ServiceOptions o = Options();
  o.exact = true;
  o.compact_entries = 25;
  Open(o);
  Signer signer(/*exact=*/true);
  ConfirmOptions spec;
  ASSERT_TRUE(ParseConfirmSpec("jaccard-shingles:0.8", &spec).ok());
  std::unique_ptr<Confirmer> checker;
  ASSERT_TRUE(Confirmer::Create(spec, &checker).ok());
  const double filter = ExactEstimateFilter(0.8, 128);
  const std::vector<std::string> contents = Stream(360, 8);
  std::vector<Signed> sigs;
  std::vector<size_t> leaders;
  std::vector<DocIdAnswer> answers;
  int duplicates = 0, below = 0;
  for (size_t i = 0; i < contents.size(); ++i) {
    answers.push_back(Submit("\"x" + std::to_string(i) + "\"", contents[i]));
    if (i % 60 == 59) ASSERT_TRUE(service_->Compact().ok());
    sigs.push_back(signer.Sign(contents[i]));
    std::vector<std::pair<double, size_t>> candidates;  // (-estimate, leader)
    for (size_t l : leaders) {
      const double e = Signer::Candidate(sigs[i], sigs[l]);
      if (e >= filter) candidates.emplace_back(-e, l);
    }
    std::sort(candidates.begin(), candidates.end());
    if (candidates.size() > 32) candidates.resize(32);
    double best = -1;
    size_t who = i;
    for (const auto& [e, l] : candidates) {
      const double j = checker->Similarity(contents[i], contents[l]);
      below += j < 0.8;
      if (j >= 0.8 && (j > best || (j == best && l < who))) best = j, who = l;
    }
    if (who == i) leaders.push_back(i);
    ASSERT_EQ(answers[i].duplicate, who != i) << i;
    ASSERT_EQ(answers[i].doc_id, answers[who].doc_id) << i;
    if (who != i) {
      ++duplicates;
      ASSERT_NEAR(answers[i].similarity, best, 1e-9) << i;
    }
  }
  EXPECT_GT(duplicates, 120);
  EXPECT_GT(below, 10) << "no candidate below the threshold was checked: a weak test";
  EXPECT_GT(service_->stats().rejections, 0u);
}

// Short contents (under 140 code points) at the default two-stage check:
// each against every earlier docId's content, the closest fingerprint
// within 10 bits (oldest among equals) whose text the confirmer accepts
// (3-code-point shingle Jaccard >= 0.5), at most the 32 closest tried;
// else the band stage as above. Through compactions, so that short
// fingerprints are searched in files too.
TEST_F(MinHashServiceTest, ShortContentsAreMatchedInTwoStagesAsABruteForceOracle) {
  ServiceOptions o = Options();
  o.confirm.clear();  // the default
  o.compact_entries = 20;
  Open(o);
  std::unique_ptr<Fingerprinter> fingerprinter;
  ASSERT_TRUE(Fingerprinter::Create(o.fingerprint, &fingerprinter).ok());
  ConfirmOptions confirm_options;
  ASSERT_TRUE(ParseConfirmSpec(kDefaultShortConfirm, &confirm_options).ok());
  std::unique_ptr<Confirmer> confirmer;
  ASSERT_TRUE(Confirmer::Create(confirm_options, &confirmer).ok());
  // Short news lines: a few bases and copies with a word or two changed,
  // some of which stay within 10 bits and half their shingles.
  std::mt19937_64 rng(11);
  std::vector<std::string> bases, contents;
  for (int i = 0; i < 300; ++i) {
    if (bases.empty() || rng() % 4 == 0) {
      bases.push_back(RandomText(7000 + static_cast<uint64_t>(i), 6 + static_cast<int>(rng() % 14)));
      contents.push_back(bases.back());
    } else {
      contents.push_back(EditWords(bases[rng() % bases.size()], rng(), 1 + static_cast<int>(rng() % 3)));
    }
  }
  std::vector<size_t> leaders;
  std::vector<DocIdAnswer> answers;
  int confirmed = 0;
  for (size_t i = 0; i < contents.size(); ++i) {
    answers.push_back(Submit("\"s" + std::to_string(i) + "\"", contents[i]));
    if (i % 50 == 49) ASSERT_TRUE(service_->Compact().ok());
    const FingerprintResult fi = fingerprinter->Fingerprint(contents[i]);
    ASSERT_LT(contents[i].size(), 140u);
    // The oracle: candidates within 10 bits, closest then oldest.
    std::vector<std::pair<int, size_t>> near;
    for (size_t l : leaders) {
      const FingerprintResult fl = fingerprinter->Fingerprint(contents[l]);
      const int d = std::popcount(fi.fingerprint ^ fl.fingerprint);
      if (!fi.empty() && !fl.empty() && d <= kDefaultShortK) near.emplace_back(d, l);
    }
    std::sort(near.begin(), near.end());
    size_t who = i;
    int distance = 0;
    for (size_t t = 0; t < near.size() && t < 32 && who == i; ++t) {
      if (confirmer->Confirms(contents[i], contents[near[t].second])) who = near[t].second, distance = near[t].first;
    }
    if (who != i) {
      ++confirmed;
      ASSERT_TRUE(answers[i].duplicate) << i << ": " << contents[i] << " ~ " << contents[who];
      ASSERT_EQ(answers[i].doc_id, answers[who].doc_id) << i;
      ASSERT_EQ(answers[i].distance, distance) << i;
      continue;
    }
    // No confirmed candidate: the band stage decides (checked above); here
    // only that an unconfirmed short content did not take a candidate's docId
    // by its fingerprint.
    if (!answers[i].duplicate) leaders.push_back(i);
    else ASSERT_GT(answers[i].similarity, 0) << i << ": matched by neither stage";
  }
  EXPECT_GT(confirmed, 50);
  EXPECT_GT(service_->stats().rejections, 0u) << "no candidate was rejected on its text: a weak test";
}

// Closed with entries in files and in the delta, reopened: every content
// is answered as before (the delta rebuilt from the database).
TEST_F(MinHashServiceTest, ReopenedStateGivesTheSameAnswers) {
  ServiceOptions o = Options();
  o.compact_entries = 1000;
  Open(o);
  const std::vector<std::string> contents = Stream(200, 6);
  for (size_t i = 0; i < contents.size(); ++i) {
    Submit("", contents[i]);
    if (i == 120) {
      ASSERT_TRUE(service_->Compact().ok());
    }
  }
  ASSERT_GT(service_->stats().delta_entries, 0u);
  ASSERT_GT(service_->stats().file_entries, 0u);
  std::vector<DocIdAnswer> before;
  for (const std::string& c : contents) before.push_back(Check(EditWords(c, 77, 1)));
  service_.reset();
  Open(o);
  for (size_t i = 0; i < contents.size(); ++i) {
    const DocIdAnswer after = Check(EditWords(contents[i], 77, 1));
    ASSERT_EQ(after.doc_id, before[i].doc_id) << i;
    ASSERT_EQ(after.similarity, before[i].similarity) << i;
  }
}

TEST_F(MinHashServiceTest, WindowExpiresMinHashEntriesAndCompactionDropsThem) {
  ServiceOptions o = Options();
  o.window_seconds = 100;
  Open(o);
  const std::string base = RandomText(1, 200);
  const DocIdAnswer first = Submit("1", base);
  now_ += 50;
  EXPECT_EQ(Submit("2", EditWords(base, 2, 1)).doc_id, first.doc_id);
  ASSERT_TRUE(service_->Compact().ok());
  EXPECT_EQ(service_->stats().file_entries, 1u);
  now_ += 60;  // 110 s after the first: expired, in the file
  const DocIdAnswer later = Submit("3", EditWords(base, 3, 1));
  EXPECT_FALSE(later.duplicate);
  EXPECT_NE(later.doc_id, first.doc_id);
  ASSERT_TRUE(service_->Compact().ok());
  const ServiceStats stats = service_->stats();
  EXPECT_EQ(stats.expired_files, 1u);
  EXPECT_EQ(stats.file_entries, 1u);  // the new docId's
  now_ += 200;  // everything expired, in the delta too
  EXPECT_FALSE(Submit("4", base).duplicate);
}

// The state records the content method and the MinHash profile and bands:
// opening it with others is refused naming both; a SimHash state refuses
// MinHash, and a MinHash state refuses an import of fingerprints.
TEST_F(MinHashServiceTest, StateOfAnotherMethodOrMinHashProfileIsRefusedNamingBoth) {
  Open(Options());
  Submit("1", RandomText(1, 100));
  std::vector<std::string> ids = {"\"x\""};
  std::vector<uint64_t> fps = {1};
  Status s = service_->Import(ids, fps);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  service_.reset();
  std::unique_ptr<DocIdService> other;
  ServiceOptions o = Options();
  o.content_method = ContentMethod::kSimHash;
  s = DocIdService::Open(o, &other);
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("by minhash, not by simhash"), std::string::npos) << s.message();
  o = Options();
  o.minhash.num_perm = 64;
  s = DocIdService::Open(o, &other);
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("perm:128 seed:1"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("perm:64 seed:1"), std::string::npos) << s.message();
  o = Options();
  o.bands = {32, 4};
  s = DocIdService::Open(o, &other);
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("16 x 8"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("32 x 4"), std::string::npos) << s.message();
  o = Options();
  o.threshold = 0.7;  // the threshold may change; the bands stay the state's
  Open(o);
  service_.reset();
  o = Options();
  o.data_dir = dir_.path() + "/simhash";
  o.content_method = ContentMethod::kSimHash;
  Open(o);
  service_.reset();
  o.content_method = ContentMethod::kMinHash;
  s = DocIdService::Open(o, &other);
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("by simhash, not by minhash"), std::string::npos) << s.message();
}

// A comma after every third word: the same shingles under word-chars, none
// shared under space-split (every window of five words holds one).
std::string Punctuated(const std::string& text) {
  std::string out;
  int word = 0;
  for (char c : text + " ") {
    if (c == ' ' && ++word % 3 == 0) out += ',';
    out += c;
  }
  out.pop_back();
  return out;
}

// The word definition of the shingles is the state's unless the options
// give one, which must then be the state's; a new state takes the options'
// or the default.
TEST_F(MinHashServiceTest, TheWordDefinitionIsTheStatesUnlessGivenAndAnotherIsRefused) {
  const std::string base = RandomText(11, 100);
  for (const ShingleWords words : {ShingleWords::kSpaceSplit, ShingleWords::kWordChars}) {
    const bool common = words == ShingleWords::kWordChars;
    ServiceOptions o = Options();
    o.data_dir = dir_.path() + "/" + ShingleWordsName(words);
    o.shingle_words = words;
    Open(o);
    EXPECT_EQ(service_->options().minhash.shingles.words, words);
    const DocIdAnswer first = Submit("1", base);
    service_.reset();
    o.shingle_words.reset();
    Open(o);  // reopened without a definition: the state's
    EXPECT_EQ(service_->options().minhash.shingles.words, words);
    EXPECT_EQ(Submit("2", Punctuated(base)).doc_id == first.doc_id, common);
    service_.reset();
    o.shingle_words = common ? ShingleWords::kSpaceSplit : ShingleWords::kWordChars;
    std::unique_ptr<DocIdService> other;
    const Status s = DocIdService::Open(o, &other);
    ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.message().find(common ? "nfkc-casefold word-chars perm:128" : "nfkc-casefold perm:128"),
              std::string::npos)
        << s.message();
  }
  ServiceOptions o = Options();
  o.data_dir = dir_.path() + "/new";
  Open(o);
  EXPECT_EQ(service_->options().minhash.shingles.words, ShingleOptions{}.words);
}

// ContentMethod::kAuto, the default: a new state matches by MinHash; a
// state reopened without a method keeps the one it records, SimHash or
// MinHash, and options() says which.
TEST_F(MinHashServiceTest, TheDefaultMethodIsMinHashForANewStateAndTheStatesOwnForAnOldOne) {
  ServiceOptions o;
  o.data_dir = dir_.path() + "/new";
  o.background_compaction = false;
  ASSERT_EQ(o.content_method, ContentMethod::kAuto);
  Open(o);
  EXPECT_EQ(service_->options().content_method, ContentMethod::kMinHash);
  const std::string base = RandomText(7, 200);
  const DocIdAnswer first = Submit("1", base);
  const DocIdAnswer edited = Submit("2", EditWords(base, 1, 1));  // SimHash at k = 3 may miss it; MinHash not
  ASSERT_GE(Signer::Candidate(signer_.Sign(base), signer_.Sign(EditWords(base, 1, 1))), 0.8);
  EXPECT_EQ(edited.doc_id, first.doc_id);
  service_.reset();
  Open(o);  // reopened without a method: still MinHash
  EXPECT_EQ(service_->options().content_method, ContentMethod::kMinHash);
  EXPECT_EQ(Submit("3", base).doc_id, first.doc_id);
  service_.reset();

  o.data_dir = dir_.path() + "/old-simhash";
  o.content_method = ContentMethod::kSimHash;
  Open(o);
  service_.reset();
  o.content_method = ContentMethod::kAuto;
  Open(o);  // a SimHash state keeps SimHash
  EXPECT_EQ(service_->options().content_method, ContentMethod::kSimHash);
  service_.reset();
  o.content_method = ContentMethod::kMinHash;  // an explicit other method is still refused
  std::unique_ptr<DocIdService> other;
  const Status s = DocIdService::Open(o, &other);
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("by simhash, not by minhash"), std::string::npos) << s.message();
}

TEST_F(MinHashServiceTest, NearDuplicatesSubmittedAtOnceGetOneDocId) {
  ServiceOptions o = Options();
  o.compact_entries = 8;
  o.background_compaction = true;  // compactions may run in the middle
  Open(o);
  constexpr int kThreads = 8, kRounds = 15;
  for (int round = 0; round < kRounds; ++round) {
    const std::string base = RandomText(1000 + round, 200);
    std::vector<std::string> texts;
    std::vector<Signed> sigs;
    for (int t = 0; t < kThreads; ++t) {
      texts.push_back(t == 0 ? base : EditWords(base, static_cast<uint64_t>(t), 1));
      sigs.push_back(signer_.Sign(texts.back()));
    }
    // Every pair is a match, whichever comes first.
    for (int a = 0; a < kThreads; ++a) {
      for (int b = 0; b < a; ++b) ASSERT_GE(Signer::Candidate(sigs[a], sigs[b]), 0.8) << round << " " << a << " " << b;
    }
    std::vector<Article> articles(kThreads);
    std::vector<std::string> jsons;  // the representatives the exact check reads
    for (const std::string& text : texts) jsons.push_back(servicetest::ArticleJson("", "", "", text));
    for (int t = 0; t < kThreads; ++t) {
      articles[static_cast<size_t>(t)].content = texts[static_cast<size_t>(t)];
      articles[static_cast<size_t>(t)].json = jsons[static_cast<size_t>(t)];
    }
    servicetest::ExpectOneDocIdWhenSubmittedAtOnce(*service_, articles, round);
  }
}

TEST(MinHashHttpTest, AContentMatchAnswersItsSimilarityInsteadOfADistance) {
  ServiceOptions options;
  options.content_method = ContentMethod::kMinHash;
  servicetest::ServedService served(options);
  ASSERT_TRUE(served.ok());
  servicetest::HttpClient client(served.port());
  const std::string base = RandomText(3, 200);
  auto post = [&](const std::string& id, const std::string& content) {
    return client.Post("/v1/docid", "{\"id\":" + id + ",\"url\":\"\",\"title\":\"\",\"content\":\"" + content + "\"}");
  };
  const servicetest::HttpReply first = post("1", base);
  ASSERT_EQ(first.status, 200) << first.body;
  const servicetest::HttpReply copy = post("2", base);
  ASSERT_EQ(copy.status, 200) << copy.body;
  EXPECT_NE(copy.body.find("\"filterReason\":\"content\",\"matched\":{\"id\":1,\"similarity\":1}"), std::string::npos)
      << copy.body;
  const servicetest::HttpReply stats = client.Get("/v1/stats");
  EXPECT_NE(stats.body.find("\"content_method\":\"minhash\",\"threshold\":0.8"), std::string::npos) << stats.body;
  EXPECT_NE(stats.body.find("\"content_candidates\":1,"), std::string::npos) << stats.body;
}

// /v1/query with texts on a MinHash state searches as /v1/docid matches:
// by signatures (issue 36: it answered "no match" for a near copy that
// /v1/docid matched), with a threshold of the query's own.
TEST(MinHashHttpTest, QueryByTextsSearchesByMinHash) {
  servicetest::ServedService served;
  ASSERT_TRUE(served.ok());
  servicetest::HttpClient client(served.port());
  const std::string base = RandomText(21, 200);
  const servicetest::HttpReply made =
      client.Post("/v1/docid", servicetest::ArticleJson("1", "http://q/1", "", base));
  ASSERT_EQ(made.status, 200) << made.body;
  const std::string copy = EditWords(base, 5, 2);
  servicetest::HttpReply r = client.Post("/v1/query", "{\"texts\":[\"" + copy + "\",\"" + RandomText(22, 200) + "\"]}");
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string doc_id = servicetest::JsonField(made.body, "docId");
  EXPECT_NE(r.body.find("{\"matches\":[{\"docId\":\"" + doc_id + "\",\"similarity\":"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find(",{\"matches\":[]}]"), std::string::npos) << r.body;
  // What /v1/docid answers for the same text agrees.
  const servicetest::HttpReply checked = client.Post("/v1/query", servicetest::ArticleJson("", "", "", copy));
  EXPECT_EQ(servicetest::JsonField(checked.body, "docId"), doc_id) << checked.body;
  r = client.Post("/v1/query", "{\"texts\":[\"" + copy + "\"],\"threshold\":1}");
  EXPECT_EQ(r.body, "{\"status\":\"success\",\"results\":[{\"matches\":[]}]}\n");
  r = client.Post("/v1/query", "{\"fingerprints\":[\"9f3a0c71d2e4b856\"]}");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(servicetest::JsonField(r.body, "error").find("query contents with"), std::string::npos) << r.body;
  r = client.Post("/v1/query", "{\"texts\":[\"a\"],\"threshold\":1.5}");
  EXPECT_EQ(r.status, 400) << r.body;
  // Titles are fingerprints in either method.
  EXPECT_EQ(client.Post("/v1/query", "{\"fingerprints\":[\"1\"],\"field\":\"title\"}").status, 200);
}

// The words [from, to) of a text.
std::string Words(const std::string& text, size_t from, size_t to) {
  std::vector<std::string> words;
  for (size_t at = 0; at <= text.size();) {
    const size_t end = std::min(text.find(' ', at), text.size());
    words.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  std::string out;
  for (size_t i = from; i < to && i < words.size(); ++i) out += (out.empty() ? "" : " ") + words[i];
  return out;
}

// /v1/query of MinHash contents takes several thresholds, each band match
// labelled with the highest its similarity reaches, and a top k: the
// first K of the answer, best first.
TEST(MinHashHttpTest, QueryTakesSeveralThresholdsAndATopK) {
  ServiceOptions options;
  options.content_method = ContentMethod::kMinHash;
  options.threshold = 0.5;
  servicetest::ServedService served(options);
  ASSERT_TRUE(served.ok());
  servicetest::HttpClient client(served.port());
  const std::string x = RandomText(31, 100), y = RandomText(32, 100), w = RandomText(33, 30), z = RandomText(34, 50);
  const std::string q = x + " " + y;
  const std::string a = x + " " + Words(y, 0, 50) + " " + z;  // word 5-shingle J with q 146/246, 0.59
  const std::string b = w + " " + Words(x, 30, 100) + " " + y;  // 166/226, 0.73; with a 116/276, 0.42
  const servicetest::HttpReply made_a = client.Post("/v1/docid", servicetest::ArticleJson("1", "", "", a));
  const servicetest::HttpReply made_b = client.Post("/v1/docid", servicetest::ArticleJson("2", "", "", b));
  ASSERT_EQ(made_b.status, 200) << made_b.body;
  const std::string doc_a = servicetest::JsonField(made_a.body, "docId");
  const std::string doc_b = servicetest::JsonField(made_b.body, "docId");
  ASSERT_NE(doc_a, doc_b) << made_b.body;

  // The answer to one text: (docId, label) in order, "" for no label.
  const auto answer = [](const std::vector<std::pair<std::string, std::string>>& matches) {
    std::string re = "\\{\"status\":\"success\",\"results\":\\[\\{\"matches\":\\[";
    for (size_t i = 0; i < matches.size(); ++i) {
      re += std::string(i > 0 ? "," : "") + "\\{\"docId\":\"" + matches[i].first + "\",\"similarity\":0\\.[0-9]+";
      if (!matches[i].second.empty()) re += ",\"threshold\":" + matches[i].second;
      re += "\\}";
    }
    return std::regex(re + "\\]\\}\\]\\}\n");
  };
  servicetest::HttpReply r = client.Post("/v1/query", "{\"texts\":[\"" + q + "\"],\"threshold\":[0.7,0.5]}");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(std::regex_match(r.body, answer({{doc_b, "0\\.7"}, {doc_a, "0\\.5"}}))) << r.body;
  r = client.Post("/v1/query", "{\"texts\":[\"" + q + "\"],\"threshold\":[0.5,0.7],\"top_k\":1}");
  EXPECT_TRUE(std::regex_match(r.body, answer({{doc_b, "0\\.7"}}))) << r.body;
  r = client.Post("/v1/query", "{\"texts\":[\"" + q + "\"],\"top_k\":1}");  // the service's threshold: no label
  EXPECT_TRUE(std::regex_match(r.body, answer({{doc_b, ""}}))) << r.body;
  r = client.Post("/v1/query", "{\"texts\":[\"" + q + "\"],\"threshold\":0.7}");
  EXPECT_NE(r.body.find(",\"threshold\":0.7}]}]}"), std::string::npos) << r.body;
  EXPECT_EQ(r.body.find(doc_a), std::string::npos) << r.body;

  for (const char* bad : {"\"threshold\":[]", "\"threshold\":[0.5,2]", "\"threshold\":\"0.5\"", "\"top_k\":0",
                          "\"top_k\":1.5"}) {
    r = client.Post("/v1/query", "{\"texts\":[\"" + q + "\"]," + bad + "}");
    EXPECT_EQ(r.status, 400) << bad << ": " << r.body;
  }
  r = client.Post("/v1/query", "{\"fingerprints\":[\"1\"],\"field\":\"title\",\"top_k\":1}");
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_NE(r.body.find("field 'top_k' is for contents matched by MinHash"), std::string::npos) << r.body;
}

// The docId service's source document posts these two articles and shows
// the second getting the first one's docId: the content stage found them
// similar. The contents (27 and 30 code points) share 0.36 of their
// 5-shingles and are 7 bits apart: the short-content stage (candidates
// within 10 bits, confirmed by 3-code-point shingle Jaccard 0.53 >= 0.5)
// matches them at the defaults. Issue 36: they got two docIds.
TEST(MinHashHttpTest, TheSourcesWorkedExampleGetsOneDocIdAtTheDefaults) {
  servicetest::ServedService served;  // every option at its default
  ASSERT_TRUE(served.ok());
  servicetest::HttpClient client(served.port());
  const servicetest::HttpReply first = client.Post(
      "/v1/docid", R"({"url":"http://www.simhash.com","title":"計算機應用與軟件",)"
                   R"("content":"海量網絡文本去重系統實驗測試，這是一段測試文本的內容。"})");
  ASSERT_EQ(first.status, 200) << first.body;
  EXPECT_EQ(servicetest::JsonField(first.body, "filterReason"), "new") << first.body;
  const servicetest::HttpReply second = client.Post(
      "/v1/docid", R"({"url":"http://www.simhash1.com","title":"計算機應用和軟件2",)"
                   R"("content":"海量網絡文本去重系統實驗檢測，這是一段相似的測試文本的內容。"})");
  ASSERT_EQ(second.status, 200) << second.body;
  EXPECT_EQ(servicetest::JsonField(second.body, "docId"), servicetest::JsonField(first.body, "docId")) << second.body;
  EXPECT_EQ(servicetest::JsonField(second.body, "filterReason"), "content") << second.body;
  EXPECT_EQ(servicetest::JsonField(second.body, "filterStatus"), "duplicate") << second.body;
  const ServiceStats stats = served.service().stats();
  EXPECT_EQ(stats.docs, 1u);
  EXPECT_EQ(stats.confirmations, 1u);
  EXPECT_EQ(stats.rejections, 0u);
}

// The same pair with the short-content stage off gets two docIds; an
// unrelated short text within 10 bits would be rejected on its text.
TEST(MinHashHttpTest, ShortContentsTwoStageCheckCanBeTurnedOff) {
  ServiceOptions options;
  options.confirm = "off";
  servicetest::ServedService served(options);
  ASSERT_TRUE(served.ok());
  servicetest::HttpClient client(served.port());
  ASSERT_EQ(client.Post("/v1/docid", R"({"url":"","title":"","content":"海量網絡文本去重系統實驗測試，這是一段測試文本的內容。"})")
                .status,
            200);
  const servicetest::HttpReply second =
      client.Post("/v1/docid", R"({"url":"","title":"","content":"海量網絡文本去重系統實驗檢測，這是一段相似的測試文本的內容。"})");
  EXPECT_EQ(servicetest::JsonField(second.body, "filterReason"), "new") << second.body;
  EXPECT_EQ(served.service().stats().docs, 2u);
}

}  // namespace
}  // namespace simdex
