// IdMapSectionWriter: writes the id map section (format/id_map.h) of ids
// given one at a time in increasing order, within a fixed memory: the
// strings and their end offsets go to scratch files, and Finish() puts
// header, packed offsets and strings together in a third, mapped. Used when
// the ids need not fit in memory: a spilled IdMapBuilder's merge, and a
// merge of an old id map with a batch's.
#ifndef SIMDEX_ENGINE_INDEX_ID_MAP_SECTION_H_
#define SIMDEX_ENGINE_INDEX_ID_MAP_SECTION_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "engine/index/sorted_values.h"
#include "engine/util/output_file.h"
#include "simdex/status.h"

namespace simdex::index {

class IdMapSectionWriter {
 public:
  static Status Create(const std::string& tmpdir, std::unique_ptr<IdMapSectionWriter>* out);
  ~IdMapSectionWriter();

  // Appends `id` as string size(). REQUIRES: id is not empty and sorts
  // after the one before it (bytewise).
  Status Add(std::string_view id);
  uint64_t size() const { return count_; }

  // Writes the section and maps it; section() is valid after, until the
  // writer is destroyed.
  Status Finish();
  std::string_view section() const;

 private:
  IdMapSectionWriter() = default;

  std::string tmpdir_;
  std::unique_ptr<util::OutputFile> strings_file_, section_file_;
  std::unique_ptr<SortedValues> ends_;  // each string's end offset, a scratch file
  uint64_t count_ = 0;
  uint64_t total_ = 0;
  std::unique_ptr<util::MappedValues> section_map_;
};

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_ID_MAP_SECTION_H_
