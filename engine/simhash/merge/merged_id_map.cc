#include "engine/simhash/merge/merged_id_map.h"

namespace simdex::simhash {

Status MergedIdMap::Build(const IndexReader& old, const std::vector<bool>& kept, const index::IdMapBuilder& batch,
                          const std::string& tmpdir, std::unique_ptr<MergedIdMap>* out) {
  std::unique_ptr<MergedIdMap> m(new MergedIdMap());
  SIMDEX_RETURN_IF_ERROR(index::IdMapSectionWriter::Create(tmpdir, &m->section_));
  const uint64_t old_k = kept.size(), batch_k = batch.size();
  // Budget 0: always scratch files, mapped when complete.
  SIMDEX_RETURN_IF_ERROR(index::SortedValues::Create(old_k, 0, tmpdir, &m->old_ids_));
  SIMDEX_RETURN_IF_ERROR(index::SortedValues::Create(batch_k, 0, tmpdir, &m->batch_ids_));
  index::SortedValues& old_ids = *m->old_ids_;
  index::SortedValues& batch_ids = *m->batch_ids_;
  index::IdMapSectionWriter& section = *m->section_;
  std::string_view previous_old;  // the old file stays mapped while the merge runs
  uint64_t i = 0, j = 0, checked = old_k;  // checked: the old id last compared with its predecessor
  while (true) {
    for (; i < old_k && !kept[i]; ++i) SIMDEX_RETURN_IF_ERROR(old_ids.Append(0));  // never read
    if (i == old_k && j == batch_k) break;
    std::string_view a;
    if (i < old_k) {
      a = old.IdString(i);
      if (checked != i) {
        if (a.empty() || (!previous_old.empty() && a <= previous_old)) {
          return Status::Corruption("id map of the old index: string " + std::to_string(i) +
                                    " is empty or not greater than the one before it");
        }
        previous_old = a;
        checked = i;
      }
    }
    const std::string_view b = j < batch_k ? batch.String(j) : std::string_view();
    const bool take_old = i < old_k && (j == batch_k || a <= b);
    const bool take_batch = j < batch_k && (i == old_k || b <= a);
    SIMDEX_RETURN_IF_ERROR(section.Add(take_old ? a : b));
    const uint64_t number = section.size() - 1;
    if (take_old) {
      SIMDEX_RETURN_IF_ERROR(old_ids.Append(number));
      ++i;
    }
    if (take_batch) {
      SIMDEX_RETURN_IF_ERROR(batch_ids.Append(number));
      ++j;
    }
  }
  SIMDEX_RETURN_IF_ERROR(old_ids.Finish());
  SIMDEX_RETURN_IF_ERROR(batch_ids.Finish());
  m->old_span_ = old_ids.values();
  m->batch_span_ = batch_ids.values();
  SIMDEX_RETURN_IF_ERROR(section.Finish());
  *out = std::move(m);
  return Status::OK();
}

}  // namespace simdex::simhash
