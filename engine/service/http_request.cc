#include "engine/service/http_request.h"

#include <algorithm>
#include <cstdint>

namespace simdex::service {

namespace http = boost::beast::http;
namespace net = boost::asio;

uint32_t HeaderLimit(size_t max_body_bytes) {
  return static_cast<uint32_t>(std::min<size_t>(max_body_bytes + kHeaderRoom, UINT32_MAX));
}

RequestParser::RequestParser(size_t max_body_bytes) {
  body_limit(max_body_bytes);
  // GET /docId/getDocId carries the article in its target: the request
  // line may be as long as a body, plus room for the headers.
  header_limit(HeaderLimit(max_body_bytes));
}

void RequestParser::Refuse(int status, std::string message, boost::beast::error_code& ec) {
  refusal_status_ = status;
  refusal_ = std::move(message);
  ec = status == 431 ? http::error::header_limit : http::error::bad_transfer_encoding;
}

void RequestParser::on_field_impl(http::field name, boost::beast::string_view name_string,
                                  boost::beast::string_view value, boost::beast::error_code& ec) {
  const size_t bytes = name_string.size() + value.size();
  if (bytes > kMaxFieldBytes) {
    return Refuse(431, "header field '" + std::string(name_string.substr(0, 64)) + "' is over the limit of " +
                           std::to_string(kMaxFieldBytes) + " bytes", ec);
  }
  if (++fields_ > kMaxFields) {
    return Refuse(431, "the request has more than " + std::to_string(kMaxFields) + " header fields", ec);
  }
  if ((field_bytes_ += bytes) > kMaxFieldsBytes) {
    return Refuse(431, "the header fields are over the limit of " + std::to_string(kMaxFieldsBytes) + " bytes", ec);
  }
  // Framing: Beast has checked what it checks (a second chunked, a length
  // after chunked, lengths that differ); the rest of RFC 9112 section 6 here.
  // Trailer fields (after the body) frame nothing.
  if (!is_header_done()) {
    if (name == http::field::transfer_encoding) {
      if (get().version() < 11) return Refuse(400, "Transfer-Encoding in an HTTP/1.0 request", ec);
      if (transfer_encoding_) return Refuse(400, "the request has more than one Transfer-Encoding field", ec);
      if (content_length_) return Refuse(400, "the request has both Transfer-Encoding and Content-Length", ec);
      std::string_view coding(value.data(), value.size());
      while (!coding.empty() && (coding.back() == ' ' || coding.back() == '\t')) coding.remove_suffix(1);
      if (!boost::beast::iequals(boost::beast::string_view(coding.data(), coding.size()), "chunked")) {
        return Refuse(501, "Transfer-Encoding '" + std::string(coding.substr(0, 200)) +
                               "' is not supported: send chunked alone, or a Content-Length", ec);
      }
      transfer_encoding_ = true;
    } else if (name == http::field::content_length) {
      if (transfer_encoding_) return Refuse(400, "the request has both Transfer-Encoding and Content-Length", ec);
      content_length_ = true;
    }
  }
  // What request_parser itself does with a field.
  get().insert(name, name_string, value);
}

HttpResponse BudgetUsedUp() {
  return Api::Error(503, "the server holds as many request and response bytes as it may (--max-buffered): retry");
}

namespace {

// 413 naming `what` and the limit.
HttpResponse TooLarge(const char* what, size_t limit) {
  return Api::Error(413, std::string("the ") + what + " is over the limit of " + std::to_string(limit) + " bytes");
}

}  // namespace

std::optional<HttpResponse> ParseErrorResponse(const RequestParser& parser, boost::beast::error_code ec,
                                               size_t max_body_bytes) {
  if (ec == http::error::end_of_stream || ec == boost::beast::error::timeout || ec == net::error::operation_aborted ||
      ec == net::error::connection_reset || ec == net::error::eof) {
    return std::nullopt;
  }
  if (parser.refusal_status() != 0) return Api::Error(parser.refusal_status(), parser.refusal());
  if (ec == boost::beast::http::error::buffer_overflow) return BudgetUsedUp();
  if (ec == http::error::body_limit) return TooLarge("request body", max_body_bytes);
  if (ec == http::error::header_limit) return TooLarge("request line with its headers", HeaderLimit(max_body_bytes));
  return Api::Error(400, "malformed HTTP request: " + ec.message());
}

HttpResponse Answer(const Api& api, const http::request<http::string_body>& req, size_t max_body_bytes) {
  // An article in the target (GET /docId/getDocId?json=...) has the body's limit.
  if (req.target().size() > max_body_bytes) return TooLarge("request target", max_body_bytes);
  const HttpRequest request{std::string_view(req.method_string().data(), req.method_string().size()),
                            std::string_view(req.target().data(), req.target().size()), req.body()};
  return api.Handle(request);
}

namespace {

void SetFields(const HttpResponse& r, http::fields* fields) {
  fields->set(http::field::server, "simdex");
  if (!r.content_type.empty()) fields->set(http::field::content_type, r.content_type);
  for (const auto& [name, value] : r.headers) fields->set(name, value);
  if (r.status == 503) fields->set(http::field::retry_after, "1");
}

}  // namespace

http::response<http::empty_body> MakeStreamedHeader(const HttpResponse& r, unsigned version, bool keep_alive) {
  http::response<http::empty_body> res{static_cast<http::status>(r.status), version};
  SetFields(r, &res.base());
  // HTTP/1.0 has no chunks: the body ends where the connection does.
  res.keep_alive(keep_alive && version >= 11);
  if (version >= 11) res.chunked(true);
  return res;
}

http::response<http::string_body> MakeResponse(HttpResponse r, unsigned version, bool keep_alive) {
  http::response<http::string_body> res{static_cast<http::status>(r.status), version};
  SetFields(r, &res.base());
  res.keep_alive(keep_alive);
  res.body() = std::move(r.body);
  res.prepare_payload();
  return res;
}

}  // namespace simdex::service
