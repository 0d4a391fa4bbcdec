// Documents' scores (--keep longest or max:FIELD), kept sparsely: the vector
// stays empty while every score is 0 (as under --keep first), and from the
// first non-zero score on holds one per document, the zeros before it filled
// in.
#ifndef SIMDEX_ENGINE_UTIL_SPARSE_SCORES_H_
#define SIMDEX_ENGINE_UTIL_SPARSE_SCORES_H_

#include <cstddef>
#include <vector>

namespace simdex::util {

// Appends the score of document `documents_before` (the documents added
// before it count from 0).
inline void AppendScore(std::vector<double>* scores, size_t documents_before, double score) {
  if (score == 0 && scores->empty()) return;
  scores->resize(documents_before, 0.0);
  scores->push_back(score);
}

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_SPARSE_SCORES_H_
