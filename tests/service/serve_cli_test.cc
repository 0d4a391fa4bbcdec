// `simdex serve` as a process: crash recovery (kill -9 under load, restart,
// every acknowledged answer present and stable), a clean stop on SIGTERM,
// and the command's usage errors.
#include <signal.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "tests/index/test_data.h"
#include "tests/service/http_client.h"
#include "tests/service/server_process.h"
#include "tests/service/service_test_util.h"

namespace simdex {
namespace {

using servicetest::HttpClient;
using servicetest::HttpReply;
using servicetest::JsonField;

using servicetest::RunSimdex;
using servicetest::ServerProcess;

std::string Article(const std::string& id, const std::string& url, const std::string& content) {
  return "{\"id\":" + id + ",\"url\":\"" + url + "\",\"title\":\"\",\"content\":\"" + content + "\"}";
}

// Four clients post until `answers` answers (at most a minute), the server
// (started with `args`) is killed with -9 under load and restarted: every
// acknowledged answer is there, and a repeated content gets its docId.
void ExpectAnswersSurviveKillDashNineUnderLoad(const std::vector<std::string>& args, int answers) {
  testing::ScopedTempDir dir;
  const std::string data = dir.File("state");
  std::map<std::string, std::string> acknowledged;  // id -> docId
  std::map<std::string, std::string> contents;       // id -> content
  std::mutex mu;
  {
    std::vector<std::string> first = args;
    first.insert(first.end(), {"--compact-entries", "300", "--threads", "2"});
    ServerProcess server(data, first);
    const uint16_t port = server.WaitForPort();
    ASSERT_NE(port, 0);
    std::atomic<bool> stop{false};
    std::atomic<int> answered{0};
    std::vector<std::thread> clients;
    for (int c = 0; c < 4; ++c) {
      clients.emplace_back([&, c] {
        HttpClient client(port);
        for (int i = 0; !stop; ++i) {
          const std::string id = "\"c" + std::to_string(c) + "-" + std::to_string(i) + "\"";
          // Every third article repeats an earlier text of this client.
          const int text = i % 3 == 2 ? i - 1 : i;
          const std::string content = servicetest::RandomText(static_cast<uint64_t>(c * 100000 + text), 120);
          const HttpReply r = client.Post("/v1/docid", Article(id, "http://k/" + id.substr(1, id.size() - 2), content));
          if (r.status != 200) break;  // the server is gone
          std::lock_guard<std::mutex> lock(mu);
          acknowledged[id] = JsonField(r.body, "docId");
          contents[id] = content;
          ++answered;
        }
      });
    }
    // Until 1,500 answers, at most a minute (each client stops at its
    // first failed request).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (answered < answers && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    EXPECT_EQ(server.Stop(SIGKILL), 128 + SIGKILL);  // under load: requests in flight
    stop = true;
    for (auto& t : clients) t.join();
  }
  ASSERT_GE(acknowledged.size(), static_cast<size_t>(answers)) << "the clients did not get the answers within a minute";

  ServerProcess server(data, args);
  const uint16_t port = server.WaitForPort();
  ASSERT_NE(port, 0);
  HttpClient client(port);
  int checked = 0;
  for (const auto& [id, doc_id] : acknowledged) {
    const HttpReply looked = client.Get("/v1/article?id=" + id);
    ASSERT_EQ(looked.status, 200) << id << ": " << looked.body;
    ASSERT_EQ(JsonField(looked.body, "docId"), doc_id) << id;
    if (++checked % 50 == 0) {
      // The same content again under a new id and url: the same docId, from
      // the index rebuilt at startup.
      const HttpReply again =
          client.Post("/v1/docid", Article("\"again-" + std::to_string(checked) + "\"",
                                           "http://again/" + std::to_string(checked), contents[id]));
      ASSERT_EQ(JsonField(again.body, "docId"), doc_id) << id << ": " << again.body;
      EXPECT_EQ(JsonField(again.body, "filterStatus"), "duplicate");
    }
  }
  EXPECT_EQ(server.Stop(SIGTERM), 0);  // a clean stop
}

TEST(ServeCli, AcknowledgedAnswersSurviveKillDashNineUnderLoad) { ExpectAnswersSurviveKillDashNineUnderLoad({"--content-method", "simhash"}, 1500); }

TEST(ServeCli, MinHashAnswersSurviveKillDashNineUnderLoad) {
  ExpectAnswersSurviveKillDashNineUnderLoad({"--content-method", "minhash"}, 600);
}

// Each command runs with --port 0 under a time limit: a usage check that
// stops working starts a server, which is then killed and reported,
// instead of blocking the test.
TEST(ServeCli, UsageErrorsExitTwoAndABusyPortExitsOne) {
  testing::ScopedTempDir dir;
  int runs = 0;
  auto serve = [&](std::vector<std::string> args) {
    std::string data = dir.File("a");
    data += std::to_string(runs++);
    std::vector<std::string> all = {"serve", "--data", data, "--port", "0"};
    all.insert(all.end(), args.begin(), args.end());
    return RunSimdex(all, std::chrono::seconds(20));
  };
  struct Case {
    std::vector<std::string> args;
    std::string error;
  };
  const std::string short_token = dir.File("short-token");
  std::ofstream(short_token) << "abcde\n";
  const std::vector<Case> cases = {
      {{"--window", "3x"}, "--window '3x' is not a duration"},
      {{"--keep", "longest"}, "--keep 'longest' is not first or max:FIELD"},
      {{"--k", "5", "--content-scheme", "t10"}, "content distance 5"},
      {{"--listen", "nowhere"}, "'nowhere' is not an IP address"},
      {{"--content-method", "simhash", "--k-short", "8"}, "--k-short needs --confirm with --content-method simhash"},
      {{"--confirm", "off", "--k-short", "8"}, "--k-short needs a --confirm other than off"},
      {{"--max-body", "0"}, "--max-body 0 is under the least, 1K"},
      {{"--max-buffered", "1M"}, "--max-buffered 1M is under --max-body + 128K (1179648 bytes)"},
      {{"--allowed-origins", "null"}, "allowed origin 'null' is not an origin"},
      {{"--allowed-hosts", "a/b"}, "allowed host 'a/b' is not a host name"},
      {{"--token-file", dir.File("missing-token")}, "--token-file " + dir.File("missing-token") + ": cannot be read"},
      {{"--token-file", short_token}, "the token is 5 characters; use at least 16"},
      {{"--window", "2d", "--retain", "1d"}, "--retain 1d must be at least --window 2d"},
      {{"--idle-timeout", "0"}, "--idle-timeout"},
      {{"--build-threads", "65"}, "--build-threads"},
      {{"--title-scheme", "bogus"}, "title scheme"},
      {{"--content-method", "simhash", "--threshold", "0.7"}, "--threshold needs --content-method minhash"},
      {{"--k", "3", "--threshold", "0.7"}, "--k is a SimHash content option and --threshold a MinHash one"},
      {{"--content-method", "minhash", "-k", "2"}, "--k is a SimHash content option"},
      {{"--content-method", "minhash", "--bands", "4"}, "--bands and --rows go together"},
      {{"--content-method", "minhash", "--bands", "32", "--rows", "8"}, "32 bands x 8 rows"},
      {{"--content-method", "minhash", "--threshold", "1.5"}, "the threshold 1.5 is not in (0, 1]"},
  };
  for (const Case& c : cases) {
    const servicetest::CommandResult r = serve(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args[0] << ": " << r.err;
    EXPECT_NE(r.err.find(c.error), std::string::npos) << c.args[0] << ": " << r.err;
  }

  ServerProcess first(dir.File("b"));
  const uint16_t port = first.WaitForPort();
  ASSERT_NE(port, 0);
  servicetest::CommandResult r = RunSimdex({"serve", "--data", dir.File("c"), "--port", std::to_string(port)});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("cannot listen on 127.0.0.1:" + std::to_string(port)), std::string::npos) << r.err;
  // A second server on the same state: refused by the database's lock.
  r = RunSimdex({"serve", "--data", dir.File("b"), "--port", "0"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // It said "... While lock file: .../LOCK: Resource temporarily unavailable".
  EXPECT_NE(r.err.find("another simdex process holds the state directory " + dir.File("b") + " (its database lock " +
                       dir.File("b") + "/db/LOCK is taken): one service at a time per state directory"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(first.Stop(SIGINT), 0);
}

TEST(ImportCli, ImportedFingerprintsAnswerByTheirIds) {
  testing::ScopedTempDir dir;
  const std::string text = servicetest::RandomText(4242, 150);
  // The fingerprint the service computes for `text`, from the CLI.
  {
    std::ofstream(dir.File("doc.jsonl")) << "{\"id\":1,\"text\":\"" << text << "\"}\n";
  }
  ASSERT_EQ(RunSimdex({"fingerprint", "--quiet", "-o", dir.File("doc.fp"), dir.File("doc.jsonl")}).exit_code, 0);
  const std::string written = testing::ReadFileOrDie(dir.File("doc.fp"));
  const std::string line = written.substr(written.find('\n') + 1);  // after the profile line
  const std::string fp = line.substr(line.find('\t') + 1, 16);
  {
    std::ofstream out(dir.File("corpus.fp"));
    out << "https://stored.example/a\t" << fp << "\n7\t0123456789abcdef\n8\t-\tno-text\n";
  }
  const std::string data = dir.File("state");
  ASSERT_EQ(RunSimdex({"import", "--quiet", "--data", data, dir.File("corpus.fp")}).exit_code, 0);
  ServerProcess server(data);
  const uint16_t port = server.WaitForPort();
  ASSERT_NE(port, 0);
  HttpClient client(port);
  const HttpReply r = client.Post("/v1/docid", Article("1", "http://new/1", text));
  EXPECT_EQ(JsonField(r.body, "filterReason"), "content") << r.body;
  EXPECT_NE(r.body.find("\"matched\":{\"id\":\"https://stored.example/a\",\"distance\":0}"), std::string::npos)
      << r.body;
  const HttpReply stats = client.Get("/v1/stats");
  EXPECT_EQ(JsonField(stats.body, "file_entries"), "2") << stats.body;
  EXPECT_NE(RunSimdex({"import", "--quiet", "--data", data, dir.File("missing.fp")}).exit_code, 0);
}

// The state records the service's fingerprint profile: fingerprints of
// another are refused with one line naming both, and nothing is imported.
TEST(ImportCli, FingerprintsOfAnotherProfileAreRefusedNamingBoth) {
  testing::ScopedTempDir dir;
  {
    std::ofstream(dir.File("doc.jsonl")) << "{\"id\":1,\"text\":\"some words to fingerprint here\"}\n";
  }
  ASSERT_EQ(RunSimdex({"fingerprint", "--quiet", "--seed", "7", "-o", dir.File("doc7.fp"), dir.File("doc.jsonl")})
                .exit_code,
            0);
  const std::string data = dir.File("state");
  const auto r = RunSimdex({"import", "--quiet", "--data", data, dir.File("doc7.fp")});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("fingerprint profiles differ"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("seed:7"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("seed:0"), std::string::npos) << r.err;
  ASSERT_EQ(RunSimdex({"fingerprint", "--quiet", "-o", dir.File("doc.fp"), dir.File("doc.jsonl")}).exit_code, 0);
  EXPECT_EQ(RunSimdex({"import", "--quiet", "--data", data, dir.File("doc.fp")}).exit_code, 0);
}

// Open to the network without a token: a warning at start. With one:
// none, and requests without it are refused.
TEST(ServeCli, ListeningBeyondLoopbackWithoutATokenWarns) {
  testing::ScopedTempDir dir;
  {
    ServerProcess open(dir.File("open"), {"--listen", "0.0.0.0"});
    ASSERT_NE(open.WaitForPort(), 0) << open.Log();
    EXPECT_NE(open.Log().find("warning: listening on 0.0.0.0 without --token-file: anyone who can reach port"),
              std::string::npos)
        << open.Log();
    EXPECT_EQ(open.Stop(SIGTERM), 0);
  }
  const std::string token_file = dir.File("token");
  std::ofstream(token_file) << "  0123456789abcdef-token \n";
  ::chmod(token_file.c_str(), 0600);
  ServerProcess guarded(dir.File("guarded"), {"--listen", "0.0.0.0", "--token-file", token_file});
  const uint16_t port = guarded.WaitForPort();
  ASSERT_NE(port, 0) << guarded.Log();
  EXPECT_EQ(guarded.Log().find("warning"), std::string::npos) << guarded.Log();
  EXPECT_EQ(HttpClient(port).Get("/v1/stats").status, 401);
  EXPECT_EQ(HttpClient(port).Get("/healthz").status, 200);
  EXPECT_EQ(HttpClient(port).Request("GET", "/v1/stats", "", "Authorization: Bearer 0123456789abcdef-token\r\n").status,
            200);
  EXPECT_EQ(guarded.Stop(SIGTERM), 0);
}

}  // namespace
}  // namespace simdex
