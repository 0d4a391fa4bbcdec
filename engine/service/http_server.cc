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
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "engine/service/access_policy.h"
#include "engine/service/api.h"
#include "engine/service/byte_budget.h"
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
  // When a line may be written now: the end of that line, which counts the
  // lines left out since the last one (empty when none were); nullopt when
  // not.
  std::optional<std::string> Allow() {
    std::lock_guard<std::mutex> lock(mu_);
    const auto now = Clock::now();
    if (logged_ && now - last_ < kLogInterval) {
      ++suppressed_;
      return std::nullopt;
    }
    logged_ = true;
    last_ = now;
    const uint64_t n = std::exchange(suppressed_, 0);
    return n == 0 ? "" : " (" + std::to_string(n) + " more since the last line)";
  }

 private:
  std::mutex mu_;
  bool logged_ = false;
  Clock::time_point last_;
  uint64_t suppressed_ = 0;
};

class Session;

struct Context {
  Context(const HttpServerOptions& o) : options(o), budget(o.max_buffered_bytes) { metrics.WatchBudget(&budget); }

  HttpServerOptions options;
  service::AccessPolicy policy;
  service::ByteBudget budget;
  service::Metrics metrics;
  std::unique_ptr<service::Api> api;
  LogLimiter exception_log;
  LogLimiter error_log;  // answers 500 and 503
  std::atomic<size_t> connections{0};
  std::string busy_answer;  // the bytes of a 503 to a connection past max_connections

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
    if (auto more = exception_log.Allow()) Log("exception " + where + ": " + what + *more);
  }
};

// One connection: reads a request's header, checks it (AccessPolicy),
// takes what the request will hold from the byte budget, reads the body,
// answers, writes the answer (a streamed one piece by piece), and reads the
// next request unless the connection is closing.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, Context* context)
      : stream_(std::move(socket)),
        context_(context),
        charge_(&context->budget),
        buffer_(&charge_, service::HeaderLimit(context->options.max_body_bytes) + kReadBuffer) {
    context_->connections.fetch_add(1, std::memory_order_relaxed);
    context_->metrics.ConnectionOpened();
  }

  ~Session() {
    buffer_.Release();
    context_->connections.fetch_sub(1, std::memory_order_relaxed);
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
      // Beast reads into the buffer's free capacity, 512 bytes at least:
      // from an empty buffer a 2 KB article took five recvmsg calls.
      if (!self->buffer_.Reserve(kReadBuffer)) return self->Refuse(service::BudgetUsedUp(), Clock::now());
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
    buffer_.ShrinkTo(kReadBuffer);  // after a large request
    parser_.emplace(context_->options.max_body_bytes);
    stream_.expires_after(std::chrono::seconds(context_->options.idle_timeout_seconds));
    reading_ = true;
    http::async_read_header(stream_, buffer_, *parser_,
                            beast::bind_front_handler(&Session::OnHeader, shared_from_this()));
  }

  void OnHeader(beast::error_code ec, size_t header_bytes) {
    if (ec) return OnReadError(ec);
    const auto start = Clock::now();
    const auto& header = parser_->get().base();
    if (std::optional<service::HttpResponse> r = context_->policy.Check(header)) {
      // A preflight without a body keeps the connection; a refusal closes it.
      const bool keep = r->status == 204 && parser_->is_done() && parser_->get().keep_alive() && !draining_;
      reading_ = false;
      return keep ? Respond(std::move(*r), start, header.version(), true) : Refuse(std::move(*r), start);
    }
    // What the request will hold: its header (copied into the message) and
    // its body (its length, or the limit of a chunked one).
    const size_t body = parser_->content_length() ? static_cast<size_t>(*parser_->content_length())
                        : parser_->chunked()      ? context_->options.max_body_bytes
                                                  : 0;
    // The header is in the read buffer, already charged: its copy is
    // forced, so that a small request gets in when the budget is full.
    if (!charge_.TryTake(body)) {
      reading_ = false;
      return Refuse(service::BudgetUsedUp(), start);
    }
    charge_.Force(header_bytes);
    request_charge_ = header_bytes + body;
    if (!parser_->is_done() && beast::iequals(header[http::field::expect], "100-continue")) {
      // The client waits for a go-ahead before it sends the body.
      static const std::string kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
      return net::async_write(stream_, net::buffer(kContinue),
                              [self = shared_from_this()](beast::error_code e, size_t) {
                                if (!e) return self->ReadBody();
                                self->reading_ = false;  // the client went away
                                self->Close();
                              });
    }
    ReadBody();
  }

  void ReadBody() {
    if (parser_->is_done()) return OnRead(beast::error_code(), 0);
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&Session::OnRead, shared_from_this()));
  }

  void OnReadError(beast::error_code ec) {
    reading_ = false;
    std::optional<service::HttpResponse> error =
        service::ParseErrorResponse(*parser_, ec, context_->options.max_body_bytes);
    if (!error) return Close();
    Refuse(std::move(*error), Clock::now());
  }

  void OnRead(beast::error_code ec, size_t) {
    if (ec) return OnReadError(ec);
    reading_ = false;
    const auto start = Clock::now();
    request_.emplace(parser_->release());
    service::HttpResponse r;
    try {
      r = service::Answer(*context_->api, *request_, context_->options.max_body_bytes);
    } catch (const std::exception& e) {
      context_->LogException(std::string(request_->target().substr(0, 200)), e.what());
      r = service::Api::Error(500, "internal error");
    }
    context_->policy.AddCorsHeaders(request_->base(), &r);
    if (auto more = r.status >= 500 ? context_->error_log.Allow() : std::nullopt) {
      context_->Log(std::to_string(r.status) + " " + std::string(request_->target().substr(0, 200)) + ": " +
                    r.body.substr(0, 500) + *more);
    }
    Respond(std::move(r), start, request_->version(), request_->keep_alive() && !draining_);
  }

  // Answers a request that is not read to its end, and closes: what the
  // client still sends is read and dropped for a while (Linger).
  void Refuse(service::HttpResponse r, Clock::time_point start) {
    linger_ = true;
    Respond(std::move(r), start, 11, false);
  }

  void Record(const service::HttpResponse& r, Clock::time_point start) {
    context_->metrics.Record(r.route, r.status, std::chrono::duration<double>(Clock::now() - start).count());
  }

  void Respond(service::HttpResponse r, Clock::time_point start, unsigned version, bool keep_alive) {
    Record(r, start);
    if (r.rest != nullptr) return StartStream(std::move(r), version, keep_alive);
    response_.emplace(service::MakeResponse(std::move(r), version, keep_alive));
    EndRequest();  // the answer holds what it needs of the request
    Hold(response_->body().size());
    stream_.expires_after(std::chrono::seconds(context_->options.idle_timeout_seconds));
    http::async_write(stream_, *response_,
                      beast::bind_front_handler(&Session::OnWrite, shared_from_this(), response_->need_eof()));
  }

  void OnWrite(bool close, beast::error_code ec, size_t) {
    Hold(0);
    response_.reset();
    if (ec) return;  // the peer went away
    if (close) return linger_ ? Linger() : Close();
    Read();
  }

  // A streamed answer: its header, then each piece as it is made (a chunk
  // in HTTP/1.1), each written before the next is made.
  void StartStream(service::HttpResponse r, unsigned version, bool keep_alive) {
    stream_header_.emplace(service::MakeStreamedHeader(r, version, keep_alive));
    serializer_.emplace(*stream_header_);
    chunked_ = version >= 11;
    piece_ = std::move(r.body);
    body_ = std::move(r.rest);
    stream_.expires_after(std::chrono::seconds(context_->options.idle_timeout_seconds));
    http::async_write_header(stream_, *serializer_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return;
      self->WritePiece();
    });
  }

  void WritePiece() {
    Hold(piece_.size());
    stream_.expires_after(std::chrono::seconds(context_->options.idle_timeout_seconds));
    auto next = [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return;
      self->NextPiece();
    };
    if (chunked_) return net::async_write(stream_, http::make_chunk(net::buffer(piece_)), next);
    net::async_write(stream_, net::buffer(piece_), next);
  }

  void NextPiece() {
    Hold(0);
    bool more = false;
    try {
      while ((more = body_->Next(&piece_)) && piece_.empty()) {
      }
    } catch (const std::exception& e) {
      context_->LogException("in a streamed answer", e.what());
      return Close();  // the answer is cut short: the client sees no last chunk
    }
    if (more) return WritePiece();
    const bool close = body_->failed() || !stream_header_->keep_alive();
    body_.reset();
    EndRequest();
    auto end = [self = shared_from_this(), close](beast::error_code ec, size_t) {
      self->stream_header_.reset();
      if (ec) return;
      if (close) return self->Close();
      self->Read();
    };
    serializer_.reset();
    if (chunked_) return net::async_write(stream_, http::make_chunk_last(), end);
    end(beast::error_code(), 0);
  }

  // The request's bytes are no longer needed: give them back.
  void EndRequest() {
    request_.reset();
    charge_.Give(request_charge_);
    request_charge_ = 0;
  }

  // Charges the answer being written (n bytes; 0 when written).
  void Hold(size_t n) {
    charge_.Give(answer_charge_);
    charge_.Force(n);
    answer_charge_ = n;
  }

  // After an error answer: end our side, then drop what the client still
  // sends until it closes its side (bounded in time and bytes); the socket
  // closes when the session ends.
  void Linger() {
    Close();
    stream_.expires_after(kLingerTime);
    buffer_.consume(buffer_.size());
    DropInput(beast::error_code(), 0);
  }

  void DropInput(beast::error_code ec, size_t n) {
    dropped_ += n;
    // Without a buffer (the budget refused it) the socket just closes.
    if (ec || dropped_ > kLingerBytes || buffer_.capacity() == 0) return;
    buffer_.consume(buffer_.size());
    stream_.async_read_some(buffer_.prepare(std::min(buffer_.capacity(), kReadBuffer)),
                            beast::bind_front_handler(&Session::DropInput, shared_from_this()));
  }

  void Close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  }

  beast::tcp_stream stream_;
  Context* context_;
  service::ByteCharge charge_;  // declared before buffer_, which gives back to it
  service::BudgetedBuffer buffer_;
  std::optional<service::RequestParser> parser_;
  std::optional<http::request<http::string_body>> request_;
  size_t request_charge_ = 0;
  std::optional<http::response<http::string_body>> response_;
  size_t answer_charge_ = 0;
  // A streamed answer.
  std::optional<http::response<http::empty_body>> stream_header_;
  std::optional<http::response_serializer<http::empty_body>> serializer_;
  std::unique_ptr<service::BodyStream> body_;
  std::string piece_;
  bool chunked_ = false;
  uint64_t id_ = 0;
  bool reading_ = false;   // a read is pending
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
      if (context_->connections.load(std::memory_order_relaxed) >= context_->options.max_connections) {
        RefuseConnection(std::move(socket));
        return Accept();
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
    if (auto more = log_.Allow()) {
      context_->Log("accept: " + ec.message() + "; pausing " + std::to_string(pause_.count()) +
                    " ms between attempts, serving the open connections" + *more);
    }
    pause_timer_.expires_after(pause_);
    pause_timer_.async_wait([self = shared_from_this()](beast::error_code e) {
      if (!e && self->acceptor_.is_open()) self->Accept();
    });
  }

  // A connection past max_connections: a 503 written at once (a new
  // socket's send buffer is empty, so a non-blocking send of a few hundred
  // bytes goes whole or fails) and closed, holding nothing.
  void RefuseConnection(tcp::socket socket) {
    context_->metrics.RecordConnectionRefused();
    context_->metrics.Record(service::Route::kOther, 503, 0);
    beast::error_code ec;
    socket.non_blocking(true, ec);
    socket.send(net::buffer(context_->busy_answer), 0, ec);
    socket.shutdown(tcp::socket::shutdown_both, ec);
    socket.close(ec);
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
  explicit Rep(const HttpServerOptions& options) : context(options) {}

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
  if (options.max_body_bytes < kMinBodyBytes) {
    return Status::InvalidArgument("the body limit must be at least " + std::to_string(kMinBodyBytes) + " bytes");
  }
  if (options.max_connections < 1) return Status::InvalidArgument("the connection limit must be at least 1");
  const size_t least_buffered = options.max_body_bytes + 2 * service::kHeaderRoom;
  if (options.max_buffered_bytes < least_buffered) {
    return Status::InvalidArgument("the buffered-bytes limit must be at least the body limit + 128 KiB (" +
                                   std::to_string(least_buffered) + " bytes), so that one request of every size fits");
  }
  if (options.stop_grace_seconds < 0) return Status::InvalidArgument("the stop grace must not be negative");
  auto rep = std::make_unique<Rep>(options);
  SIMDEX_RETURN_IF_ERROR(service::AccessPolicy::Create(
      service::AccessOptions{address, options.allowed_hosts, options.allowed_origins, options.token},
      &rep->context.policy));
  std::ostringstream busy;
  busy << service::MakeResponse(
      service::Api::Error(503, "the server has as many connections open as it may (--max-connections): retry"), 11,
      false);
  rep->context.busy_answer = busy.str();
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
    // if it can be within the grace; then every connection closes.
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
    c.sessions_cv.wait_for(sessions, std::chrono::seconds(c.options.stop_grace_seconds),
                           [&] { return c.sessions.empty(); });
  }
  rep_->ioc->stop();
  for (std::thread& t : rep_->threads) t.join();
  rep_->listener.reset();
  rep_->ioc.reset();  // destroys the sessions still waiting on their sockets
  c.Log("stopped");
}

}  // namespace simdex
