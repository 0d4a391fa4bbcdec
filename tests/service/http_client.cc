#include "tests/service/http_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace simdex::servicetest {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

struct HttpClient::Rep {
  uint16_t port;
  net::io_context ioc;
  std::unique_ptr<beast::tcp_stream> stream;
  beast::flat_buffer buffer;

  bool Connect() {
    beast::error_code ec;
    stream = std::make_unique<beast::tcp_stream>(ioc);
    stream->connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
    buffer.clear();
    return !ec;
  }

  bool ReadReply(HttpReply* out) {
    beast::error_code ec;
    http::response_parser<http::string_body> parser;
    parser.body_limit(256 << 20);
    http::read(*stream, buffer, parser, ec);
    if (ec) return false;
    const auto& res = parser.get();
    out->status = static_cast<int>(res.result_int());
    out->content_type = std::string(res[http::field::content_type]);
    out->body = res.body();
    if (!res.keep_alive()) stream.reset();
    return true;
  }
};

HttpClient::HttpClient(uint16_t port) : rep_(std::make_unique<Rep>()) { rep_->port = port; }
HttpClient::~HttpClient() = default;

HttpReply HttpClient::Request(std::string_view method, std::string_view target, std::string_view body) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (!rep_->stream && !rep_->Connect()) return {};
    http::request<http::string_body> req{http::string_to_verb(beast::string_view(method.data(), method.size())), std::string(target), 11};
    req.set(http::field::host, "127.0.0.1");
    req.keep_alive(true);
    if (!body.empty() || method == "POST") {
      req.set(http::field::content_type, "application/json");
      req.body() = std::string(body);
      req.prepare_payload();
    }
    beast::error_code ec;
    http::write(*rep_->stream, req, ec);
    HttpReply reply;
    if (!ec && rep_->ReadReply(&reply)) return reply;
    rep_->stream.reset();  // closed under us: once more on a new connection
  }
  return {};
}

std::vector<HttpReply> HttpClient::Raw(std::string_view bytes, int replies) {
  std::vector<HttpReply> out;
  if (!rep_->stream && !rep_->Connect()) return out;
  beast::error_code ec;
  net::write(rep_->stream->socket(), net::buffer(bytes.data(), bytes.size()), ec);
  for (int i = 0; i < replies && !ec && rep_->stream; ++i) {
    HttpReply r;
    if (!rep_->ReadReply(&r)) break;
    out.push_back(std::move(r));
  }
  return out;
}

std::string JsonField(std::string_view json, std::string_view key) {
  const std::string pattern = "\"" + std::string(key) + "\":";
  const size_t at = json.find(pattern);
  if (at == std::string_view::npos) return "";
  size_t i = at + pattern.size();
  if (i < json.size() && json[i] == '"') {
    const size_t end = json.find('"', i + 1);
    return std::string(json.substr(i + 1, end - i - 1));
  }
  const size_t end = json.find_first_of(",}", i);
  return std::string(json.substr(i, end - i));
}

}  // namespace simdex::servicetest
