#include "tests/service/http_client.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

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
  std::chrono::milliseconds timeout;
  net::io_context ioc;
  std::unique_ptr<beast::tcp_stream> stream;
  beast::flat_buffer buffer;

  // Starts one asynchronous operation through start(handler) and runs it to
  // its end: done, failed, or cancelled by the stream's timer after
  // `timeout` (beast::error::timeout). A failure drops the connection.
  template <typename Start>
  beast::error_code Run(Start&& start) {
    beast::error_code result = net::error::would_block;
    stream->expires_after(timeout);
    start([&result](beast::error_code ec, size_t = 0) { result = ec; });
    ioc.restart();
    ioc.run();
    return result;
  }

  std::string Connect() {
    stream = std::make_unique<beast::tcp_stream>(ioc);
    buffer.clear();
    const beast::error_code ec = Run([&](auto handler) {
      stream->async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port),
                            [handler](beast::error_code e) mutable { handler(e); });
    });
    if (ec) {
      stream.reset();
      return "connect: " + ec.message();
    }
    return "";
  }

  bool ReadReply(HttpReply* out) {
    http::response_parser<http::string_body> parser;
    parser.body_limit(256 << 20);
    const beast::error_code ec = Run([&](auto handler) { http::async_read(*stream, buffer, parser, handler); });
    if (ec) {
      out->error = "read: " + ec.message();
      stream.reset();
      return false;
    }
    const auto& res = parser.get();
    out->status = static_cast<int>(res.result_int());
    out->content_type = std::string(res[http::field::content_type]);
    out->body = res.body();
    out->keep_alive = res.keep_alive();
    if (!out->keep_alive) stream.reset();
    return true;
  }

  bool Write(std::string_view bytes, std::string* error) {
    const beast::error_code ec = Run([&](auto handler) {
      net::async_write(*stream, net::buffer(bytes.data(), bytes.size()), handler);
    });
    if (ec) {
      *error = "write: " + ec.message();
      stream.reset();
      return false;
    }
    return true;
  }
};

HttpClient::HttpClient(uint16_t port, std::chrono::milliseconds timeout) : rep_(std::make_unique<Rep>()) {
  rep_->port = port;
  rep_->timeout = timeout;
}
HttpClient::~HttpClient() = default;

bool HttpClient::Connect(std::string* error) {
  const std::string e = rep_->Connect();
  if (error != nullptr) *error = e;
  return e.empty();
}

HttpReply HttpClient::Request(std::string_view method, std::string_view target, std::string_view body,
                              std::string_view extra_headers) {
  HttpReply reply;
  if (!rep_->stream) {
    reply.error = rep_->Connect();
    if (!reply.error.empty()) return reply;
  }
  std::string bytes = std::string(method) + " " + std::string(target) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  bytes += extra_headers;
  if (!body.empty() || method == "POST") {
    bytes += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  }
  bytes += "\r\n";
  bytes += body;
  if (rep_->Write(bytes, &reply.error)) rep_->ReadReply(&reply);
  return reply;
}

bool HttpClient::Send(std::string_view bytes) {
  if (!rep_->stream && !Connect()) return false;
  std::string error;
  return rep_->Write(bytes, &error);
}

std::vector<HttpReply> HttpClient::Read(int replies) {
  std::vector<HttpReply> out;
  for (int i = 0; i < replies && rep_->stream; ++i) {
    HttpReply r;
    if (!rep_->ReadReply(&r)) break;
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<HttpReply> HttpClient::Raw(std::string_view bytes, int replies) {
  if (!Send(bytes)) return {};
  return Read(replies);
}

bool HttpClient::ClosedByServer() {
  if (!rep_->stream) return false;
  if (rep_->buffer.size() > 0) return false;
  const beast::error_code ec = rep_->Run([&](auto handler) {
    rep_->stream->async_read_some(rep_->buffer.prepare(4096), handler);
  });
  rep_->stream.reset();
  return ec == net::error::eof || ec == net::error::connection_reset;
}

std::string HttpClient::ReadUntilClosed(bool* closed) {
  *closed = false;
  if (!rep_->stream) return "";
  for (;;) {
    const beast::error_code ec = rep_->Run([&](auto handler) {
      rep_->stream->async_read_some(rep_->buffer.prepare(4096), [&, handler](beast::error_code e, size_t n) mutable {
        rep_->buffer.commit(n);
        handler(e, n);
      });
    });
    if (ec) {
      *closed = ec == net::error::eof || ec == net::error::connection_reset;
      break;
    }
  }
  std::string bytes = beast::buffers_to_string(rep_->buffer.data());
  rep_->buffer.clear();
  rep_->stream.reset();
  return bytes;
}

int ConnectTo(uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int error = 0;
  if (connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    pollfd p{fd, POLLOUT, 0};
    socklen_t len = sizeof error;
    if (errno != EINPROGRESS || poll(&p, 1, 2000) != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0) {
      error = -1;
    }
  }
  if (error != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

size_t SendSome(int fd, std::string_view bytes, int ms) {
  size_t sent = 0;
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (sent < bytes.size() && std::chrono::steady_clock::now() < end) {
    const ssize_t n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<size_t>(n);
    } else if (n < 0 && errno == EAGAIN) {
      pollfd p{fd, POLLOUT, 0};
      poll(&p, 1, 10);
    } else {
      break;
    }
  }
  return sent;
}

std::string JsonField(std::string_view json, std::string_view key) {
  const std::string pattern = "\"" + std::string(key) + "\":";
  const size_t at = json.find(pattern);
  if (at == std::string_view::npos) return "";
  size_t i = at + pattern.size();
  if (i < json.size() && json[i] == '"') {
    const size_t end = json.find('"', i + 1);
    if (end == std::string_view::npos) return "";
    return std::string(json.substr(i + 1, end - i - 1));
  }
  const size_t end = json.find_first_of(",}", i);
  return std::string(json.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i));
}

std::vector<std::string> Lines(std::string_view body) {
  std::vector<std::string> lines;
  while (!body.empty()) {
    const size_t nl = body.find('\n');
    if (nl == std::string_view::npos) {
      ADD_FAILURE() << "the body does not end with a newline: ..." << body.substr(0, 200);
      lines.emplace_back(body);
      break;
    }
    lines.emplace_back(body.substr(0, nl));
    body.remove_prefix(nl + 1);
  }
  return lines;
}

}  // namespace simdex::servicetest
