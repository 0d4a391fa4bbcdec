// A blocking HTTP/1.1 client for the service tests (Boost.Beast): one
// keep-alive connection to 127.0.0.1:port.
//
// Every operation is bounded: connecting, writing and reading each give up
// after `timeout` (the reply then has status 0 and the connection is
// dropped), so a server that hangs or a reply that never ends fails the
// test instead of stalling it. A request is sent once: when the connection
// fails, the reply says so (status 0) and nothing is sent again, so a
// dropped keep-alive is seen and a POST is never sent twice.
#ifndef SIMDEX_TESTS_SERVICE_HTTP_CLIENT_H_
#define SIMDEX_TESTS_SERVICE_HTTP_CLIENT_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace simdex::servicetest {

struct HttpReply {
  int status = 0;  // 0: the connection failed or timed out (error says how)
  std::string content_type;
  std::string body;
  bool keep_alive = false;
  std::string error;
};

// Default bound of each connect, write and read.
constexpr std::chrono::seconds kClientTimeout{20};

class HttpClient {
 public:
  explicit HttpClient(uint16_t port, std::chrono::milliseconds timeout = kClientTimeout);
  ~HttpClient();

  // Sends one request on the open connection (connecting first when there
  // is none) and reads its reply. After a reply that closes the connection
  // (or a failure), the next request opens a new one.
  HttpReply Request(std::string_view method, std::string_view target, std::string_view body = {},
                    std::string_view extra_headers = {});
  HttpReply Post(std::string_view target, std::string_view body) { return Request("POST", target, body); }
  HttpReply Get(std::string_view target) { return Request("GET", target); }

  // Connects now; false (with a reason in *error) when that fails.
  bool Connect(std::string* error = nullptr);
  // Writes raw bytes (pipelined or malformed requests, or part of one);
  // false when the connection fails.
  bool Send(std::string_view bytes);
  // Reads up to `replies` replies; stops early at a failure or when the
  // server closes the connection.
  std::vector<HttpReply> Read(int replies);
  // Send() then Read().
  std::vector<HttpReply> Raw(std::string_view bytes, int replies);
  // True when the server closes the connection (end of stream or reset)
  // before sending anything more, within the timeout.
  bool ClosedByServer();
  // Every byte the server sends from now until it closes the connection
  // (*closed true) or a read times out (*closed false); the connection is
  // dropped after.
  std::string ReadUntilClosed(bool* closed);

 private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

// A TCP connection to 127.0.0.1:port, made within two seconds; -1 when
// refused or not made in time (a full listen queue may leave it pending).
// The descriptor is non-blocking; the caller closes it.
int ConnectTo(uint16_t port);
// Sends as much of `bytes` on a non-blocking descriptor as the connection
// takes within `ms`; the number of bytes sent.
size_t SendSome(int fd, std::string_view bytes, int ms);

// The value of "key":"..." or "key":number in a one-level JSON answer ("" if absent).
std::string JsonField(std::string_view json, std::string_view key);

// The lines of a JSON Lines body; adds a test failure (and returns what it
// has) when the body does not end with a newline.
std::vector<std::string> Lines(std::string_view body);

}  // namespace simdex::servicetest

#endif  // SIMDEX_TESTS_SERVICE_HTTP_CLIENT_H_
