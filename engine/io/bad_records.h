// What happens to a bad input record: either it stops the read (the default)
// or, when the caller asked to skip bad records, it is counted and the first
// few messages are kept for a summary. Nothing is dropped silently.
#ifndef SIMDEX_ENGINE_IO_BAD_RECORDS_H_
#define SIMDEX_ENGINE_IO_BAD_RECORDS_H_

#include <cstddef>
#include <cstdint>
#include "simdex/status.h"

namespace simdex::io {

class BadRecords {
 public:
  BadRecords(bool skip, size_t keep) : skip_(skip), keep_(keep) {}

  // Returns OK when the record is to be skipped (after counting it in
  // stats->skipped and, among the first `keep`, keeping its message in
  // stats->first_errors), or `bad` itself when the read must stop.
  // REQUIRES: !bad.ok().
  template <class Stats>
  Status Handle(Status bad, Stats* stats) const {
    if (!skip_) return bad;
    ++stats->skipped;
    if (stats->first_errors.size() < keep_) stats->first_errors.push_back(bad.message());
    return Status::OK();
  }

 private:
  bool skip_;
  size_t keep_;
};

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_BAD_RECORDS_H_
