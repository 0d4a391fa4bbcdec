#include "engine/service/http_request.h"

#include <algorithm>
#include <cstdint>

namespace simdex::service {

namespace http = boost::beast::http;
namespace net = boost::asio;

namespace {

uint32_t HeaderLimit(size_t max_body_bytes) {
  return static_cast<uint32_t>(std::min<size_t>(max_body_bytes + kHeaderRoom, UINT32_MAX));
}

}  // namespace

RequestParser::RequestParser(size_t max_body_bytes) {
  body_limit(max_body_bytes);
  // GET /docId/getDocId carries the article in its target: the request
  // line may be as long as a body, plus room for the headers.
  header_limit(HeaderLimit(max_body_bytes));
}

void RequestParser::on_field_impl(http::field name, boost::beast::string_view name_string,
                                  boost::beast::string_view value, boost::beast::error_code& ec) {
  const size_t bytes = name_string.size() + value.size();
  std::string what;
  if (bytes > kMaxFieldBytes) {
    what = "header field '" + std::string(name_string.substr(0, 64)) + "' is over the limit of " +
           std::to_string(kMaxFieldBytes) + " bytes";
  } else if (++fields_ > kMaxFields) {
    what = "the request has more than " + std::to_string(kMaxFields) + " header fields";
  } else if ((field_bytes_ += bytes) > kMaxFieldsBytes) {
    what = "the header fields are over the limit of " + std::to_string(kMaxFieldsBytes) + " bytes";
  }
  if (!what.empty()) {
    field_error_ = std::move(what);
    ec = http::error::header_limit;
    return;
  }
  // What request_parser itself does with a field.
  get().insert(name, name_string, value);
}

HttpResponse TooLarge(const char* what, size_t limit) {
  return Api::Error(413, std::string("the ") + what + " is over the limit of " + std::to_string(limit) + " bytes");
}

std::optional<HttpResponse> ParseErrorResponse(const RequestParser& parser, boost::beast::error_code ec,
                                               size_t max_body_bytes) {
  if (ec == http::error::end_of_stream || ec == boost::beast::error::timeout || ec == net::error::operation_aborted ||
      ec == net::error::connection_reset || ec == net::error::eof) {
    return std::nullopt;
  }
  if (!parser.field_error().empty()) return Api::Error(431, parser.field_error());
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

http::response<http::string_body> MakeResponse(HttpResponse r, unsigned version, bool keep_alive) {
  http::response<http::string_body> res{static_cast<http::status>(r.status), version};
  res.set(http::field::server, "simdex");
  res.set(http::field::content_type, r.content_type);
  if (r.status == 503) res.set(http::field::retry_after, "1");
  res.keep_alive(keep_alive);
  res.body() = std::move(r.body);
  res.prepare_payload();
  return res;
}

}  // namespace simdex::service
