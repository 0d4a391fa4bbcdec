// The HTTP server against hostile and careless clients: oversized header
// fields, bodies and targets, idle and slow connections, pipelined
// requests with errors among them. Each case checks the answer and that
// the server still answers /healthz afterwards.
#include <chrono>
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

constexpr size_t kMaxBody = 64 << 10;

HttpServerOptions Http(int idle_timeout_seconds = 60) {
  HttpServerOptions h;
  h.max_body_bytes = kMaxBody;
  h.idle_timeout_seconds = idle_timeout_seconds;
  return h;
}

// /healthz on a new connection answers.
void ExpectHealthy(uint16_t port, const std::string& after) {
  const HttpReply r = HttpClient(port).Get("/healthz");
  EXPECT_EQ(r.status, 200) << "after " << after << ": " << r.error;
  EXPECT_EQ(r.body, "{\"status\":\"ok\"}\n") << "after " << after;
}

// The request issue 18 reported: one header value of 65,534 bytes made
// Boost 1.74's header container throw std::length_error out of the I/O
// thread, which ended the process.
TEST(HttpLimits, HugeHeaderGets431AndServerKeepsServing) {
  servicetest::ServedService served({}, Http());
  ASSERT_TRUE(served.ok());
  HttpClient client(served.port());
  const HttpReply r = client.Request("GET", "/healthz", "", "X-Big: " + std::string(65534, 'a') + "\r\n");
  EXPECT_EQ(r.status, 431) << r.error;
  EXPECT_EQ(JsonField(r.body, "error"), "header field 'X-Big' is over the limit of 8192 bytes") << r.body;
  EXPECT_FALSE(r.keep_alive);
  ExpectHealthy(served.port(), "a 65,534-byte header value");
}

TEST(HttpLimits, EveryHeaderFieldLimitGets431) {
  servicetest::ServedService served({}, Http());
  ASSERT_TRUE(served.ok());
  std::string many_fields, large_fields;
  for (int i = 0; i < 101; ++i) many_fields += "X-" + std::to_string(i) + ": 1\r\n";
  for (int i = 0; i < 9; ++i) large_fields += "X-" + std::to_string(i) + ": " + std::string(8000, 'b') + "\r\n";
  struct Case {
    std::string name, headers, error;
  };
  const std::vector<Case> cases = {
      {"a 65,534-byte name", std::string(65534, 'N') + ": 1\r\n", "is over the limit of 8192 bytes"},
      {"a field of 8,193 bytes", "X-Big: " + std::string(8193 - 5, 'a') + "\r\n",
       "header field 'X-Big' is over the limit of 8192 bytes"},
      {"101 fields", many_fields, "the request has more than 100 header fields"},
      {"fields of 72,000 bytes", large_fields, "the header fields are over the limit of 65536 bytes"},
  };
  for (const Case& c : cases) {
    const HttpReply r = HttpClient(served.port()).Request("GET", "/healthz", "", c.headers);
    EXPECT_EQ(r.status, 431) << c.name << ": " << r.error;
    EXPECT_NE(JsonField(r.body, "error").find(c.error), std::string::npos) << c.name << ": " << r.body;
    ExpectHealthy(served.port(), c.name);
  }
  // At the limit: served.
  const HttpReply at_limit =
      HttpClient(served.port()).Request("GET", "/healthz", "", "X-Big: " + std::string(8192 - 5, 'a') + "\r\n");
  EXPECT_EQ(at_limit.status, 200) << at_limit.body;
}

// Trailer fields of a chunked body go through the same check.
TEST(HttpLimits, HugeTrailerFieldGets431) {
  servicetest::ServedService served({}, Http());
  ASSERT_TRUE(served.ok());
  HttpClient client(served.port());
  const std::string body = servicetest::ArticleJson("", "http://t/1", "t", "trailer test");
  char size[16];
  std::snprintf(size, sizeof size, "%zx", body.size());
  const std::vector<HttpReply> replies =
      client.Raw("POST /v1/docid HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + std::string(size) +
                     "\r\n" + body + "\r\n0\r\nX-Trailer: " + std::string(65534, 't') + "\r\n\r\n",
                 1);
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].status, 431) << replies[0].body;
  ExpectHealthy(served.port(), "a 65,534-byte trailer field");
}

TEST(HttpLimits, OversizedBodiesAndTargetsGet413) {
  servicetest::ServedService served({}, Http());
  ASSERT_TRUE(served.ok());
  const std::string big = servicetest::ArticleJson("", "u", "t", std::string(kMaxBody, 'a'));
  HttpReply r = HttpClient(served.port()).Post("/v1/docid", big);
  EXPECT_EQ(r.status, 413) << r.error;
  EXPECT_EQ(JsonField(r.body, "error"), "the request body is over the limit of 65536 bytes") << r.body;
  ExpectHealthy(served.port(), "a body over the limit");
  // Chunked: the limit holds without a Content-Length.
  HttpClient chunked(served.port());
  char size[16];
  std::snprintf(size, sizeof size, "%zx", big.size());
  std::vector<HttpReply> replies = chunked.Raw(
      "POST /v1/docid HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + std::string(size) + "\r\n" + big +
          "\r\n0\r\n\r\n",
      1);
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].status, 413) << replies[0].body;
  ExpectHealthy(served.port(), "a chunked body over the limit");
  r = HttpClient(served.port()).Get("/docId/getDocId?json=" + std::string(kMaxBody + 1, 'a'));
  EXPECT_EQ(r.status, 413) << r.error;
  EXPECT_EQ(JsonField(r.body, "error"), "the request target is over the limit of 65536 bytes") << r.body;
  ExpectHealthy(served.port(), "a target over the limit");
  r = HttpClient(served.port()).Get("/healthz?" + std::string(kMaxBody + 70000, 'a'));
  EXPECT_EQ(r.status, 413) << r.error;
  EXPECT_EQ(JsonField(r.body, "error"), "the request line with its headers is over the limit of 131072 bytes")
      << r.body;
  ExpectHealthy(served.port(), "a request line over the header limit");
}

TEST(HttpLimits, IdleConnectionIsClosedAfterTheIdleTimeout) {
  servicetest::ServedService served({}, Http(/*idle_timeout_seconds=*/1));
  ASSERT_TRUE(served.ok());
  HttpClient idle(served.port());
  ASSERT_TRUE(idle.Connect());
  EXPECT_TRUE(idle.ClosedByServer());
  // After a request too: the keep-alive connection is closed when idle.
  HttpClient client(served.port());
  ASSERT_EQ(client.Get("/healthz").status, 200);
  EXPECT_TRUE(client.ClosedByServer());
  ExpectHealthy(served.port(), "idle connections");
}

// The idle timeout bounds the whole request, however slowly it trickles
// in: a client sending a byte every 300 ms is closed without an answer.
TEST(HttpLimits, SlowRequestIsClosedAfterTheIdleTimeout) {
  servicetest::ServedService served({}, Http(/*idle_timeout_seconds=*/1));
  ASSERT_TRUE(served.ok());
  HttpClient slow(served.port());
  const std::string request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  for (size_t i = 0; i < 5; ++i) {
    if (!slow.Send(request.substr(i, 1))) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  EXPECT_TRUE(slow.ClosedByServer());
  ExpectHealthy(served.port(), "a slow request");
}

TEST(HttpLimits, PipelinedRequestsWithErrorsAmongThemAreAnsweredInOrder) {
  servicetest::ServedService served({}, Http());
  ASSERT_TRUE(served.ok());
  auto post = [](const std::string& body) {
    return "POST /v1/docid HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  };
  const std::string bytes = post(servicetest::ArticleJson("1", "http://p/1", "", "first text")) +
                            post("{\"url\":\"u\"") + "GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" +
                            post(servicetest::ArticleJson("2", "http://p/1", "", "other text")) +
                            "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  HttpClient client(served.port());
  const std::vector<HttpReply> replies = client.Raw(bytes, 5);
  ASSERT_EQ(replies.size(), 5u);
  EXPECT_EQ(replies[0].status, 200);
  EXPECT_EQ(JsonField(replies[0].body, "filterReason"), "new");
  EXPECT_EQ(replies[1].status, 400);
  EXPECT_NE(JsonField(replies[1].body, "error").find("not valid JSON"), std::string::npos) << replies[1].body;
  EXPECT_EQ(replies[2].status, 404);
  EXPECT_EQ(replies[3].status, 200);
  EXPECT_EQ(JsonField(replies[3].body, "filterReason"), "url");
  EXPECT_EQ(JsonField(replies[3].body, "docId"), JsonField(replies[0].body, "docId"));
  EXPECT_EQ(replies[4].body, "{\"status\":\"ok\"}\n");
  for (const HttpReply& r : replies) EXPECT_TRUE(r.keep_alive);
  // A malformed request in the pipeline ends it: the answers before it
  // stand, then 400 and the connection closes.
  HttpClient broken(served.port());
  const std::vector<HttpReply> cut = broken.Raw(
      post(servicetest::ArticleJson("3", "http://p/3", "", "third")) + "NOT HTTP\r\n\r\n" + "GET /healthz HTTP/1.1\r\n\r\n",
      3);
  ASSERT_EQ(cut.size(), 2u);
  EXPECT_EQ(cut[0].status, 200);
  EXPECT_EQ(cut[1].status, 400);
  EXPECT_FALSE(cut[1].keep_alive);
  ExpectHealthy(served.port(), "pipelined requests");
}

}  // namespace
}  // namespace simdex
