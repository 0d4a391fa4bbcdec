// The HTTP API end to end on loopback: every route, the seed's example
// through /docId/getDocId, batches, queries, errors (400, 404, 405, 413,
// malformed HTTP) with the server serving on, pipelining, metrics, and
// concurrent clients sending one article and its near-copies.
#include <algorithm>
#include <barrier>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "engine/service/api.h"
#include "simdex/http_server.h"
#include "simdex/profile.h"
#include "simdex/service.h"
#include "tests/index/test_data.h"
#include "tests/service/http_client.h"
#include "tests/service/served_service.h"
#include "tests/service/service_test_util.h"

namespace simdex {
namespace {

using servicetest::HttpClient;
using servicetest::HttpReply;
using servicetest::JsonField;

using servicetest::ArticleJson;
using servicetest::UrlEncode;

class HttpApiTest : public ::testing::Test {
 protected:
  static ServiceOptions Service() {
    ServiceOptions o;
    o.content_method = ContentMethod::kSimHash;  // the SimHash content stage
    o.keep_field = "views";
    return o;
  }
  static HttpServerOptions Http() {
    HttpServerOptions h;
    h.max_body_bytes = 64 << 10;
    h.threads = 2;
    return h;
  }
  void SetUp() override {
    ASSERT_TRUE(served_.ok());
    service_ = &served_.service();
    server_ = &served_.server();
  }

  servicetest::ServedService served_{Service(), Http()};
  DocIdService* service_ = nullptr;
  HttpServer* server_ = nullptr;
};

TEST_F(HttpApiTest, SeedExampleThroughGetDocIdSharesOneDocId) {
  using namespace servicetest;
  HttpClient client(server_->port());
  const HttpReply a = client.Get("/docId/getDocId?json=" +
                                 UrlEncode(ArticleJson("1", "http://a/1", kSeedTitle, kSeedContent,
                                                       ",\"category\":\"journal\",\"media\":\"a\",\"imageCount\":0")));
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_EQ(JsonField(a.body, "status"), "success");
  EXPECT_EQ(JsonField(a.body, "filterStatus"), "good");
  EXPECT_EQ(JsonField(a.body, "filterReason"), "new");
  EXPECT_EQ(JsonField(a.body, "docId").size(), 16u);
  const HttpReply b = client.Get("/docId/getDocId?json=" +
                                 UrlEncode(ArticleJson("2", "http://b/2", "期刊介紹", kSeedContentEdited)));
  ASSERT_EQ(b.status, 200) << b.body;
  EXPECT_EQ(JsonField(b.body, "docId"), JsonField(a.body, "docId"));
  EXPECT_EQ(JsonField(b.body, "filterStatus"), "duplicate");
  EXPECT_EQ(JsonField(b.body, "filterReason"), "content");
  EXPECT_NE(b.body.find("\"matched\":{\"id\":1,"), std::string::npos) << b.body;
  const HttpReply c = client.Post("/v1/docid", ArticleJson("3", "http://c/3", kUnrelatedTitle, kUnrelatedContent));
  ASSERT_EQ(c.status, 200);
  EXPECT_NE(JsonField(c.body, "docId"), JsonField(a.body, "docId"));
  // The representative keeps every field of the article.
  const HttpReply rep = client.Get("/v1/docid/" + JsonField(a.body, "docId"));
  ASSERT_EQ(rep.status, 200) << rep.body;
  EXPECT_NE(rep.body.find("\"imageCount\":0"), std::string::npos) << rep.body;
  const HttpReply looked = client.Get("/v1/article?id=2");
  ASSERT_EQ(looked.status, 200);
  EXPECT_EQ(JsonField(looked.body, "docId"), JsonField(a.body, "docId"));
  EXPECT_EQ(client.Get("/v1/article?id=%22nope%22").status, 404);
}

TEST_F(HttpApiTest, BatchAnswersEveryLineInOrderAndReportsBadLines) {
  HttpClient client(server_->port());
  const std::string text = servicetest::RandomText(1, 200);
  const std::string body = ArticleJson("\"x\"", "http://b/1", "t1", text) + "\n\n" + "{\"url\":1}\n" +
                           ArticleJson("\"y\"", "http://b/1", "t2", "something else") + "\r\n" + "not json\n" +
                           ArticleJson("\"z\"", "http://b/3", "t3", text);
  const HttpReply r = client.Post("/v1/docid:batch", body);
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "application/x-ndjson");
  const std::vector<std::string> lines = servicetest::Lines(r.body);
  ASSERT_EQ(lines.size(), 5u) << r.body;
  EXPECT_EQ(JsonField(lines[0], "filterReason"), "new");
  EXPECT_EQ(lines[1], "{\"status\":\"error\",\"line\":3,\"error\":\"field 'url' must be a string\"}");
  EXPECT_EQ(JsonField(lines[2], "filterReason"), "url");
  EXPECT_EQ(JsonField(lines[3], "status"), "error");
  EXPECT_EQ(JsonField(lines[3], "line"), "5");
  EXPECT_EQ(JsonField(lines[4], "filterReason"), "content");
  EXPECT_EQ(JsonField(lines[4], "docId"), JsonField(lines[0], "docId"));
}

TEST_F(HttpApiTest, QueriesSearchWithoutInserting) {
  HttpClient client(server_->port());
  const std::string text = servicetest::RandomText(2, 200);
  const HttpReply made = client.Post("/v1/docid", ArticleJson("", "http://q/1", "title q", text));
  const std::string doc = JsonField(made.body, "docId");
  const uint64_t fp = service_->FingerprintText(text).fingerprint;
  HttpReply r = client.Post("/v1/query", "{\"fingerprints\":[\"" + FormatHexFingerprint(fp ^ 1) + "\",\"0\"],\"k\":2}");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.body.find("\"matches\":[{\"docId\":\"" + doc + "\",\"fingerprint\":\"" + FormatHexFingerprint(fp) +
                        "\",\"distance\":1}]"),
            std::string::npos)
      << r.body;
  EXPECT_NE(r.body.find("\"fingerprint\":\"0000000000000000\",\"matches\":[]"), std::string::npos) << r.body;
  r = client.Post("/v1/query", "{\"texts\":[\"" + text + "\",\"\"]}");
  EXPECT_NE(r.body.find("\"docId\":\"" + doc + "\""), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("{\"fingerprint\":null,\"matches\":[]}"), std::string::npos) << r.body;
  r = client.Post("/v1/query", "{\"texts\":[\"title q\"],\"field\":\"title\"}");
  EXPECT_NE(r.body.find("\"docId\":\"" + doc + "\""), std::string::npos) << r.body;
  // An article: the cascade's answer, twice, and nothing inserted.
  for (int i = 0; i < 2; ++i) {
    r = client.Post("/v1/query", ArticleJson("", "http://q/2", "", servicetest::RandomText(3, 200)));
    EXPECT_EQ(JsonField(r.body, "filterStatus"), "good") << r.body;
  }
  r = client.Post("/v1/query", ArticleJson("", "http://q/1", "", ""));
  EXPECT_EQ(JsonField(r.body, "filterReason"), "url");
  EXPECT_EQ(service_->stats().articles, 1u);
  EXPECT_EQ(client.Post("/v1/query", "{\"fingerprints\":[\"xyz\"]}").status, 400);
  EXPECT_EQ(client.Post("/v1/query", "{\"fingerprints\":[\"1\"],\"k\":9}").status, 400);
  EXPECT_EQ(client.Post("/v1/query", "{\"fingerprints\":\"1\"}").status, 400);
  EXPECT_EQ(client.Post("/v1/query", "{\"fingerprints\":[],\"field\":\"body\"}").status, 400);
}

TEST_F(HttpApiTest, BadRequestsGetOneLineErrorsAndTheServerServesOn) {
  HttpClient client(server_->port());
  struct Case {
    std::string method, target, body;
    int status;
    std::string error;
  };
  const std::string kId = "field 'id' must be a string or an unsigned 64-bit integer";
  auto article = [](const std::string& fields) { return "{" + fields + "}"; };
  const std::string fine = "\"url\":\"u\",\"title\":\"t\",\"content\":\"c\"";
  const std::vector<Case> cases = {
      {"POST", "/v1/docid", "{\"url\":\"u\",\"title\":\"t\"", 400, "not valid JSON"},
      {"POST", "/v1/docid", "", 400, "not valid JSON"},
      {"POST", "/v1/docid", article(fine) + "x", 400, "not valid JSON"},
      {"POST", "/v1/docid", article("\"url\":\"\xff\",\"title\":\"t\",\"content\":\"c\""), 400, "not valid JSON"},
      {"POST", "/v1/docid", "[1,2]", 400, "an article must be a JSON object"},
      {"POST", "/v1/docid", "\"text\"", 400, "an article must be a JSON object"},
      {"POST", "/v1/docid", article("\"title\":\"t\",\"content\":\"c\""), 400, "field 'url' is missing"},
      {"POST", "/v1/docid", article("\"url\":\"u\",\"content\":\"c\""), 400, "field 'title' is missing"},
      {"POST", "/v1/docid", "{\"url\":\"u\",\"title\":\"t\"}", 400, "field 'content' is missing"},
      {"POST", "/v1/docid", article("\"url\":null,\"title\":\"t\",\"content\":\"c\""), 400,
       "field 'url' must be a string"},
      {"POST", "/v1/docid", article("\"url\":7,\"title\":\"t\",\"content\":\"c\""), 400,
       "field 'url' must be a string"},
      {"POST", "/v1/docid", "{\"url\":\"u\",\"title\":7,\"content\":\"c\"}", 400, "field 'title' must be a string"},
      {"POST", "/v1/docid", article("\"url\":\"u\",\"title\":[],\"content\":\"c\""), 400,
       "field 'title' must be a string"},
      {"POST", "/v1/docid", article("\"url\":\"u\",\"title\":\"t\",\"content\":{}"), 400,
       "field 'content' must be a string"},
      {"POST", "/v1/docid", article("\"url\":\"u\",\"title\":\"t\",\"content\":false"), 400,
       "field 'content' must be a string"},
      {"POST", "/v1/docid", "{\"id\":[1],\"url\":\"u\",\"title\":\"t\",\"content\":\"c\"}", 400, kId},
      {"POST", "/v1/docid", article("\"id\":1.0," + fine), 400, kId},
      {"POST", "/v1/docid", article("\"id\":1e0," + fine), 400, kId},
      {"POST", "/v1/docid", article("\"id\":-1," + fine), 400, kId},
      {"POST", "/v1/docid", article("\"id\":true," + fine), 400, kId},
      {"POST", "/v1/docid", article("\"id\":{\"a\":1}," + fine), 400, kId},
      {"POST", "/v1/docid", article("\"id\":18446744073709551616," + fine), 400,
       "field 'id' 18446744073709551616 is out of range for an unsigned 64-bit id"},
      {"POST", "/v1/docid", article("\"id\":-0," + fine), 400, kId},
      {"POST", "/v1/docid", article(fine + ",\"title\":\"t\""), 400, "field 'title' is given twice"},
      {"POST", "/v1/docid", "{\"url\":\"u\",\"title\":\"t\",\"content\":\"c\",\"views\":\"many\"}", 400,
       "field 'views' must be a number"},
      {"POST", "/v1/docid", article(fine + ",\"views\":[1]"), 400, "field 'views' must be a number"},
      {"POST", "/v1/docid", "{\"url\":\"" + std::string(5000, 'u') + "\",\"title\":\"t\",\"content\":\"c\"}", 400,
       "url is longer than 4096 bytes"},
      {"POST", "/v1/docid", article("\"id\":\"" + std::string(5000, 'i') + "\"," + fine), 400,
       "id is longer than 4096 bytes"},
      {"POST", "/v1/docid:batch", "", 200, ""},
      {"GET", "/docId/getDocId", "", 400, "json=<url-encoded JSON>"},
      {"GET", "/docId/getDocId?json=%zz", "", 400, "json=<url-encoded JSON>"},
      {"GET", "/docId/getDocId?json=" + UrlEncode(article("\"id\":2.5," + fine)), "", 400, kId},
      {"GET", "/v1/docid/123", "", 400, "16 hex digits"},
      {"GET", "/v1/docid/0123456789abcdef", "", 404, "no representative"},
      {"GET", "/v1/article", "", 400, "article id as JSON"},
      {"GET", "/v1/article?id=1.0", "", 400, "the id must be a string or an unsigned 64-bit integer"},
      {"GET", "/v1/article?id=%7B%7D", "", 400, "the id must be a string or an unsigned 64-bit integer"},
      {"GET", "/v1/article?id=%22x", "", 400, "the id is not valid JSON"},
      {"POST", "/v1/query", "{\"fingerprints\":[1]}", 400, "query 0 must be a string"},
      {"POST", "/v1/query", "{\"fingerprints\":[\"1\"],\"k\":\"2\"}", 400, "field 'k' must be an integer"},
      {"POST", "/v1/query", "{\"texts\":{}}", 400, "field 'texts' must be an array"},
      {"POST", "/v1/query", "{\"fingerprints\":[],\"field\":7}", 400, "field 'field' must be"},
      {"POST", "/v1/query", "[]", 400, "must be a JSON object"},
      {"GET", "/nowhere", "", 404, "no route /nowhere"},
      {"GET", "/v1/docid", "", 405, "use POST for /v1/docid"},
      {"POST", "/healthz", "", 405, "use GET for /healthz"},
  };
  for (const Case& c : cases) {
    const HttpReply r = client.Request(c.method, c.target, c.body);
    const std::string what = c.method + " " + c.target.substr(0, 60) + " " + c.body.substr(0, 60);
    EXPECT_EQ(r.status, c.status) << what << ": " << r.body << r.error;
    if (c.status != 200) {
      EXPECT_EQ(JsonField(r.body, "status"), "error") << what << ": " << r.body;
      EXPECT_NE(JsonField(r.body, "error").find(c.error), std::string::npos) << what << ": " << r.body;
      EXPECT_EQ(std::count(r.body.begin(), r.body.end(), '\n'), 1) << "one line: " << r.body;
    }
    // The connection stays open and the server answers.
    EXPECT_EQ(client.Get("/healthz").status, 200) << "after " << what;
  }
  // Over the body limit: 413, the connection closed, the server serving on.
  const HttpReply big = client.Post("/v1/docid", ArticleJson("", "u", "t", std::string(100 << 10, 'a')));
  EXPECT_EQ(big.status, 413) << big.body << big.error;
  EXPECT_NE(JsonField(big.body, "error").find("over the limit of 65536 bytes"), std::string::npos);
  // The seed's GET form carries the article in the target: the same limit.
  const HttpReply big_get = client.Get("/docId/getDocId?json=" +
                                       UrlEncode(ArticleJson("", "u", "t", std::string(70 << 10, 'a'))));
  EXPECT_EQ(big_get.status, 413) << big_get.body;
  EXPECT_NE(JsonField(big_get.body, "error").find("request target is over the limit"), std::string::npos)
      << big_get.body;
  // Past the header limit too (--max-body + 64 KiB): 413, not "malformed".
  const HttpReply huge_get = HttpClient(server_->port()).Get("/docId/getDocId?json=" + std::string(200 << 10, 'a'));
  EXPECT_EQ(huge_get.status, 413) << huge_get.body;
  // Not HTTP at all.
  HttpClient raw(server_->port());
  const std::vector<HttpReply> garbage = raw.Raw("HELLO THERE\r\n\r\n", 1);
  ASSERT_EQ(garbage.size(), 1u);
  EXPECT_EQ(garbage[0].status, 400);
  const HttpReply ok = client.Post("/v1/docid", ArticleJson("", "http://fine/1", "t", "fine text here"));
  EXPECT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(client.Get("/healthz").body, "{\"status\":\"ok\"}\n");
}

// Issue 18: as doubles, ids 1 and 1.0 were two articles and 1.0 and 1e0
// one. Ids are unsigned 64-bit integers or strings; 7 and "7" are two ids.
TEST_F(HttpApiTest, JsonIdsAreUnsignedIntegersOrStrings) {
  HttpClient client(server_->port());
  const HttpReply one = client.Post("/v1/docid", ArticleJson("1", "http://i/1", "", "the first article"));
  ASSERT_EQ(one.status, 200) << one.body;
  for (const char* bad : {"1.0", "1e0", "1E0", "0.1e1", "-1", "-0.0"}) {
    const HttpReply r = client.Post("/v1/docid", ArticleJson(bad, "http://i/" + std::string(bad), "", "another"));
    EXPECT_EQ(r.status, 400) << bad << ": " << r.body;
    EXPECT_NE(JsonField(r.body, "error").find("field 'id' must be a string or an unsigned 64-bit integer"),
              std::string::npos)
        << bad << ": " << r.body;
    EXPECT_EQ(client.Get(std::string("/v1/article?id=") + bad).status, 400) << bad;
  }
  const HttpReply again = client.Post("/v1/docid", ArticleJson("1", "http://i/other", "", "text"));
  EXPECT_EQ(JsonField(again.body, "replayed"), "true") << again.body;
  EXPECT_EQ(JsonField(again.body, "docId"), JsonField(one.body, "docId"));
  const HttpReply string_one = client.Post("/v1/docid", ArticleJson("\"1\"", "http://i/s1", "", "a third article"));
  EXPECT_EQ(JsonField(string_one.body, "filterReason"), "new") << string_one.body;
  EXPECT_EQ(JsonField(client.Get("/v1/article?id=1").body, "docId"), JsonField(one.body, "docId"));
  EXPECT_EQ(JsonField(client.Get("/v1/article?id=%221%22").body, "docId"), JsonField(string_one.body, "docId"));
  // The largest id, and escapes normalized in strings.
  const HttpReply max = client.Post("/v1/docid", ArticleJson("18446744073709551615", "http://i/max", "", "max"));
  EXPECT_EQ(max.status, 200) << max.body;
  EXPECT_EQ(client.Get("/v1/article?id=18446744073709551615").status, 200);
  // The lookup reads ids as the articles do: -0 and 2^64 are refused by name.
  EXPECT_EQ(JsonField(client.Get("/v1/article?id=-0").body, "error"),
            "the id must be a string or an unsigned 64-bit integer (no sign, fraction or exponent)");
  EXPECT_EQ(JsonField(client.Get("/v1/article?id=18446744073709551616").body, "error"),
            "the id 18446744073709551616 is out of range for an unsigned 64-bit id (0 to 18446744073709551615)");
  ASSERT_EQ(client.Post("/v1/docid", ArticleJson("\"aA\"", "http://i/aA", "", "escaped")).status, 200);
  EXPECT_EQ(JsonField(client.Post("/v1/docid", ArticleJson("\"a\\u0041\"", "http://i/x", "", "x")).body, "replayed"),
            "true");
  EXPECT_EQ(service_->stats().articles, 4u);
}

TEST_F(HttpApiTest, PipelinedRequestsAreAnsweredInOrder) {
  HttpClient client(server_->port());
  std::string bytes;
  for (int i = 0; i < 5; ++i) {
    const std::string body = ArticleJson(std::to_string(100 + i), "http://p/" + std::to_string(i % 2), "", "");
    bytes += "POST /v1/docid HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  }
  const std::vector<HttpReply> replies = client.Raw(bytes, 5);
  ASSERT_EQ(replies.size(), 5u);
  EXPECT_EQ(JsonField(replies[0].body, "filterReason"), "new");
  EXPECT_EQ(JsonField(replies[1].body, "filterReason"), "new");
  for (int i = 2; i < 5; ++i) {
    EXPECT_EQ(JsonField(replies[i].body, "filterReason"), "url") << i;
    EXPECT_EQ(JsonField(replies[i].body, "docId"), JsonField(replies[i % 2].body, "docId")) << i;
  }
}

TEST_F(HttpApiTest, StatsAndMetricsCountRequests) {
  HttpClient client(server_->port());
  client.Post("/v1/docid", ArticleJson("", "http://m/1", "t", "some words here"));
  client.Post("/v1/docid", ArticleJson("", "http://m/1", "t", "some words here"));
  client.Post("/v1/docid", "{");
  const HttpReply stats = client.Get("/v1/stats");
  ASSERT_EQ(stats.status, 200);
  EXPECT_EQ(JsonField(stats.body, "articles"), "2");
  EXPECT_EQ(JsonField(stats.body, "reason_url"), "1");
  EXPECT_EQ(JsonField(stats.body, "window_seconds"), "172800");
  std::string profile;
  ASSERT_TRUE(FingerprintProfile(FingerprintOptions(), &profile).ok());
  EXPECT_EQ(JsonField(stats.body, "profile"), profile);
  const HttpReply metrics = client.Get("/metrics");
  ASSERT_EQ(metrics.status, 200);
  EXPECT_EQ(metrics.content_type, "text/plain; version=0.0.4");
  for (const char* line : {"simdex_http_requests_total{route=\"docid\",code=\"200\"} 2",
                           "simdex_http_requests_total{route=\"docid\",code=\"400\"} 1",
                           "simdex_http_request_duration_seconds_count{route=\"docid\"} 3",
                           "simdex_articles_total{reason=\"url\"} 1", "simdex_entries_delta 2",
                           "simdex_window_seconds 172800",
                           "# TYPE simdex_http_request_duration_seconds histogram"}) {
    EXPECT_NE(metrics.body.find(line), std::string::npos) << line << "\n" << metrics.body;
  }
}

// Every figure of GET /v1/stats and GET /metrics, written out here rather than taken
// from engine/service/stats_fields.cc, in the view or views it belongs to;
// a figure in both shows the same value in each.
TEST_F(HttpApiTest, EveryDocumentedFigureIsInStatsAndMetrics) {
  HttpClient client(server_->port());
  client.Post("/v1/docid", ArticleJson("", "http://m/1", "t", "some words here"));
  client.Post("/v1/docid", ArticleJson("", "http://m/1", "t", "some words here"));
  const std::string stats = client.Get("/v1/stats").body;
  const std::string metrics = client.Get("/metrics").body;
  for (const char* key : {"articles", "replays", "docs", "reason_new", "reason_url", "reason_title", "reason_content",
                          "delta_entries", "file_entries", "files", "window_first_seq", "next_seq", "compactions",
                          "merges", "expired_files", "confirmations", "rejections", "delta_memory_bytes",
                          "file_bytes", "window_seconds", "retain_seconds", "retained_first_seq", "pruned_articles",
                          "store_write_errors", "store_reopens", "wal_syncs", "preloaded_bytes", "locked_bytes",
                          "decision_lock_microseconds", "decision_lock_reads", "k", "k_title"}) {
    EXPECT_FALSE(JsonField(stats, key).empty()) << key << " missing from " << stats;
  }
  const std::pair<const char*, const char*> both[] = {
      {"replays", "simdex_replays_total"}, {"delta_entries", "simdex_entries_delta"},
      {"file_entries", "simdex_entries_files"}, {"files", "simdex_index_files"},
      {"window_first_seq", "simdex_window_first_seq"}, {"next_seq", "simdex_next_seq"},
      {"compactions", "simdex_compactions_total"}, {"merges", "simdex_merges_total"},
      {"expired_files", "simdex_expired_files_total"}, {"confirmations", "simdex_confirmations_total"},
      {"rejections", "simdex_rejections_total"}, {"delta_memory_bytes", "simdex_delta_memory_bytes"},
      {"file_bytes", "simdex_file_bytes"}, {"window_seconds", "simdex_window_seconds"},
      {"retain_seconds", "simdex_retain_seconds"}, {"pruned_articles", "simdex_pruned_articles_total"},
      {"store_write_errors", "simdex_store_write_errors_total"}, {"store_reopens", "simdex_store_reopens_total"},
      {"wal_syncs", "simdex_wal_syncs_total"}, {"preloaded_bytes", "simdex_file_preloaded_bytes"},
      {"locked_bytes", "simdex_file_locked_bytes"},
      {"decision_lock_microseconds", "simdex_decision_lock_microseconds_total"},
      {"decision_lock_reads", "simdex_decision_lock_reads_total"}};
  for (const auto& [key, metric] : both) {
    const std::string line = std::string("\n") + metric + " " + JsonField(stats, key) + "\n";
    EXPECT_NE(metrics.find(line), std::string::npos) << metric << " is not " << key << " = " << JsonField(stats, key);
    EXPECT_NE(metrics.find(std::string("# HELP ") + metric + " "), std::string::npos) << metric;
  }
  EXPECT_NE(metrics.find("\nsimdex_last_compaction_seconds "), std::string::npos);
}

// Each round, eight clients send one article at the same moment: half of
// them the text itself, half a copy with one word changed (1 bit away, so
// every two of them are within k = 3). Exactly one docId is made.
TEST_F(HttpApiTest, ConcurrentClientsSendingOneArticleAndItsNearCopiesGetOneDocId) {
  constexpr int kClients = 8, kRounds = 5;
  for (int round = 0; round < kRounds; ++round) {
    const std::string text = servicetest::RandomText(77 + round, 300);
    std::vector<std::string> bodies, doc_ids(kClients);
    for (int t = 0; t < kClients; ++t) {
      const std::string content = t % 2 == 0 ? text : servicetest::NearCopy(*service_, text, t, 1);
      bodies.push_back(ArticleJson("", "http://same/" + std::to_string(round) + "/" + std::to_string(t), "", content));
    }
    std::barrier start(kClients);
    std::vector<std::thread> threads;
    for (int t = 0; t < kClients; ++t) {
      threads.emplace_back([&, t] {
        HttpClient client(server_->port());
        client.Get("/healthz");  // connected before the start
        start.arrive_and_wait();
        doc_ids[t] = JsonField(client.Post("/v1/docid", bodies[t]).body, "docId");
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(std::set<std::string>(doc_ids.begin(), doc_ids.end()).size(), 1u) << "round " << round;
    EXPECT_EQ(doc_ids[0].size(), 16u);
  }
  EXPECT_EQ(service_->stats().by_reason[static_cast<int>(FilterReason::kNew)], static_cast<uint64_t>(kRounds));
}

TEST(HttpServer, ABadAddressOrABusyPortIsAnError) {
  testing::ScopedTempDir dir;
  ServiceOptions o;
  o.data_dir = dir.path();
  std::unique_ptr<DocIdService> service;
  ASSERT_TRUE(DocIdService::Open(o, &service).ok());
  HttpServerOptions h;
  h.port = 0;
  std::unique_ptr<HttpServer> first, second;
  ASSERT_TRUE(HttpServer::Start(service.get(), h, &first).ok());
  h.port = first->port();
  Status s = HttpServer::Start(service.get(), h, &second);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.message().find("cannot listen on 127.0.0.1:" + std::to_string(h.port)), std::string::npos);
  h.listen = "not-an-address";
  EXPECT_TRUE(HttpServer::Start(service.get(), h, &second).IsInvalidArgument());
  first->Stop();
  first->Stop();  // idempotent
}

TEST(QueryParameter, DecodesEscapesAndPlus) {
  std::string v;
  EXPECT_TRUE(service::QueryParameter("/p?a=1&json=%7B%22x%22%3A+1%7D&b", "json", &v));
  EXPECT_EQ(v, "{\"x\": 1}");
  EXPECT_TRUE(service::QueryParameter("/p?b&a=", "a", &v));
  EXPECT_EQ(v, "");
  EXPECT_FALSE(service::QueryParameter("/p?a=1", "json", &v));
  EXPECT_FALSE(service::QueryParameter("/p", "json", &v));
  EXPECT_FALSE(service::QueryParameter("/p?json=%4", "json", &v));
  EXPECT_FALSE(service::QueryParameter("/p?json=%g0", "json", &v));
}

}  // namespace
}  // namespace simdex
