// SortedValues: 64-bit values appended in order (a merged table's sorted
// values, the new numbers of ids), kept in memory when they fit the budget
// and otherwise in a scratch file that is mapped once complete (the index
// encoder takes them as one span). SortedStream: a finished external
// sort's records read one at a time.
#ifndef SIMDEX_ENGINE_INDEX_SORTED_VALUES_H_
#define SIMDEX_ENGINE_INDEX_SORTED_VALUES_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/util/external_sorter.h"
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
  std::unique_ptr<util::MappedValues> map_;
};

// Reads a finished sorter's records one at a time (4,096 at a time from
// the sorter).
template <class Record>
class SortedStream {
 public:
  explicit SortedStream(util::ExternalSorter<Record>* sorter) : sorter_(sorter), buffer_(4096) {}
  // Fills the next record, left in the stream; false at the end (or on
  // error: see status()).
  bool Peek(Record* out) {
    if (pos_ == got_) {
      if (!status_.ok()) return false;
      status_ = sorter_->Read(buffer_.data(), buffer_.size(), &got_);
      pos_ = 0;
      if (!status_.ok() || got_ == 0) return false;
    }
    *out = buffer_[pos_];
    return true;
  }
  // Moves past the record Peek() filled.
  void Pop() { ++pos_; }
  // Fills the next record and moves past it; false at the end (or on error).
  bool Next(Record* out) {
    if (!Peek(out)) return false;
    Pop();
    return true;
  }
  const Status& status() const { return status_; }

 private:
  util::ExternalSorter<Record>* sorter_;
  std::vector<Record> buffer_;
  size_t got_ = 0;
  size_t pos_ = 0;
  Status status_;
};

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_SORTED_VALUES_H_
