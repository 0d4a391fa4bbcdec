// `simdex serve` at the operating system's limits: out of file descriptors,
// and stopped by SIGTERM with requests in progress.
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "tests/index/test_data.h"
#include "tests/service/http_client.h"
#include "tests/service/server_process.h"
#include "tests/service/served_service.h"

namespace simdex {
namespace {

using servicetest::HttpClient;
using servicetest::HttpReply;
using servicetest::JsonField;
using servicetest::ConnectTo;
using servicetest::ServerProcess;

// The value of a metric without labels in /metrics text; -1 when absent.
double Metric(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with(name + " ")) return std::stod(line.substr(name.size() + 1));
  }
  return -1;
}

size_t CountLines(const std::string& text, const std::string& needle) {
  size_t n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) n += line.find(needle) != std::string::npos;
  return n;
}

// Issue 18: with `ulimit -n 128` and 200 idle connections, accept() failed
// with EMFILE at once, again and again: 1.9 s of CPU in 2 s and 517,755 log
// lines in 3 s. Now the server pauses between attempts (10 ms doubling to
// 1 s), logs at most one line per 10 s, counts the errors, serves the open
// connections, and accepts again once descriptors are free.
TEST(ServeLimits, OutOfDescriptorsTheServerPausesAcceptingAndServesOpenConnections) {
#if SIMDEX_SANITIZED_BUILD
  // UBSan's vptr check probes memory through a pipe (IsAccessibleMemoryRange);
  // a process out of descriptors cannot open one, so every virtual call is
  // reported as "invalid vptr" and the server stops. Seen in the sanitizer
  // suite (shared_ptr_base.h, "memory cannot be printed"); the Release suite
  // runs this test.
  GTEST_SKIP() << "a server out of file descriptors cannot run under UBSan's vptr check (it needs a pipe)";
#endif
  testing::ScopedTempDir dir;
  ServerProcess server(dir.File("state"), {"--content-method", "simhash", "--threads", "1"}, /*nofile_limit=*/64);
  const uint16_t port = server.WaitForPort();
  ASSERT_NE(port, 0) << server.Log();
  HttpClient open(port);
  ASSERT_EQ(open.Get("/healthz").status, 200);

  // 200 connections that send nothing: the server accepts until it runs
  // out of descriptors (64); the others wait in the listen queue, or, where
  // the queue is short, are not made at all.
  const auto start = std::chrono::steady_clock::now();
  std::vector<int> idle;
  for (int i = 0; i < 200; ++i) {
    const int fd = ConnectTo(port);
    if (fd < 0) {
      ASSERT_GT(i, 64) << "connection " << i << " not made, before the server's descriptors ran out";
      break;
    }
    idle.push_back(fd);
  }
  double errors = 0;
  for (int i = 0; i < 500 && errors <= 0; ++i) {  // at most 10 s
    const HttpReply m = open.Get("/metrics");
    ASSERT_EQ(m.status, 200) << m.error << "\n" << server.Log().substr(0, 4000);
    errors = Metric(m.body, "simdex_http_accept_errors_total");
    if (errors <= 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_GT(errors, 0) << "the server never ran out of descriptors";
  // Out of descriptors for a while (a spinning accept loop would log
  // hundreds of thousands of lines meanwhile): the open connection is served.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  HttpReply m = open.Get("/metrics");
  ASSERT_EQ(m.status, 200) << m.error << "\n" << server.Log().substr(0, 4000);
  const double later = Metric(m.body, "simdex_http_accept_errors_total");
  EXPECT_GT(later, errors);  // still trying, and counting
  EXPECT_LE(later, 40);      // but paused between attempts (about 8 in 2.5 s)

  for (int fd : idle) close(fd);
  // Descriptors free again: a new connection is accepted and answered
  // (after the current pause, at most 1 s, and the queued connections).
  HttpClient fresh(port);
  const HttpReply r = fresh.Get("/healthz");
  EXPECT_EQ(r.status, 200) << r.error;
  EXPECT_EQ(server.Stop(SIGTERM), 0);
  // One line per 10 s at most. Accepting the queued connections (closed by
  // now) may run out of descriptors once more, so "again" may come more than once.
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start);
  const size_t most = 1 + static_cast<size_t>(seconds.count() / 10);
  const std::string log = server.Log();
  EXPECT_GE(CountLines(log, "accept:"), 1u) << log.substr(0, 2000);
  EXPECT_LE(CountLines(log, "accept:"), most) << log.substr(0, 2000);
  EXPECT_NE(log.find("Too many open files"), std::string::npos) << log.substr(0, 2000);
  EXPECT_GE(CountLines(log, "accepting connections again after"), 1u) << log.substr(0, 2000);
  EXPECT_LE(CountLines(log, "accepting connections again after"), 5u) << log.substr(0, 2000);
}

std::string Article(const std::string& id, const std::string& content) {
  return servicetest::ArticleJson(id, "http://sigterm/" + id, "", content);
}

// On SIGTERM the server stops accepting (new connections are refused),
// closes idle connections, answers the request in progress (here one
// whose body is still arriving), and exits 0; the answer is durable.
TEST(ServeLimits, SigtermAnswersRequestsInProgressAndRefusesNewConnections) {
  testing::ScopedTempDir dir;
  const std::string data = dir.File("state");
  auto server = std::make_unique<ServerProcess>(data, std::vector<std::string>{"--content-method", "simhash"});
  const uint16_t port = server->WaitForPort();
  ASSERT_NE(port, 0) << server->Log();
  HttpClient idle(port);
  ASSERT_EQ(idle.Get("/healthz").status, 200);

  const std::string body = Article("\"in-flight\"", "the article that was on its way when the server was told to stop");
  const std::string head =
      "POST /v1/docid HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  HttpClient in_flight(port);
  ASSERT_TRUE(in_flight.Send(head + body.substr(0, 20)));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the first bytes reach the server
  ASSERT_EQ(::kill(server->pid(), SIGTERM), 0);

  bool refused = false;
  for (int i = 0; i < 500 && !refused; ++i) {  // at most ~5 s
    const int fd = ConnectTo(port);
    refused = fd < 0;
    if (fd >= 0) close(fd);
    if (!refused) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(refused) << "new connections are still accepted after SIGTERM";
  EXPECT_TRUE(idle.ClosedByServer());

  ASSERT_TRUE(in_flight.Send(body.substr(20)));
  const std::vector<HttpReply> replies = in_flight.Read(1);
  ASSERT_EQ(replies.size(), 1u) << "the request in progress got no answer";
  EXPECT_EQ(replies[0].status, 200) << replies[0].body;
  EXPECT_FALSE(replies[0].keep_alive);
  const std::string doc_id = JsonField(replies[0].body, "docId");
  EXPECT_EQ(doc_id.size(), 16u) << replies[0].body;
  EXPECT_EQ(server->Stop(SIGTERM), 0) << server->Log();

  server = std::make_unique<ServerProcess>(data);
  const uint16_t again = server->WaitForPort();
  ASSERT_NE(again, 0) << server->Log();
  const HttpReply looked = HttpClient(again).Get("/v1/article?id=%22in-flight%22");
  EXPECT_EQ(looked.status, 200) << looked.body;
  EXPECT_EQ(JsonField(looked.body, "docId"), doc_id);
  EXPECT_EQ(server->Stop(SIGTERM), 0);
}

}  // namespace
}  // namespace simdex
