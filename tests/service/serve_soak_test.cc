// `simdex serve` held by clients that do not finish: many connections
// holding partial bodies, clients that never read their answers, and a
// stop while a request trickles in. The server's memory stays within its
// documented bound (docs/service.md "Limits"), /healthz answers throughout,
// and a stop takes the grace, not the idle timeout.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/index/test_data.h"
#include "tests/service/http_client.h"
#include "tests/service/server_process.h"

namespace simdex {
namespace {

using servicetest::HttpClient;
using servicetest::ServerProcess;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;  // its quarantine and shadow hold freed memory: no RSS bound
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// The resident memory of a process, in bytes (0 if unknown).
size_t ResidentBytes(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("VmRSS:")) return std::stoull(line.substr(6)) * 1024;
  }
  return 0;
}

TEST(ServeSoak, HeldConnectionsAndUnreadAnswersStayWithinTheBudget) {
  constexpr size_t kBudget = size_t{48} << 20;
  constexpr int kConnections = 1200;
  constexpr int kHolders = 1000;  // partial bodies
  constexpr int kStalled = 30;    // batches whose answers are never read
  testing::ScopedTempDir dir;
  ServerProcess server(dir.File("state"), {"--content-method", "simhash", "--max-buffered", "48M",
                                           "--max-connections", std::to_string(kConnections), "--idle-timeout", "60"});
  const uint16_t port = server.WaitForPort();
  ASSERT_NE(port, 0) << server.Log();
  for (int i = 0; i < 20; ++i) ASSERT_EQ(HttpClient(port).Get("/v1/stats").status, 200);
  const size_t baseline = ResidentBytes(server.pid());
  ASSERT_GT(baseline, 0u);
  size_t peak = baseline;
  auto healthy = [&](const std::string& when) {
    const servicetest::HttpReply r = HttpClient(port).Get("/healthz");
    EXPECT_EQ(r.status, 200) << when << ": " << r.error << r.body;
    peak = std::max(peak, ResidentBytes(server.pid()));
  };

  std::vector<int> fds;
  std::string batch;
  while (batch.size() < (size_t{1} << 20) - 2) batch += "x\n";
  const std::string batch_request = "POST /v1/docid:batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                    "application/x-ndjson\r\nContent-Length: " +
                                    std::to_string(batch.size()) + "\r\n\r\n" + batch;
  for (int i = 0; i < kStalled; ++i) {
    const int fd = servicetest::ConnectTo(port);
    ASSERT_GE(fd, 0);
    fds.push_back(fd);
    servicetest::SendSome(fd, batch_request, 2000);
  }
  healthy("after the stalled batches");
  const std::string partial = "POST /v1/docid HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                              "Content-Length: 65536\r\n\r\n{\"url\":\"" + std::string(60000, 'a');
  for (int i = 0; i < kHolders; ++i) {
    const int fd = servicetest::ConnectTo(port);
    if (fd < 0) break;
    fds.push_back(fd);
    servicetest::SendSome(fd, partial, 200);
    if (i % 100 == 99) healthy("after " + std::to_string(i + 1) + " partial bodies");
  }
  healthy("with every connection held");
  const size_t held = ResidentBytes(server.pid());
  peak = std::max(peak, held);
  // The documented bound: the budget, plus per connection its first read
  // buffer, a header and a response, plus what a connection is (20 KiB
  // each in all, measured at about 6), plus 16 MiB of slack for the heap.
  const size_t bound = baseline + kBudget + size_t{kConnections} * (20 << 10) + (size_t{16} << 20);
  std::cerr << "baseline " << baseline / 1048576.0 << " MiB, peak " << peak / 1048576.0 << " MiB, bound "
            << bound / 1048576.0 << " MiB\n";
  if (!kAddressSanitizer) EXPECT_LE(peak, bound);
  for (int fd : fds) close(fd);
  healthy("after the connections closed");
  EXPECT_EQ(server.Stop(SIGTERM), 0) << server.Log();
}

// A stop waits --stop-grace for a request that trickles in, not the idle
// timeout (which was a day here).
TEST(ServeSoak, AStopWaitsTheGraceNotTheIdleTimeout) {
  testing::ScopedTempDir dir;
  ServerProcess server(dir.File("state"), {"--idle-timeout", "86400", "--stop-grace", "1"});
  const uint16_t port = server.WaitForPort();
  ASSERT_NE(port, 0) << server.Log();
  HttpClient slow(port);
  ASSERT_TRUE(slow.Send("POST /v1/docid HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        "Content-Length: 100\r\n\r\n{\"url\""));
  ASSERT_EQ(HttpClient(port).Get("/healthz").status, 200);  // the slow request has reached the server
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(server.Stop(SIGTERM, std::chrono::seconds(20)), 0) << server.Log();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(seconds, 0.9);
  EXPECT_LT(seconds, 5) << "the stop took " << seconds << " s";
}

}  // namespace
}  // namespace simdex
