// The scheme planner's predictions for one candidate (scheme, block size,
// codec) at N entries: index bytes from the measured space figures, the
// build's peak memory and scratch disk from the builder's own rules
// (engine/simhash/index/build_budget.h), and the median query time from the
// measured speed figures (measured_figures.h).
#ifndef SIMDEX_ENGINE_SIMHASH_PLAN_PLAN_MODEL_H_
#define SIMDEX_ENGINE_SIMHASH_PLAN_PLAN_MODEL_H_

#include <cstdint>
#include <string>

#include "simdex/plan.h"

namespace simdex::simhash {

// The measured block size nearest to block_size (in log2): the one whose
// figures stand for it.
uint32_t NearestMeasuredBlockSize(uint32_t block_size);

// The codec whose figures stand for `codec`: "auto" picks ef on uniform
// fingerprints (docs/benchmarks.md, "A second codec"), so ef's.
std::string MeasuredCodec(const std::string& codec);

// Fills the predictions of `choice` (whose scheme, block_size and codec are
// set) for `request`'s N, k and memory budget.
void Predict(const PlanRequest& request, PlanChoice* choice);

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_PLAN_PLAN_MODEL_H_
