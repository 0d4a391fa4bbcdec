#include "engine/service/metrics.h"

#include <cinttypes>
#include <cstdarg>
#include <cstdio>

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
      if (b < kBuckets.size()) {
        Line(&out, "simdex_http_request_duration_seconds_bucket{route=\"%s\",le=\"%g\"} %" PRIu64, route, kBuckets[b],
             cumulative);
      } else {
        Line(&out, "simdex_http_request_duration_seconds_bucket{route=\"%s\",le=\"+Inf\"} %" PRIu64, route,
             cumulative);
      }
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
  Line(&out, "# HELP simdex_articles_total Articles answered since the server started, by filter reason.");
  Line(&out, "# TYPE simdex_articles_total counter");
  for (int i = 0; i < 4; ++i) {
    Line(&out, "simdex_articles_total{reason=\"%s\"} %" PRIu64, FilterReasonName(static_cast<FilterReason>(i)),
         s.by_reason[i]);
  }
  Metric(&out, "simdex_replays_total", "counter", "Articles whose id was answered before (retries).",
         static_cast<double>(s.replays));
  Metric(&out, "simdex_entries_delta", "gauge", "Title and content entries in the in-memory delta.",
         static_cast<double>(s.delta_entries));
  Metric(&out, "simdex_entries_files", "gauge", "Title and content entries in index files (expired ones included).",
         static_cast<double>(s.file_entries));
  Metric(&out, "simdex_index_files", "gauge", "Index files.", static_cast<double>(s.files));
  Metric(&out, "simdex_window_seconds", "gauge", "The retention window (0: none): docIds older than this expire.",
         static_cast<double>(o.window_seconds));
  Metric(&out, "simdex_retain_seconds", "gauge",
         "Articles and docIds older than this are deleted from the database (0: kept forever).",
         static_cast<double>(o.retain_seconds));
  Metric(&out, "simdex_pruned_articles_total", "counter", "Articles deleted by the retention.",
         static_cast<double>(s.pruned_articles));
  Metric(&out, "simdex_window_first_seq", "gauge", "Sequence numbers below this have left the retention window.",
         static_cast<double>(s.window_first_seq));
  Metric(&out, "simdex_next_seq", "gauge", "The next sequence number.", static_cast<double>(s.next_seq));
  Metric(&out, "simdex_compactions_total", "counter", "Compactions of the delta into files.",
         static_cast<double>(s.compactions));
  Metric(&out, "simdex_merges_total", "counter", "Merges of two index files into one.", static_cast<double>(s.merges));
  Metric(&out, "simdex_expired_files_total", "counter", "Index files dropped whole by the window.",
         static_cast<double>(s.expired_files));
  Metric(&out, "simdex_last_compaction_seconds", "gauge", "Duration of the last compaction.",
         s.last_compaction_seconds);
  Metric(&out, "simdex_confirmations_total", "counter", "Short-content candidates checked on their texts.",
         static_cast<double>(s.confirmations));
  Metric(&out, "simdex_rejections_total", "counter", "Short-content candidates their texts did not confirm.",
         static_cast<double>(s.rejections));
  Metric(&out, "simdex_delta_memory_bytes", "gauge", "Bytes held by the in-memory delta.",
         static_cast<double>(s.delta_memory_bytes));
  Metric(&out, "simdex_file_bytes", "gauge", "Bytes of the index files.", static_cast<double>(s.file_bytes));
  Metric(&out, "simdex_file_preloaded_bytes", "gauge", "Bytes of the index files read by --preload.",
         static_cast<double>(s.preloaded_bytes));
  Metric(&out, "simdex_file_locked_bytes", "gauge", "Bytes of the index files locked in memory by --preload lock.",
         static_cast<double>(s.locked_bytes));
  Metric(&out, "simdex_store_write_errors_total", "counter",
         "Database writes and log syncs that failed (disk full, ...); answered 503.",
         static_cast<double>(s.store_write_errors));
  Metric(&out, "simdex_store_reopens_total", "counter", "Reopens of the database after a failed write.",
         static_cast<double>(s.store_reopens));
  Metric(&out, "simdex_wal_syncs_total", "counter", "fsyncs of the database's log (--sync).",
         static_cast<double>(s.wal_syncs));
  return out;
}

}  // namespace simdex::service
