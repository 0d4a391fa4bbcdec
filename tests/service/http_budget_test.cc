// The server's bounds on what clients make it hold: connections
// (max_connections), buffered bytes (max_buffered_bytes: read buffers,
// requests, answers being written), and a batch's answers written in
// pieces as its lines are decided, so that a client that does not read
// holds no more than a piece.
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/http_server.h"
#include "tests/service/http_client.h"
#include "tests/service/served_service.h"

namespace simdex {
namespace {

using servicetest::HttpClient;
using servicetest::HttpReply;
using servicetest::JsonField;

// The value of a metric without labels in /metrics (-1 if absent).
double MetricValue(uint16_t port, const std::string& name) {
  const HttpReply r = HttpClient(port).Get("/metrics");
  const size_t at = r.body.find("\n" + name + " ");
  if (at == std::string::npos) return -1;
  return std::stod(r.body.substr(at + name.size() + 2));
}

// Retries `request` for up to 5 s until it is answered 200 (a closed
// connection takes a moment to be seen by the server).
bool ServedWithin5s(uint16_t port) {
  for (int i = 0; i < 100; ++i) {
    if (HttpClient(port).Get("/healthz").status == 200) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

TEST(HttpBudget, AConnectionPastTheLimitGets503AndTheNextOneAfterACloseIsServed) {
  HttpServerOptions http;
  http.max_connections = 3;
  servicetest::ServedService served({}, http);
  ASSERT_TRUE(served.ok());
  std::vector<std::unique_ptr<HttpClient>> open;
  for (int i = 0; i < 3; ++i) {
    open.push_back(std::make_unique<HttpClient>(served.port()));
    ASSERT_EQ(open.back()->Get("/healthz").status, 200);
  }
  HttpClient extra(served.port());
  const HttpReply refused = extra.Get("/healthz");
  EXPECT_EQ(refused.status, 503) << refused.error;
  EXPECT_EQ(JsonField(refused.body, "error"),
            "the server has as many connections open as it may (--max-connections): retry");
  open.pop_back();
  EXPECT_TRUE(ServedWithin5s(served.port()));
  open.clear();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_GE(MetricValue(served.port(), "simdex_http_connections_refused_total"), 1);
}

// Partial bodies are charged their Content-Length before they are read:
// past the budget the request is refused, the rest are served.
TEST(HttpBudget, PartialBodiesPastTheBudgetGet503AndTheServerServesOn) {
  constexpr size_t kBody = 64 << 10;
  HttpServerOptions http;
  http.max_body_bytes = kBody;
  http.max_buffered_bytes = kBody + (128 << 10);
  servicetest::ServedService served({}, http);
  ASSERT_TRUE(served.ok());
  const std::string head = "POST /v1/docid HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           "Content-Length: 60000\r\n\r\n{\"url\":\"";
  std::vector<std::unique_ptr<HttpClient>> holders;
  for (int i = 0; i < 4; ++i) {
    holders.push_back(std::make_unique<HttpClient>(served.port(), std::chrono::milliseconds(500)));
    ASSERT_TRUE(holders.back()->Send(head + std::string(1000, 'a')));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // in this order
  }
  // The budget, and past it the first buffers and headers of the five
  // connections open (the holders and /metrics'), which are forced.
  EXPECT_LE(MetricValue(served.port(), "simdex_http_buffered_bytes"),
            static_cast<double>(http.max_buffered_bytes + 5 * ((16 << 10) + 1024)));
  std::vector<int> statuses;
  for (auto& holder : holders) {
    const std::vector<HttpReply> r = holder->Read(1);  // times out while the body is awaited
    statuses.push_back(r.empty() ? 0 : r[0].status);
    if (!r.empty()) {
      EXPECT_EQ(JsonField(r[0].body, "error"),
                "the server holds as many request and response bytes as it may (--max-buffered): retry");
    }
  }
  // Two 60,000-byte bodies and the buffers fit in 192 KiB, not three.
  EXPECT_EQ(statuses, (std::vector<int>{0, 0, 503, 503}));
  holders.clear();
  EXPECT_TRUE(ServedWithin5s(served.port()));
  // Once they are gone, a request of the largest size is served.
  HttpReply r;
  for (int i = 0; i < 50 && r.status != 200; ++i) {
    r = HttpClient(served.port()).Post("/v1/docid", servicetest::ArticleJson("", "u", "t", std::string(60000, 'w')));
    if (r.status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(r.status, 200) << r.body;
}

std::string BadLines(size_t bytes) {
  std::string body;
  while (body.size() + 2 <= bytes) body += "x\n";
  return body;
}

// A megabyte of bad lines used to be answered with 85 MB held at once.
TEST(HttpBudget, ABatchIsAnsweredInPiecesAndEveryLineIsAnswered) {
  servicetest::ServedService served;
  ASSERT_TRUE(served.ok());
  constexpr size_t kBad = ((1 << 20) - 200) / 2;  // lines of "x"
  const std::string body = BadLines(2 * kBad) + servicetest::ArticleJson("1", "http://b/1", "", "the last line") + "\n";
  const HttpReply r = HttpClient(served.port()).Request("POST", "/v1/docid:batch", body);
  ASSERT_EQ(r.status, 200) << r.error;
  const std::vector<std::string> lines = servicetest::Lines(r.body);
  ASSERT_EQ(lines.size(), kBad + 1);
  EXPECT_EQ(JsonField(lines.front(), "line"), "1");
  EXPECT_EQ(JsonField(lines[kBad - 1], "line"), std::to_string(kBad));
  EXPECT_EQ(JsonField(lines.back(), "filterReason"), "new");
  EXPECT_TRUE(r.keep_alive);
  EXPECT_EQ(HttpClient(served.port()).Get("/healthz").status, 200);
}

TEST(HttpBudget, AClientThatDoesNotReadABatchsAnswerHoldsAPieceOfIt) {
  servicetest::ServedService served;
  ASSERT_TRUE(served.ok());
  const std::string body = BadLines(1 << 20);
  std::vector<std::unique_ptr<HttpClient>> stalled;
  for (int i = 0; i < 8; ++i) {
    stalled.push_back(std::make_unique<HttpClient>(served.port()));
    ASSERT_TRUE(stalled.back()->Send("POST /v1/docid:batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                     "application/x-ndjson\r\nContent-Length: " +
                                     std::to_string(body.size()) + "\r\n\r\n" + body));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // the socket buffers fill; the writes wait
  // Each stalled client: its request (1 MiB), a read buffer and a piece.
  const double held = MetricValue(served.port(), "simdex_http_buffered_bytes");
  EXPECT_GT(held, 8.0 * (1 << 20));
  EXPECT_LT(held, 8.0 * ((1 << 20) + (160 << 10))) << "held " << held << " bytes";
  EXPECT_EQ(HttpClient(served.port()).Get("/healthz").status, 200);
}

TEST(HttpBudget, AnHttp10BatchEndsWithTheConnection) {
  servicetest::ServedService served;
  ASSERT_TRUE(served.ok());
  const std::string body = BadLines(200 << 10);
  HttpClient client(served.port());
  ASSERT_TRUE(client.Send("POST /v1/docid:batch HTTP/1.0\r\nContent-Type: application/x-ndjson\r\nContent-Length: " +
                          std::to_string(body.size()) + "\r\n\r\n" + body));
  bool closed = false;
  const std::string answer = client.ReadUntilClosed(&closed);
  EXPECT_TRUE(closed);
  EXPECT_TRUE(answer.starts_with("HTTP/1.0 200 ")) << answer.substr(0, 200);
  EXPECT_EQ(answer.find("Transfer-Encoding"), std::string::npos);
  const size_t start = answer.find("\r\n\r\n") + 4;
  EXPECT_EQ(servicetest::Lines(answer.substr(start)).size(), (200u << 10) / 2);
}

}  // namespace
}  // namespace simdex
