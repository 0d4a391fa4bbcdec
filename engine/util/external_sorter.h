// ExternalSorter: sorts more records than fit in memory, within a fixed
// memory budget, for the index builder.
//
// Records are buffered; a full buffer is radix-sorted and spilled as a run
// file to a temporary directory (format in run_file.h). Finish() sorts in
// memory when nothing was spilled (no disk I/O at all); otherwise it spills
// the last buffer and merges the runs with a loser tree, first in
// intermediate passes if there are more runs than the budget has read
// buffers for. Read() then streams the sorted records in batches.
//
// Typical use:
//
//   ExternalSorter<FingerprintIdPair> sorter({.memory_bytes = size_t{2} << 30, .tmpdir = "/tmp"});
//   for (...) SIMDEX_RETURN_IF_ERROR(sorter.Add(batch, batch_size));
//   SIMDEX_RETURN_IF_ERROR(sorter.Finish());
//   size_t n;
//   do {
//     SIMDEX_RETURN_IF_ERROR(sorter.Read(out, out_capacity, &n));
//     ... use out[0, n) ...
//   } while (n > 0);
//
// Output order is ascending: by value for uint64_t, by (fingerprint, id) for
// FingerprintIdPair. Equal records are identical, so the output depends only
// on the multiset of records added; not on the order of Adds, the budget or
// the thread count.
#ifndef SIMDEX_ENGINE_UTIL_EXTERNAL_SORTER_H_
#define SIMDEX_ENGINE_UTIL_EXTERNAL_SORTER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/util/radix_sort.h"
#include "engine/util/run_file.h"
#include "simdex/status.h"

namespace simdex::util {

// The runs a sorter's merge reads at once, by default.
constexpr size_t kExternalSortMaxOpenRuns = 256;

struct ExternalSortOptions {
  // Upper bound, in bytes, on the sorter's own buffers: the run buffer and
  // the radix sort's scratch space while adding (half each), the read and
  // write buffers while merging. At least kExternalSortMinMemoryBytes. The
  // run buffer grows with the records added (doubling, from 16,384
  // records), so that a bound far above the input costs only the input.
  size_t memory_bytes = 0;
  // Existing directory for the temporary run files. Must be non-empty even
  // if the data turns out to fit in memory.
  std::string tmpdir;
  // Threads used to sort a buffer (>= 1). The output does not depend on it.
  int threads = 1;
  // The most runs one merge reads at once (at least 2; fewer when the
  // memory gives fewer buffers). More runs are merged down in intermediate
  // passes first. The runs share one descriptor, the sorter's scratch file;
  // the bound was first set for one descriptor per run, within a process's
  // usual 1,024, and a caller that keeps several sorters open while it reads
  // them all back still divides it among them.
  size_t max_open_runs = kExternalSortMaxOpenRuns;
};

// The smallest memory budget accepted: 64 KiB.
constexpr size_t kExternalSortMinMemoryBytes = size_t{64} << 10;

// Records an ExternalSorter holds before it spills a run: half the budget
// for the run buffer, half for the radix sort's scratch, less the run
// writer's one-frame tail.
template <class Record>
constexpr size_t ExternalSortCapacity(size_t memory_bytes) {
  return (memory_bytes - (memory_bytes < kRunFramePayloadBytes ? memory_bytes : kRunFramePayloadBytes)) /
         (2 * sizeof(Record));
}

// Counters for tuning.
struct ExternalSortStats {
  uint64_t records = 0;        // records added
  uint64_t runs_spilled = 0;   // runs written by Add() and Finish()
  uint64_t bytes_spilled = 0;  // bytes written to run files, intermediate merge passes included
  uint64_t merge_passes = 0;   // passes over spilled data, the final streamed merge included; 0 in memory
};

// Record is uint64_t or FingerprintIdPair.
//
// Errors: the first error is kept; every later call returns it and does
// nothing else (as leveldb's TableBuilder does). Failing I/O is an IOError
// naming the file and the system's reason (a full disk included); a damaged
// run file is Corruption naming the file. The records read before an error
// are correct, but the rest of the output is lost.
//
// Temporary files: the sorter writes its runs one after another into one
// scratch file in tmpdir, made at its first spill, which never has a name
// (engine/util/scratch_file.h; messages call it "<tmpdir>/simdex-sort-XXXXXX"):
// nothing is left behind, whether the sort ends, fails or is killed (kill
// -9 included). A merged run's space is given back at once where the file
// system can punch holes; the file goes with Read()'s end, the destructor
// and Abandon().
//
// Thread safety: not thread-safe; calls on one sorter need external
// synchronization. Distinct sorters are independent.
template <class Record>
class ExternalSorter {
 public:
  // Checks the options: a budget below kExternalSortMinMemoryBytes, an empty
  // tmpdir or threads < 1 is InvalidArgument naming the limit; a tmpdir that
  // is not an existing directory is IOError naming it. The result is
  // status(), which every later call returns if it is an error. Allocates
  // nothing until the first Add(), and then what the records need.
  explicit ExternalSorter(ExternalSortOptions options);

  ExternalSorter(const ExternalSorter&) = delete;
  ExternalSorter& operator=(const ExternalSorter&) = delete;

  // Removes every temporary file that is left.
  ~ExternalSorter();

  // The first error so far, or OK.
  Status status() const;

  // Copies records[0, n) into the sorter, spilling a sorted run whenever
  // the buffer fills up.
  // REQUIRES: Finish() and Abandon() have not been called.
  Status Add(const Record* records, size_t n);

  // Ends the input and prepares Read(): sorts in memory if nothing was
  // spilled, otherwise spills the last buffer and merges down to one final
  // pass (intermediate passes write new run files and remove their inputs).
  // REQUIRES: Finish() and Abandon() have not been called.
  Status Finish();

  // Copies up to max of the next sorted records to out[0, *n). *n = 0 means
  // every record has been read; the sorter's memory and files are released
  // at that point.
  // REQUIRES: Finish() returned OK; out holds max records; max >= 1.
  Status Read(Record* out, size_t max, size_t* n);

  // Gives up: removes every temporary file and frees every buffer. Later
  // calls return an error (InvalidArgument if there was none before).
  void Abandon();

  const ExternalSortStats& stats() const;

  // Sorts begin[0, n) in memory with the radix sort, allocating n records of
  // scratch space; with threads >= 2 up to that many threads work on it. If
  // the scratch space cannot be allocated, falls back to std::sort.
  // REQUIRES: threads >= 1.
  static void SortInMemory(Record* begin, size_t n, int threads);

 private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

class OutputFile;
class MappedValues;

// Finishes `sorter` and writes its sorted values to a new scratch file in
// dir (buffering at most buffer_bytes), which *spill owns (removed with it)
// and *map maps.
Status ReadSortedToScratch(ExternalSorter<uint64_t>* sorter, const std::string& dir, size_t buffer_bytes,
                           std::unique_ptr<OutputFile>* spill, std::unique_ptr<MappedValues>* map);

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_EXTERNAL_SORTER_H_
