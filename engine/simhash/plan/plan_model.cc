#include "engine/simhash/plan/plan_model.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "engine/simhash/index/build_budget.h"
#include "engine/simhash/plan/measured_figures.h"
#include "engine/util/external_sorter.h"
#include "engine/util/radix_sort.h"
#include "format/packed_ints.h"
#include "simdex/index.h"

namespace simdex::simhash {
namespace {

struct Point {
  double log_n;
  double value;
};

// The value at N of the measured points: linear in log N between two, the
// nearest below the first, the last step carried on beyond the last.
// *outside is set when N lies outside the points.
double Interpolate(std::vector<Point> points, uint64_t n, bool* outside) {
  if (points.empty()) return 0;
  std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.log_n < b.log_n; });
  const double log_n = std::log10(static_cast<double>(n));
  if (log_n < points.front().log_n || log_n > points.back().log_n) *outside = true;
  if (points.size() == 1 || log_n <= points.front().log_n) return points.front().value;
  size_t i = 1;
  while (i + 1 < points.size() && points[i].log_n < log_n) ++i;
  const Point& a = points[i - 1];
  const Point& b = points[i];
  return a.value + (b.value - a.value) * (log_n - a.log_n) / (b.log_n - a.log_n);
}

// x bound of `codec` at `block_size` at N.
double XBound(const std::string& codec, uint32_t block_size, uint64_t n, bool* outside) {
  std::vector<Point> points;
  for (const SpaceFigure& f : SpaceFigures()) {
    if (codec == f.codec && f.block_size == block_size) {
      points.push_back({std::log10(static_cast<double>(f.n)), f.x_bound});
    }
  }
  return Interpolate(std::move(points), n, outside);
}

// The smallest measured k >= k for the scheme, or -1.
int FigureK(const std::string& scheme, int k) {
  int best = -1;
  for (const SpeedFigure& f : SpeedFigures()) {
    if (scheme == f.scheme && f.k >= k && (best < 0 || f.k < best)) best = f.k;
  }
  return best;
}

// Median near-query time of a measured scheme (log-log between N), or a
// negative value when there is no figure.
double MeasuredP50(const std::string& scheme, int k, const std::string& codec, uint32_t block_size, uint64_t n,
                   bool* outside) {
  const int figure_k = FigureK(scheme, k);
  std::vector<Point> points;
  for (const SpeedFigure& f : SpeedFigures()) {
    if (scheme == f.scheme && f.k == figure_k && codec == f.codec && f.block_size == block_size) {
      points.push_back({std::log10(static_cast<double>(f.n)), std::log(f.p50_us)});
    }
  }
  return points.empty() ? -1 : std::exp(Interpolate(std::move(points), n, outside));
}

// A byte count, at most 2^64 - 1 (N near 2^63 takes more than that).
uint64_t Bytes(double b) { return b >= 0x1p64 ? UINT64_MAX : static_cast<uint64_t>(std::ceil(b)); }

}  // namespace

uint32_t NearestMeasuredBlockSize(uint32_t block_size) {
  uint32_t best = 0;
  double best_gap = 0;
  for (const SpaceFigure& f : SpaceFigures()) {
    const double gap = std::abs(std::log2(static_cast<double>(f.block_size)) - std::log2(static_cast<double>(block_size)));
    if (best == 0 || gap < best_gap || (gap == best_gap && f.block_size < best)) {
      best = f.block_size;
      best_gap = gap;
    }
  }
  return best;
}

std::string MeasuredCodec(const std::string& codec) { return codec == "auto" ? "ef" : codec; }

void Predict(const PlanRequest& request, PlanChoice* choice) {
  const uint64_t n = request.n;
  const double dn = static_cast<double>(n);
  const std::string codec = MeasuredCodec(choice->codec);
  const uint32_t block = NearestMeasuredBlockSize(choice->block_size);
  const int tables = choice->scheme.num_tables();
  bool outside = false;

  // The index: every table holds every fingerprint; ids packed dense.
  const double table_bytes = XBound(codec, block, n, &outside) * EntropyBoundBitsPerEntry(n) / 8 * dn;
  const double id_bytes = format::BitWidth(n - 1) * dn / 8;
  choice->index_bytes = Bytes(tables * table_bytes + id_bytes + kRankBytesPerEntry * dn);

  // The build (one thread), by the builder's rules: the (fingerprint, id)
  // pairs are sorted in memory or in runs on disk (16 bytes per entry);
  // table 0's fingerprints are kept in memory or in a scratch file (8 bytes
  // per entry); each other table is sorted in memory or through runs into a
  // scratch file (8 + 8 bytes per entry while the runs are merged, 8 while
  // the table is encoded). The ids wait in a scratch file until the end.
  const size_t budget = static_cast<size_t>(std::min<uint64_t>(request.memory_bytes, SIZE_MAX));
  const bool pairs_spill = n > util::ExternalSortCapacity<util::FingerprintIdPair>(budget);
  const bool fps_spill = !simhash::FingerprintsFitInMemory(n, budget);
  const bool table_spill = tables > 1 && !simhash::TableSortFitsInMemory(n, budget);
  choice->spills = pairs_spill || fps_spill || table_spill;
  choice->memory_bytes = Bytes(static_cast<double>(kBuildBaseMemoryBytes) +
                               (choice->spills ? static_cast<double>(budget) : kInMemoryBuildBytesPerEntry * dn));
  const double index = static_cast<double>(choice->index_bytes);
  const double kept = (fps_spill ? 8 * dn : 0) + id_bytes;
  const double sorting_disk = (pairs_spill ? 16 * dn : 0) + kept;
  const double last_table_disk =
      table_spill ? std::max(index * (tables - 1) / tables + 16 * dn, index + 8 * dn) : index;
  choice->disk_bytes = Bytes(std::max(sorting_disk, last_table_disk + kept));
  choice->scratch_bytes = choice->disk_bytes - choice->index_bytes;

  // The median query: measured, or for a scheme without figures t10's per
  // table times its tables.
  const std::string name = choice->scheme.Name();
  double p50 = MeasuredP50(name, request.k, codec, block, n, &outside);
  choice->p50_measured = p50 >= 0;
  if (!choice->p50_measured) p50 = MeasuredP50("t10", 3, codec, block, n, &outside) * tables / 10;
  choice->p50_us = p50;
  choice->extrapolated = outside;
}

}  // namespace simdex::simhash
