// The file work of the docId service's compaction: writing a delta into a
// compressed index file (an LSH index for MinHash contents), and merging
// two files into one, dropping expired entries. Both write through the
// files' builders and mergers, so files appear under their names only when
// complete (a crash leaves a temporary that the next Open removes, or a
// finished file the manifest does not name).
#ifndef SIMDEX_ENGINE_SERVICE_COMPACTION_H_
#define SIMDEX_ENGINE_SERVICE_COMPACTION_H_

#include <cstdint>
#include <functional>
#include <string>

#include "engine/service/field_index.h"
#include "engine/service/online_index.h"
#include "engine/service/records.h"
#include "simdex/index.h"
#include "simdex/status.h"

namespace simdex::service {

struct FileWork {
  std::string dir;         // where files go
  size_t memory_bytes = size_t{256} << 20;
  int threads = 1;
  std::string profile;     // the fingerprint profile the files record
  BandSettings bands;      // the LSH index files' settings
};

// Writes the first `count` entries of `delta` whose seq is >= min_seq to
// dir/name (ids = seqs) and fills *record (name, seq range, entries).
// Writes nothing and sets record->entries to 0 when no entry qualifies.
Status WriteDeltaFile(const OnlineIndex& delta, uint64_t count, uint64_t min_seq, const FileWork& work,
                      const std::string& name, FileRecord* record);
Status WriteDeltaFile(const OnlineBands& delta, uint64_t count, uint64_t min_seq, const FileWork& work,
                      const std::string& name, FileRecord* record);

// Merges `newer` into `older` into dir/name, leaving out entries whose seq
// is below min_seq (index files: older's tables are streamed in their
// sorted order, newer's entries added as a batch). *record gets the
// result; its seq range is a bound (min_seq..the larger max_seq) rather
// than exact.
Status MergeFiles(const IndexFile& older, const IndexFile& newer, uint64_t min_seq, const FileWork& work,
                  const std::string& name, FileRecord* record);
Status MergeFiles(const BandFile& older, const BandFile& newer, uint64_t min_seq, const FileWork& work,
                  const std::string& name, FileRecord* record);

// Calls fn(id, fingerprint) for every entry of `reader` in table 0's order.
Status ForEachEntry(const IndexReader& reader, const std::function<Status(uint64_t id, uint64_t fp)>& fn);

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_COMPACTION_H_
