// The service's statistics as one table: each row names a figure in the
// JSON of GET /v1/stats, in the Prometheus text of GET /metrics, or in
// both, and says how to read it, so that the two views cannot drift apart.
// (The answers by filter reason, labelled in /metrics, are the one figure
// written by hand in each view.)
#ifndef SIMDEX_ENGINE_SERVICE_STATS_FIELDS_H_
#define SIMDEX_ENGINE_SERVICE_STATS_FIELDS_H_

#include <span>

#include "simdex/service.h"

namespace simdex::service {

struct StatsField {
  const char* json;    // the key in /v1/stats (an integer there); null: /metrics only
  const char* metric;  // the metric's name in /metrics; null: /v1/stats only
  const char* type;    // the metric's type: "counter" or "gauge"
  const char* help;    // the metric's HELP text
  double (*value)(const ServiceStats& stats, const ServiceOptions& options);
};

// Every row, in /v1/stats order.
std::span<const StatsField> StatsFields();

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_STATS_FIELDS_H_
