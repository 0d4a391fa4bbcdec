// SpillableArray: fixed-size records appended in order and read back by
// index, in memory while they fit a budget and otherwise in a temporary
// file. The MinHash self-join keeps its band keys and b-bit signatures here
// (docs/minhash.md, "The self-join": memory and spilling).
//
// The file is an util::ScratchFile in tmpdir ("simdex-spill-XXXXXX" in
// messages): it never has a name, so nothing is left behind after success,
// an error or a kill.
// Records are read back by Read(), a range copied out (pread: the kernel's
// page cache, none of the process's memory), in order or one at a time at
// random. A map of the file was tried for random reads and dropped: on
// Linux 6.18 with ext4's large folios each fault mapped a whole folio, and
// the mapped pages (up to 7.4x the budget, measured, docs/minhash.md)
// counted in the resident set.
//
// Thread safety: not thread-safe. Errors: an IOError names the file and the
// system's reason (a full disk included); the first error is kept and
// returned by every later call.
#ifndef SIMDEX_ENGINE_UTIL_SPILLABLE_ARRAY_H_
#define SIMDEX_ENGINE_UTIL_SPILLABLE_ARRAY_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/util/scratch_file.h"
#include "simdex/status.h"

namespace simdex::util {

class SpillableArray {
 public:
  // record_bytes >= 1. memory_bytes bounds the records held in memory,
  // whose buffer grows with them (doubling from 64 KiB) up to it (and,
  // once spilled, the write buffer and the mapped pages kept by At()).
  // tmpdir: where a spill goes (not checked until a spill).
  SpillableArray(size_t record_bytes, size_t memory_bytes, std::string tmpdir);
  ~SpillableArray();
  SpillableArray(const SpillableArray&) = delete;
  SpillableArray& operator=(const SpillableArray&) = delete;

  // Appends records[0, n * record_bytes), spilling everything to the file
  // when the memory would exceed the budget.
  // REQUIRES: Finish() has not been called.
  Status Append(const void* records, size_t n);
  // Moves the records held in memory to the file now (a no-op if spilled).
  // REQUIRES: Finish() has not been called.
  Status Spill();
  // Ends the appends: flushes the write buffer and frees it.
  Status Finish();

  uint64_t size() const { return size_; }
  size_t record_bytes() const { return record_bytes_; }
  bool spilled() const { return fd_ >= 0; }
  // Bytes written to the file.
  uint64_t bytes_spilled() const { return bytes_spilled_; }
  // The records when they are in memory (not spilled), else nullptr.
  const uint8_t* data() const { return spilled() ? nullptr : memory_.data(); }

  // Copies records [first, first + n) to out.
  // REQUIRES: Finish() returned OK; first + n <= size().
  Status Read(uint64_t first, size_t n, void* out) const;

 private:
  Status Flush();
  Status Fail(Status s);

  size_t record_bytes_;
  size_t memory_bytes_;
  std::string tmpdir_;
  std::unique_ptr<ScratchFile> file_;  // once spilled
  std::string path_;                   // the file's name() for messages
  int fd_ = -1;                        // file_'s
  uint64_t size_ = 0;
  uint64_t bytes_spilled_ = 0;
  std::vector<uint8_t> memory_;  // every record, or (spilled) the write buffer
  Status status_;
  bool finished_ = false;
};

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_SPILLABLE_ARRAY_H_
