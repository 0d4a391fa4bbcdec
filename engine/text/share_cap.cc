// CapShare (share_cap.h): water-filling from the heaviest weight down.
#include "engine/text/share_cap.h"

#include <algorithm>
#include <cassert>
#include <functional>

namespace simdex::text {

void CapShare(double max_share, std::span<double> weights, std::vector<double>* scratch) {
  assert(max_share > 0 && max_share <= 1);
  double total = 0, heaviest = 0;
  for (double w : weights) {
    total += w;
    heaviest = std::max(heaviest, w);
  }
  if (heaviest <= max_share * total) return;
  // With the m heaviest lowered to c and the rest summing to `rest`,
  // c = max_share x (m c + rest), so c = max_share x rest / (1 - max_share x m);
  // the answer is the first m whose c is at least the next weight down.
  std::vector<double>& sorted = *scratch;
  sorted.assign(weights.begin(), weights.end());
  std::sort(sorted.begin(), sorted.end(), std::greater<double>());
  double rest = total;
  double level = -1;  // stays -1 when no m works: equal weights
  for (size_t m = 1; m < sorted.size() && sorted[m] > 0; ++m) {
    rest -= sorted[m - 1];
    const double room = 1 - max_share * static_cast<double>(m);
    if (room <= 0) break;
    const double c = max_share * rest / room;
    if (c >= sorted[m]) {
      level = c;
      break;
    }
  }
  for (double& w : weights) {
    if (level < 0) {
      if (w > 0) w = 1;
    } else {
      w = std::min(w, level);
    }
  }
}

}  // namespace simdex::text
