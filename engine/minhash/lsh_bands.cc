// The bands of MinHash-LSH (include/simdex/minhash.h): their keys, and the
// bands and rows that suit a threshold.
//
// A pair whose signatures agree on a fraction s of positions becomes a
// candidate in one band of r rows with probability s^r, in at least one of b
// bands with P(s) = 1 - (1 - s^r)^b. The bands and rows for a threshold t
// minimise the weighted areas of false positives (P below t) and false
// negatives (1 - P above t), integrated numerically.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "simdex/minhash.h"

namespace simdex {
namespace {

// Composite Simpson's rule with 2 * 256 intervals: P is smooth and
// monotone; the areas come out within 1e-9 of an adaptive quadrature.
template <typename F>
double Integrate(F f, double lo, double hi) {
  constexpr int kIntervals = 512;
  if (hi <= lo) return 0;
  const double h = (hi - lo) / kIntervals;
  double sum = f(lo) + f(hi);
  for (int i = 1; i < kIntervals; ++i) sum += f(lo + i * h) * (i % 2 ? 4 : 2);
  return sum * h / 3;
}

}  // namespace

LshBands OptimalLshBands(double threshold, int num_perm, double fp_weight, double fn_weight) {
  LshBands best;
  double best_error = std::numeric_limits<double>::infinity();
  for (int b = 1; b <= num_perm; ++b) {
    for (int r = 1; r <= num_perm / b; ++r) {
      auto p = [b, r](double s) { return 1 - std::pow(1 - std::pow(s, r), b); };
      const double fp = Integrate(p, 0, threshold);
      const double fn = Integrate([&p](double s) { return 1 - p(s); }, threshold, 1);
      const double error = fp_weight * fp + fn_weight * fn;
      if (error < best_error) {
        best_error = error;
        best = {b, r};
      }
    }
  }
  return best;
}

LshBands DefaultLshBands(double threshold, int num_perm) { return OptimalLshBands(threshold, num_perm, 0.05, 0.95); }

double DefaultEstimateFilter(double threshold, int num_perm) {
  return std::max(0.0, threshold - 2 * std::sqrt(threshold * (1 - threshold) / num_perm));
}

Status CheckLshBands(LshBands bands, int num_perm) {
  if (bands.bands < 1 || bands.rows < 1 || static_cast<int64_t>(bands.bands) * bands.rows > num_perm) {
    return Status::InvalidArgument("lsh: " + std::to_string(bands.bands) + " bands x " + std::to_string(bands.rows) +
                                   " rows must be at least 1 x 1 and at most num_perm (" + std::to_string(num_perm) +
                                   ") values");
  }
  return Status::OK();
}

void BandKeys(const uint32_t* signature, LshBands bands, uint64_t* keys) {
  const size_t size = 4 * static_cast<size_t>(bands.rows);
  if constexpr (std::endian::native == std::endian::little) {  // the values are their own little-endian bytes
    if (bands.rows == 8) {  // the default bands (16 x 8 at 0.8): a constant size lets XXH3 drop its length tests
      for (int j = 0; j < bands.bands; ++j) {
        keys[j] = XXH3_64bits_withSeed(signature + static_cast<size_t>(j) * 8, 32, static_cast<uint64_t>(j));
      }
      return;
    }
    for (int j = 0; j < bands.bands; ++j) {
      keys[j] = XXH3_64bits_withSeed(signature + static_cast<size_t>(j) * bands.rows, size, static_cast<uint64_t>(j));
    }
    return;
  }
  uint8_t bytes[4 * kMaxNumPerm];
  for (int j = 0; j < bands.bands; ++j) {
    const uint32_t* rows = signature + static_cast<size_t>(j) * bands.rows;
    for (int i = 0; i < bands.rows; ++i) {
      for (int byte = 0; byte < 4; ++byte) bytes[4 * i + byte] = static_cast<uint8_t>(rows[i] >> (8 * byte));
    }
    keys[j] = XXH3_64bits_withSeed(bytes, size, static_cast<uint64_t>(j));
  }
}

}  // namespace simdex
