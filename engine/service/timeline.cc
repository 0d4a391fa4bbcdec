#include "engine/service/timeline.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace simdex::service {

void Timeline::Record(int64_t second, uint64_t seq) {
  std::lock_guard<std::mutex> lock(mu_);
  if (points_.size() > dropped_) {
    assert(second >= points_.back().second && seq >= points_.back().first_seq);
    if (second == points_.back().second) return;
  }
  points_.push_back(Point{second, seq});
}

uint64_t Timeline::FirstSeqAfter(int64_t second, uint64_t next_seq) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto begin = points_.begin() + static_cast<std::ptrdiff_t>(dropped_);
  const auto it = std::upper_bound(begin, points_.end(), second,
                                   [](int64_t s, const Point& p) { return s < p.second; });
  return it == points_.end() ? next_seq : it->first_seq;
}

int64_t Timeline::last_second() const {
  std::lock_guard<std::mutex> lock(mu_);
  return points_.size() > dropped_ ? points_.back().second : std::numeric_limits<int64_t>::min();
}

void Timeline::DropThrough(int64_t second) {
  std::lock_guard<std::mutex> lock(mu_);
  while (dropped_ < points_.size() && points_[dropped_].second <= second) ++dropped_;
  // Compact once the forgotten prefix is most of the vector.
  if (dropped_ > 1024 && dropped_ * 2 > points_.size()) {
    points_.erase(points_.begin(), points_.begin() + static_cast<std::ptrdiff_t>(dropped_));
    dropped_ = 0;
  }
}

}  // namespace simdex::service
