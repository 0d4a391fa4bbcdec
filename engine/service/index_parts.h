// IndexParts: what the docId service has indexed of one kind at one moment
// (FieldIndex: a field's fingerprints; BandIndex: the MinHash-LSH
// contents): files, deltas being compacted, and the live delta that takes
// new entries. File is IndexFile or BandFile (a record and a reader),
// Delta OnlineIndex or OnlineBands.
#ifndef SIMDEX_ENGINE_SERVICE_INDEX_PARTS_H_
#define SIMDEX_ENGINE_SERVICE_INDEX_PARTS_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>


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

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_INDEX_PARTS_H_
