// Precision, recall and F1 from pair counts, shared by the labelled and the
// Jaccard-truth evaluations (include/simdex/eval.h).
#ifndef SIMDEX_ENGINE_EVAL_SCORES_H_
#define SIMDEX_ENGINE_EVAL_SCORES_H_

#include <cstdint>

namespace simdex::eval {

// tp / (tp + fp); 1 when nothing is predicted.
inline double Precision(uint64_t tp, uint64_t fp) {
  return tp + fp == 0 ? 1.0 : static_cast<double>(tp) / static_cast<double>(tp + fp);
}

// tp / positives; 1 when there are no positives.
inline double Recall(uint64_t tp, uint64_t positives) {
  return positives == 0 ? 1.0 : static_cast<double>(tp) / static_cast<double>(positives);
}

// The harmonic mean; 0 when both are 0.
inline double F1(double precision, double recall) {
  return precision + recall == 0 ? 0.0 : 2 * precision * recall / (precision + recall);
}

}  // namespace simdex::eval

#endif  // SIMDEX_ENGINE_EVAL_SCORES_H_
