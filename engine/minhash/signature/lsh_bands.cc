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
#include <utility>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "simdex/minhash.h"

namespace simdex {
namespace {

// Composite Simpson's rule with 2 * 256 intervals: P is smooth and
// monotone; the areas come out within 1e-9 of an adaptive quadrature.
constexpr int kIntervals = 512;

template <typename F>
double Integrate(F f, double lo, double hi) {
  if (hi <= lo) return 0;
  const double h = (hi - lo) / kIntervals;
  double sum = f(lo) + f(hi);
  for (int i = 1; i < kIntervals; ++i) sum += f(lo + i * h) * (i % 2 ? 4 : 2);
  return sum * h / 3;
}

// The weighted error of (b, r) as the search defines it, with std::pow.
double WeightedError(int b, int r, double threshold, double fp_weight, double fn_weight) {
  auto p = [b, r](double s) { return 1 - std::pow(1 - std::pow(s, r), b); };
  const double fp = Integrate(p, 0, threshold);
  const double fn = Integrate([&p](double s) { return 1 - p(s); }, threshold, 1);
  return fp_weight * fp + fn_weight * fn;
}

// The same error for every (b, r) at once, the powers by repeated
// multiplication on Simpson's points: about 1,000 times fewer std::pow calls
// (0.06 s of CPU at 128 values before, the start-up of every `simdex dedup`).
// Each power is within num_perm rounding errors of std::pow's, so each error
// is within 1e-12 of WeightedError's.
class FastErrors {
 public:
  FastErrors(double threshold, double fp_weight, double fn_weight) {
    AddPoints(0, threshold, fp_weight);
    false_negatives_ = s_.size();  // the points from here on are [threshold, 1]'s
    AddPoints(threshold, 1, fn_weight);
    power_ = s_;  // s^1
  }

  // Calls visit(b, error) for b = 1 .. max_b with rows r, for r = 1, 2, ...
  // in turn (each call advances the power of s by one).
  template <typename Visit>
  void ForRows(int max_b, Visit visit) {
    const size_t n = s_.size();
    std::vector<double> q(n), q_power(n, 1.0);
    for (size_t i = 0; i < n; ++i) q[i] = 1 - power_[i];
    for (int b = 1; b <= max_b; ++b) {
      double error = 0;
      for (size_t i = 0; i < n; ++i) q_power[i] *= q[i];  // (1 - s^r)^b
      for (size_t i = 0; i < false_negatives_; ++i) error += weight_[i] * (1 - q_power[i]);  // P(s)
      for (size_t i = false_negatives_; i < n; ++i) error += weight_[i] * q_power[i];  // 1 - P(s)
      visit(b, error);
    }
    for (size_t i = 0; i < n; ++i) power_[i] *= s_[i];
  }

 private:
  void AddPoints(double lo, double hi, double weight) {
    if (hi <= lo) return;
    const double h = (hi - lo) / kIntervals;
    for (int i = 0; i <= kIntervals; ++i) {
      const int simpson = i == 0 || i == kIntervals ? 1 : (i % 2 ? 4 : 2);
      s_.push_back(i == kIntervals ? hi : lo + i * h);
      weight_.push_back(weight * simpson * h / 3);
    }
  }

  std::vector<double> s_, weight_, power_;
  size_t false_negatives_ = 0;
};

// Of `candidates` (in the exhaustive search's order: b ascending, then r
// ascending), the first strict minimum of WeightedError.
LshBands FirstMinimum(const std::vector<LshBands>& candidates, double threshold, double fp_weight, double fn_weight) {
  LshBands best;
  double best_error = std::numeric_limits<double>::infinity();
  for (const LshBands& c : candidates) {
    const double error = WeightedError(c.bands, c.rows, threshold, fp_weight, fn_weight);
    if (error < best_error) {
      best_error = error;
      best = c;
    }
  }
  return best;
}

}  // namespace

// The exhaustive search's answer (every (b, r) in turn, the first strict
// minimum of WeightedError), found faster: the (b, r) that the fast errors
// put within 1e-9 (times the weights) of their minimum are the only ones
// that can be its answer (their errors differ from WeightedError's by far
// less), and WeightedError decides among them in its order. Outside [0, 1]
// (powers of s > 1 may overflow) and for weights that are not finite, the
// exhaustive search itself.
LshBands OptimalLshBands(double threshold, int num_perm, double fp_weight, double fn_weight) {
  std::vector<LshBands> candidates;
  if (!(threshold >= 0 && threshold <= 1 && std::isfinite(fp_weight) && std::isfinite(fn_weight))) {
    for (int b = 1; b <= num_perm; ++b) {
      for (int r = 1; r <= num_perm / b; ++r) candidates.push_back({b, r});
    }
    return FirstMinimum(candidates, threshold, fp_weight, fn_weight);
  }
  const double near_tie = 1e-9 * (1 + std::abs(fp_weight) + std::abs(fn_weight));
  std::vector<std::pair<LshBands, double>> fast;
  FastErrors errors(threshold, fp_weight, fn_weight);
  for (int r = 1; r <= num_perm; ++r) {
    errors.ForRows(num_perm / r, [&](int b, double error) { fast.push_back({{b, r}, error}); });
  }
  double fast_min = std::numeric_limits<double>::infinity();
  for (const auto& [bands, error] : fast) fast_min = std::min(fast_min, error);
  for (const auto& [bands, error] : fast) {
    if (error <= fast_min + near_tie) candidates.push_back(bands);
  }
  std::sort(candidates.begin(), candidates.end(),
            [](const LshBands& x, const LshBands& y) { return std::pair(x.bands, x.rows) < std::pair(y.bands, y.rows); });
  return FirstMinimum(candidates, threshold, fp_weight, fn_weight);
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
