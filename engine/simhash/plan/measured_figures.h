// The measured figures the scheme planner decides from, as data in one place
// (measured_figures.cc). docs/benchmarks.md, "Scheme planner: the measured
// crossovers", gives the commands that measured them and the same figures
// as tables; bench/plan_figures.py turns the runs' JSON Lines into both.
#ifndef SIMDEX_ENGINE_SIMHASH_PLAN_MEASURED_FIGURES_H_
#define SIMDEX_ENGINE_SIMHASH_PLAN_MEASURED_FIGURES_H_

#include <cstdint>
#include <span>

namespace simdex::simhash {

// Space: the worst table's bits per entry over the entropy bound
// (EntropyBoundBitsPerEntry) with every overhead of a table (block frames,
// padding, head index). Every table holds every fingerprint, so the figure
// does not depend on the scheme.
struct SpaceFigure {
  const char* codec;
  uint32_t block_size;
  uint64_t n;
  double x_bound;
};

// Speed: the median time of a near query (a stored fingerprint with 0..k
// bits flipped) at distance k, warm, one thread, uniform fingerprints.
struct SpeedFigure {
  const char* scheme;  // Scheme::Name()
  const char* codec;
  uint32_t block_size;
  int k;
  uint64_t n;
  double p50_us;
};

// Bytes per entry of the index beside its tables: the rank index (the ids
// take BitWidth(N - 1) bits per entry when they are dense).
inline constexpr double kRankBytesPerEntry = 0.051;

// The peak resident set of `simdex build` (one thread, uniform text input,
// measured with /usr/bin/time; docs/benchmarks.md, "Scheme planner"): about
// 16 MiB for the program at 1,000 entries; sorting in memory, 40.5-43.7
// bytes per entry more at 10^6 and 10^7 (the budget counts 32: the run
// buffer and its scratch). Spilling, the budget and the pages of the mapped
// scratch files (9.8 bytes per entry at 10^7 under 64 MiB), which are page
// cache the kernel takes back under pressure, so not counted here.
inline constexpr uint64_t kBuildBaseMemoryBytes = uint64_t{16} << 20;
inline constexpr double kInMemoryBuildBytesPerEntry = 44;

std::span<const SpaceFigure> SpaceFigures();
std::span<const SpeedFigure> SpeedFigures();

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_PLAN_MEASURED_FIGURES_H_
