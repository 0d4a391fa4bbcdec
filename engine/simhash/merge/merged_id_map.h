// MergedIdMap: the id map of a merge into an index of string ids. The old
// index's ids that remain (its id map is sorted already) are joined with
// the batch's (a finished IdMapBuilder, sorted too) into one sorted
// section, written as it goes (index::IdMapSectionWriter); each old id's
// and each batch id's new number goes to a mapped scratch file, 8 bytes
// each. Nothing is interned again: the merge reads each map once, in order.
#ifndef SIMDEX_ENGINE_SIMHASH_MERGE_MERGED_ID_MAP_H_
#define SIMDEX_ENGINE_SIMHASH_MERGE_MERGED_ID_MAP_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/index/id_map_builder.h"
#include "engine/index/id_map_section.h"
#include "engine/index/sorted_values.h"
#include "simdex/index.h"
#include "simdex/status.h"

namespace simdex::simhash {

class MergedIdMap {
 public:
  // kept[i]: whether old id number i is some remaining entry's id.
  // REQUIRES: old has string ids, kept.size() == old.IdStringCount(),
  // batch is finished. Corruption when the old map's strings do not rise.
  static Status Build(const IndexReader& old, const std::vector<bool>& kept, const index::IdMapBuilder& batch,
                      const std::string& tmpdir, std::unique_ptr<MergedIdMap>* out);

  uint64_t size() const { return section_->size(); }
  // The new number of old id number i. REQUIRES: kept[i].
  uint64_t OldId(uint64_t i) const { return old_span_[i]; }
  // The new number of the batch id of rank r (batch.Rank() of its number).
  uint64_t BatchId(uint64_t r) const { return batch_span_[r]; }
  std::string_view section() const { return section_->section(); }

 private:
  MergedIdMap() = default;

  std::unique_ptr<index::IdMapSectionWriter> section_;
  std::unique_ptr<index::SortedValues> old_ids_, batch_ids_;  // scratch files
  std::span<const uint64_t> old_span_, batch_span_;           // their values
};

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_MERGE_MERGED_ID_MAP_H_
