// What happens to a bad input record: either it stops the read (the default)
// or, when the caller asked to skip bad records, it is counted and the first
// few messages are kept for a summary. Nothing is dropped silently.
#ifndef SIMDEX_ENGINE_IO_BAD_RECORDS_H_
#define SIMDEX_ENGINE_IO_BAD_RECORDS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "simdex/status.h"

namespace simdex::io {

class BadRecords {
 public:
  BadRecords(bool skip, size_t keep) : skip_(skip), keep_(keep) {}

  // Returns OK when the record is to be skipped (after counting it), or
  // `bad` itself when the read must stop. REQUIRES: !bad.ok().
  Status Handle(Status bad) {
    if (!skip_) return bad;
    ++skipped_;
    if (first_errors_.size() < keep_) first_errors_.push_back(bad.message());
    return Status::OK();
  }

  uint64_t skipped() const { return skipped_; }
  const std::vector<std::string>& first_errors() const { return first_errors_; }

 private:
  bool skip_;
  size_t keep_;
  uint64_t skipped_ = 0;
  std::vector<std::string> first_errors_;
};

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_BAD_RECORDS_H_
