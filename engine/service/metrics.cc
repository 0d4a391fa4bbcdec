#include "engine/service/metrics.h"

#include <cinttypes>
#include <cstdarg>
#include <cstdio>

#include "engine/service/stats_fields.h"

namespace simdex::service {

const char* RouteName(Route route) {
  switch (route) {
    case Route::kDocId: return "docid";
    case Route::kGetDocId: return "getDocId";
    case Route::kBatch: return "batch";
    case Route::kQuery: return "query";
    case Route::kLookup: return "lookup";
    case Route::kStats: return "stats";
    case Route::kHealth: return "healthz";
    case Route::kMetrics: return "metrics";
    case Route::kOther: return "other";
  }
  return "other";
}

int Metrics::CodeIndex(int status) {
  for (size_t i = 0; i + 1 < kCodes.size(); ++i) {
    if (kCodes[i] == status) return static_cast<int>(i);
  }
  return static_cast<int>(kCodes.size() - 1);
}

void Metrics::Record(Route route, int status, double seconds) {
  const int r = static_cast<int>(route);
  requests_[r][CodeIndex(status)].fetch_add(1, std::memory_order_relaxed);
  size_t b = 0;
  while (b < kBuckets.size() && seconds > kBuckets[b]) ++b;
  buckets_[r][b].fetch_add(1, std::memory_order_relaxed);
  nanos_[r].fetch_add(static_cast<uint64_t>(seconds * 1e9), std::memory_order_relaxed);
}

namespace {

void Line(std::string* out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void Line(std::string* out, const char* fmt, ...) {
  char buf[256];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  out->append(buf).push_back('\n');
}

void Metric(std::string* out, const char* name, const char* type, const char* help, double value) {
  Line(out, "# HELP %s %s", name, help);
  Line(out, "# TYPE %s %s", name, type);
  Line(out, "%s %.17g", name, value);
}

}  // namespace

std::string Metrics::Render(const ServiceStats& s, const ServiceOptions& o) const {
  std::string out;
  Line(&out, "# HELP simdex_http_requests_total HTTP requests answered, by route and status code.");
  Line(&out, "# TYPE simdex_http_requests_total counter");
  for (int r = 0; r < kRoutes; ++r) {
    for (size_t c = 0; c < kCodes.size(); ++c) {
      const uint64_t n = requests_[r][c].load(std::memory_order_relaxed);
      if (n == 0) continue;
      const std::string code = kCodes[c] == 0 ? "other" : std::to_string(kCodes[c]);
      Line(&out, "simdex_http_requests_total{route=\"%s\",code=\"%s\"} %" PRIu64, RouteName(static_cast<Route>(r)),
           code.c_str(), n);
    }
  }
  Line(&out, "# HELP simdex_http_request_duration_seconds Time from a request's last byte read to its answer.");
  Line(&out, "# TYPE simdex_http_request_duration_seconds histogram");
  for (int r = 0; r < kRoutes; ++r) {
    uint64_t cumulative = 0;
    for (size_t b = 0; b <= kBuckets.size(); ++b) cumulative += buckets_[r][b].load(std::memory_order_relaxed);
    if (cumulative == 0) continue;
    const char* route = RouteName(static_cast<Route>(r));
    cumulative = 0;
    for (size_t b = 0; b <= kBuckets.size(); ++b) {
      cumulative += buckets_[r][b].load(std::memory_order_relaxed);
      char le[32] = "+Inf";
      if (b < kBuckets.size()) std::snprintf(le, sizeof le, "%g", kBuckets[b]);
      Line(&out, "simdex_http_request_duration_seconds_bucket{route=\"%s\",le=\"%s\"} %" PRIu64, route, le, cumulative);
    }
    Line(&out, "simdex_http_request_duration_seconds_sum{route=\"%s\"} %.9f", route,
         static_cast<double>(nanos_[r].load(std::memory_order_relaxed)) / 1e9);
    Line(&out, "simdex_http_request_duration_seconds_count{route=\"%s\"} %" PRIu64, route, cumulative);
  }
  Metric(&out, "simdex_http_accept_errors_total", "counter",
         "Connections the server failed to accept (out of file descriptors, ...); it retries after a pause.",
         static_cast<double>(accept_errors_.load(std::memory_order_relaxed)));
  Metric(&out, "simdex_http_exceptions_total", "counter", "Requests whose handling threw; answered 500.",
         static_cast<double>(exceptions_.load(std::memory_order_relaxed)));
  Metric(&out, "simdex_http_connections", "gauge", "Open client connections.",
         static_cast<double>(connections_.load(std::memory_order_relaxed)));
  Metric(&out, "simdex_http_connections_refused_total", "counter",
         "Connections answered 503 and closed because --max-connections were open.",
         static_cast<double>(connections_refused_.load(std::memory_order_relaxed)));
  if (budget_ != nullptr) {
    Metric(&out, "simdex_http_buffered_bytes", "gauge",
           "Bytes held for the connections: read buffers, requests, responses being written.",
           static_cast<double>(budget_->used()));
    Metric(&out, "simdex_http_buffered_bytes_limit", "gauge", "The limit of simdex_http_buffered_bytes (--max-buffered).",
           static_cast<double>(budget_->limit()));
  }
  Line(&out, "# HELP simdex_articles_total Articles answered since the server started, by filter reason.");
  Line(&out, "# TYPE simdex_articles_total counter");
  for (int i = 0; i < 4; ++i) {
    Line(&out, "simdex_articles_total{reason=\"%s\"} %" PRIu64, FilterReasonName(static_cast<FilterReason>(i)),
         s.by_reason[i]);
  }
  for (const StatsField& f : StatsFields()) {
    if (f.metric != nullptr) Metric(&out, f.metric, f.type, f.help, f.value(s, o));
  }
  return out;
}

}  // namespace simdex::service
