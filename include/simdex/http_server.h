// HttpServer: the docId service (simdex/service.h) over HTTP/1.1, with
// JSON in and out. docs/service.md documents the routes.
//
// Built on Boost.Beast and Boost.Asio: asynchronous I/O on a fixed number of
// threads, so thousands of keep-alive connections cost no thread each, and
// the request parser enforces its limits before anything is buffered: the
// body (413), the request line and header (413), each header field (431);
// docs/service.md lists them. Requests are answered on the I/O threads; a
// connection's requests are answered in order (HTTP/1.1 pipelining
// included). Out of file descriptors, accepting pauses (10 ms doubling to
// 1 s) while the open connections are served; a handler that throws is
// answered 500 and the server serves on.
//
//   HttpServerOptions o;  o.port = 8080;
//   std::unique_ptr<HttpServer> server;
//   Status s = HttpServer::Start(service.get(), o, &server);
//   ...
//   server->Stop();
//
// Thread safety: port() and Stop() may be called from any thread; Stop() is
// idempotent and the destructor calls it.
#ifndef SIMDEX_HTTP_SERVER_H_
#define SIMDEX_HTTP_SERVER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "simdex/service.h"
#include "simdex/status.h"

namespace simdex {

struct HttpServerOptions {
  // Address to listen on: loopback unless told otherwise ("0.0.0.0", "::").
  std::string listen = "127.0.0.1";
  // 0: any free port (port() tells which).
  uint16_t port = 8080;
  // I/O threads answering requests.
  int threads = 2;
  // Largest request body (and request target); a larger one is answered 413
  // and the connection closed.
  size_t max_body_bytes = size_t{1} << 20;
  // Seconds a connection may stay idle (or take to send a request).
  int idle_timeout_seconds = 60;
  // Receives one line per event worth telling an operator (start, stop;
  // answers 500 and 503, accept errors and exceptions at most once per 10 s
  // each, with the count of those left out); called from server threads.
  // May be empty.
  std::function<void(std::string_view line)> log;
};

class HttpServer {
 public:
  // Binds and starts answering. IOError when the address cannot be bound
  // (in use, not local); InvalidArgument for a bad address or thread count.
  // REQUIRES: service outlives the server.
  static Status Start(DocIdService* service, const HttpServerOptions& options, std::unique_ptr<HttpServer>* out);
  ~HttpServer();

  // The bound port.
  uint16_t port() const;

  // Stops accepting (new connections are refused), closes the idle
  // connections, lets the requests in progress finish (answered with
  // Connection: close; one still being received has the idle timeout to
  // arrive), then stops and joins the threads. Waits at most the idle
  // timeout plus a second for the connections.
  void Stop();

 private:
  struct Rep;
  explicit HttpServer(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace simdex

#endif  // SIMDEX_HTTP_SERVER_H_
