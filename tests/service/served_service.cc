#include "tests/service/served_service.h"

#include <gtest/gtest.h>

#include <cctype>

namespace simdex::servicetest {

ServedService::ServedService(ServiceOptions service, HttpServerOptions http) {
  if (service.data_dir.empty()) service.data_dir = dir_.path();
  Status s = DocIdService::Open(service, &service_);
  if (!s.ok()) {
    ADD_FAILURE() << "cannot open the service: " << s.ToString();
    return;
  }
  http.port = 0;
  s = HttpServer::Start(service_.get(), http, &server_);
  if (!s.ok()) ADD_FAILURE() << "cannot start the server: " << s.ToString();
}

ServedService::~ServedService() {
  server_.reset();
  service_.reset();
}

namespace {

std::string Escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::string ArticleJson(std::string_view id, std::string_view url, std::string_view title, std::string_view content,
                        std::string_view extra) {
  std::string json = "{";
  if (!id.empty()) json += "\"id\":" + std::string(id) + ",";
  json += "\"url\":\"" + Escape(url) + "\",\"title\":\"" + Escape(title) + "\",\"content\":\"" + Escape(content) + "\"";
  json += extra;
  return json + "}";
}

std::string UrlEncode(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

}  // namespace simdex::servicetest
