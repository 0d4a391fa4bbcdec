// The share cap of FingerprintOptions::max_share: no feature weighs more
// than a given share of its document's total weight.
#ifndef SIMDEX_ENGINE_TEXT_SHARE_CAP_H_
#define SIMDEX_ENGINE_TEXT_SHARE_CAP_H_

#include <span>
#include <vector>

namespace simdex::text {

// Lowers the heaviest of `weights` to one level c, the largest for which
// c = max_share x sum_i min(weights[i], c), so that none is more than
// max_share of the new total; the weights below c are kept. When no such c
// exists (n positive weights and max_share < 1/n) the positive weights
// become equal, the least any one share can be (1 each; at max_share = 1/n
// exactly, the least weight each). Weights already within the share are left as they are (the usual
// case, decided in one pass). `scratch` is reused to sort the heaviest.
//
// Example: {10, 1, 1, 1} at max_share 0.5 becomes {3, 1, 1, 1}:
// c = 0.5 x (c + 3) gives c = 3, and 3 is half of 6.
//
// REQUIRES: 0 < max_share <= 1; every weight finite and >= 0.
void CapShare(double max_share, std::span<double> weights, std::vector<double>* scratch);

}  // namespace simdex::text

#endif  // SIMDEX_ENGINE_TEXT_SHARE_CAP_H_
