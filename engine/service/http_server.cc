// HttpServer (include/simdex/http_server.h): Boost.Beast sessions over
// Boost.Asio. A listener accepts connections on a strand; each session
// reads one request at a time with a fresh RequestParser (its limits set
// before anything is read; http_request.h), answers it through
// Api::Handle, writes the response, and reads the next one unless the
// connection is closing.
//
// What keeps it serving:
// - accept() failures (out of descriptors: EMFILE, ENFILE) pause the
//   accept loop on a timer, 10 ms doubling to 1 s, back to none at the next
//   success, instead of retrying at once (which spun a core and wrote a
//   log line per attempt); the open connections are served meanwhile.
//   Logged at most once per 10 s with the count of errors left out.
// - A handler that throws is answered 500; an exception that escapes to an
//   I/O thread is logged and the thread runs the io_context again (Asio's
//   documented pattern).
// - A connection closed after an error answer (413, 431, 400) first reads
//   and discards what the client still sends, for a bounded time, so that
//   the kernel does not reset the connection over unread data and drop the
//   answer before the client has read it.
// - Stop() closes the listener (new connections are refused), closes the
//   idle connections, lets the requests in progress finish, then joins.
#include "simdex/http_server.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "engine/service/api.h"
#include "engine/service/http_request.h"
#include "engine/service/metrics.h"

namespace simdex {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

constexpr size_t kReadBuffer = 16 << 10;
constexpr auto kFirstAcceptPause = std::chrono::milliseconds(10);
constexpr auto kLastAcceptPause = std::chrono::milliseconds(1000);
constexpr auto kLogInterval = std::chrono::seconds(10);
// After an error answer: how long, and how much, the rest of the request
// is read and dropped before the connection is closed.
constexpr auto kLingerTime = std::chrono::seconds(2);
constexpr size_t kLingerBytes = size_t{4} << 20;

// At most one line per interval; counts the ones left out.
class LogLimiter {
 public:
  // True when a line may be written now; *suppressed is then the number of
  // lines left out since the last one.
  bool Allow(uint64_t* suppressed) {
    std::lock_guard<std::mutex> lock(mu_);
    const auto now = Clock::now();
    if (logged_ && now - last_ < kLogInterval) {
      ++suppressed_;
      return false;
    }
    logged_ = true;
    last_ = now;
    *suppressed = suppressed_;
    suppressed_ = 0;
    return true;
  }

 private:
  std::mutex mu_;
  bool logged_ = false;
  Clock::time_point last_;
  uint64_t suppressed_ = 0;
};

std::string Suppressed(uint64_t n) {
  return n == 0 ? "" : " (" + std::to_string(n) + " more since the last line)";
}

class Session;

struct Context {
  HttpServerOptions options;
  service::Metrics metrics;
  std::unique_ptr<service::Api> api;
  LogLimiter exception_log;
  LogLimiter error_log;  // answers 500 and 503

  // The open sessions, so that Stop() can drain them.
  std::mutex sessions_mu;
  std::condition_variable sessions_cv;
  std::map<uint64_t, std::weak_ptr<Session>> sessions;  // guarded by sessions_mu
  uint64_t next_session = 0;                            // guarded by sessions_mu
  bool stopping = false;                                // guarded by sessions_mu

  void Log(std::string_view line) const {
    if (options.log) options.log(line);
  }
  void LogException(const std::string& where, const char* what) {
    metrics.RecordException();
    uint64_t suppressed = 0;
    if (exception_log.Allow(&suppressed)) Log("exception " + where + ": " + what + Suppressed(suppressed));
  }
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, Context* context) : stream_(std::move(socket)), context_(context) {
    // Beast reads into the buffer's free capacity, 512 bytes at least: from
    // an empty buffer a 2 KB article took five recvmsg calls.
    buffer_.reserve(kReadBuffer);
    context_->metrics.ConnectionOpened();
  }

  ~Session() {
    context_->metrics.ConnectionClosed();
    std::lock_guard<std::mutex> lock(context_->sessions_mu);
    context_->sessions.erase(id_);
    context_->sessions_cv.notify_all();
  }

  void Run() {
    bool stopping;
    {
      std::lock_guard<std::mutex> lock(context_->sessions_mu);
      id_ = context_->next_session++;
      context_->sessions[id_] = weak_from_this();
      stopping = context_->stopping;
    }
    net::dispatch(stream_.get_executor(), [self = shared_from_this(), stopping] {
      if (stopping) self->draining_ = true;
      self->Read();
    });
  }

  // Stop(): close the connection if it waits for a request, else answer the
  // one in progress and close.
  void Drain() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      self->draining_ = true;
      // Waiting for a request of which no byte has arrived: close now.
      beast::error_code ec;
      if (self->reading_ && !self->parser_->got_some() && self->buffer_.size() == 0 &&
          self->stream_.socket().available(ec) == 0) {
        self->stream_.socket().cancel(ec);
      }
    });
  }

 private:
  void Read() {
    if (draining_ && buffer_.size() == 0) return Close();
    parser_.emplace(context_->options.max_body_bytes);
    stream_.expires_after(std::chrono::seconds(context_->options.idle_timeout_seconds));
    reading_ = true;
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&Session::OnRead, shared_from_this()));
  }

  void OnRead(beast::error_code ec, size_t) {
    reading_ = false;
    if (ec) {
      std::optional<service::HttpResponse> error =
          service::ParseErrorResponse(*parser_, ec, context_->options.max_body_bytes);
      if (!error) return Close();
      Record(*error, Clock::now());
      linger_ = true;  // the rest of the request may be on its way
      return Send(service::MakeResponse(std::move(*error), 11, /*keep_alive=*/false));
    }
    const auto start = Clock::now();
    http::request<http::string_body> req = parser_->release();
    service::HttpResponse r;
    try {
      r = service::Answer(*context_->api, req, context_->options.max_body_bytes);
    } catch (const std::exception& e) {
      context_->LogException(std::string(req.target().substr(0, 200)), e.what());
      r = service::Api::Error(500, "internal error");
    }
    uint64_t suppressed = 0;
    if (r.status >= 500 && context_->error_log.Allow(&suppressed)) {
      context_->Log(std::to_string(r.status) + " " + std::string(req.target().substr(0, 200)) + ": " +
                    r.body.substr(0, 500) + Suppressed(suppressed));
    }
    Record(r, start);
    Send(service::MakeResponse(std::move(r), req.version(), req.keep_alive() && !draining_));
  }

  void Record(const service::HttpResponse& r, Clock::time_point start) {
    context_->metrics.Record(r.route, r.status, std::chrono::duration<double>(Clock::now() - start).count());
  }

  void Send(http::response<http::string_body>&& res) {
    response_.emplace(std::move(res));
    http::async_write(stream_, *response_,
                      beast::bind_front_handler(&Session::OnWrite, shared_from_this(), response_->need_eof()));
  }

  void OnWrite(bool close, beast::error_code ec, size_t) {
    if (ec) return;  // the peer went away
    response_.reset();
    if (close) return linger_ ? Linger() : Close();
    Read();
  }

  // After an error answer: end our side, then drop what the client still
  // sends until it closes its side (bounded in time and bytes); the socket
  // closes when the session ends.
  void Linger() {
    Close();
    stream_.expires_after(kLingerTime);
    buffer_.clear();
    DropInput(beast::error_code(), 0);
  }

  void DropInput(beast::error_code ec, size_t n) {
    dropped_ += n;
    if (ec || dropped_ > kLingerBytes) return;
    buffer_.consume(buffer_.size());
    stream_.async_read_some(buffer_.prepare(kReadBuffer),
                            beast::bind_front_handler(&Session::DropInput, shared_from_this()));
  }

  void Close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<service::RequestParser> parser_;
  std::optional<http::response<http::string_body>> response_;
  Context* context_;
  uint64_t id_ = 0;
  bool reading_ = false;   // an async_read is pending
  bool draining_ = false;  // Stop(): close after the current request
  bool linger_ = false;    // closing after an error answer
  size_t dropped_ = 0;
};

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(net::io_context& ioc, Context* context)
      : ioc_(ioc), acceptor_(net::make_strand(ioc)), pause_timer_(acceptor_.get_executor()), context_(context) {}

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
      self->pause_timer_.cancel();
    });
  }

 private:
  void OnAccept(beast::error_code ec, tcp::socket socket) {
    if (!acceptor_.is_open()) return;
    if (!ec) {
      if (errors_ > 0) {
        context_->Log("accepting connections again after " + std::to_string(errors_) + " accept errors");
        errors_ = 0;
        pause_ = {};
      }
      socket.set_option(tcp::no_delay(true), ec);
      std::make_shared<Session>(std::move(socket), context_)->Run();
      return Accept();
    }
    // Out of descriptors the listening socket stays readable and accept
    // fails at once, again and again: pause before the next attempt.
    context_->metrics.RecordAcceptError();
    ++errors_;
    pause_ = pause_ == std::chrono::milliseconds{} ? kFirstAcceptPause : std::min(2 * pause_, kLastAcceptPause);
    uint64_t suppressed = 0;
    if (log_.Allow(&suppressed)) {
      context_->Log("accept: " + ec.message() + "; pausing " + std::to_string(pause_.count()) +
                    " ms between attempts, serving the open connections" + Suppressed(suppressed));
    }
    pause_timer_.expires_after(pause_);
    pause_timer_.async_wait([self = shared_from_this()](beast::error_code e) {
      if (!e && self->acceptor_.is_open()) self->Accept();
    });
  }

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  net::steady_timer pause_timer_;
  Context* context_;
  // Guarded by the acceptor's strand.
  uint64_t errors_ = 0;  // since the last success
  std::chrono::milliseconds pause_{};
  LogLimiter log_;
};

// An I/O thread: runs the io_context until it has no more work or is
// stopped; an exception that escapes a handler is logged and the thread
// runs it again.
void RunIo(net::io_context* ioc, Context* context) {
  for (;;) {
    try {
      ioc->run();
      return;
    } catch (const std::exception& e) {
      context->LogException("in an I/O thread", e.what());
    } catch (...) {
      context->LogException("in an I/O thread", "not a std::exception");
    }
  }
}

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
    rep->threads.emplace_back(RunIo, rep->ioc.get(), &rep->context);
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
  Context& c = rep_->context;
  rep_->listener->Close();
  {
    // Idle connections close now; a request in progress is answered first
    // (one still being received has the idle timeout to arrive).
    std::vector<std::shared_ptr<Session>> open;
    {
      std::lock_guard<std::mutex> sessions(c.sessions_mu);
      c.stopping = true;
      for (auto& [id, weak] : c.sessions) {
        if (std::shared_ptr<Session> s = weak.lock()) open.push_back(std::move(s));
      }
    }
    for (const auto& s : open) s->Drain();
    open.clear();  // a session's last reference may go here: not under sessions_mu
    std::unique_lock<std::mutex> sessions(c.sessions_mu);
    c.sessions_cv.wait_for(sessions, std::chrono::seconds(c.options.idle_timeout_seconds + 1),
                           [&] { return c.sessions.empty(); });
  }
  rep_->ioc->stop();
  for (std::thread& t : rep_->threads) t.join();
  rep_->listener.reset();
  rep_->ioc.reset();  // destroys the sessions still waiting on their sockets
  c.Log("stopped");
}

}  // namespace simdex
