// Who may use the service (engine/service/access_policy.h): the Host check
// against DNS rebinding, the Origin check against other sites' web pages,
// JSON bodies only (no CORS "simple" requests), the bearer token, and
// CORS for the origins the operator allows. Each refusal is checked to
// have inserted nothing and read nothing back.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/service/access_policy.h"
#include "simdex/http_server.h"
#include "tests/service/http_client.h"
#include "tests/service/served_service.h"

namespace simdex {
namespace {

using servicetest::HttpClient;
using servicetest::HttpReply;
using servicetest::JsonField;

// One request with exactly these header fields (no Host unless given).
HttpReply Send(uint16_t port, const std::string& method, const std::string& target, const std::string& fields,
               const std::string& body = "", const std::string& version = "HTTP/1.1") {
  std::string bytes = method + " " + target + " " + version + "\r\n" + fields;
  if (!body.empty()) bytes += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  bytes += "\r\n" + body;
  std::vector<HttpReply> r = HttpClient(port).Raw(bytes, 1);
  return r.empty() ? HttpReply{} : r[0];
}

const std::string kJson = "Content-Type: application/json\r\n";
const std::string kLocal = "Host: 127.0.0.1\r\n";

std::string Article(int i) {
  return servicetest::ArticleJson(std::to_string(i), "http://access/" + std::to_string(i), "t",
                                  "an article for the access tests " + std::to_string(i));
}

// What a web page whose host name now resolves to 127.0.0.1 sends: its own
// name. Refused, reading included, so that no representative leaks.
TEST(HttpAccess, AHostThatIsNotTheServersIsRefused) {
  servicetest::ServedService served;
  ASSERT_TRUE(served.ok());
  const HttpReply made = HttpClient(served.port()).Post("/v1/docid", Article(1));
  ASSERT_EQ(made.status, 200) << made.body;
  const std::string doc_id = JsonField(made.body, "docId");
  for (const std::string host : {"attacker.example", "attacker.example:8080", "localhost.attacker.example", "10.0.0.1",
                                 "[::1]"}) {
    const HttpReply read = Send(served.port(), "GET", "/v1/docid/" + doc_id, "Host: " + host + "\r\n");
    EXPECT_EQ(read.status, 421) << host << ": " << read.body;
    EXPECT_EQ(read.body.find("access tests"), std::string::npos) << host;
    EXPECT_FALSE(read.keep_alive) << host;
    const HttpReply write = Send(served.port(), "POST", "/v1/docid", "Host: " + host + "\r\n" + kJson, Article(2));
    EXPECT_EQ(write.status, 421) << host;
  }
  EXPECT_EQ(JsonField(Send(served.port(), "GET", "/healthz", "Host: attacker.example\r\n").body, "error"),
            "host 'attacker.example' is not this server's: name it by its address, or give the name with "
            "--allowed-hosts");
  EXPECT_EQ(served.service().stats().articles, 1u);
}

TEST(HttpAccess, TheServersOwnNamesAreServed) {
  servicetest::ServedService served;
  ASSERT_TRUE(served.ok());
  const std::string port = std::to_string(served.port());
  for (const std::string host : std::vector<std::string>{"127.0.0.1", "127.0.0.1:" + port, "localhost", "LocalHost:" + port, "localhost.",
                                 "app.localhost:" + port}) {
    EXPECT_EQ(Send(served.port(), "GET", "/v1/stats", "Host: " + host + "\r\n").status, 200) << host;
  }
  // HTTP/1.0 has no Host field to check: no browser sends it.
  EXPECT_EQ(Send(served.port(), "GET", "/healthz", "", "", "HTTP/1.0").status, 200);
}

TEST(HttpAccess, AMissingOrRepeatedHostIsMalformed) {
  servicetest::ServedService served;
  ASSERT_TRUE(served.ok());
  EXPECT_EQ(JsonField(Send(served.port(), "GET", "/healthz", "").body, "error"),
            "an HTTP/1.1 request must have a Host field");
  EXPECT_EQ(Send(served.port(), "GET", "/healthz", kLocal + kLocal).status, 400);
  EXPECT_EQ(Send(served.port(), "GET", "/healthz", "Host: a b\r\n").status, 400);
  EXPECT_EQ(Send(served.port(), "GET", "/healthz", "Host: user@127.0.0.1\r\n").status, 400);
}

TEST(HttpAccess, AllowedHostsAddNames) {
  HttpServerOptions http;
  http.allowed_hosts = {"simdex.internal", "Search.Example."};
  servicetest::ServedService served({}, http);
  ASSERT_TRUE(served.ok());
  EXPECT_EQ(Send(served.port(), "GET", "/healthz", "Host: simdex.internal:8080\r\n").status, 200);
  EXPECT_EQ(Send(served.port(), "GET", "/healthz", "Host: search.example\r\n").status, 200);
  EXPECT_EQ(Send(served.port(), "GET", "/healthz", "Host: other.internal\r\n").status, 421);

  HttpServerOptions any;
  any.allowed_hosts = {"*"};
  servicetest::ServedService open({}, any);
  ASSERT_TRUE(open.ok());
  EXPECT_EQ(Send(open.port(), "GET", "/healthz", "Host: whatever.example\r\n").status, 200);
}

// A page on another site may send a request anywhere; what it gets back
// and what it writes are refused, with or without an Origin.
TEST(HttpAccess, AnotherSitesPageIsRefused) {
  servicetest::ServedService served;
  ASSERT_TRUE(served.ok());
  const std::string origin = "Origin: https://evil.example\r\n";
  HttpReply r = Send(served.port(), "POST", "/v1/docid", kLocal + kJson + origin, Article(1));
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(JsonField(r.body, "error"), "origin 'https://evil.example' is not allowed (--allowed-origins)");
  EXPECT_EQ(Send(served.port(), "GET", "/v1/stats", kLocal + origin).status, 403);
  EXPECT_EQ(Send(served.port(), "OPTIONS", "/v1/docid", kLocal + origin).status, 403);
  EXPECT_EQ(Send(served.port(), "GET", "/v1/stats", kLocal + "Origin: null\r\n").status, 403);
  // A link or an <img> of another site: no Origin, but Sec-Fetch-Site says so.
  const std::string get = "/docId/getDocId?json=" + servicetest::UrlEncode(Article(3));
  r = Send(served.port(), "GET", get, kLocal + "Sec-Fetch-Site: cross-site\r\n");
  EXPECT_EQ(r.status, 403) << r.body;
  EXPECT_EQ(Send(served.port(), "GET", get, kLocal + "Sec-Fetch-Site: same-site\r\n").status, 403);
  EXPECT_EQ(served.service().stats().articles, 0u);
  // Typed into the address bar: served.
  EXPECT_EQ(Send(served.port(), "GET", get, kLocal + "Sec-Fetch-Site: none\r\n").status, 200);
}

// text/plain, form and multipart bodies are what a page can POST anywhere
// without a preflight: refused before the body is read.
TEST(HttpAccess, APostBodyMustBeJson) {
  servicetest::ServedService served;
  ASSERT_TRUE(served.ok());
  for (const std::string type : {"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                                 "text/plain; charset=application/json"}) {
    const HttpReply r = Send(served.port(), "POST", "/v1/docid", kLocal + "Content-Type: " + type + "\r\n", Article(1));
    EXPECT_EQ(r.status, 415) << type;
    EXPECT_FALSE(r.keep_alive) << type;
  }
  EXPECT_EQ(JsonField(Send(served.port(), "POST", "/v1/docid", kLocal, Article(1)).body, "error"),
            "a POST body must be application/json (or application/x-ndjson for /v1/docid:batch); it had no "
            "Content-Type");
  EXPECT_EQ(served.service().stats().articles, 0u);
  EXPECT_EQ(Send(served.port(), "POST", "/v1/docid", kLocal + "Content-Type: Application/JSON; charset=utf-8\r\n",
                 Article(1)).status, 200);
  EXPECT_EQ(Send(served.port(), "POST", "/v1/docid:batch", kLocal + "Content-Type: application/x-ndjson\r\n",
                 Article(2) + "\n").status, 200);
  EXPECT_EQ(served.service().stats().articles, 2u);
}

TEST(HttpAccess, AnAllowedOriginGetsCors) {
  HttpServerOptions http;
  http.allowed_origins = {"https://app.example"};
  servicetest::ServedService served({}, http);
  ASSERT_TRUE(served.ok());
  const std::string origin = "Origin: https://app.example\r\n";
  const std::string preflight = "HTTP/1.1\r\n" + kLocal + origin +
                                "Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\n";
  bool closed = false;
  // The connection stays open after a preflight: read until the timeout.
  HttpClient reader(served.port(), std::chrono::milliseconds(500));
  ASSERT_TRUE(reader.Send("OPTIONS /v1/docid " + preflight + "\r\n"));
  const std::string answer = reader.ReadUntilClosed(&closed);
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 204 ")) << answer;
  EXPECT_NE(answer.find("Access-Control-Allow-Origin: https://app.example\r\n"), std::string::npos) << answer;
  EXPECT_NE(answer.find("Access-Control-Allow-Methods: GET, POST\r\n"), std::string::npos) << answer;
  EXPECT_NE(answer.find("Access-Control-Allow-Headers: Authorization, Content-Type\r\n"), std::string::npos);
  EXPECT_NE(answer.find("Vary: Origin\r\n"), std::string::npos);

  HttpClient post(served.port(), std::chrono::milliseconds(500));
  const std::string body = Article(1);
  ASSERT_TRUE(post.Send("POST /v1/docid HTTP/1.1\r\n" + kLocal + kJson + origin + "Content-Length: " +
                        std::to_string(body.size()) + "\r\n\r\n" + body));
  const std::string posted = post.ReadUntilClosed(&closed);
  EXPECT_TRUE(posted.starts_with("HTTP/1.1 200 ")) << posted;
  EXPECT_NE(posted.find("Access-Control-Allow-Origin: https://app.example\r\n"), std::string::npos) << posted;
  EXPECT_EQ(Send(served.port(), "GET", "/v1/stats", kLocal + "Origin: https://other.example\r\n").status, 403);
}

TEST(HttpAccess, WithATokenEveryRouteButHealthzNeedsIt) {
  HttpServerOptions http;
  http.token = "s3cret-token-of-the-operator";
  servicetest::ServedService served({}, http);
  ASSERT_TRUE(served.ok());
  HttpReply r = Send(served.port(), "POST", "/v1/docid", kLocal + kJson, Article(1));
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(JsonField(r.body, "error"), "the request needs Authorization: Bearer <token> (--token-file)");
  for (const std::string auth : {"Bearer wrong", "Bearer s3cret-token-of-the-operatorX", "Bearer s3cret-token-of-the",
                                 "Basic s3cret-token-of-the-operator", "s3cret-token-of-the-operator"}) {
    EXPECT_EQ(Send(served.port(), "GET", "/v1/stats", kLocal + "Authorization: " + auth + "\r\n").status, 401) << auth;
  }
  EXPECT_EQ(Send(served.port(), "GET", "/metrics", kLocal).status, 401);
  EXPECT_EQ(Send(served.port(), "GET", "/docId/getDocId?json=" + servicetest::UrlEncode(Article(2)), kLocal).status,
            401);
  EXPECT_EQ(served.service().stats().articles, 0u);
  EXPECT_EQ(Send(served.port(), "GET", "/healthz", kLocal).status, 200);
  const std::string good = "Authorization: bearer s3cret-token-of-the-operator\r\n";
  EXPECT_EQ(Send(served.port(), "POST", "/v1/docid", kLocal + kJson + good, Article(1)).status, 200);
  EXPECT_EQ(Send(served.port(), "GET", "/metrics", kLocal + good).status, 200);
  EXPECT_EQ(served.service().stats().articles, 1u);
}

TEST(HttpAccess, BadAccessOptionsAreRefusedAtStart) {
  struct Case {
    const char* name;
    HttpServerOptions http;
    std::string error;
  };
  std::vector<Case> cases(6);
  cases[0] = {"origin null", {}, "allowed origin 'null' is not an origin"};
  cases[0].http.allowed_origins = {"null"};
  cases[1] = {"origin with a path", {}, "allowed origin 'https://a.example/x' is not an origin"};
  cases[1].http.allowed_origins = {"https://a.example/x"};
  cases[2] = {"host with a path", {}, "allowed host 'a.example/x' is not a host name"};
  cases[2].http.allowed_hosts = {"a.example/x"};
  cases[3] = {"token with a space", {}, "the token holds a space or a control character"};
  cases[3].http.token = "two words";
  cases[4] = {"max body 0", {}, "the body limit must be at least 1024 bytes"};
  cases[4].http.max_body_bytes = 0;
  cases[5] = {"a budget under one request", {}, "the buffered-bytes limit must be at least the body limit"};
  cases[5].http.max_buffered_bytes = cases[5].http.max_body_bytes;
  testing::ScopedTempDir dir;
  ServiceOptions options;
  options.data_dir = dir.path();
  std::unique_ptr<DocIdService> service;
  ASSERT_TRUE(DocIdService::Open(options, &service).ok());
  for (Case& c : cases) {
    c.http.port = 0;
    std::unique_ptr<HttpServer> server;
    const Status s = HttpServer::Start(service.get(), c.http, &server);
    EXPECT_TRUE(s.IsInvalidArgument()) << c.name << ": " << s.ToString();
    EXPECT_NE(s.message().find(c.error), std::string::npos) << c.name << ": " << s.message();
  }
}

TEST(HttpAccess, HostFieldsParse) {
  std::string host;
  EXPECT_TRUE(service::ParseHostField("Example.COM:8080", &host));
  EXPECT_EQ(host, "example.com");
  EXPECT_TRUE(service::ParseHostField("[::1]:80", &host));
  EXPECT_EQ(host, "::1");
  EXPECT_TRUE(service::ParseHostField("localhost.", &host));
  EXPECT_EQ(host, "localhost");
  for (const char* bad : {"", ":80", "a b", "[::1", "[x]:1", "a:b", "a:123456", "user@host", "a/b", "[::1]x"}) {
    EXPECT_FALSE(service::ParseHostField(bad, &host)) << bad;
  }
}

}  // namespace
}  // namespace simdex
