// HttpServer: the docId service (simdex/service.h) over HTTP/1.1, with
// JSON in and out. docs/service.md documents the routes.
//
// Built on Boost.Beast and Boost.Asio: asynchronous I/O on a fixed number of
// threads, so thousands of keep-alive connections cost no thread each, and
// the request parser enforces its limits before anything is buffered: the
// body (413), the request line and header (413), each header field (431),
// one reading of where a request ends (400, 501); docs/service.md lists
// them. A request's header is checked before its body is read: the Host,
// the Origin of a web page, the bearer token, a JSON body (421, 403, 401,
// 415; docs/reliability.md "The service's threat model"). Connections and
// the bytes held for them are bounded (503 beyond). Requests are answered
// on the I/O threads; a connection's requests are answered in order
// (HTTP/1.1 pipelining included). Out of file descriptors, accepting pauses
// (10 ms doubling to 1 s) while the open connections are served; a handler
// that throws is answered 500 and the server serves on.
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
#include <vector>

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
  // and the connection closed. At least kMinBodyBytes.
  size_t max_body_bytes = size_t{1} << 20;
  // Seconds a connection may stay idle (or take to send a request, or to
  // read a piece of an answer).
  int idle_timeout_seconds = 60;
  // Connections open at once; one more is answered 503 and closed.
  size_t max_connections = 1024;
  // Bytes held for all connections together: read buffers (16 KiB each),
  // request headers and bodies (a body's Content-Length before it is read,
  // max_body_bytes for a chunked one), answers being written (a batch's in
  // pieces of 64 KiB). A request that would go past it is answered 503 and
  // its connection closed. At least max_body_bytes + 128 KiB, so that one
  // request of every size fits.
  size_t max_buffered_bytes = size_t{128} << 20;
  // Seconds Stop() gives requests in progress before it closes their
  // connections.
  int stop_grace_seconds = 5;
  // Host names (no port) the server answers to besides its own address,
  // `localhost` (when listening on loopback or every address) and, when
  // listening on every address, any IP address; "*": any name. Other Host
  // fields are answered 421 (DNS rebinding).
  std::vector<std::string> allowed_hosts;
  // Origins of web pages that may call the API ("https://app.example");
  // "*": any. Requests from other pages are answered 403.
  std::vector<std::string> allowed_origins;
  // When set, every request but GET /healthz must carry
  // `Authorization: Bearer <token>` (else 401). No spaces or control
  // characters.
  std::string token;
  // Receives one line per event worth telling an operator (start, stop;
  // answers 500 and 503, accept errors and exceptions at most once per 10 s
  // each, with the count of those left out); called from server threads.
  // May be empty.
  std::function<void(std::string_view line)> log;
};

// The smallest max_body_bytes: room for any route's request target.
constexpr size_t kMinBodyBytes = 1024;

class HttpServer {
 public:
  // Binds and starts answering. IOError when the address cannot be bound
  // (in use, not local); InvalidArgument for a bad address, thread count,
  // limit, allowed host or origin, or token.
  // REQUIRES: service outlives the server.
  static Status Start(DocIdService* service, const HttpServerOptions& options, std::unique_ptr<HttpServer>* out);
  ~HttpServer();

  // The bound port.
  uint16_t port() const;

  // Stops accepting (new connections are refused), closes the idle
  // connections, lets the requests in progress finish (answered with
  // Connection: close) for at most stop_grace_seconds, then closes every
  // connection, stops and joins the threads.
  void Stop();

 private:
  struct Rep;
  explicit HttpServer(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace simdex

#endif  // SIMDEX_HTTP_SERVER_H_
