// IdMapBuilder: collects the distinct string ids of an index being built
// and numbers them by rank in bytewise order (docs/format.md, "Id map"), so
// that the file depends only on the entries, never on the order they came
// in. Ids get a provisional number (the order they first came in) while
// entries are added; after Finish(), Rank() maps it to the final number.
//
// Memory: every distinct id is held, about 64 bytes plus its length.
// Not thread-safe.
#ifndef SIMDEX_ENGINE_INDEX_ID_MAP_BUILDER_H_
#define SIMDEX_ENGINE_INDEX_ID_MAP_BUILDER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/index/external_sorter.h"
#include "engine/index/radix_sort.h"
#include "simdex/status.h"

namespace simdex::index {

class IdMapBuilder {
 public:
  // The provisional number of `id`: new ids get the next one.
  uint64_t Intern(std::string_view id);
  uint64_t size() const { return by_number_.size(); }

  // Sorts the ids; Rank() and Sorted() are valid after.
  void Finish();
  // The final number (rank) of provisional number n.
  uint64_t Rank(uint64_t n) const { return rank_[n]; }
  // The ids in rank order.
  const std::vector<std::string_view>& Sorted() const { return sorted_; }

 private:
  std::unordered_map<std::string, uint64_t> numbers_;
  std::vector<const std::string*> by_number_;  // provisional number -> its id (map nodes do not move)
  std::vector<std::string_view> sorted_;
  std::vector<uint64_t> rank_;
};

// The first string id of a build (or merge) that had numeric ids: finishes
// `numeric` and adds its (fingerprint, id) pairs to `strings` with each id
// replaced by the provisional number of its decimal string in `map`, as if
// the ids had been strings from the start.
Status ReaddAsDecimalStrings(ExternalSorter<FingerprintIdPair>* numeric, IdMapBuilder* map,
                             ExternalSorter<FingerprintIdPair>* strings);

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_ID_MAP_BUILDER_H_
