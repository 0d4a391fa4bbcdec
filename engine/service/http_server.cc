// HttpServer (include/simdex/http_server.h): Boost.Beast sessions over
// Boost.Asio. A listener accepts connections on a strand; each session
// reads one request at a time with a fresh parser (body limit set before
// the body is read), answers it through Api::Handle, writes the response,
// and reads the next one unless the connection is closing.
#include "simdex/http_server.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "engine/service/api.h"
#include "engine/service/metrics.h"

namespace simdex {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

constexpr size_t kReadBuffer = 16 << 10;
constexpr size_t kHeaderRoom = 64 << 10;  // the header limit beyond --max-body

struct Context {
  HttpServerOptions options;
  service::Metrics metrics;
  std::unique_ptr<service::Api> api;

  void Log(std::string_view line) const {
    if (options.log) options.log(line);
  }
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, Context* context) : stream_(std::move(socket)), context_(context) {
    // Beast reads into the buffer's free capacity, 512 bytes at least: from
    // an empty buffer a 2 KB article took five recvmsg calls.
    buffer_.reserve(kReadBuffer);
  }

  void Run() { net::dispatch(stream_.get_executor(), beast::bind_front_handler(&Session::Read, shared_from_this())); }

 private:
  uint32_t HeaderLimit() const {
    return static_cast<uint32_t>(std::min<size_t>(context_->options.max_body_bytes + kHeaderRoom, UINT32_MAX));
  }
  // 413, and the connection closed: the rest of the request is not read.
  void TooLarge(const char* what, size_t limit) {
    Send(Response(service::Api::Error(413, std::string("the ") + what + " is over the limit of " +
                                               std::to_string(limit) + " bytes"),
                  11, /*keep_alive=*/false));
  }

  void Read() {
    parser_.emplace();
    parser_->body_limit(context_->options.max_body_bytes);
    // GET /docId/getDocId carries the article in its target: the request
    // line may be as long as a body, plus room for the headers.
    parser_->header_limit(HeaderLimit());
    stream_.expires_after(std::chrono::seconds(context_->options.idle_timeout_seconds));
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&Session::OnRead, shared_from_this()));
  }

  void OnRead(beast::error_code ec, size_t) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == net::error::operation_aborted ||
        ec == net::error::connection_reset || ec == net::error::eof) {
      return Close();
    }
    if (ec == http::error::body_limit) return TooLarge("request body", context_->options.max_body_bytes);
    if (ec == http::error::header_limit) return TooLarge("request line with its headers", HeaderLimit());
    if (ec) return Send(Response(service::Api::Error(400, "malformed HTTP request: " + ec.message()), 11, false));
    const auto start = std::chrono::steady_clock::now();
    http::request<http::string_body> req = parser_->release();
    // An article in the target (GET /docId/getDocId?json=...) has the body's limit.
    if (req.target().size() > context_->options.max_body_bytes) {
      return TooLarge("request target", context_->options.max_body_bytes);
    }
    const service::HttpRequest request{std::string_view(req.method_string().data(), req.method_string().size()),
                                       std::string_view(req.target().data(), req.target().size()), req.body()};
    service::HttpResponse r = context_->api->Handle(request);
    if (r.status >= 500) context_->Log("500 " + std::string(request.target.substr(0, 200)) + ": " + r.body);
    context_->metrics.Record(r.route, r.status,
                             std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    Send(Response(std::move(r), req.version(), req.keep_alive()));
  }

  static http::response<http::string_body> Response(service::HttpResponse r, unsigned version, bool keep_alive) {
    http::response<http::string_body> res{static_cast<http::status>(r.status), version};
    res.set(http::field::server, "simdex");
    res.set(http::field::content_type, r.content_type);
    res.keep_alive(keep_alive);
    res.body() = std::move(r.body);
    res.prepare_payload();
    return res;
  }

  void Send(http::response<http::string_body>&& res) {
    response_.emplace(std::move(res));
    http::async_write(stream_, *response_,
                      beast::bind_front_handler(&Session::OnWrite, shared_from_this(), response_->need_eof()));
  }

  void OnWrite(bool close, beast::error_code ec, size_t) {
    if (ec) return;  // the peer went away
    if (close) return Close();
    response_.reset();
    Read();
  }

  void Close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::optional<http::response<http::string_body>> response_;
  Context* context_;
};

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(net::io_context& ioc, Context* context) : ioc_(ioc), acceptor_(net::make_strand(ioc)), context_(context) {}

  Status Bind(const tcp::endpoint& endpoint) {
    beast::error_code ec;
    const std::string where = endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
    if (ec) return Status::IOError("cannot listen on " + where + ": " + ec.message());
    return Status::OK();
  }

  uint16_t port() const { return acceptor_.local_endpoint().port(); }

  void Accept() {
    acceptor_.async_accept(net::make_strand(ioc_), beast::bind_front_handler(&Listener::OnAccept, shared_from_this()));
  }

  void Close() {
    net::dispatch(acceptor_.get_executor(), [self = shared_from_this()] {
      beast::error_code ec;
      self->acceptor_.close(ec);
    });
  }

 private:
  void OnAccept(beast::error_code ec, tcp::socket socket) {
    if (!acceptor_.is_open()) return;
    if (!ec) {
      socket.set_option(tcp::no_delay(true), ec);
      std::make_shared<Session>(std::move(socket), context_)->Run();
    } else {
      context_->Log("accept: " + ec.message());
    }
    Accept();
  }

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  Context* context_;
};

}  // namespace

struct HttpServer::Rep {
  // Declared first, destroyed last: the sessions the io_context destroys
  // point to it.
  Context context;
  std::unique_ptr<net::io_context> ioc;
  std::shared_ptr<Listener> listener;
  std::vector<std::thread> threads;
  uint16_t port = 0;
  std::mutex stop_mu;
  bool stopped = false;
};

HttpServer::HttpServer(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}

HttpServer::~HttpServer() { Stop(); }

uint16_t HttpServer::port() const { return rep_->port; }

Status HttpServer::Start(DocIdService* service, const HttpServerOptions& options, std::unique_ptr<HttpServer>* out) {
  if (options.threads < 1) return Status::InvalidArgument("threads must be at least 1");
  if (options.idle_timeout_seconds < 1) return Status::InvalidArgument("the idle timeout must be at least 1 s");
  beast::error_code ec;
  const net::ip::address address = net::ip::make_address(options.listen, ec);
  if (ec) return Status::InvalidArgument("'" + options.listen + "' is not an IP address");
  auto rep = std::make_unique<Rep>();
  rep->context.options = options;
  rep->context.api = std::make_unique<service::Api>(service, &rep->context.metrics);
  rep->ioc = std::make_unique<net::io_context>(options.threads);
  rep->listener = std::make_shared<Listener>(*rep->ioc, &rep->context);
  SIMDEX_RETURN_IF_ERROR(rep->listener->Bind(tcp::endpoint(address, options.port)));
  rep->port = rep->listener->port();
  rep->listener->Accept();
  for (int i = 0; i < options.threads; ++i) {
    rep->threads.emplace_back([ioc = rep->ioc.get()] { ioc->run(); });
  }
  rep->context.Log("listening on " + options.listen + ":" + std::to_string(rep->port) + " with " +
                   std::to_string(options.threads) + " threads");
  out->reset(new HttpServer(std::move(rep)));
  return Status::OK();
}

void HttpServer::Stop() {
  std::lock_guard<std::mutex> lock(rep_->stop_mu);
  if (rep_->stopped) return;
  rep_->stopped = true;
  rep_->listener->Close();
  rep_->ioc->stop();
  for (std::thread& t : rep_->threads) t.join();
  rep_->listener.reset();
  rep_->ioc.reset();  // destroys the sessions still waiting on their sockets
  rep_->context.Log("stopped");
}

}  // namespace simdex
