// SpillableArray: fixed-size records appended in order and read back by
// index, in memory while they fit a budget and otherwise in a temporary
// file. The MinHash self-join keeps its band keys and b-bit signatures here
// (docs/minhash.md, "The self-join": memory and spilling).
//
// The file is created in tmpdir by io::CreateUniqueFile
// ("simdex-spill-XXXXXX") and unlinked at once: it has no name while it is
// used, so nothing is left behind after success, an error or a kill. Reads
// come in two kinds:
//   - Read(): a range of records copied out (pread: the kernel's page
//     cache, none of the process's memory), for passes in record order;
//   - At(): one record in place (a read-only map of the file), for random
//     access. The mapped pages a process has touched count in its resident
//     memory, so every `memory_bytes / 64 KiB` calls (a page fault maps up
//     to 64 KiB around the page) At() drops them (MADV_DONTNEED; they stay
//     in the page cache): the pages resident stay within the budget. A
//     kernel that keeps files in large folios may map a whole folio per
//     fault (Linux 6.18 on ext4: up to 7.4x the budget resident, measured,
//     docs/minhash.md): those pages are clean page cache, not the process's
//     own memory.
//
// Thread safety: not thread-safe. Errors: an IOError names the file and the
// system's reason (a full disk included); the first error is kept and
// returned by every later call.
#ifndef SIMDEX_ENGINE_IO_SPILLABLE_ARRAY_H_
#define SIMDEX_ENGINE_IO_SPILLABLE_ARRAY_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "simdex/status.h"

namespace simdex::io {

class SpillableArray {
 public:
  // record_bytes >= 1. memory_bytes bounds the records held in memory (and,
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

  // Record i, valid while the array lives (a page At() dropped is read
  // again on access). Maps the file on the first call after a spill; a
  // failing map is *status and nullptr.
  // REQUIRES: Finish() returned OK; i < size().
  const uint8_t* At(uint64_t i, Status* status);

 private:
  Status Flush();
  Status Fail(Status s);

  size_t record_bytes_;
  size_t memory_bytes_;
  std::string tmpdir_;
  std::string path_;  // the file's name at creation, for messages
  int fd_ = -1;
  uint64_t size_ = 0;
  uint64_t bytes_spilled_ = 0;
  std::vector<uint8_t> memory_;  // every record, or (spilled) the write buffer
  Status status_;
  bool finished_ = false;
  // The map for At().
  const uint8_t* map_ = nullptr;
  size_t map_bytes_ = 0;
  uint64_t touches_ = 0, release_every_ = 1;
};

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_SPILLABLE_ARRAY_H_
