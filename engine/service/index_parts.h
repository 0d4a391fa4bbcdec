// IndexParts: what the docId service has indexed of one kind at one moment
// (FieldIndex: a field's fingerprints; BandIndex: the MinHash-LSH
// contents): files, deltas being compacted, and the live delta that takes
// new entries. File is IndexFile or BandFile (a record and a reader),
// Delta OnlineIndex or OnlineBands.
#ifndef SIMDEX_ENGINE_SERVICE_INDEX_PARTS_H_
#define SIMDEX_ENGINE_SERVICE_INDEX_PARTS_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "engine/service/records.h"
#include "simdex/status.h"

namespace simdex::service {

inline bool Named(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

template <typename File, typename Delta>
struct IndexParts {
  std::vector<std::shared_ptr<const File>> files;    // oldest first
  std::vector<std::shared_ptr<const Delta>> frozen;  // being compacted
  std::shared_ptr<Delta> live;                       // null: a BandIndex under SimHash

  uint64_t file_entries() const { return SumFiles([](const File& f) { return f.record.entries; }); }
  uint64_t file_bytes() const { return SumFiles([](const File& f) { return f.reader->Info().total_bytes; }); }
  uint64_t delta_entries() const { return SumDeltas([](const Delta& d) { return d.size(); }); }
  uint64_t delta_memory_bytes() const { return SumDeltas([](const Delta& d) { return d.MemoryBytes(); }); }

  // Makes the live delta frozen (searched until written) and `fresh` live.
  void Freeze(std::shared_ptr<Delta> fresh) {
    frozen.push_back(std::move(live));
    live = std::move(fresh);
  }

  // Drops the files named in `remove` and the oldest `written` frozen
  // deltas, and adds the files of `added`, keeping the files oldest first.
  void Install(const std::vector<std::string>& remove, const IndexParts& added, size_t written) {
    std::erase_if(files, [&](const auto& f) { return Named(remove, f->record.name); });
    files.insert(files.end(), added.files.begin(), added.files.end());
    std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
      return a->record.min_seq < b->record.min_seq;
    });
    frozen.erase(frozen.begin(), frozen.begin() + static_cast<std::ptrdiff_t>(std::min(written, frozen.size())));
  }

 private:
  template <typename Fn>
  uint64_t SumFiles(Fn fn) const {
    uint64_t n = 0;
    for (const auto& f : files) n += fn(*f);
    return n;
  }
  template <typename Fn>
  uint64_t SumDeltas(Fn fn) const {
    uint64_t n = live == nullptr ? 0 : fn(*live);
    for (const auto& d : frozen) n += fn(*d);
    return n;
  }
};

// Sets *record's entries and seq range to those of the first `count`
// entries of `delta` whose seq is >= min_seq (entries 0 when none).
template <typename Delta>
void CountEntries(const Delta& delta, uint64_t count, uint64_t min_seq, FileRecord* record) {
  record->entries = 0;
  record->min_seq = std::numeric_limits<uint64_t>::max();
  record->max_seq = 0;
  delta.ForEach(count, [&](uint64_t seq, const auto&...) {
    if (seq < min_seq) return;
    ++record->entries;
    record->min_seq = std::min(record->min_seq, seq);
    record->max_seq = std::max(record->max_seq, seq);
  });
}

// Finishes the file `writer` (a builder or merger of index or LSH files)
// writes, or abandons it after a failure `s`.
template <typename Writer>
Status FinishOrAbandon(Writer& writer, const Status& s) {
  if (!s.ok()) {
    writer.Abandon();
    return s;
  }
  return writer.Finish();
}

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_INDEX_PARTS_H_
