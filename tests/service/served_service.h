// A docId service in a temporary directory served over HTTP on a
// kernel-chosen loopback port, for the HTTP tests; stopped (server, then
// service) when it goes out of scope, also when a test fails.
#ifndef SIMDEX_TESTS_SERVICE_SERVED_SERVICE_H_
#define SIMDEX_TESTS_SERVICE_SERVED_SERVICE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "simdex/http_server.h"
#include "simdex/service.h"
#include "tests/index/test_data.h"

namespace simdex::servicetest {

class ServedService {
 public:
  // `service.data_dir` defaults to a temporary directory; `http.port` is
  // always 0. Opening or starting failures fail the test (ok() is false).
  explicit ServedService(ServiceOptions service = {}, HttpServerOptions http = {});
  ~ServedService();

  bool ok() const { return server_ != nullptr; }
  uint16_t port() const { return server_->port(); }
  DocIdService& service() { return *service_; }
  HttpServer& server() { return *server_; }

 private:
  testing::ScopedTempDir dir_;
  std::unique_ptr<DocIdService> service_;
  std::unique_ptr<HttpServer> server_;
};

// {"id":ID,"url":URL,"title":TITLE,"content":CONTENT EXTRA} with the
// strings JSON-escaped; no "id" when `id` is empty.
std::string ArticleJson(std::string_view id, std::string_view url, std::string_view title, std::string_view content,
                        std::string_view extra = "");
// %XX-escapes everything but letters, digits and -_.
std::string UrlEncode(std::string_view s);

}  // namespace simdex::servicetest

#endif  // SIMDEX_TESTS_SERVICE_SERVED_SERVICE_H_
