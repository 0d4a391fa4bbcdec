// SortedValues: 64-bit values appended in order (a merged table's sorted
// values, the new numbers of ids), kept in memory when they fit the budget
// and otherwise in a scratch file that is mapped once complete (the index
// encoder takes them as one span).
#ifndef SIMDEX_ENGINE_INDEX_SORTED_VALUES_H_
#define SIMDEX_ENGINE_INDEX_SORTED_VALUES_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/util/output_file.h"
#include "simdex/status.h"

namespace simdex::index {

class SortedValues {
 public:
  // Holds up to `expected` values; in memory when 8 * expected <=
  // memory_bytes, else in a scratch file in dir.
  static Status Create(uint64_t expected, size_t memory_bytes, const std::string& dir,
                       std::unique_ptr<SortedValues>* out);

  Status Append(uint64_t value) {
    if (file_) return AppendToFile(value);
    memory_.push_back(value);
    return Status::OK();
  }
  // Ends the appends; values() is valid after.
  Status Finish();
  std::span<const uint64_t> values() const;

 private:
  Status AppendToFile(uint64_t value);

  std::vector<uint64_t> memory_;
  std::unique_ptr<util::OutputFile> file_;
  std::string buffer_;
  std::unique_ptr<util::MappedValues> map_;
};

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_SORTED_VALUES_H_
