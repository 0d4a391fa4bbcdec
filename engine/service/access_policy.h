// AccessPolicy: who may use the docId service, decided from a request's
// header before its body is read. docs/reliability.md "Threat model" says
// what each check stops.
//
//   Host      An HTTP/1.1 request names one Host (else 400). It must be
//             the bound address, an IP address when bound to all of them
//             (0.0.0.0, ::), `localhost` (or a name under .localhost)
//             when bound to loopback or all, or a name of allowed_hosts
//             ("*": any): else 421. This stops DNS rebinding: a web page
//             whose own name now points at 127.0.0.1 still sends its name.
//   Origin    A browser's request from a web page carries an Origin (and
//             Sec-Fetch-Site). One not in allowed_origins is refused 403,
//             and so is a cross-site or same-site request without an
//             Origin (a link or an <img> from another site). Requests of
//             other clients (curl, libraries) carry neither.
//   Token     With a token, every request but GET /healthz and a CORS
//             preflight carries `Authorization: Bearer <token>` (else 401
//             with WWW-Authenticate).
//   Body      A POST body is JSON (application/json) or JSON Lines
//             (application/x-ndjson, application/jsonl); else 415. Web
//             pages can send text/plain, form and multipart bodies to any
//             address without asking (CORS "simple" requests): JSON needs
//             a preflight, which the Origin check answers.
//
// An allowed Origin's requests are answered with
// Access-Control-Allow-Origin, and its preflights (OPTIONS) with 204 and
// the methods and headers the API takes.
//
// Thread safety: const after Create(); Check() may be called concurrently.
#ifndef SIMDEX_ENGINE_SERVICE_ACCESS_POLICY_H_
#define SIMDEX_ENGINE_SERVICE_ACCESS_POLICY_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/ip/address.hpp>
#include <boost/beast/http/fields.hpp>
#include <boost/beast/http/message.hpp>

#include "engine/service/api.h"
#include "simdex/status.h"

namespace simdex::service {

struct AccessOptions {
  // The address the server listens on.
  boost::asio::ip::address bound;
  // Host names (any case, no port) the server answers to besides its
  // address; "*": any Host.
  std::vector<std::string> allowed_hosts;
  // Origins ("https://app.example", "http://localhost:3000") whose web
  // pages may call the API; "*": any.
  std::vector<std::string> allowed_origins;
  // The bearer token every request but /healthz must carry; empty: none.
  std::string token;
};

class AccessPolicy {
 public:
  using Header = boost::beast::http::request_header<boost::beast::http::fields>;

  // InvalidArgument naming a malformed host name, origin or token.
  static Status Create(AccessOptions options, AccessPolicy* out);

  // The answer that ends a request with this header before its body is
  // read: a refusal (400, 401, 403, 415, 421) or a preflight's 204;
  // nullopt when the request goes on to the API.
  std::optional<HttpResponse> Check(const Header& header) const;

  // Adds the CORS headers an answer to this request carries (for an
  // allowed Origin; none otherwise).
  void AddCorsHeaders(const Header& header, HttpResponse* response) const;

 private:
  bool HostAllowed(std::string_view host) const;
  bool OriginAllowed(std::string_view origin) const;

  AccessOptions options_;
  bool any_host_ = false;
  bool any_origin_ = false;
};

// The host of a Host field value ("Example.COM:8080" -> "example.com",
// "[::1]:80" -> "::1", one trailing dot dropped); false when the value is
// not a host with an optional port.
bool ParseHostField(std::string_view value, std::string* host);

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_ACCESS_POLICY_H_
