// The scheme planner: which scheme, block size and codec to build an index
// of N entries with, for queries within k, under a memory and a disk budget.
//
// The choice comes from a table of measured figures (docs/benchmarks.md,
// "Scheme planner: the measured crossovers"): per scheme, codec and block
// size, the bits per entry against the entropy bound and the median near
// query time at N = 10^5 .. 10^8 (uniform fingerprints, warm, one thread).
// Between measured N a figure is interpolated (log-log); beyond them it is
// carried along the last measured step, and the reasons say so.
//
// The rule: of the candidates whose scheme guarantees k and whose build fits
// both budgets, the fastest predicted median; any within 10 % of it (the
// noise between runs on the measuring machine) count as as fast, and of
// those the smallest index wins. `simdex plan N` prints a plan;
// `simdex build --scheme auto` builds with one (BuildOptions::choose_layout).
//
// Thread safety: PlanIndex is a pure function of its request.
#ifndef SIMDEX_PLAN_H_
#define SIMDEX_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "simdex/scheme.h"
#include "simdex/status.h"

namespace simdex {

struct PlanRequest {
  // Entries the index will hold, 1 to 10^15.
  uint64_t n = 0;
  // The largest distance queries will ask for (0..15).
  int k = 3;
  // The build's memory budget (BuildOptions::memory_bytes): with less than
  // about 32 bytes per entry the build spills sorted runs to disk.
  uint64_t memory_bytes = uint64_t{1} << 30;
  // Bound on the disk the build needs at its peak: the index plus any
  // scratch files (sort runs, spilled tables). 0: no bound.
  uint64_t disk_bytes = 0;
  // Fixed choices the planner must keep (0 / "": the planner chooses).
  uint32_t block_size = 0;
  std::string codec;
};

// One way to build the index, with the planner's predictions for it.
struct PlanChoice {
  Scheme scheme;
  uint32_t block_size = 0;
  std::string codec;
  uint64_t index_bytes = 0;    // the index file (ids assumed dense: 0..N-1)
  uint64_t scratch_bytes = 0;  // scratch files on disk at the build's peak
  uint64_t disk_bytes = 0;     // peak disk of the build: index plus scratch
  uint64_t memory_bytes = 0;   // peak memory of the build (one thread)
  bool spills = false;         // the build sorts on disk (the budget is below its in-memory need)
  double p50_us = 0;           // median near query, warm, one thread (the machine of docs/benchmarks.md)
  bool p50_measured = false;   // false: the scheme was not measured; p50_us is scaled from t10's per table
  bool extrapolated = false;   // N lies outside the measured range of this candidate
};

struct Plan {
  PlanChoice choice;
  // The best candidate of another scheme (or else another block size or
  // codec) that fitted the budgets; absent when nothing else did.
  bool has_runner_up = false;
  PlanChoice runner_up;
  // Why, one sentence each: the candidates considered, what the budgets
  // ruled out, the figures that decided.
  std::vector<std::string> reasons;
};

// Plans an index for `request`. InvalidArgument for n outside 1..10^15, k
// outside 0..15, a block size or codec the builder does not accept, or a
// memory budget below the builder's minimum (64 KiB); when no candidate
// fits the disk budget, InvalidArgument naming the smallest need ("needs at
// least ...").
Status PlanIndex(const PlanRequest& request, Plan* plan);

// A byte count for people, as the planner's reasons and `simdex plan` print
// it: "812 B", "4 KiB", "31.5 MiB", "2.31 GiB" (binary units; whole ones as
// they are, others to three significant digits).
std::string SizeText(uint64_t bytes);

}  // namespace simdex

#endif  // SIMDEX_PLAN_H_
