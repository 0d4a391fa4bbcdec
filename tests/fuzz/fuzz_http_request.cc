// Fuzz target for the docId service's HTTP request handling: the input is
// the bytes a client sends on one connection (request line, header fields,
// body; several pipelined requests). They go through the server's own
// RequestParser, configured as HttpServer configures it (the body limit is
// taken from the first byte: 64 bytes, 1 KiB or the default 1 MiB, so that
// the limits are reached too; its next bit sets a bearer token), then
// through ParseErrorResponse, or the AccessPolicy (Host 127.0.0.1, origin
// https://app.example allowed) and Answer and service::Api::Handle against a
// real DocIdService in a temporary directory, the whole streamed body, and
// MakeResponse, as a session does.
//
// Bugs: any crash, exception, sanitizer report; an answer with a status
// the API does not give for client input (500, 503: the service is
// healthy here); a JSON answer that is not valid JSON (one value per line
// for JSON Lines) or does not end with a newline.
//
// Seed corpus: when a corpus directory named on the command line is empty,
// LLVMFuzzerInitialize writes requests for every route into it, and the
// framing and access shapes of tests/service/http_framing_test.cc and
// http_access_test.cc; fuzz_http_request.dict holds their tokens.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <optional>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>

#include <boost/asio/buffer.hpp>
#include <boost/beast/http.hpp>
#include <simdjson.h>

#include "engine/service/access_policy.h"
#include "engine/service/api.h"
#include "engine/service/http_request.h"
#include "engine/service/metrics.h"
#include "simdex/service.h"
#include "tests/fuzz/fuzz_util.h"

namespace {

namespace http = boost::beast::http;
using simdex::service::HttpResponse;

struct Served {
  std::string dir;
  std::unique_ptr<simdex::DocIdService> service;
  simdex::service::Metrics metrics;
  std::unique_ptr<simdex::service::Api> api;
  simdex::service::AccessPolicy open_policy, token_policy;
  uint64_t inputs = 0;
};

Served* served = nullptr;

void RemoveState() {
  if (served == nullptr) return;
  served->api.reset();
  served->service.reset();
  std::error_code ec;
  std::filesystem::remove_all(served->dir, ec);
}

void WriteSeeds(const std::string& dir) {
  auto post = [](const std::string& target, const std::string& body) {
    return "POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
           body;
  };
  const std::string article = R"({"id":17,"url":"https://news.example/a/17","title":"A title","content":"Some words of content here","views":3})";
  const std::string seeds[] = {
      "\x01" + post("/v1/docid", article),
      "\x01" + post("/v1/docid:batch", article + "\n{\"url\":1}\n" + article + "\n"),
      "\x01" + post("/v1/query", R"({"fingerprints":["9f3a0c71d2e4b856","1"],"field":"title","k":0})"),
      "\x01" + post("/v1/query", R"({"texts":["Some words of content here",""]})"),
      "\x01" + post("/v1/query", article),
      "\x01GET /docId/getDocId?json=%7B%22url%22%3A%22u%22%2C%22title%22%3A%22t%22%2C%22content%22%3A%22c%22%7D "
      "HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
      "\x01GET /v1/article?id=17 HTTP/1.1\r\n\r\nGET /v1/docid/0123456789abcdef HTTP/1.1\r\n\r\n"
      "GET /v1/stats HTTP/1.1\r\n\r\nGET /healthz HTTP/1.1\r\n\r\nGET /metrics HTTP/1.0\r\n\r\n",
      "\x01POST /v1/docid HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"url\r\n0\r\nX-T: 1\r\n\r\n",
      "\x00" + post("/v1/docid", article),
      "\x01GET /healthz HTTP/1.1\r\nX-Big: " + std::string(9000, 'a') + "\r\n\r\n",
      // Issue 18: a 65,534-byte header value made Boost 1.74 throw out of the I/O thread.
      "\x02GET /healthz HTTP/1.1\r\nX-Big: " + std::string(65534, 'a') + "\r\n\r\n",
      // Issue 36: framing a smuggler could use, and requests from where they should not come.
      "\x01POST /v1/docid HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      "Transfer-Encoding: chunked, gzip\r\n\r\nGET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
      "\x01POST /v1/docid HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      "Transfer-Encoding: xchunked\r\nContent-Length: 5\r\n\r\n{\"a\"}",
      "\x01POST /v1/docid HTTP/1.0\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "\x01GET /v1/stats HTTP/1.1\r\nHost: attacker.example\r\n\r\n",
      "\x01" + post("/v1/docid", article).insert(25, "Origin: https://evil.example\r\n"),
      "\x01OPTIONS /v1/docid HTTP/1.1\r\nHost: localhost:8080\r\nOrigin: https://app.example\r\n"
      "Access-Control-Request-Method: POST\r\n\r\n",
      "\x01GET /docId/getDocId?json=%7B%7D HTTP/1.1\r\nHost: 127.0.0.1\r\nSec-Fetch-Site: cross-site\r\n\r\n",
      "\x01POST /v1/docid HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}",
      "\x03GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer fuzz-token-0123456789\r\n\r\n",
      "\x04" + post("/v1/docid:batch", "x\nx\n" + article + "\n"),
  };
  int i = 0;
  for (const std::string& seed : seeds) std::ofstream(dir + "/seed_" + std::to_string(i++)) << seed;
}

// Every JSON line of a JSON answer parses.
bool ValidJsonLines(std::string_view body) {
  thread_local simdjson::dom::parser parser;
  while (!body.empty()) {
    const size_t nl = body.find('\n');
    if (nl == std::string_view::npos) return false;
    simdjson::dom::element e;
    if (parser.parse(body.data(), nl).get(e)) return false;
    body.remove_prefix(nl + 1);
  }
  return true;
}

void Check(const HttpResponse& r) {
  static constexpr int kClientStatuses[] = {200, 204, 400, 401, 403, 404, 405, 413, 415, 421, 431, 501};
  FUZZ_CHECK(std::find(std::begin(kClientStatuses), std::end(kClientStatuses), r.status) != std::end(kClientStatuses));
  if (r.content_type == "application/json" || r.content_type == "application/x-ndjson") {
    FUZZ_CHECK(!r.body.empty() || r.content_type == "application/x-ndjson");
    FUZZ_CHECK(ValidJsonLines(r.body));
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  simdex::fuzz::SeedEmptyCorpora(*argc, *argv, WriteSeeds);
  served = new Served;
  char dir[] = "/tmp/fuzz_http_request-XXXXXX";
  FUZZ_CHECK(mkdtemp(dir) != nullptr);
  served->dir = dir;
  simdex::ServiceOptions options;
  options.data_dir = served->dir;
  options.keep_field = "views";
  options.content_method = simdex::ContentMethod::kSimHash;  // the stage the seeds were written for
  options.background_compaction = false;  // compactions are explicit: reproducible runs
  options.compact_entries = 4096;
  FUZZ_CHECK(simdex::DocIdService::Open(options, &served->service).ok());
  served->api = std::make_unique<simdex::service::Api>(served->service.get(), &served->metrics);
  simdex::service::AccessOptions access{boost::asio::ip::make_address("127.0.0.1"), {}, {"https://app.example"}, ""};
  FUZZ_CHECK(simdex::service::AccessPolicy::Create(access, &served->open_policy).ok());
  access.token = "fuzz-token-0123456789";
  FUZZ_CHECK(simdex::service::AccessPolicy::Create(access, &served->token_policy).ok());
  std::atexit(RemoveState);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static constexpr size_t kBodyLimits[] = {64, 1024, size_t{1} << 20};
  const size_t max_body = kBodyLimits[data[0] % 3];
  const simdex::service::AccessPolicy& policy = (data[0] & 4) != 0 ? served->token_policy : served->open_policy;
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  // A session: requests one after another until one closes the connection.
  for (int requests = 0; requests < 16; ++requests) {
    simdex::service::RequestParser parser(max_body);
    parser.eager(true);  // as http::async_read sets it
    boost::beast::error_code ec;
    // As http::read: put() until the message is done, an error, or more input is needed.
    for (;;) {
      const size_t used = parser.put(boost::asio::buffer(input.data(), input.size()), ec);
      FUZZ_CHECK(used <= input.size());
      input.remove_prefix(used);
      if (ec || parser.is_done()) break;
      if (used == 0) {
        ec = http::error::need_more;
        break;
      }
    }
    if (ec == http::error::need_more) {
      if (input.empty() && !parser.got_some()) break;  // the client closed between requests
      parser.put_eof(ec);  // the client closed mid-request
    }
    if (ec) {
      std::optional<HttpResponse> error = simdex::service::ParseErrorResponse(parser, ec, max_body);
      if (error) {
        Check(*error);
        (void)simdex::service::MakeResponse(std::move(*error), 11, false);
      }
      break;
    }
    FUZZ_CHECK(parser.is_done());
    http::request<http::string_body> request = parser.release();
    // The server checks the header before it reads the body; the answer is
    // the same function of the header.
    if (std::optional<HttpResponse> refusal = policy.Check(request.base())) {
      Check(*refusal);
      const bool preflight = refusal->status == 204;
      (void)simdex::service::MakeResponse(std::move(*refusal), 11, preflight);
      if (!preflight || input.empty()) break;
      continue;
    }
    HttpResponse r = simdex::service::Answer(*served->api, request, max_body);
    policy.AddCorsHeaders(request.base(), &r);
    r.body = simdex::service::WholeBody(&r);
    Check(r);
    const bool keep_alive = request.keep_alive();
    (void)simdex::service::MakeResponse(std::move(r), request.version(), keep_alive);
    if (!keep_alive || input.empty()) break;
  }
  if (++served->inputs % 4096 == 0) FUZZ_CHECK(served->service->Compact().ok());
  return 0;
}
