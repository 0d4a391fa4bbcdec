// IdMapBuilder: collects the distinct string ids of an index being built
// and numbers them by rank in bytewise order (docs/format.md, "Id map"), so
// that the file depends only on the entries, never on the order they came
// in. Ids get a provisional number while entries are added; after
// Finish(), Rank() maps it to the final number and Section() holds the id
// map section.
//
// Memory: the distinct ids are held in a hash table, about 64 bytes plus
// their length each, up to the budget given; past it, the map is written
// as a sorted run (engine/index/string_runs.h) and started again. A string
// seen again after a spill gets another provisional number, and both map
// to its one rank. Finish() then merges the runs (the ids in order, once),
// writes the section and the ranks (8 bytes per provisional number) to
// scratch files and maps them: Rank() reads that map. Without a spill
// nothing touches the disk. The output is the same either way.
//
// Errors: the first failure (a full disk while spilling) is kept, as
// leveldb's TableBuilder does; Intern() goes on numbering and Finish()
// returns it. Not thread-safe.
#ifndef SIMDEX_ENGINE_INDEX_ID_MAP_BUILDER_H_
#define SIMDEX_ENGINE_INDEX_ID_MAP_BUILDER_H_

#include <cstdint>
#include <memory>
#include <memory_resource>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/index/id_map_section.h"
#include "engine/index/sorted_values.h"
#include "engine/index/string_runs.h"
#include "engine/util/external_sorter.h"
#include "engine/util/output_file.h"
#include "engine/util/radix_sort.h"
#include "format/id_map.h"
#include "simdex/status.h"

namespace simdex::index {

// Bytes the map is charged per distinct id held in memory, beyond its
// length: its table slot and view, with the slack of their growth.
inline constexpr size_t kIdMapBytesPerId = 64;

struct IdMapStats {
  uint64_t runs_spilled = 0;   // runs written by Intern() and Finish()
  uint64_t merge_passes = 0;   // passes over spilled runs, the final one included
};

class IdMapBuilder {
 public:
  // memory_bytes 0: no budget (never spills). Else at least
  // kExternalSortMinMemoryBytes is used; runs and scratch files go to tmpdir.
  explicit IdMapBuilder(size_t memory_bytes = 0, std::string tmpdir = {});
  IdMapBuilder(IdMapBuilder&&) noexcept;
  IdMapBuilder& operator=(IdMapBuilder&&) noexcept;
  ~IdMapBuilder();

  // The provisional number of `id`. REQUIRES: before Finish().
  uint64_t Intern(std::string_view id);
  // Provisional numbers given so far.
  uint64_t numbers() const { return next_number_; }

  // Sorts the ids; Rank(), size(), Section() and String() are valid after.
  Status Finish();
  // Distinct ids (after Finish()).
  uint64_t size() const { return distinct_; }
  // The final number (rank) of provisional number n. REQUIRES: n < numbers().
  uint64_t Rank(uint64_t n) const { return ranks_[n]; }
  // The id map section (format/id_map.h) of the ids.
  std::string_view Section() const { return section_; }
  // The id of rank r. REQUIRES: r < size().
  std::string_view String(uint64_t r) const { return reader_.Get(r); }
  // Sets *r to the rank of `id` and returns true when the map holds it
  // (binary search of the section).
  bool Find(std::string_view id, uint64_t* r) const { return reader_.Find(id, r); }

  const IdMapStats& stats() const { return stats_; }

 private:
  std::vector<uint64_t> HeldInOrder() const;
  void GrowSlots();
  Status Spill();
  Status MergeDown(size_t fan_in);
  Status FinishSpilled();
  Status FinishView();

  size_t memory_bytes_ = 0;
  std::string tmpdir_;
  Status status_;
  IdMapStats stats_;
  uint64_t next_number_ = 0;
  uint64_t distinct_ = 0;
  // The ids since the last spill: their bytes in one arena (freed in large
  // pieces at a spill: millions of small allocations would stay in the
  // allocator's free lists after the map is gone), by number - first_number_,
  // and an open-addressing table of them (linear probing, at most half
  // full; a slot holds 24 bits of the id's hash and its index + 1, 0 when
  // empty): one cache miss per lookup where a node map took two or three.
  struct Held {
    std::pmr::monotonic_buffer_resource arena;
    std::vector<std::string_view> by_number;
    std::vector<uint64_t> slots = std::vector<uint64_t>(1024, 0);
  };
  std::unique_ptr<Held> held_ = std::make_unique<Held>();
  uint64_t first_number_ = 0;
  size_t held_bytes_ = 0;
  std::unique_ptr<util::OutputFile> runs_file_;  // every run, one after another (at the first spill)
  std::vector<StringRun> runs_;
  // After Finish(): in memory, or mapped scratch files.
  std::vector<uint64_t> rank_memory_;
  std::string section_memory_;
  std::unique_ptr<SortedValues> rank_values_;
  std::unique_ptr<IdMapSectionWriter> section_writer_;
  std::span<const uint64_t> ranks_;
  std::string_view section_;
  format::IdMapReader reader_;
};

// The first string id of a build (or merge) that had numeric ids: finishes
// `numeric` and adds its (fingerprint, id) pairs to `strings` with each id
// replaced by the provisional number of its decimal string in `map`, as if
// the ids had been strings from the start.
Status ReaddAsDecimalStrings(util::ExternalSorter<util::FingerprintIdPair>* numeric, IdMapBuilder* map,
                             util::ExternalSorter<util::FingerprintIdPair>* strings);

// Adds the (fingerprint, id) pairs of a SimHash build's or merge's batch to
// `sorter`: numeric ids as they are, widening [*min_id, *max_id], or with
// string_ids the provisional numbers of their decimal strings in `map`.
// REQUIRES: ids and fingerprints of one length.
Status AddPairs(std::span<const uint64_t> ids, std::span<const uint64_t> fingerprints, bool string_ids,
                IdMapBuilder* map, uint64_t* min_id, uint64_t* max_id,
                util::ExternalSorter<util::FingerprintIdPair>* sorter);

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_ID_MAP_BUILDER_H_
