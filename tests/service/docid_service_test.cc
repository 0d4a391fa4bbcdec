// DocIdService: the cascade on the seed's example, retries, urls, the kept
// representative, the retention window on a fake clock, compaction and
// reopening, serialized decisions under concurrency (and their serial
// order against an oracle), searches racing
// compaction, import, and answers equal to a leader-clustering oracle and
// to the offline de-duplicator.
#include "simdex/service.h"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <bit>
#include <chrono>
#include <filesystem>
#include <functional>
#include <random>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "engine/service/store.h"
#include "simdex/confirm.h"
#include "simdex/dedup.h"
#include "tests/index/test_data.h"
#include "tests/service/service_test_util.h"

namespace simdex {
namespace {

using servicetest::EditWords;
using servicetest::NearCopy;
using servicetest::RandomText;
using testing::ScopedTempDir;

// An article that owns its strings.
struct Doc {
  std::string id, url, title, content, json;
  double score = -std::numeric_limits<double>::infinity();

  Article view() const {
    Article a;
    a.id_json = id;
    a.url = url;
    a.title = title;
    a.content = content;
    a.json = json.empty() ? content : json;
    a.score = score;
    return a;
  }
};

Doc MakeDoc(std::string id, std::string url, std::string title, std::string content) {
  Doc d;
  d.id = std::move(id);
  d.url = std::move(url);
  d.title = std::move(title);
  d.content = std::move(content);
  return d;
}

// n articles: a third of them new texts of 200 words, the others
// copy(base, i) of an earlier new text, chosen at random by `seed`.
std::vector<Doc> PlantedCorpus(int n, uint64_t seed, const std::function<std::string(const std::string&, int)>& copy) {
  std::vector<Doc> docs;
  std::mt19937_64 rng(seed);
  std::vector<std::string> bases;
  for (int i = 0; i < n; ++i) {
    if (bases.empty() || rng() % 3 == 0) {
      bases.push_back(RandomText(seed * 100000 + static_cast<uint64_t>(i), 200));
      docs.push_back(MakeDoc("", "", "", bases.back()));
    } else {
      docs.push_back(MakeDoc("", "", "", copy(bases[rng() % bases.size()], i)));
    }
  }
  return docs;
}

class ServiceTest : public ::testing::Test {
 protected:
  ServiceOptions Options() {
    ServiceOptions o;
    o.content_method = ContentMethod::kSimHash;  // the SimHash content stage
    o.data_dir = dir_.path();
    o.background_compaction = false;
    o.clock = [this] { return now_.load(); };
    return o;
  }
  void Open(const ServiceOptions& o) { ASSERT_TRUE(DocIdService::Open(o, &service_).ok()); }
  void Open() { Open(Options()); }
  DocIdAnswer Submit(const Doc& d) {
    DocIdAnswer a;
    Status s = service_->Submit(d.view(), &a);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return a;
  }

  ScopedTempDir dir_;
  std::atomic<int64_t> now_{1700000000};
  std::unique_ptr<DocIdService> service_;
};

TEST_F(ServiceTest, SeedExamplePairSharesADocIdAndAnUnrelatedArticleDoesNot) {
  Open();
  using namespace servicetest;
  const DocIdAnswer first = Submit(MakeDoc("1", "http://a.example/1", kSeedTitle, kSeedContent));
  EXPECT_FALSE(first.duplicate);
  EXPECT_EQ(first.reason, FilterReason::kNew);
  // The reprint under the same title: caught by the title.
  const DocIdAnswer reprint = Submit(MakeDoc("2", "http://b.example/2", kSeedTitle, kSeedContentEdited));
  EXPECT_TRUE(reprint.duplicate);
  EXPECT_EQ(reprint.reason, FilterReason::kTitle);
  EXPECT_EQ(reprint.doc_id, first.doc_id);
  EXPECT_EQ(reprint.matched_id_json, "1");
  EXPECT_EQ(reprint.distance, 0);
  // The reprint under another title: caught by the content.
  const DocIdAnswer retitled =
      Submit(MakeDoc("3", "http://c.example/3", "期刊介紹：計算機應用與軟件", kSeedContentEdited));
  EXPECT_TRUE(retitled.duplicate);
  EXPECT_EQ(retitled.reason, FilterReason::kContent);
  EXPECT_EQ(retitled.doc_id, first.doc_id);
  EXPECT_GT(retitled.distance, 0);
  EXPECT_LE(retitled.distance, 3);
  const DocIdAnswer other = Submit(MakeDoc("4", "http://d.example/4", kUnrelatedTitle, kUnrelatedContent));
  EXPECT_FALSE(other.duplicate);
  EXPECT_NE(other.doc_id, first.doc_id);
  const ServiceStats st = service_->stats();
  EXPECT_EQ(st.articles, 4u);
  EXPECT_EQ(st.by_reason[static_cast<int>(FilterReason::kTitle)], 1u);
  EXPECT_EQ(st.by_reason[static_cast<int>(FilterReason::kContent)], 1u);
}

// Counters count since Open(); totals since the state was made, also
// across restarts (issue 36: /v1/stats said 0 articles after a restart
// while 50 docIds existed), and for a state made before totals were kept,
// counted from its records when it is first opened.
TEST_F(ServiceTest, TotalsCountSinceTheStateWasMadeAcrossRestarts) {
  auto check = [&](uint64_t articles, const char* when) {
    const ServiceStats st = service_->stats();
    EXPECT_EQ(st.total_articles, 5u) << when;
    EXPECT_EQ(st.total_docs, 3u) << when;
    EXPECT_EQ(st.total_by_reason[static_cast<int>(FilterReason::kNew)], 3u) << when;
    EXPECT_EQ(st.total_by_reason[static_cast<int>(FilterReason::kUrl)], 2u) << when;
    EXPECT_EQ(st.articles, articles) << when;
  };
  Open();
  for (int i = 0; i < 5; ++i) {
    Submit(MakeDoc(std::to_string(i), "http://t/" + std::to_string(i % 3), "", RandomText(40 + i, 100)));
  }
  Submit(MakeDoc("0", "http://t/9", "", "a replay counts in neither"));
  check(5, "before the restart");
  service_.reset();
  Open();
  check(0, "after the restart");
  service_.reset();
  {
    std::unique_ptr<service::Store> store;
    ASSERT_TRUE(service::Store::Open(dir_.path() + "/db", &store).ok());
    service::Store::Batch batch(*store);
    batch.DeleteTotals();
    ASSERT_TRUE(store->Write(&batch, true).ok());
  }
  Open();
  check(0, "counted from the records");
}

TEST_F(ServiceTest, UrlSeenBeforeIsADuplicateAndARetryGetsItsFirstAnswer) {
  Open();
  const DocIdAnswer a = Submit(MakeDoc("\"a\"", "http://x.example/p", "one", RandomText(1, 200)));
  const DocIdAnswer b = Submit(MakeDoc("\"b\"", "http://x.example/p", "two", RandomText(2, 200)));
  EXPECT_TRUE(b.duplicate);
  EXPECT_EQ(b.reason, FilterReason::kUrl);
  EXPECT_EQ(b.doc_id, a.doc_id);
  EXPECT_EQ(b.matched_id_json, "\"a\"");
  // The same article id again, whatever it now says: the first answer.
  const DocIdAnswer again = Submit(MakeDoc("\"b\"", "http://y.example/q", "three", RandomText(3, 200)));
  EXPECT_TRUE(again.replayed);
  EXPECT_EQ(again.doc_id, a.doc_id);
  EXPECT_EQ(again.reason, FilterReason::kUrl);
  DocIdAnswer looked;
  ASSERT_TRUE(service_->LookupArticle("\"b\"", &looked).ok());
  EXPECT_EQ(looked.doc_id, a.doc_id);
  EXPECT_TRUE(service_->LookupArticle("\"zz\"", &looked).IsNotFound());
  EXPECT_EQ(service_->stats().replays, 1u);
  // Check() answers without inserting.
  DocIdAnswer checked;
  Doc fresh = MakeDoc("", "http://z.example/", "t", RandomText(9, 200));
  ASSERT_TRUE(service_->Check(fresh.view(), &checked).ok());
  EXPECT_FALSE(checked.duplicate);
  ASSERT_TRUE(service_->Check(fresh.view(), &checked).ok());
  EXPECT_FALSE(checked.duplicate);
  Doc url_only = MakeDoc("", "http://x.example/p", "t", RandomText(9, 200));
  ASSERT_TRUE(service_->Check(url_only.view(), &checked).ok());
  EXPECT_EQ(checked.reason, FilterReason::kUrl);
  EXPECT_EQ(checked.doc_id, a.doc_id);
}

TEST_F(ServiceTest, KeepMaxFieldKeepsTheMostPopularCopy) {
  ServiceOptions o = Options();
  o.keep_field = "views";
  Open(o);
  const std::string text = RandomText(5, 300);
  Doc d1 = MakeDoc("1", "http://a/1", "", text);
  d1.score = 10;
  d1.json = "{\"id\":1,\"views\":10}";
  Doc d2 = MakeDoc("2", "http://a/2", "", EditWords(text, 1, 1));
  d2.score = 50;
  d2.json = "{\"id\":2,\"views\":50}";
  Doc d3 = MakeDoc("3", "http://a/3", "", EditWords(text, 2, 1));
  d3.score = 20;
  d3.json = "{\"id\":3,\"views\":20}";
  const uint64_t doc = Submit(d1).doc_id;
  std::string rep;
  ASSERT_TRUE(service_->GetRepresentative(doc, &rep).ok());
  EXPECT_EQ(rep, d1.json);
  EXPECT_EQ(Submit(d2).doc_id, doc);
  EXPECT_EQ(Submit(d3).doc_id, doc);
  ASSERT_TRUE(service_->GetRepresentative(doc, &rep).ok());
  EXPECT_EQ(rep, d2.json);
  EXPECT_TRUE(service_->GetRepresentative(doc ^ 1, &rep).IsNotFound());
}

TEST_F(ServiceTest, WindowExpiresEntriesOnTheClockAndCompactionDropsThem) {
  ServiceOptions o = Options();
  o.window_seconds = 100;
  o.compact_entries = 4;
  Open(o);
  const std::string text = RandomText(11, 250);
  const DocIdAnswer a = Submit(MakeDoc("1", "http://w/1", "title one", text));
  now_ += 99;  // 99 s later: still in the window
  const DocIdAnswer b = Submit(MakeDoc("2", "http://w/2", "", EditWords(text, 3, 1)));
  EXPECT_EQ(b.doc_id, a.doc_id);
  now_ += 1;  // 100 s after a: a has expired, url and title with it
  const DocIdAnswer c = Submit(MakeDoc("3", "http://w/1", "title one", EditWords(text, 4, 1)));
  EXPECT_FALSE(c.duplicate);
  EXPECT_NE(c.doc_id, a.doc_id);
  std::vector<ServiceMatch> found;
  ASSERT_TRUE(service_->Search(Field::kContent, service_->FingerprintText(text).fingerprint, 3, &found).ok());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].doc_id, c.doc_id);
  // Compaction writes the live entries and leaves the expired one out.
  ASSERT_TRUE(service_->Compact().ok());
  ServiceStats st = service_->stats();
  EXPECT_EQ(st.delta_entries, 0u);
  EXPECT_EQ(st.file_entries, 2u);  // c's title and content
  now_ += 100;                     // c expires too
  ASSERT_TRUE(service_->Compact().ok());
  st = service_->stats();
  EXPECT_EQ(st.files, 0u);
  EXPECT_EQ(st.expired_files, 2u);
  ASSERT_TRUE(service_->Search(Field::kContent, service_->FingerprintText(text).fingerprint, 3, &found).ok());
  EXPECT_TRUE(found.empty());
  // The article -> docId mapping outlives the window.
  DocIdAnswer looked;
  ASSERT_TRUE(service_->LookupArticle("1", &looked).ok());
  EXPECT_EQ(looked.doc_id, a.doc_id);
}

// With a retention, compaction deletes what is older from the database:
// the article's answer, its docId's record and representative. An article
// id then gets a fresh answer, and seqs (hence docIds) are never reused,
// not even after everything was deleted and the service reopened.
TEST_F(ServiceTest, RetentionDeletesOldArticlesAndDocIdsAndNeverReusesASeq) {
  ServiceOptions o = Options();
  o.window_seconds = 100;
  o.retain_seconds = 50;
  std::unique_ptr<DocIdService> refused;
  EXPECT_TRUE(DocIdService::Open(o, &refused).IsInvalidArgument());  // shorter than the window
  o.window_seconds = 0;
  o.retain_seconds = 200;
  EXPECT_TRUE(DocIdService::Open(o, &refused).IsInvalidArgument());  // no window
  o.window_seconds = 100;
  Open(o);
  const DocIdAnswer a = Submit(MakeDoc("1", "http://k/1", "", RandomText(21, 200)));
  const DocIdAnswer a_copy = Submit(MakeDoc("2", "http://k/2", "", RandomText(21, 200)));
  ASSERT_TRUE(a_copy.duplicate);
  now_ += 150;  // a has left the window, not the retention
  const DocIdAnswer b = Submit(MakeDoc("3", "http://k/3", "", RandomText(22, 200)));
  ASSERT_TRUE(service_->Compact().ok());
  DocIdAnswer looked;
  ASSERT_TRUE(service_->LookupArticle("1", &looked).ok());
  EXPECT_EQ(looked.doc_id, a.doc_id);
  std::string json;
  ASSERT_TRUE(service_->GetRepresentative(a.doc_id, &json).ok());
  EXPECT_EQ(service_->stats().pruned_articles, 0u);

  now_ += 60;  // 210 s after a, 60 s after b: a's articles go
  ASSERT_TRUE(service_->Compact().ok());
  EXPECT_TRUE(service_->LookupArticle("1", &looked).IsNotFound());
  EXPECT_TRUE(service_->LookupArticle("2", &looked).IsNotFound());
  EXPECT_TRUE(service_->GetRepresentative(a.doc_id, &json).IsNotFound());
  ASSERT_TRUE(service_->LookupArticle("3", &looked).ok());
  EXPECT_EQ(looked.doc_id, b.doc_id);
  ServiceStats st = service_->stats();
  EXPECT_EQ(st.pruned_articles, 2u);
  EXPECT_EQ(st.retained_first_seq, 2u);
  // Article 1 sent again is answered afresh (its text left the window too).
  const DocIdAnswer again = Submit(MakeDoc("1", "http://k/1", "", RandomText(21, 200)));
  EXPECT_FALSE(again.duplicate);
  EXPECT_NE(again.doc_id, a.doc_id);

  now_ += 1000;  // everything goes; a reopened service still counts on
  ASSERT_TRUE(service_->Compact().ok());
  EXPECT_TRUE(service_->LookupArticle("3", &looked).IsNotFound());
  service_.reset();
  Open(o);
  EXPECT_EQ(service_->stats().retained_first_seq, 4u);
  const DocIdAnswer c = Submit(MakeDoc("4", "", "", RandomText(23, 200)));
  for (const DocIdAnswer& old : {a, b, again}) EXPECT_NE(c.doc_id, old.doc_id);
}

TEST_F(ServiceTest, CompactedAndReopenedStateGivesTheSameAnswers) {
  ServiceOptions o = Options();
  o.compact_entries = 16;
  Open(o);
  std::vector<std::string> texts;
  std::vector<uint64_t> ids;
  for (int i = 0; i < 100; ++i) {
    texts.push_back(RandomText(100 + i, 150));
    ids.push_back(Submit(MakeDoc(std::to_string(i), "http://r/" + std::to_string(i), "", texts.back())).doc_id);
    if (i % 16 == 15) {
      ASSERT_TRUE(service_->Compact().ok());
    }
  }
  ServiceStats st = service_->stats();
  EXPECT_GT(st.files, 0u);
  EXPECT_GT(st.merges, 0u);
  EXPECT_LT(st.files, 8u);  // merged: a logarithmic number
  EXPECT_GT(st.delta_entries, 0u);
  service_.reset();
  Open(o);
  for (int i = 0; i < 100; ++i) {
    const DocIdAnswer a = Submit(MakeDoc("", "", "", NearCopy(*service_, texts[i], 9, 3)));
    ASSERT_TRUE(a.duplicate) << i;
    EXPECT_EQ(a.doc_id, ids[i]) << i;
    DocIdAnswer looked;
    ASSERT_TRUE(service_->LookupArticle(std::to_string(i), &looked).ok());
    EXPECT_EQ(looked.doc_id, ids[i]);
  }
  st = service_->stats();
  EXPECT_EQ(st.file_entries + st.delta_entries, 100u);
}

// --preload: every index file the service opens (after a compaction and on
// Open) is read, and with preload_lock locked (root here, or a large enough
// RLIMIT_MEMLOCK); without it nothing is counted.
TEST_F(ServiceTest, PreloadReadsAndLocksEveryOpenIndexFile) {
  ServiceOptions o = Options();
  o.compact_entries = 16;
  Open(o);
  for (int i = 0; i < 40; ++i) Submit(MakeDoc(std::to_string(i), "", "", RandomText(700 + i, 120)));
  ASSERT_TRUE(service_->Compact().ok());
  ServiceStats st = service_->stats();
  ASSERT_GT(st.file_bytes, 0u);
  EXPECT_EQ(st.preloaded_bytes, 0u);
  EXPECT_EQ(st.locked_bytes, 0u);
  service_.reset();

  o.preload = true;
  o.preload_lock = true;
  Open(o);
  st = service_->stats();
  EXPECT_EQ(st.preloaded_bytes, st.file_bytes);
  EXPECT_EQ(st.locked_bytes, st.file_bytes) << st.preload_lock_error;
  EXPECT_EQ(st.preload_lock_error, "");
  for (int i = 40; i < 80; ++i) Submit(MakeDoc(std::to_string(i), "", "", RandomText(700 + i, 120)));
  ASSERT_TRUE(service_->Compact().ok());  // a new file, opened after the compaction
  const ServiceStats after = service_->stats();
  EXPECT_GT(after.file_bytes, st.file_bytes);
  EXPECT_EQ(after.preloaded_bytes, after.file_bytes);
  EXPECT_EQ(after.locked_bytes, after.file_bytes);
}

TEST_F(ServiceTest, ShortContentsAreMatchedWiderAndConfirmedOnTheirTexts) {
  ServiceOptions o = Options();
  o.confirm = "jaccard-words:0.5";
  o.k_short = 8;
  Open(o);
  std::unique_ptr<Confirmer> confirmer;
  ConfirmOptions copts;
  ASSERT_TRUE(ParseConfirmSpec(o.confirm, &copts).ok());
  ASSERT_TRUE(Confirmer::Create(copts, &confirmer).ok());
  // A short text and a copy with one word changed that lands 4 to 8 bits
  // away (outside k = 3) while its word pairs still confirm it.
  std::string base, copy;
  int distance = 0;
  for (uint64_t seed = 0; seed < 1000 && distance == 0; ++seed) {
    base = RandomText(500 + seed, 16);
    for (uint64_t e = 0; e < 50 && distance == 0; ++e) {
      const std::string c = EditWords(base, e, 1);
      const int d = std::popcount(service_->FingerprintText(base).fingerprint ^ service_->FingerprintText(c).fingerprint);
      if (d >= 4 && d <= 8 && confirmer->Confirms(base, c)) copy = c, distance = d;
    }
  }
  ASSERT_NE(distance, 0) << "no short text of 1,000 has a one-word edit 4 to 8 bits away that confirms";
  // Reversed words: the same bag of words, so the same fingerprint, but no
  // word pair in common.
  std::string reversed;
  {
    std::istringstream in(base);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.insert(words.begin(), w);
    for (const std::string& w : words) reversed += (reversed.empty() ? "" : " ") + w;
  }
  ASSERT_EQ(service_->FingerprintText(reversed).fingerprint, service_->FingerprintText(base).fingerprint);

  Doc first = MakeDoc("1", "http://s/1", "", base);
  first.json = "{\"content\":\"" + base + "\"}";
  const DocIdAnswer a = Submit(first);
  const DocIdAnswer b = Submit(MakeDoc("2", "http://s/2", "", copy));
  EXPECT_TRUE(b.duplicate);
  EXPECT_EQ(b.reason, FilterReason::kContent);
  EXPECT_EQ(b.doc_id, a.doc_id);
  EXPECT_EQ(b.distance, distance);
  const DocIdAnswer c = Submit(MakeDoc("3", "http://s/3", "", reversed));
  EXPECT_FALSE(c.duplicate) << "distance 0, but the texts do not confirm it";
  ServiceStats st = service_->stats();
  EXPECT_EQ(st.confirmations, 2u);
  EXPECT_EQ(st.rejections, 1u);

  // Without confirmation the copy is too far and the reversal matches.
  service_.reset();
  o = Options();
  o.data_dir = dir_.path() + "/plain";
  Open(o);
  const DocIdAnswer pa = Submit(MakeDoc("1", "http://s/1", "", base));
  EXPECT_FALSE(Submit(MakeDoc("2", "http://s/2", "", copy)).duplicate);
  EXPECT_EQ(Submit(MakeDoc("3", "http://s/3", "", reversed)).doc_id, pa.doc_id);
  // A scheme that cannot cover k_short is refused.
  o.data_dir = dir_.path() + "/narrow";
  o.confirm = "jaccard:0.5";
  o.k_short = 8;
  o.content_scheme = "t10";
  std::unique_ptr<DocIdService> narrow;
  EXPECT_TRUE(DocIdService::Open(o, &narrow).IsInvalidArgument());
}

// The service's fingerprint options pass the one weight rule
// (CheckWeight): an idf table that would overflow the sums is refused when
// the service opens, naming the weight.
TEST_F(ServiceTest, AnOverflowingIdfInTheOptionsIsRefused) {
  ServiceOptions o = Options();
  auto idf = std::make_shared<IdfTable>();
  idf->Set("apache", 1e308);
  o.fingerprint.weighting = Weighting::kTfIdf;
  o.fingerprint.idf = idf;
  std::unique_ptr<DocIdService> refused;
  const Status s = DocIdService::Open(o, &refused);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("idf of 'apache' is 1e+308: a weight must be"), std::string::npos) << s.ToString();
  EXPECT_EQ(refused, nullptr);
}

// A state directory in use is named as such, not by RocksDB's words
// ("lock hold by current process, acquire time ...").
TEST_F(ServiceTest, AStateInUseIsRefusedNamingIt) {
  Open();
  std::unique_ptr<DocIdService> second;
  const Status s = DocIdService::Open(Options(), &second);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.message().find("this process holds the state directory " + dir_.path() + " (its database lock "),
            std::string::npos)
      << s.ToString();
  EXPECT_EQ(second, nullptr);
}

TEST_F(ServiceTest, OrphanFilesOfAnUnfinishedCompactionAreRemovedOnOpen) {
  Open();
  Submit(MakeDoc("1", "", "", RandomText(1, 100)));
  service_.reset();
  const std::string orphan = dir_.path() + "/index/content-99.sdx";
  FILE* f = std::fopen(orphan.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  Open();
  EXPECT_FALSE(std::filesystem::exists(orphan));
  EXPECT_EQ(service_->stats().delta_entries, 1u);
}

TEST_F(ServiceTest, NearDuplicatesSubmittedAtOnceGetOneDocId) {
  ServiceOptions o = Options();
  o.compact_entries = 8;
  o.background_compaction = true;  // compactions may run in the middle
  Open(o);
  constexpr int kThreads = 8, kRounds = 20;
  for (int round = 0; round < kRounds; ++round) {
    const std::string base = RandomText(1000 + round, 200);
    std::vector<Doc> docs;
    for (int t = 0; t < kThreads; ++t) {
      docs.push_back(MakeDoc("", "http://c/" + std::to_string(round) + "/" + std::to_string(t), "",
                             t == 0 ? base : NearCopy(*service_, base, static_cast<uint64_t>(t), 1)));
    }
    std::vector<Article> articles;
    for (const Doc& d : docs) articles.push_back(d.view());
    servicetest::ExpectOneDocIdWhenSubmittedAtOnce(*service_, articles, round);
  }
}

// Decisions read the database before the decision lock and reuse the
// reads under it unless their keys were written since. Eight threads submit
// 30 texts and 7 near copies of each, neighbours racing: two copies of each
// text share its url, one is a retry of the copy before it (the same id),
// and compactions run. Every answer is the one a serial oracle gives (a
// retry: the first answer; a url seen: its docId; else the nearest earlier
// docId within k = 3, the oldest among equals) in the service's own order,
// the articles' seqs read back from its database.
TEST_F(ServiceTest, ConcurrentAnswersEqualASerialOracleInTheirSeqOrder) {
  ServiceOptions o = Options();
  o.compact_entries = 16;
  o.background_compaction = true;
  Open(o);
  std::vector<Doc> docs;
  for (int b = 0; b < 30; ++b) {
    const std::string base = RandomText(static_cast<uint64_t>(7000 + b), 200);
    for (int c = 0; c < 8; ++c) {
      const size_t i = docs.size();
      if (c == 3) {
        docs.push_back(docs[i - 1]);
        continue;
      }
      const std::string content = c == 0 ? base : EditWords(base, static_cast<uint64_t>(b * 8 + c), 1 + c % 2);
      docs.push_back(MakeDoc("\"a" + std::to_string(i) + "\"", "http://o/" + std::to_string(i), "", content));
      if (c == 1 || c == 5) docs.back().url = docs[i - static_cast<size_t>(c)].url;
    }
  }
  std::vector<uint64_t> fps;
  std::map<std::string, std::vector<size_t>> by_id;
  for (size_t i = 0; i < docs.size(); ++i) {
    fps.push_back(service_->FingerprintText(docs[i].content).fingerprint);
    by_id[docs[i].id].push_back(i);
  }
  std::vector<DocIdAnswer> answers(docs.size());
  std::atomic<size_t> next{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (size_t i; (i = next.fetch_add(1)) < docs.size();) {
        EXPECT_TRUE(service_->Submit(docs[i].view(), &answers[i]).ok());
      }
    });
  }
  for (auto& th : threads) th.join();
  service_.reset();

  // The article each id's record names: the one not answered as a retry.
  std::map<std::string, size_t> first;
  for (const auto& [id, group] : by_id) {
    for (size_t i : group) {
      if (answers[i].replayed) continue;
      ASSERT_EQ(first.count(id), 0u) << id << " was decided twice";
      first[id] = i;
    }
  }
  std::unique_ptr<service::Store> store;
  ASSERT_TRUE(service::Store::Open(dir_.path() + "/db", &store).ok());
  std::vector<size_t> order;  // the decided articles by seq
  ASSERT_TRUE(store
                  ->ForEachArticle(0, UINT64_MAX,
                                   [&](uint64_t, const service::ArticleRecord& a) {
                                     order.push_back(first.at(a.id_json));
                                     return true;
                                   })
                  .ok());
  ASSERT_EQ(order.size(), first.size());
  std::map<std::string, uint64_t> url_doc;   // url -> its record's docId
  std::map<uint64_t, std::string> made_by;   // docId -> the id of the article that made it
  std::vector<size_t> leaders;               // the articles that made docIds, in order
  int by_url = 0, by_content = 0;
  for (size_t i : order) {
    const DocIdAnswer& a = answers[i];
    if (auto url = url_doc.find(docs[i].url); url != url_doc.end()) {
      ASSERT_EQ(a.reason, FilterReason::kUrl) << i;
      ASSERT_EQ(a.doc_id, url->second) << i;
      ++by_url;
    } else {
      int best = 99;
      size_t who = i;
      for (size_t l : leaders) {
        const int d = std::popcount(fps[l] ^ fps[i]);
        if (d <= 3 && d < best) best = d, who = l;
      }
      ASSERT_EQ(a.duplicate, who != i) << i;
      ASSERT_EQ(a.doc_id, answers[who].doc_id) << i;
      if (who == i) {
        leaders.push_back(i);
        made_by[a.doc_id] = docs[i].id;
      } else {
        ASSERT_EQ(a.reason, FilterReason::kContent) << i;
        ASSERT_EQ(a.distance, best) << i;
        ++by_content;
      }
      url_doc[docs[i].url] = a.doc_id;
    }
    if (a.duplicate) ASSERT_EQ(a.matched_id_json, made_by.at(a.doc_id)) << i;
  }
  for (size_t i = 0; i < docs.size(); ++i) {
    const DocIdAnswer& decided = answers[first.at(docs[i].id)];
    EXPECT_EQ(answers[i].doc_id, decided.doc_id) << i;
    EXPECT_EQ(answers[i].reason, decided.reason) << i;
  }
  EXPECT_EQ(by_url, 60);
  EXPECT_GT(by_content, 60);
}

// A url or an id sent by many threads at once, with different contents:
// one docId is made. The url's other articles are its duplicates; the
// id's are retries, answered as the first.
TEST_F(ServiceTest, AUrlOrIdSentByManyThreadsAtOnceIsDecidedOnce) {
  Open();
  constexpr int kThreads = 8, kRounds = 10;
  for (int round = 0; round < kRounds; ++round) {
    std::vector<Doc> docs;
    for (int t = 0; t < kThreads; ++t) {
      docs.push_back(MakeDoc("", "http://same/" + std::to_string(round), "",
                             RandomText(static_cast<uint64_t>(5000 + round * kThreads + t), 200)));
    }
    std::vector<Article> articles;
    for (const Doc& d : docs) articles.push_back(d.view());
    servicetest::ExpectOneDocIdWhenSubmittedAtOnce(*service_, articles, round);

    for (int t = 0; t < kThreads; ++t) {
      Doc& d = docs[static_cast<size_t>(t)];
      d.id = "\"id-" + std::to_string(round) + "\"";
      d.url.clear();
      d.content = RandomText(static_cast<uint64_t>(9000 + round * kThreads + t), 200);
      articles[static_cast<size_t>(t)] = d.view();
    }
    const std::vector<DocIdAnswer> answers = servicetest::SubmitAtOnce(*service_, articles);
    int first_answers = 0;
    for (const DocIdAnswer& a : answers) {
      first_answers += !a.replayed;
      EXPECT_EQ(a.doc_id, answers[0].doc_id) << "round " << round;
      EXPECT_FALSE(a.duplicate) << "round " << round;
    }
    EXPECT_EQ(first_answers, 1) << "round " << round;
  }
}

// Copies of one text with different scores arrive sixteen at once, round
// after round: the docId's representative is the copy of the highest score
// so far. (A decision that read the docId's record before the lock reads
// it again when a copy rewrote it since.)
TEST_F(ServiceTest, TheMostPopularCopyIsKeptWhenCopiesArriveAtOnce) {
  ServiceOptions o = Options();
  o.keep_field = "views";
  Open(o);
  const std::string text = RandomText(11, 300);
  const uint64_t doc = Submit(MakeDoc("", "http://p/first", "", text)).doc_id;
  std::mt19937_64 rng(5);
  int best = -1;
  constexpr int kCopies = 16;
  for (int round = 0; round < 50; ++round) {
    std::vector<Doc> docs;
    std::vector<int> scores;
    for (int t = 0; t < kCopies; ++t) scores.push_back(round * kCopies + t);
    std::shuffle(scores.begin(), scores.end(), rng);
    for (int t = 0; t < kCopies; ++t) {
      docs.push_back(MakeDoc("", "http://p/" + std::to_string(round) + "/" + std::to_string(t), "", text));
      docs.back().score = scores[static_cast<size_t>(t)];
      docs.back().json = "{\"views\":" + std::to_string(scores[static_cast<size_t>(t)]) + "}";
      best = std::max(best, scores[static_cast<size_t>(t)]);
    }
    std::vector<Article> articles;
    for (const Doc& d : docs) articles.push_back(d.view());
    for (const DocIdAnswer& a : servicetest::SubmitAtOnce(*service_, articles)) EXPECT_EQ(a.doc_id, doc);
    std::string rep;
    ASSERT_TRUE(service_->GetRepresentative(doc, &rep).ok());
    EXPECT_EQ(rep, "{\"views\":" + std::to_string(best) + "}") << "round " << round;
  }
}

// A compaction prunes the urls of articles that left the window, reading
// them before the decision lock, while two threads send those urls again:
// every url sent again keeps its new record (the prune reads a url written
// since again, under the lock, and keeps it). Five rounds of 1,000 urls.
TEST_F(ServiceTest, AUrlSentAgainWhileACompactionPrunesItKeepsItsNewRecord) {
  ServiceOptions o = Options();
  o.window_seconds = 100;
  Open(o);
  constexpr int kUrls = 1000;
  for (int round = 0; round < 5; ++round) {
    auto url = [round](int i) { return "http://r/" + std::to_string(round) + "/" + std::to_string(i); };
    auto text = [round](int i, int copy) {
      return RandomText(static_cast<uint64_t>((round * 3 + copy) * kUrls + i), 40);
    };
    for (int i = 0; i < kUrls; ++i) Submit(MakeDoc("", url(i), "", text(i, 0)));
    now_ += 150;  // they leave the window
    std::vector<DocIdAnswer> again(kUrls);
    std::atomic<int> next{0};
    std::barrier start(3);
    std::vector<std::thread> threads;
    threads.emplace_back([&] {
      start.arrive_and_wait();
      EXPECT_TRUE(service_->Compact().ok());
    });
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([&] {
        start.arrive_and_wait();
        for (int i; (i = next.fetch_add(1)) < kUrls;) {
          const Doc d = MakeDoc("", url(i), "", text(i, 1));
          EXPECT_TRUE(service_->Submit(d.view(), &again[static_cast<size_t>(i)]).ok());
        }
      });
    }
    for (auto& th : threads) th.join();
    for (int i = 0; i < kUrls; ++i) {
      ASSERT_FALSE(again[static_cast<size_t>(i)].duplicate) << "round " << round << " url " << i;
      DocIdAnswer checked;
      ASSERT_TRUE(service_->Check(MakeDoc("", url(i), "", text(i, 2)).view(), &checked).ok());
      ASSERT_EQ(checked.reason, FilterReason::kUrl) << "round " << round << " url " << i;
      ASSERT_EQ(checked.doc_id, again[static_cast<size_t>(i)].doc_id) << "round " << round << " url " << i;
    }
  }
}

// While one thread submits 400 articles, another compacts after every 100
// of them (the delta moves into files and files merge under the readers)
// and two more search for the acknowledged articles: every search finds
// its article. Compactions are explicit calls, so the test does not depend
// on how fast the machine is.
TEST_F(ServiceTest, SearchesDuringCompactionsFindEveryAcknowledgedDoc) {
  Open();
  constexpr size_t kArticles = 400, kEvery = 100;
  std::vector<uint64_t> fps(kArticles), doc_ids(kArticles);
  std::atomic<size_t> acknowledged{0};
  std::atomic<bool> failed{false}, done{false};
  std::vector<std::thread> threads;
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      std::vector<ServiceMatch> found;
      uint64_t x = static_cast<uint64_t>(r) + 1;
      while (!done && !failed) {
        const size_t n = acknowledged.load();
        if (n == 0) {
          std::this_thread::yield();
          continue;
        }
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const size_t i = static_cast<size_t>(x >> 33) % n;
        if (!service_->Search(Field::kContent, fps[i], 0, &found).ok()) failed = true;
        if (std::none_of(found.begin(), found.end(), [&](const ServiceMatch& m) { return m.doc_id == doc_ids[i]; })) {
          failed = true;
        }
      }
    });
  }
  std::atomic<int> compactions{0};
  threads.emplace_back([&] {
    // After each 100 acknowledged articles (the submitter ends at 400).
    for (size_t next = kEvery; next < kArticles && !failed; next += kEvery) {
      while (acknowledged.load() < next && !failed) std::this_thread::yield();
      if (!service_->Compact().ok()) failed = true;
      ++compactions;
    }
  });
  for (size_t n = 0; n < kArticles && !failed; ++n) {
    const std::string text = RandomText(5000 + n, 120);
    fps[n] = service_->FingerprintText(text).fingerprint;
    doc_ids[n] = Submit(MakeDoc("", "", "", text)).doc_id;
    acknowledged.store(n + 1);
    // The submitter waits for each compaction, so that every compaction
    // has its 100 articles to write (under load the submitter could run
    // ahead and leave a compaction an empty delta: nothing to count).
    const size_t done_articles = n + 1;
    if (done_articles % kEvery == 0 && done_articles < kArticles) {
      while (compactions.load() < static_cast<int>(done_articles / kEvery) && !failed) std::this_thread::yield();
    }
  }
  threads.back().join();  // the compactions, bounded by the 400 articles
  threads.pop_back();
  done = true;
  for (auto& th : threads) th.join();
  EXPECT_FALSE(failed);
  EXPECT_EQ(compactions.load(), 3);
  EXPECT_EQ(service_->stats().compactions, 3u);
  EXPECT_GT(service_->stats().file_entries, 0u);
}

TEST_F(ServiceTest, ImportedDocumentsAreMatchedByTheirIds) {
  Open();
  std::vector<std::string> ids;
  std::vector<uint64_t> fps;
  for (int i = 0; i < 2000; ++i) {
    ids.push_back("\"corpus-" + std::to_string(i) + "\"");
    fps.push_back(service_->FingerprintText(RandomText(20000 + i, 150)).fingerprint);
  }
  ASSERT_TRUE(service_->Import(ids, fps).ok());
  EXPECT_EQ(service_->stats().file_entries, 2000u);
  const DocIdAnswer a = Submit(MakeDoc("1", "", "", EditWords(RandomText(20000 + 1234, 150), 1, 1)));
  EXPECT_TRUE(a.duplicate);
  EXPECT_EQ(a.reason, FilterReason::kContent);
  EXPECT_EQ(a.matched_id_json, "\"corpus-1234\"");
  std::string rep;
  EXPECT_TRUE(service_->GetRepresentative(a.doc_id, &rep).IsNotFound());
  // Reopened: the imported file is in the manifest.
  service_.reset();
  Open();
  EXPECT_EQ(service_->stats().file_entries, 2000u);
  EXPECT_EQ(Submit(MakeDoc("2", "", "", RandomText(20000 + 7, 150))).doc_id,
            Submit(MakeDoc("3", "", "", RandomText(20000 + 7, 150))).doc_id);
}

// The state records the fingerprint profile; reopening it with options of
// another profile is refused naming both, and so is an import of another.
TEST_F(ServiceTest, StateOfAnotherFingerprintProfileIsRefusedNamingBoth) {
  Open();
  const std::string recorded = service_->profile();
  EXPECT_EQ(recorded.rfind("simdex-fp/", 0), 0u) << recorded;
  Submit(MakeDoc("1", "", "", RandomText(1, 80)));
  ASSERT_TRUE(service_->Compact().ok());
  std::vector<std::string> ids = {"\"x\""};
  std::vector<uint64_t> fps = {1};
  Status refused = service_->Import(ids, fps, "simdex-fp/3 something else");
  EXPECT_TRUE(refused.IsInvalidArgument()) << refused.ToString();
  service_.reset();
  ServiceOptions o = Options();
  o.fingerprint.seed = 7;
  std::unique_ptr<DocIdService> other;
  Status s = DocIdService::Open(o, &other);
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find(recorded), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("seed:7"), std::string::npos) << s.message();
  Open();  // the same options still open it
  EXPECT_EQ(service_->profile(), recorded);
  // The compacted file records it too.
  EXPECT_GT(service_->stats().file_entries, 0u);
}

// An idf-weighted state (simdex serve --weighting log-tf-idf --idf FILE)
// records its table by content: another table, or the same table weighed by
// tf-idf, is refused naming both profiles.
TEST_F(ServiceTest, AnIdfWeightedStateIsRefusedWithAnotherTableOrWeighting) {
  auto table = [](double the_idf) {
    auto t = std::make_shared<IdfTable>();
    t->Set("the", the_idf);
    t->set_default_idf(0.693);
    return t;
  };
  ServiceOptions o = Options();
  o.fingerprint.weighting = Weighting::kLogTfIdf;
  o.fingerprint.idf = table(0.1);
  Open(o);
  const std::string recorded = service_->profile();
  EXPECT_NE(recorded.find(" log-tf-idf:"), std::string::npos) << recorded;
  const std::string text = RandomText(3, 120);
  EXPECT_EQ(Submit(MakeDoc("1", "", "", text)).doc_id, Submit(MakeDoc("2", "", "", text)).doc_id);
  service_.reset();
  for (const auto& [weighting, the_idf] : {std::pair{Weighting::kLogTfIdf, 0.2}, {Weighting::kTfIdf, 0.1}}) {
    ServiceOptions other_options = o;
    other_options.fingerprint.weighting = weighting;
    other_options.fingerprint.idf = table(the_idf);
    std::unique_ptr<DocIdService> other;
    const Status s = DocIdService::Open(other_options, &other);
    ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.message().find(recorded), std::string::npos) << s.message();
  }
  o.fingerprint.idf = table(0.1);  // an equal table, loaded again, opens it
  Open(o);
  EXPECT_EQ(service_->profile(), recorded);
}

TEST_F(ServiceTest, BadArgumentsAreInvalidArgument) {
  Open();
  DocIdAnswer a;
  Doc d = MakeDoc("", std::string(5000, 'u'), "", "text");
  EXPECT_TRUE(service_->Submit(d.view(), &a).IsInvalidArgument());
  std::vector<ServiceMatch> found;
  EXPECT_TRUE(service_->Search(Field::kContent, 1, 4, &found).IsInvalidArgument());
  EXPECT_TRUE(service_->Search(Field::kTitle, 1, 1, &found).IsInvalidArgument());  // title scheme covers 0
  ServiceOptions o = Options();
  o.data_dir = dir_.path() + "/other";
  o.k = 4;
  o.content_scheme = "t10";  // without it, a scheme covering 4 is chosen
  std::unique_ptr<DocIdService> other;
  Status s = DocIdService::Open(o, &other);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("content distance 4"), std::string::npos) << s.message();
  // A second service on the same directory: the database's lock.
  o = Options();
  s = DocIdService::Open(o, &other);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
}

// While compactions do not empty the live delta (here: none runs), it holds
// at most max_live_entries: a new document past it is refused, nothing of it
// stored, and duplicates of what it holds are still answered; a compaction
// makes room. The bound is checked at Open(), within 1..2^32 - 1 (the
// deltas' 32-bit links; the path of the 2^32 - 1-th entry, at 3).
TEST_F(ServiceTest, ALiveDeltaAtItsMostRefusesNewDocumentsUntilACompaction) {
  ServiceOptions o = Options();
  o.compact_entries = 2;
  for (uint64_t bad : {uint64_t{1}, kMaxLiveEntries + 1}) {
    o.max_live_entries = bad;
    std::unique_ptr<DocIdService> refused;
    Status s = DocIdService::Open(o, &refused);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.message().find("max_live_entries"), std::string::npos) << s.ToString();
  }
  o.max_live_entries = 3;
  Open(o);
  std::vector<Doc> docs;
  for (int i = 0; i < 4; ++i) docs.push_back(MakeDoc("", "", "", RandomText(900 + static_cast<uint64_t>(i), 120)));
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(Submit(docs[static_cast<size_t>(i)]).duplicate);
  DocIdAnswer a;
  Status s = service_->Submit(docs[3].view(), &a);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.message().find("max_live_entries"), std::string::npos) << s.ToString();
  EXPECT_EQ(service_->stats().articles, 3u);  // nothing of it stored
  const DocIdAnswer again = Submit(docs[1]);
  EXPECT_TRUE(again.duplicate);
  ASSERT_TRUE(service_->Compact().ok());
  const DocIdAnswer fourth = Submit(docs[3]);
  EXPECT_FALSE(fourth.duplicate);
  EXPECT_TRUE(Submit(docs[0]).duplicate);  // found in the compacted file
}

// The online answers are leader clustering in arrival order: an article is
// a duplicate of the nearest earlier doc within k (oldest among equals),
// whatever the shape of the data.
TEST_F(ServiceTest, AnswersEqualALeaderOracle) {
  ServiceOptions o = Options();
  o.compact_entries = 40;
  Open(o);
  const std::vector<Doc> docs = PlantedCorpus(400, 17, [](const std::string& base, int i) {
    return EditWords(base, static_cast<uint64_t>(i), 1 + i % 2);
  });
  std::vector<uint64_t> fps;
  for (const Doc& d : docs) fps.push_back(service_->FingerprintText(d.content).fingerprint);
  std::vector<DocIdAnswer> answers;
  for (size_t i = 0; i < docs.size(); ++i) {
    answers.push_back(Submit(docs[i]));
    if (i % 100 == 99) {
      ASSERT_TRUE(service_->Compact().ok());
    }
  }
  std::vector<size_t> leaders;  // the articles that made docs
  int duplicates = 0;
  for (size_t i = 0; i < docs.size(); ++i) {
    int best = 99;
    size_t who = i;
    for (size_t l : leaders) {
      const int d = std::popcount(fps[l] ^ fps[i]);
      if (d <= 3 && d < best) best = d, who = l;
    }
    if (who == i) leaders.push_back(i);
    duplicates += who != i;
    ASSERT_EQ(answers[i].duplicate, who != i) << i;
    ASSERT_EQ(answers[i].doc_id, answers[who].doc_id) << i;
    if (who != i) {
      ASSERT_EQ(answers[i].distance, best) << i;
    }
  }
  EXPECT_GT(duplicates, 100);
}

// On clusters whose members are all within k of each other, leader
// clustering and the offline de-duplicator's connected components agree:
// the same duplicates, the same groups.
TEST_F(ServiceTest, AnswersEqualTheOfflineDeduplicatorOnTightClusters) {
  Open();
  const std::vector<Doc> docs = PlantedCorpus(300, 29, [&](const std::string& base, int i) {
    return NearCopy(*service_, base, static_cast<uint64_t>(i), 1);
  });
  std::unique_ptr<Deduplicator> dedup;
  ASSERT_TRUE(Deduplicator::Create(DedupOptions(), &dedup).ok());
  std::vector<DocIdAnswer> answers;
  for (const Doc& d : docs) {
    ASSERT_TRUE(dedup->Add(service_->FingerprintText(d.content).fingerprint).ok());
    answers.push_back(Submit(d));
  }
  ASSERT_TRUE(dedup->Finish().ok());
  for (size_t i = 0; i < docs.size(); ++i) {
    const DedupResult r = dedup->Result(i);
    EXPECT_EQ(answers[i].duplicate, r.duplicate) << i;
    EXPECT_EQ(answers[i].doc_id, answers[r.representative].doc_id) << i;
  }
  EXPECT_GT(dedup->stats().clusters, 50u);
}

}  // namespace
}  // namespace simdex
