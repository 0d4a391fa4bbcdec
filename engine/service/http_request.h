// From bytes to an answer: the request parser of the docId service's HTTP
// server, configured with its limits, and the answer to what it parsed.
// The server (http_server.cc) and the fuzz target (tests/fuzz/
// fuzz_http_request.cc) both go through here, so the fuzzer exercises the
// parser exactly as the server configures it.
//
// Limits, each answered with one JSON error line and the connection closed:
//   body over max_body_bytes                        413
//   request target over max_body_bytes              413 (GET /docId/getDocId carries an article in it)
//   request line and header over max_body + 64 KiB  413
//   a header field (name and value) over 8 KiB,
//   more than 100 fields, or fields over 64 KiB     431
//   Transfer-Encoding other than chunked alone      501
//   Transfer-Encoding with a Content-Length, or in
//   HTTP/1.0, or twice; Content-Lengths that differ 400
//   anything else that is not HTTP/1.x              400
// The framing rules (RFC 9112 section 6) leave one reading of where a
// request ends, so that nothing in a body can be taken for a request of
// its own (request smuggling): Beast alone took a body sent with
// `Transfer-Encoding: chunked, gzip` for the next request.
// The field limits also keep each field under the 65,535 bytes that
// Boost 1.74's header container can hold (a longer one made it throw
// std::length_error out of the I/O thread, which ended the process).
#ifndef SIMDEX_ENGINE_SERVICE_HTTP_REQUEST_H_
#define SIMDEX_ENGINE_SERVICE_HTTP_REQUEST_H_

#include <cstddef>
#include <optional>
#include <string>

#include <boost/beast/http.hpp>

#include "engine/service/api.h"

namespace simdex::service {

constexpr size_t kMaxFieldBytes = 8 << 10;
constexpr size_t kMaxFields = 100;
constexpr size_t kMaxFieldsBytes = 64 << 10;
// Room for the request line and the header beyond max_body_bytes.
constexpr size_t kHeaderRoom = 64 << 10;

// The limit of a request line with its header.
uint32_t HeaderLimit(size_t max_body_bytes);

// A request parser that enforces the limits and framing rules above as it
// parses: the body and header limits through Beast, the field limits and
// framing rules as each field (or trailer field of a chunked body) arrives,
// before it is stored. One parser per request.
class RequestParser : public boost::beast::http::request_parser<boost::beast::http::string_body> {
 public:
  explicit RequestParser(size_t max_body_bytes);

  // When a field broke a limit or a framing rule: the answer's status
  // (431, 400 or 501) and message; 0 and "" otherwise. The parse then
  // ended with an error.
  int refusal_status() const { return refusal_status_; }
  const std::string& refusal() const { return refusal_; }

 private:
  void on_field_impl(boost::beast::http::field name, boost::beast::string_view name_string,
                     boost::beast::string_view value, boost::beast::error_code& ec) override;
  void Refuse(int status, std::string message, boost::beast::error_code& ec);

  size_t fields_ = 0;
  size_t field_bytes_ = 0;
  bool transfer_encoding_ = false;
  bool content_length_ = false;
  int refusal_status_ = 0;
  std::string refusal_;
};

// The answer to a parse that ended with `ec` (the parser's state tells
// which limit or rule was broken): 413, 431, 501 or 400, or 503 when the
// server's buffered-bytes budget refused the read buffer room
// (error::buffer_overflow); the connection is then closed. nullopt when
// the client went away or the read timed out (nothing to answer).
std::optional<HttpResponse> ParseErrorResponse(const RequestParser& parser, boost::beast::error_code ec,
                                               size_t max_body_bytes);

// The answer to a complete request: 413 for a target over max_body_bytes,
// else what the API answers.
HttpResponse Answer(const Api& api, const boost::beast::http::request<boost::beast::http::string_body>& request,
                    size_t max_body_bytes);

// 503: the server's buffered-bytes budget is used up.
HttpResponse BudgetUsedUp();

// The HTTP message of an answer: `version` and `keep_alive` as the
// request's (1.1 and closing for a request that did not parse), the
// content type, the answer's header fields, Retry-After: 1 for 503,
// Content-Length. REQUIRES: r.rest is null.
boost::beast::http::response<boost::beast::http::string_body> MakeResponse(HttpResponse r, unsigned version,
                                                                           bool keep_alive);
// The header of a streamed answer (`rest` set): chunked in HTTP/1.1; in
// HTTP/1.0, without a length and closing the connection.
boost::beast::http::response<boost::beast::http::empty_body> MakeStreamedHeader(const HttpResponse& r,
                                                                                unsigned version, bool keep_alive);

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_HTTP_REQUEST_H_
