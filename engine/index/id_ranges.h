// The id ranges a merge deletes (IndexMerger::DeleteRange,
// LshIndexMerger::DeleteRange): [first, last] pairs, 16 bytes each however
// many ids they span, joined once all are given and then searched.
#ifndef SIMDEX_ENGINE_INDEX_ID_RANGES_H_
#define SIMDEX_ENGINE_INDEX_ID_RANGES_H_

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "simdex/status.h"

namespace simdex::index {

class IdRanges {
 public:
  // A merger's DeleteRange(first, last): InvalidArgument when first > last
  // or the old index has string ids. REQUIRES: Join() not called yet.
  Status Add(uint64_t first, uint64_t last, bool string_ids) {
    if (first > last) {
      return Status::InvalidArgument("DeleteRange(" + std::to_string(first) + ", " + std::to_string(last) +
                                     "): the first id is past the last");
    }
    if (string_ids) return Status::InvalidArgument("DeleteRange() of an index of string ids");
    ranges_.emplace_back(first, last);
    return Status::OK();
  }

  // Sorts the ranges and joins those that overlap or touch, so that an id
  // lies in at most one.
  void Join() {
    std::sort(ranges_.begin(), ranges_.end());
    std::vector<std::pair<uint64_t, uint64_t>> joined;
    for (const auto& range : ranges_) {
      if (!joined.empty() && (joined.back().second == ~uint64_t{0} || range.first <= joined.back().second + 1)) {
        joined.back().second = std::max(joined.back().second, range.second);
      } else {
        joined.push_back(range);
      }
    }
    ranges_.swap(joined);
  }

  // REQUIRES: Join() called after the last Add().
  bool Contains(uint64_t id) const {
    // The last range that starts at or before id.
    const auto it = std::upper_bound(ranges_.begin(), ranges_.end(), std::pair{id, ~uint64_t{0}});
    return it != ranges_.begin() && id <= std::prev(it)->second;
  }

 private:
  std::vector<std::pair<uint64_t, uint64_t>> ranges_;
};

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_ID_RANGES_H_
