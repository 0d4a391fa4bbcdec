#include "engine/service/access_policy.h"

#include <algorithm>
#include <cctype>


namespace simdex::service {

namespace http = boost::beast::http;
namespace ip = boost::asio::ip;

namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool AllDigits(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A reg-name of RFC 3986 as browsers send it: letters, digits, '-', '.',
// '_' (no user info, no percent-escapes).
bool IsHostName(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
  });
}

bool IsIpAddress(const std::string& host, ip::address* address) {
  boost::system::error_code ec;
  *address = ip::make_address(host, ec);
  return !ec;
}

bool IsLocalhostName(std::string_view host) {
  return host == "localhost" || (host.size() > 10 && host.ends_with(".localhost"));
}

// Beast 1.74 speaks boost::string_view.
std::string_view Sv(boost::beast::string_view s) { return {s.data(), s.size()}; }

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && Lower(s.substr(0, prefix.size())) == Lower(prefix);
}

std::string Quoted(std::string_view value) { return "'" + std::string(value.substr(0, 200)) + "'"; }

// Takes a time that depends on the length given, not on where the bytes
// differ. REQUIRES: !secret.empty().
bool ConstantTimeEquals(std::string_view given, std::string_view secret) {
  unsigned char diff = given.size() == secret.size() ? 0 : 1;
  for (size_t i = 0; i < given.size(); ++i) diff |= static_cast<unsigned char>(given[i] ^ secret[i % secret.size()]);
  return diff == 0;
}

bool JsonMediaType(std::string_view content_type) {
  const std::string type = Lower(Trim(content_type.substr(0, content_type.find(';'))));
  return type == "application/json" || type == "application/x-ndjson" || type == "application/jsonl";
}

// An origin as browsers serialize it: scheme://host[:port], lower case, no
// path.
bool IsOrigin(std::string_view origin) {
  const size_t sep = origin.find("://");
  if (sep == std::string_view::npos || sep == 0) return false;
  std::string host;
  return ParseHostField(origin.substr(sep + 3), &host) && origin == Lower(origin);
}

}  // namespace

bool ParseHostField(std::string_view value, std::string* host) {
  value = Trim(value);
  std::string_view name, port;
  if (value.starts_with('[')) {
    const size_t close = value.find(']');
    if (close == std::string_view::npos) return false;
    name = value.substr(1, close - 1);
    const std::string_view rest = value.substr(close + 1);
    if (!rest.empty() && !rest.starts_with(':')) return false;
    port = rest.empty() ? rest : rest.substr(1);
    ip::address address;
    if (!IsIpAddress(std::string(name), &address) || !address.is_v6()) return false;
  } else {
    const size_t colon = value.find(':');
    name = value.substr(0, colon);
    port = colon == std::string_view::npos ? std::string_view() : value.substr(colon + 1);
    if (!IsHostName(name)) return false;
  }
  if (!AllDigits(port) || port.size() > 5) return false;
  if (name.ends_with('.')) name.remove_suffix(1);
  if (name.empty()) return false;
  *host = Lower(name);
  return true;
}

Status AccessPolicy::Create(AccessOptions options, AccessPolicy* out) {
  AccessPolicy p;
  for (std::string& h : options.allowed_hosts) {
    if (h == "*") {
      p.any_host_ = true;
      continue;
    }
    std::string host;
    if (!ParseHostField(h, &host)) return Status::InvalidArgument("allowed host " + Quoted(h) + " is not a host name");
    h = host;
  }
  for (const std::string& o : options.allowed_origins) {
    if (o == "*") {
      p.any_origin_ = true;
    } else if (!IsOrigin(o)) {
      return Status::InvalidArgument("allowed origin " + Quoted(o) +
                                     " is not an origin: scheme://host[:port] in lower case, no path (and not null)");
    }
  }
  const std::string& t = options.token;
  if (std::any_of(t.begin(), t.end(), [](char c) { return c <= ' ' || c == 0x7f; })) {
    return Status::InvalidArgument("the token holds a space or a control character");
  }
  p.options_ = std::move(options);
  *out = std::move(p);
  return Status::OK();
}

bool AccessPolicy::HostAllowed(std::string_view host) const {
  if (any_host_) return true;
  const auto& allowed = options_.allowed_hosts;
  if (std::find(allowed.begin(), allowed.end(), host) != allowed.end()) return true;
  const ip::address& bound = options_.bound;
  ip::address address;
  if (IsIpAddress(std::string(host), &address)) return bound.is_unspecified() || address == bound;
  return IsLocalhostName(host) && (bound.is_loopback() || bound.is_unspecified());
}

bool AccessPolicy::OriginAllowed(std::string_view origin) const {
  const auto& allowed = options_.allowed_origins;
  return any_origin_ || std::find(allowed.begin(), allowed.end(), Lower(origin)) != allowed.end();
}

std::optional<HttpResponse> AccessPolicy::Check(const Header& h) const {
  // Host: exactly one in HTTP/1.1 (RFC 9112 section 3.2).
  const auto hosts = h.equal_range(http::field::host);
  const size_t host_fields = static_cast<size_t>(std::distance(hosts.first, hosts.second));
  if (host_fields > 1) return Api::Error(400, "the request has more than one Host field");
  if (host_fields == 0 && h.version() >= 11) return Api::Error(400, "an HTTP/1.1 request must have a Host field");
  if (host_fields == 1) {
    const std::string_view value = Sv(h[http::field::host]);
    std::string host;
    if (!ParseHostField(value, &host)) return Api::Error(400, "the Host field " + Quoted(value) + " is not a host");
    if (!HostAllowed(host)) {
      return Api::Error(421, "host " + Quoted(host) +
                                 " is not this server's: name it by its address, or give the name with --allowed-hosts");
    }
  }

  // Origin: web pages only where the operator allowed them.
  const bool has_origin = h.find(http::field::origin) != h.end();
  const std::string_view origin = Sv(h[http::field::origin]);
  if (has_origin && !OriginAllowed(origin)) {
    return Api::Error(403, "origin " + Quoted(origin) + " is not allowed (--allowed-origins)");
  }
  const std::string site = Lower(Trim(Sv(h["Sec-Fetch-Site"])));
  if (!has_origin && (site == "cross-site" || site == "same-site")) {
    return Api::Error(403, "a request from another site's web page is not allowed (--allowed-origins)");
  }
  if (h.method() == http::verb::options && has_origin) {
    HttpResponse r;
    r.status = 204;
    r.content_type.clear();
    r.headers = {{"Access-Control-Allow-Methods", "GET, POST"},
                 {"Access-Control-Allow-Headers", "Authorization, Content-Type"},
                 {"Access-Control-Max-Age", "600"}};
    AddCorsHeaders(h, &r);
    return r;
  }

  // Token.
  const bool health = h.method() == http::verb::get && Path(Sv(h.target())) == "/healthz";
  if (!options_.token.empty() && !health) {
    const std::string_view authorization = Trim(Sv(h[http::field::authorization]));
    const bool bearer = authorization.size() > 7 && StartsWithNoCase(authorization, "Bearer ");
    if (!bearer || !ConstantTimeEquals(Trim(authorization.substr(7)), options_.token)) {
      HttpResponse r = Api::Error(401, bearer ? "the bearer token is not the server's"
                                              : "the request needs Authorization: Bearer <token> (--token-file)");
      r.headers.emplace_back("WWW-Authenticate", bearer ? "Bearer error=\"invalid_token\"" : "Bearer");
      return r;
    }
  }

  // A POST body is JSON.
  if (h.method() == http::verb::post) {
    const bool has_type = h.find(http::field::content_type) != h.end();
    const std::string_view type = Sv(h[http::field::content_type]);
    if (!has_type || !JsonMediaType(type)) {
      return Api::Error(415, "a POST body must be application/json (or application/x-ndjson for /v1/docid:batch); " +
                                 (has_type ? "Content-Type was " + Quoted(type) : std::string("it had no Content-Type")));
    }
  }
  return std::nullopt;
}

void AccessPolicy::AddCorsHeaders(const Header& h, HttpResponse* response) const {
  const auto origin = h.find(http::field::origin);
  if (origin == h.end() || !OriginAllowed(Sv(origin->value()))) return;
  response->headers.emplace_back("Access-Control-Allow-Origin", std::string(origin->value()));
  response->headers.emplace_back("Vary", "Origin");
}

}  // namespace simdex::service
