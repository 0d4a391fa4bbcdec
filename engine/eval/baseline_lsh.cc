// OptimalLshBands and LshCandidatePairs (include/simdex/eval.h): the banding
// of the MinHash-LSH baseline. BASELINE, not a product feature.
//
// A pair whose signatures agree on a fraction s of positions becomes a
// candidate in one band of r rows with probability s^r, in at least one of b
// bands with P(s) = 1 - (1 - s^r)^b. The bands and rows for a threshold t
// minimise the weighted areas of false positives (P below t) and false
// negatives (1 - P above t), integrated numerically.
#include <algorithm>
#include <cmath>
#include <limits>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "simdex/eval.h"

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

Status LshCandidatePairs(std::span<const uint64_t> signatures, int num_perm, LshBands bands,
                         std::vector<uint64_t>* out) {
  if (num_perm < 1 || bands.bands < 1 || bands.rows < 1 || bands.bands * bands.rows > num_perm) {
    return Status::InvalidArgument("lsh: bands x rows must be at least 1 and at most num_perm");
  }
  if (signatures.size() % static_cast<size_t>(num_perm) != 0) {
    return Status::InvalidArgument("lsh: signatures are not a whole number of rows");
  }
  const size_t n = signatures.size() / static_cast<size_t>(num_perm);
  if (n >= std::numeric_limits<uint32_t>::max()) return Status::InvalidArgument("lsh: too many documents");
  out->clear();
  struct Bucketed {
    uint64_t key;
    uint32_t doc;
  };
  std::vector<Bucketed> keyed;
  keyed.reserve(n);
  for (int band = 0; band < bands.bands; ++band) {
    keyed.clear();
    for (size_t d = 0; d < n; ++d) {
      const uint64_t* rows = signatures.data() + d * num_perm + static_cast<size_t>(band) * bands.rows;
      if (rows[0] == std::numeric_limits<uint64_t>::max()) continue;  // an empty set's signature
      keyed.push_back({XXH3_64bits_withSeed(rows, sizeof(uint64_t) * bands.rows, static_cast<uint64_t>(band)),
                       static_cast<uint32_t>(d)});
    }
    std::sort(keyed.begin(), keyed.end(),
              [](const Bucketed& x, const Bucketed& y) { return x.key != y.key ? x.key < y.key : x.doc < y.doc; });
    for (size_t i = 0; i < keyed.size();) {
      size_t j = i + 1;
      while (j < keyed.size() && keyed[j].key == keyed[i].key) ++j;
      for (size_t x = i; x < j; ++x) {
        for (size_t y = x + 1; y < j; ++y) out->push_back(PackPair(keyed[x].doc, keyed[y].doc));
      }
      i = j;
    }
  }
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
  return Status::OK();
}

}  // namespace simdex
