// `simdex serve` as a process: crash recovery (kill -9 under load, restart,
// every acknowledged answer present and stable), a clean stop on SIGTERM,
// and the command's usage errors.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

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
#include "tests/service/service_test_util.h"

namespace simdex {
namespace {

using servicetest::HttpClient;
using servicetest::HttpReply;
using servicetest::JsonField;

const std::string kSimdex = std::string(SIMDEX_BINARY_DIR) + "/bin/simdex";

// A `simdex serve` child process on an ephemeral port.
class ServerProcess {
 public:
  ServerProcess(const std::string& data_dir, std::vector<std::string> extra = {}) {
    port_file_ = data_dir + ".port";
    std::remove(port_file_.c_str());
    std::vector<std::string> args = {kSimdex, "serve", "--data", data_dir, "--port", "0", "--port-file", port_file_,
                                     "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    pid_ = fork();
    if (pid_ == 0) {
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
  }
  ~ServerProcess() {
    if (pid_ > 0) Kill(SIGKILL);
  }

  // The bound port, once the server listens (0 after 30 s without).
  uint16_t WaitForPort() {
    for (int i = 0; i < 3000; ++i) {
      std::ifstream in(port_file_);
      int port = 0;
      if (in >> port && port > 0) return static_cast<uint16_t>(port);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return 0;
  }

  // Sends `signal` and waits; returns the exit status (128 + signal when
  // killed by one).
  int Kill(int signal) {
    ::kill(pid_, signal);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  pid_t pid_ = -1;
  std::string port_file_;
};

std::string Article(const std::string& id, const std::string& url, const std::string& content) {
  return "{\"id\":" + id + ",\"url\":\"" + url + "\",\"title\":\"\",\"content\":\"" + content + "\"}";
}

TEST(ServeCli, AcknowledgedAnswersSurviveKillDashNineUnderLoad) {
  testing::ScopedTempDir dir;
  const std::string data = dir.File("state");
  std::map<std::string, std::string> acknowledged;  // id -> docId
  std::map<std::string, std::string> contents;       // id -> content
  std::mutex mu;
  {
    ServerProcess server(data, {"--compact-entries", "300", "--threads", "2"});
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
    while (answered < 1500) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(server.Kill(SIGKILL), 128 + SIGKILL);  // under load: requests in flight
    stop = true;
    for (auto& t : clients) t.join();
  }
  ASSERT_GE(acknowledged.size(), 1500u);

  ServerProcess server(data);
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
  EXPECT_EQ(server.Kill(SIGTERM), 0);  // a clean stop
}

TEST(ServeCli, UsageErrorsExitTwoAndABusyPortExitsOne) {
  testing::ScopedTempDir dir;
  auto exit_code = [&](const std::string& command) {
    const int status = std::system((command + " >/dev/null 2>" + dir.File("err")).c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  EXPECT_EQ(exit_code(kSimdex + " serve --data " + dir.File("a") + " --window 3x"), 2);
  EXPECT_NE(testing::ReadFileOrDie(dir.File("err")).find("--window '3x' is not a duration"), std::string::npos);
  EXPECT_EQ(exit_code(kSimdex + " serve --data " + dir.File("a") + " --keep longest"), 2);
  EXPECT_EQ(exit_code(kSimdex + " serve --data " + dir.File("a") + " --k 5 --content-scheme t10"), 2);
  EXPECT_NE(testing::ReadFileOrDie(dir.File("err")).find("content distance 5"), std::string::npos);
  EXPECT_EQ(exit_code(kSimdex + " serve --data " + dir.File("a") + " --listen nowhere"), 2);
  EXPECT_EQ(exit_code(kSimdex + " serve --data " + dir.File("a") + " --k-short 8"), 2);
  EXPECT_NE(testing::ReadFileOrDie(dir.File("err")).find("--k-short needs --confirm"), std::string::npos);
  EXPECT_EQ(exit_code(kSimdex + " serve --data " + dir.File("a") + " --window 2d --retain 1d"), 2);
  EXPECT_NE(testing::ReadFileOrDie(dir.File("err")).find("--retain 1d must be at least --window 2d"),
            std::string::npos);

  ServerProcess first(dir.File("b"));
  const uint16_t port = first.WaitForPort();
  ASSERT_NE(port, 0);
  EXPECT_EQ(exit_code(kSimdex + " serve --data " + dir.File("c") + " --port " + std::to_string(port)), 1);
  EXPECT_NE(testing::ReadFileOrDie(dir.File("err")).find("cannot listen on 127.0.0.1:" + std::to_string(port)),
            std::string::npos);
  // A second server on the same state: refused by the database's lock.
  EXPECT_EQ(exit_code(kSimdex + " serve --data " + dir.File("b") + " --port 0"), 1);
  EXPECT_NE(testing::ReadFileOrDie(dir.File("err")).find("cannot open the database"), std::string::npos);
  EXPECT_EQ(first.Kill(SIGINT), 0);
}

TEST(ImportCli, ImportedFingerprintsAnswerByTheirIds) {
  testing::ScopedTempDir dir;
  const std::string text = servicetest::RandomText(4242, 150);
  // The fingerprint the service computes for `text`, from the CLI.
  {
    std::ofstream(dir.File("doc.jsonl")) << "{\"id\":1,\"text\":\"" << text << "\"}\n";
  }
  ASSERT_EQ(std::system((kSimdex + " fingerprint --quiet -o " + dir.File("doc.fp") + " " + dir.File("doc.jsonl")).c_str()),
            0);
  const std::string line = testing::ReadFileOrDie(dir.File("doc.fp"));
  const std::string fp = line.substr(line.find('\t') + 1, 16);
  {
    std::ofstream out(dir.File("corpus.fp"));
    out << "https://stored.example/a\t" << fp << "\n7\t0123456789abcdef\n8\t-\tno-text\n";
  }
  const std::string data = dir.File("state");
  ASSERT_EQ(std::system((kSimdex + " import --quiet --data " + data + " " + dir.File("corpus.fp")).c_str()), 0);
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
  EXPECT_NE(std::system((kSimdex + " import --quiet --data " + data + " " + dir.File("missing.fp") + " 2>/dev/null")
                            .c_str()),
            0);
}

}  // namespace
}  // namespace simdex
