// BatchIds: the ids a merge's batch gives, for finding those that the old
// index holds already (MergeOptions::existing_ids, LshMergeOptions'). The
// mergers read every old id once, in the old index's order; for each one
// they ask whether the batch gives it. Numeric ids are kept sorted (8 bytes
// each) and string ids as strings, unless the merger asks its own map of
// them (IndexMerger's id map). Each id found is counted once, and the first
// one is named in the refusal.
#ifndef SIMDEX_ENGINE_INDEX_BATCH_IDS_H_
#define SIMDEX_ENGINE_INDEX_BATCH_IDS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/merge.h"
#include "simdex/status.h"

namespace simdex::index {

class BatchIds {
 public:
  // string_ids: the old index's ids are strings (a number is then its
  // decimal string, as the mergers store it).
  BatchIds(ExistingIds policy, bool string_ids) : policy_(policy), string_ids_(string_ids) {}

  // False for kKeep: nothing is kept and nothing is found.
  bool checking() const { return policy_ != ExistingIds::kKeep; }
  bool replacing() const { return policy_ == ExistingIds::kReplace; }

  // A batch id, kept as the old index's ids are compared: for numeric ids a
  // string names a number only in its own decimal form ("42", not "042"),
  // as Delete() reads it; other strings can match no old id.
  void AddNumber(uint64_t id);
  void AddString(std::string_view id);
  // After the batch, before the first Holds().
  void Seal();

  // Whether the batch gives this old id (numeric, or string); the first
  // time for an id, it is counted and, if first, named.
  bool Find(uint64_t id);
  bool Find(std::string_view id);

  // Whether the batch gives the numeric id (nothing recorded).
  bool Holds(uint64_t id) const;

  // Records an old id (named `name`) that the caller found in the batch
  // through its own map. REQUIRES: each id recorded once.
  void Found(std::string_view name);

  // kRefuse with ids found: InvalidArgument "id '<first>' is in the old
  // index already (and N more ids of the batch are)"; else OK.
  Status Refusal() const;

 private:
  ExistingIds policy_;
  bool string_ids_;
  std::vector<uint64_t> numbers_;
  std::vector<std::string> strings_;
  std::vector<bool> seen_;  // of numbers_ or strings_ (sealed), by position
  uint64_t found_ = 0;
  std::string first_;
};

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_BATCH_IDS_H_
