// Interpolation and binary search over a little-endian head index.
#include "format/head_search.h"

#include "format/coding.h"

namespace simdex::format {

namespace {

inline uint64_t HeadAt(const uint8_t* heads, size_t i) { return DecodeFixed64(heads + 8 * i); }

}  // namespace

size_t FindLastLess(const uint8_t* heads, size_t n, uint64_t x, HeadSearchStats* stats) {
  uint64_t probes = 0;
  size_t answer;
  // Invariant: heads[i] < x for i < left and heads[i] >= x for i >= right,
  // with lo_val = heads[left - 1] < x <= hi_val = heads[right]. The answer
  // (the number of heads < x) lies in [left, right].
  if (n == 0 || (++probes, HeadAt(heads, 0) >= x)) {
    answer = 0;
  } else if (++probes, HeadAt(heads, n - 1) < x) {
    answer = n;
  } else {
    size_t left = 1, right = n - 1;
    uint64_t lo_val = HeadAt(heads, 0), hi_val = HeadAt(heads, n - 1);
    bool bisect = false;
    while (left < right) {
      const size_t width = right - left;
      size_t m;
      if (bisect) {
        m = left + width / 2;
      } else {
        // x lies in (lo_val, hi_val] and heads[left - 1 .. right] spread
        // from lo_val to hi_val: guess where x falls. Doubles are exact
        // enough for a guess; the clamp keeps it inside the range.
        const double frac = static_cast<double>(x - lo_val) / static_cast<double>(hi_val - lo_val);
        const double guess = static_cast<double>(left - 1) + frac * static_cast<double>(width + 1);
        m = guess <= static_cast<double>(left) ? left : static_cast<size_t>(guess);
        if (m >= right) m = right - 1;
      }
      const uint64_t v = HeadAt(heads, m);
      ++probes;
      if (v < x) {
        left = m + 1;
        lo_val = v;
      } else {
        right = m;
        hi_val = v;
      }
      // An interpolation step that keeps more than half the range is
      // followed by a bisection step, which bounds the worst case.
      bisect = !bisect && right - left > width / 2;
    }
    answer = left;
  }
  if (stats != nullptr) {
    ++stats->searches;
    stats->probes += probes;
  }
  return answer == 0 ? kNoHead : answer - 1;
}

size_t FindLastLessBinary(const uint8_t* heads, size_t n, uint64_t x, HeadSearchStats* stats) {
  size_t left = 0, right = n;  // heads[< left] < x <= heads[>= right]
  uint64_t probes = 0;
  while (left < right) {
    const size_t m = left + (right - left) / 2;
    ++probes;
    if (HeadAt(heads, m) < x) {
      left = m + 1;
    } else {
      right = m;
    }
  }
  if (stats != nullptr) {
    ++stats->searches;
    stats->probes += probes;
  }
  return left == 0 ? kNoHead : left - 1;
}

}  // namespace simdex::format
