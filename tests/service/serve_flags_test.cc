// `simdex serve`'s flags, each against what docs/service.md says it does:
// --k-title, --title-scheme, --short-length, --build-threads,
// --idle-timeout, --content-method's default, --shingles, and --sync (acknowledged, killed with -9, restarted:
// present).
#include <signal.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/fingerprint.h"
#include "tests/index/test_data.h"
#include "tests/service/http_client.h"
#include "tests/service/server_process.h"
#include "tests/service/served_service.h"
#include "tests/service/service_test_util.h"

namespace simdex {
namespace {

using servicetest::ArticleJson;
using servicetest::HttpClient;
using servicetest::HttpReply;
using servicetest::JsonField;
using servicetest::ServerProcess;

// A server on `data` with `flags`, and a client of it.
struct Served {
  Served(const std::string& data, std::vector<std::string> flags) : process(data, std::move(flags)) {
    port = process.WaitForPort();
  }
  ServerProcess process;
  uint16_t port = 0;
};

// The /v1/stats answer of a server started on `data` with `flags`, then
// stopped ("" when it did not start).
std::string StatsOf(const std::string& data, std::vector<std::string> flags) {
  Served served(data, std::move(flags));
  EXPECT_NE(served.port, 0) << served.process.Log();
  if (served.port == 0) return std::string();
  const HttpReply stats = HttpClient(served.port).Get("/v1/stats");
  EXPECT_EQ(served.process.Stop(SIGTERM), 0);
  return stats.body;
}

// The value of a metric without labels in /metrics text; -1 when absent.
double Metric(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with(name + " ")) return std::stod(line.substr(name.size() + 1));
  }
  return -1;
}

// The fingerprints the server computes for `texts` (POST /v1/query).
std::vector<uint64_t> Fingerprints(HttpClient& client, const std::vector<std::string>& texts) {
  std::string body = "{\"texts\":[";
  for (size_t i = 0; i < texts.size(); ++i) body += (i ? ",\"" : "\"") + texts[i] + "\"";
  const HttpReply r = client.Post("/v1/query", body + "]}");
  // Each result opens with {"fingerprint":"..." (a match's fingerprint
  // follows its docId).
  const std::string key = "{\"fingerprint\":\"";
  std::vector<uint64_t> out;
  for (size_t at = r.body.find(key); at != std::string::npos; at = r.body.find(key, at + 1)) {
    uint64_t fp = 0;
    if (ParseHexFingerprint(std::string_view(r.body).substr(at + key.size(), 16), &fp)) out.push_back(fp);
  }
  EXPECT_EQ(out.size(), texts.size()) << r.body.substr(0, 500);
  return out;
}

// --k-title K: a title within K bits of an indexed title is a duplicate
// ("title"); at the default 0 only an equal fingerprint is.
TEST(ServeFlags, KTitleMatchesTitlesWithinItsDistance) {
  testing::ScopedTempDir dir;
  Served wide(dir.File("wide"), {"--content-method", "simhash", "--k-title", "3"});
  ASSERT_NE(wide.port, 0) << wide.process.Log();
  HttpClient client(wide.port);
  // A title and a one-word edit of it 1 to 3 bits away.
  std::string title, near;
  int distance = 0;
  for (uint64_t seed = 0; seed < 20 && distance == 0; ++seed) {
    const std::string base = servicetest::RandomText(seed, 12);
    std::vector<std::string> texts = {base};
    for (uint64_t e = 0; e < 40; ++e) texts.push_back(servicetest::EditWords(base, e, 1));
    const std::vector<uint64_t> fps = Fingerprints(client, texts);
    for (size_t i = 1; i < fps.size() && distance == 0; ++i) {
      const int d = std::popcount(fps[0] ^ fps[i]);
      if (d >= 1 && d <= 3) title = base, near = texts[i], distance = d;
    }
  }
  ASSERT_NE(distance, 0) << "no title of 20 has an edit 1 to 3 bits away";
  const std::string a = ArticleJson("1", "http://kt/1", title, servicetest::RandomText(100, 150));
  const std::string b = ArticleJson("2", "http://kt/2", near, servicetest::RandomText(200, 150));
  const HttpReply first = client.Post("/v1/docid", a);
  const HttpReply second = client.Post("/v1/docid", b);
  EXPECT_EQ(JsonField(second.body, "filterReason"), "title") << second.body;
  EXPECT_EQ(JsonField(second.body, "docId"), JsonField(first.body, "docId"));
  EXPECT_EQ(JsonField(second.body, "distance"), std::to_string(distance)) << second.body;

  Served exact(dir.File("exact"), {"--content-method", "simhash"});
  ASSERT_NE(exact.port, 0) << exact.process.Log();
  HttpClient other(exact.port);
  ASSERT_EQ(other.Post("/v1/docid", a).status, 200);
  EXPECT_EQ(JsonField(other.Post("/v1/docid", b).body, "filterReason"), "new");
  EXPECT_EQ(wide.process.Stop(SIGTERM), 0);
  EXPECT_EQ(exact.process.Stop(SIGTERM), 0);
}

// --title-scheme: the title index's tables, which bound the distance a
// title query may ask for; fixed when the state is created.
TEST(ServeFlags, TitleSchemeSetsTheTitleTablesAndCannotChange) {
  testing::ScopedTempDir dir;
  const std::string query = "{\"fingerprints\":[\"1\"],\"field\":\"title\",\"k\":3}";
  {
    Served plain(dir.File("plain"), {"--content-method", "simhash"});
    ASSERT_NE(plain.port, 0) << plain.process.Log();
    const HttpReply r = HttpClient(plain.port).Post("/v1/query", query);
    EXPECT_EQ(r.status, 400) << r.body;  // 16,16,16,16:0 covers distance 0 only
    EXPECT_NE(JsonField(r.body, "error").find("outside 0..0"), std::string::npos) << r.body;
  }
  const std::string data = dir.File("t10");
  {
    Served t10(data, {"--content-method", "simhash", "--title-scheme", "t10"});
    ASSERT_NE(t10.port, 0) << t10.process.Log();
    EXPECT_EQ(HttpClient(t10.port).Post("/v1/query", query).status, 200);
    EXPECT_EQ(t10.process.Stop(SIGTERM), 0);
  }
  const servicetest::CommandResult changed =
      servicetest::RunSimdex({"serve", "--data", data, "--port", "0", "--title-scheme", "t4"});
  EXPECT_EQ(changed.exit_code, 2) << changed.err;
  EXPECT_NE(changed.err.find("the title scheme t4 is not t10"), std::string::npos) << changed.err;
  // Without the flag the state's scheme holds.
  Served again(data, {});
  ASSERT_NE(again.port, 0) << again.process.Log();
  EXPECT_EQ(HttpClient(again.port).Post("/v1/query", query).status, 200);
}

// --short-length N (with --confirm): contents of fewer than N characters
// are confirmed on their texts; longer ones are matched by distance alone.
TEST(ServeFlags, ShortLengthDecidesWhichContentsAreConfirmed) {
  testing::ScopedTempDir dir;
  Served served(dir.File("state"),
                {"--content-method", "simhash", "--confirm", "jaccard:0.5", "--k-short", "8", "--short-length", "60"});
  ASSERT_NE(served.port, 0) << served.process.Log();
  HttpClient client(served.port);
  auto confirmations = [&] { return Metric(client.Get("/metrics").body, "simdex_confirmations_total"); };
  const std::string short_text = servicetest::RandomText(7, 6);  // ~40 characters
  const std::string long_text = servicetest::RandomText(8, 30);  // ~200 characters
  ASSERT_LT(short_text.size(), 60u);
  ASSERT_GT(long_text.size(), 60u);
  ASSERT_EQ(client.Post("/v1/docid", ArticleJson("", "http://s/1", "", long_text)).status, 200);
  const HttpReply long_copy = client.Post("/v1/docid", ArticleJson("", "http://s/2", "", long_text));
  EXPECT_EQ(JsonField(long_copy.body, "filterReason"), "content") << long_copy.body;
  EXPECT_EQ(confirmations(), 0);
  ASSERT_EQ(client.Post("/v1/docid", ArticleJson("", "http://s/3", "", short_text)).status, 200);
  const HttpReply short_copy = client.Post("/v1/docid", ArticleJson("", "http://s/4", "", short_text));
  EXPECT_EQ(JsonField(short_copy.body, "filterReason"), "content") << short_copy.body;
  EXPECT_EQ(confirmations(), 1);
}

// Posts n articles (titled title_prefix + i when the prefix is not empty),
// as many as the server's --compact-entries, and waits (at most ~10 s) for
// the background's one compaction.
void FillUntilOneCompaction(Served& served, int n, const std::string& title_prefix) {
  HttpClient client(served.port);
  for (int i = 0; i < n; ++i) {
    const std::string title = title_prefix.empty() ? "" : title_prefix + std::to_string(i);
    ASSERT_EQ(client.Post("/v1/docid", ArticleJson(std::to_string(i), "", title, servicetest::RandomText(300 + i, 120)))
                  .status,
              200);
  }
  std::string compactions;
  for (int i = 0; i < 1000 && compactions != "1"; ++i) {
    compactions = JsonField(client.Get("/v1/stats").body, "compactions");
    if (compactions != "1") std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(compactions, "1") << served.process.Log();
}

// --build-threads N: compacted files are built with N threads, and come
// out byte for byte as with one.
TEST(ServeFlags, BuildThreadsWriteTheSameCompactedFiles) {
  testing::ScopedTempDir dir;
  std::vector<std::string> files;
  for (const char* threads : {"1", "4"}) {
    const std::string data = dir.File(std::string("threads-") + threads);
    Served served(data, {"--content-method", "simhash", "--build-threads", threads, "--compact-entries", "40", "--window", "0"});
    ASSERT_NE(served.port, 0) << served.process.Log();
    // 40 docs fill the delta: the background compacts it into one file per field.
    ASSERT_NO_FATAL_FAILURE(FillUntilOneCompaction(served, 40, "title "));
    EXPECT_EQ(served.process.Stop(SIGTERM), 0);
    // One file per field: title-0.sdx, content-1.sdx.
    std::string both;
    for (const char* name : {"/index/title-0.sdx", "/index/content-1.sdx"}) {
      ASSERT_TRUE(std::filesystem::exists(data + name)) << name;
      both += testing::ReadFileOrDie(data + name);
    }
    files.push_back(both);
  }
  EXPECT_TRUE(files[0] == files[1]) << "the files differ with 1 and 4 build threads";
}

// --preload lock: the index files of the state are read and locked before
// the server answers; the log line and /v1/stats say how many bytes (as root,
// or under a large enough RLIMIT_MEMLOCK, the lock succeeds).
TEST(ServeFlags, PreloadLockReadsAndLocksTheStatesIndexFiles) {
  testing::ScopedTempDir dir;
  const std::string data = dir.File("state");
  {
    Served served(data, {"--content-method", "simhash", "--compact-entries", "20", "--window", "0"});
    ASSERT_NE(served.port, 0) << served.process.Log();
    ASSERT_NO_FATAL_FAILURE(FillUntilOneCompaction(served, 20, ""));
    EXPECT_EQ(JsonField(HttpClient(served.port).Get("/v1/stats").body, "preloaded_bytes"), "0");
    EXPECT_EQ(served.process.Stop(SIGTERM), 0);
  }
  Served served(data, {"--preload", "lock", "--window", "0"});
  ASSERT_NE(served.port, 0) << served.process.Log();
  const std::string stats = HttpClient(served.port).Get("/v1/stats").body;
  const std::string bytes = JsonField(stats, "file_bytes");
  ASSERT_NE(bytes, "0") << stats;
  EXPECT_EQ(JsonField(stats, "preloaded_bytes"), bytes) << stats;
  EXPECT_EQ(JsonField(stats, "locked_bytes"), bytes) << stats;
  EXPECT_EQ(served.process.Stop(SIGTERM), 0);
  EXPECT_NE(served.process.Log().find("preloaded " + bytes + " bytes of index files, locked " + bytes),
            std::string::npos)
      << served.process.Log();
}

// --content-method auto (the default): a new state matches contents by
// MinHash unless a SimHash content flag (--k, --content-scheme, --confirm,
// --k-short) is given; a state reopened without the flag keeps its method;
// a SimHash and a MinHash flag together are refused naming both.
TEST(ServeFlags, ContentMethodIsMinHashForANewStateUnlessASimHashFlagAndAnOldStateKeepsItsOwn) {
  testing::ScopedTempDir dir;
  auto method = [](const std::string& data, std::vector<std::string> flags) {
    const std::string stats = StatsOf(data, std::move(flags));
    const size_t at = stats.find("\"content_method\":\"");
    return at == std::string::npos ? stats : stats.substr(at + 18, 7);
  };
  EXPECT_EQ(method(dir.File("new"), {}), "minhash");
  EXPECT_EQ(method(dir.File("new"), {}), "minhash");  // reopened: the state's
  EXPECT_EQ(method(dir.File("k"), {"--k", "3"}), "simhash");
  EXPECT_EQ(method(dir.File("k"), {}), "simhash");  // reopened: the state's
  // --confirm and --k-short set the short-content stage of either method.
  EXPECT_EQ(method(dir.File("confirm"), {"--confirm", "jaccard:0.5"}), "minhash");
  const servicetest::CommandResult both =
      servicetest::RunSimdex({"serve", "--data", dir.File("both"), "--port", "0", "--k", "3", "--threshold", "0.7"});
  EXPECT_EQ(both.exit_code, 2) << both.err;
  EXPECT_NE(both.err.find("--k is a SimHash content option and --threshold a MinHash one"), std::string::npos)
      << both.err;
  const servicetest::CommandResult other =
      servicetest::RunSimdex({"serve", "--data", dir.File("k"), "--port", "0", "--content-method", "minhash"});
  EXPECT_EQ(other.exit_code, 2) << other.err;
  EXPECT_NE(other.err.find("by simhash, not by minhash"), std::string::npos) << other.err;
}

// --shingles: a new state's word definition, the state's when not given,
// refused when another (/v1/stats names it in the MinHash profile).
TEST(ServeFlags, ShinglesSetANewStatesWordDefinitionWhichItKeeps) {
  testing::ScopedTempDir dir;
  auto profile = [](const std::string& data, std::vector<std::string> flags) {
    return JsonField(StatsOf(data, std::move(flags)), "minhash_profile");
  };
  const std::string old = "simdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold perm:128 seed:1";
  EXPECT_EQ(profile(dir.File("s"), {"--shingles", "space-split"}), old);
  EXPECT_EQ(profile(dir.File("s"), {}), old);  // reopened: the state's
  const servicetest::CommandResult other =
      servicetest::RunSimdex({"serve", "--data", dir.File("s"), "--port", "0", "--shingles", "word-chars"});
  EXPECT_EQ(other.exit_code, 2) << other.err;
  EXPECT_NE(other.err.find("nfkc-casefold word-chars perm:128"), std::string::npos) << other.err;
  EXPECT_EQ(profile(dir.File("w"), {"--shingles", "word-chars"}),
            "simdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold word-chars perm:128 seed:1");
}

// --idle-timeout S: a connection without a request is closed after S s.
TEST(ServeFlags, IdleTimeoutClosesIdleConnections) {
  testing::ScopedTempDir dir;
  Served served(dir.File("state"), {"--idle-timeout", "1"});
  ASSERT_NE(served.port, 0) << served.process.Log();
  HttpClient client(served.port);
  ASSERT_EQ(client.Get("/healthz").status, 200);
  EXPECT_TRUE(client.ClosedByServer());
  EXPECT_EQ(HttpClient(served.port).Get("/healthz").status, 200);
}

// --sync: every answer's decision is fsync'ed before it is sent (one fsync
// may cover several); killed with -9 and restarted, every acknowledged
// answer is there.
TEST(ServeFlags, SyncAnswersSurviveKillDashNine) {
  testing::ScopedTempDir dir;
  const std::string data = dir.File("state");
  std::map<std::string, std::string> acknowledged;  // id -> docId
  std::mutex mu;
  {
    Served served(data, {"--content-method", "simhash", "--sync", "--threads", "2"});
    ASSERT_NE(served.port, 0) << served.process.Log();
    std::vector<std::thread> clients;
    for (int c = 0; c < 4; ++c) {
      clients.emplace_back([&, c] {
        HttpClient client(served.port);
        for (int i = 0; i < 50; ++i) {
          const std::string id = "\"s" + std::to_string(c) + "-" + std::to_string(i) + "\"";
          const HttpReply r = client.Post(
              "/v1/docid", ArticleJson(id, "http://sync/" + id.substr(1, id.size() - 2), "",
                                       servicetest::RandomText(static_cast<uint64_t>(c * 1000 + i), 100)));
          if (r.status != 200) break;
          std::lock_guard<std::mutex> lock(mu);
          acknowledged[id] = JsonField(r.body, "docId");
        }
      });
    }
    for (auto& t : clients) t.join();
    const double syncs = Metric(HttpClient(served.port).Get("/metrics").body, "simdex_wal_syncs_total");
    EXPECT_GE(syncs, 1);
    EXPECT_LE(syncs, 200);
    EXPECT_EQ(served.process.Stop(SIGKILL), 128 + SIGKILL);
  }
  ASSERT_EQ(acknowledged.size(), 200u);
  Served restarted(data, {});
  ASSERT_NE(restarted.port, 0) << restarted.process.Log();
  HttpClient client(restarted.port);
  for (const auto& [id, doc_id] : acknowledged) {
    const HttpReply r = client.Get("/v1/article?id=" + servicetest::UrlEncode(id));
    ASSERT_EQ(r.status, 200) << id << ": " << r.body;
    EXPECT_EQ(JsonField(r.body, "docId"), doc_id) << id;
  }
}

}  // namespace
}  // namespace simdex
