// A blocking HTTP/1.1 client for the service tests (Boost.Beast): one
// keep-alive connection to 127.0.0.1:port.
#ifndef SIMDEX_TESTS_SERVICE_HTTP_CLIENT_H_
#define SIMDEX_TESTS_SERVICE_HTTP_CLIENT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace simdex::servicetest {

struct HttpReply {
  int status = 0;  // 0: the connection failed
  std::string content_type;
  std::string body;
};

class HttpClient {
 public:
  explicit HttpClient(uint16_t port);
  ~HttpClient();

  // Sends one request and reads its reply; reconnects when the server
  // closed the connection. status 0 when that fails too.
  HttpReply Request(std::string_view method, std::string_view target, std::string_view body = {});
  HttpReply Post(std::string_view target, std::string_view body) { return Request("POST", target, body); }
  HttpReply Get(std::string_view target) { return Request("GET", target); }

  // Writes raw bytes and reads `replies` replies (pipelining, malformed
  // requests).
  std::vector<HttpReply> Raw(std::string_view bytes, int replies);

 private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

// The value of "key":"..." or "key":number in a one-level JSON answer ("" if absent).
std::string JsonField(std::string_view json, std::string_view key);

}  // namespace simdex::servicetest

#endif  // SIMDEX_TESTS_SERVICE_HTTP_CLIENT_H_
