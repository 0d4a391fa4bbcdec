// Api: the docId service's HTTP API as a function from a request (method,
// target, body) to a response (status, content type, body), apart from the
// sockets (http_server.cc), so that tests can call it directly.
// docs/service.md documents every route with examples.
//
//   POST /v1/docid            one article (JSON object) -> its answer
//   GET  /docId/getDocId?json={...}   the same, for the seed's clients
//   POST /v1/docid:batch      JSON Lines of articles -> JSON Lines of answers, in order
//   POST /v1/query            fingerprints, texts or an article: searched, nothing inserted
//   GET  /v1/docid/{docId}    the docId's representative article
//   GET  /v1/article?id=JSON  the answer given to an article id
//   GET  /v1/stats            the service's figures as JSON
//   GET  /healthz             {"status":"ok"}
//   GET  /metrics             Prometheus text
//
// Errors are JSON, {"status":"error","error":"<one line>"}: 400 for
// malformed JSON, missing fields and wrong types, 404 for an unknown route
// or id, 405 for a known route with the wrong method, 413 and 431 (from
// the server) for a request over a limit, 503 when the database refuses a
// write or a read (IOError: disk full, no descriptors; nothing was
// acknowledged), 500 for corrupt state.
//
// Thread safety: Handle() may be called concurrently.
#ifndef SIMDEX_ENGINE_SERVICE_API_H_
#define SIMDEX_ENGINE_SERVICE_API_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/service/metrics.h"
#include "simdex/service.h"

namespace simdex::service {

struct HttpRequest {
  std::string_view method;  // "GET", "POST", ...
  std::string_view target;  // path and query, e.g. "/docId/getDocId?json=%7B..."
  std::string_view body;
};

// The rest of a body made in pieces: the answers of POST /v1/docid:batch
// are written as its lines are decided, so that a batch's answers are
// never held whole (a megabyte of bad lines answered 85 MB at once).
class BodyStream {
 public:
  virtual ~BodyStream() = default;
  // Replaces *piece with the next piece of the body (about kBodyPiece
  // bytes) and returns true; false when the body has ended. A piece may
  // end the body early with an error line (the store failed): then
  // failed() is true and the connection should close after it.
  virtual bool Next(std::string* piece) = 0;
  virtual bool failed() const = 0;
};

// The size of a streamed body's pieces.
constexpr size_t kBodyPiece = 64 << 10;

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";  // none when empty
  std::string body;  // ends with a newline; the first piece when `rest` is set
  Route route = Route::kOther;
  // Header fields beyond Content-Type and Content-Length.
  std::vector<std::pair<std::string, std::string>> headers;
  // The body's remaining pieces (null: `body` is all of it). REQUIRES: the
  // request's body outlives it.
  std::unique_ptr<BodyStream> rest;
};

class Api {
 public:
  // REQUIRES: service and metrics outlive the Api.
  Api(DocIdService* service, const Metrics* metrics);

  // The answer to a request. A streamed answer (`rest`) reads the
  // request's body as it goes.
  HttpResponse Handle(const HttpRequest& request) const;

  // A JSON error response ({"status":"error","error":message}).
  static HttpResponse Error(int status, std::string_view message, Route route = Route::kOther);

 private:
  HttpResponse DocId(std::string_view json, Route route) const;
  HttpResponse Batch(std::string_view body) const;
  friend class BatchAnswers;
  HttpResponse Query(std::string_view body) const;
  HttpResponse Representative(std::string_view hex) const;
  HttpResponse Lookup(std::string_view query) const;
  HttpResponse Stats() const;

  DocIdService* service_;
  const Metrics* metrics_;
};

// The path of a request target, without its query.
inline std::string_view Path(std::string_view target) { return target.substr(0, target.find('?')); }

// The whole body of an answer: its first piece and every piece of `rest`
// (tests and the fuzz target, which hold answers whole).
std::string WholeBody(HttpResponse* response);

// The decoded value of parameter `name` in the query part of `target`
// (after '?'); false when absent or badly escaped.
bool QueryParameter(std::string_view target, std::string_view name, std::string* value);

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_API_H_
