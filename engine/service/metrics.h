// Metrics: request counters and latency histograms of the docId service's
// HTTP API, rendered with the service's own figures in the Prometheus text
// exposition format (version 0.0.4) at /metrics.
//
// Thread safety: Record() and Render() may be called concurrently from any
// number of threads (relaxed atomic counters; a render may see a request
// counted in one series and not yet in another).
#ifndef SIMDEX_ENGINE_SERVICE_METRICS_H_
#define SIMDEX_ENGINE_SERVICE_METRICS_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "engine/service/byte_budget.h"
#include "simdex/service.h"

namespace simdex::service {

enum class Route { kDocId, kGetDocId, kBatch, kQuery, kLookup, kStats, kHealth, kMetrics, kOther };
constexpr int kRoutes = 9;
// The route's label: "docid", "getDocId", "batch", "query", "lookup", "stats", "healthz", "metrics", "other".
const char* RouteName(Route route);

class Metrics {
 public:
  // Upper bounds of the latency buckets, in seconds (+Inf is implied).
  static constexpr std::array<double, 14> kBuckets = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
                                                      0.025,  0.05,    0.1,    0.25,  0.5,   1,     2.5};

  // One request answered with HTTP `status` after `seconds`.
  void Record(Route route, int status, double seconds);
  // accept() failed (out of descriptors, ...): simdex_http_accept_errors_total.
  void RecordAcceptError() { accept_errors_.fetch_add(1, std::memory_order_relaxed); }
  // A handler threw: simdex_http_exceptions_total.
  void RecordException() { exceptions_.fetch_add(1, std::memory_order_relaxed); }
  // A connection opened or closed: the gauge simdex_http_connections.
  void ConnectionOpened() { connections_.fetch_add(1, std::memory_order_relaxed); }
  void ConnectionClosed() { connections_.fetch_sub(1, std::memory_order_relaxed); }
  // A connection past --max-connections was answered 503 and closed:
  // simdex_http_connections_refused_total.
  void RecordConnectionRefused() { connections_refused_.fetch_add(1, std::memory_order_relaxed); }
  // The bytes the server holds for its connections (the gauge
  // simdex_http_buffered_bytes) and their limit come from `budget`, which
  // must outlive the Metrics. Without one, neither is rendered.
  void WatchBudget(const ByteBudget* budget) { budget_ = budget; }

  // The text of /metrics: simdex_http_requests_total{route,code},
  // simdex_http_request_duration_seconds{route} (histogram), the accept
  // errors, exceptions and open connections, and the
  // service's counters and gauges from `stats`, and the window and the
  // retention from `options`.
  std::string Render(const ServiceStats& stats, const ServiceOptions& options) const;

 private:
  // The status codes the API answers with; anything else counts as "other".
  static constexpr std::array<int, 15> kCodes = {200, 204, 400, 401, 403, 404, 405, 413,
                                                 415, 421, 431, 500, 501, 503, 0};
  static int CodeIndex(int status);

  std::atomic<uint64_t> requests_[kRoutes][kCodes.size()] = {};
  std::atomic<uint64_t> buckets_[kRoutes][kBuckets.size() + 1] = {};
  std::atomic<uint64_t> nanos_[kRoutes] = {};
  std::atomic<uint64_t> accept_errors_{0}, exceptions_{0}, connections_refused_{0};
  const ByteBudget* budget_ = nullptr;
  std::atomic<int64_t> connections_{0};
};

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_METRICS_H_
