// FieldIndex: everything the docId service has indexed for one field
// (titles or contents) at one moment: compressed index files, deltas being
// compacted, and the live delta that takes new entries.
//
// A FieldIndex is immutable once published except for its live delta,
// which grows (OnlineIndex is safe for that). The service swaps in a new
// FieldIndex when a compaction starts, installs files or drops them;
// searches that hold the old one finish on it undisturbed, and the files
// it maps stay mapped until the last holder lets go.
//
// Entry ids in every part are the seqs of the docs that made them.
#ifndef SIMDEX_ENGINE_SERVICE_FIELD_INDEX_H_
#define SIMDEX_ENGINE_SERVICE_FIELD_INDEX_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/service/index_parts.h"
#include "engine/service/minhash_content.h"
#include "engine/service/online_index.h"
#include "engine/service/records.h"
#include "simdex/index.h"
#include "simdex/service.h"
#include "simdex/status.h"

namespace simdex::service {

// An open index file and what the manifest says of it.
struct IndexFile {
  FileRecord record;
  std::unique_ptr<IndexReader> reader;
  PreloadResult preload;  // what ServiceOptions::preload did (zero when off)
};

struct FieldIndex : IndexParts<IndexFile, OnlineIndex> {
  // Appends every entry within k (inclusive) whose seq is >= min_seq, each
  // once. A damaged file block is Corruption naming the file.
  Status Search(uint64_t fingerprint, int k, uint64_t min_seq, std::vector<OnlineMatch>* out) const;

  // Adds the files' preloaded and locked bytes, and a lock refusal, to *stats.
  void AddPreloadStats(ServiceStats* stats) const;
};

// The service's two fields, and the MinHash-LSH contents, published together.
struct IndexSnapshot {
  FieldIndex fields[2];     // Field::kTitle, Field::kContent (empty under MinHash)
  BandIndex bands;          // ContentMethod::kMinHash only (else no live delta)
};

// Opens the file `record` names in `dir` (preloaded as `options` say, an
// index file) and adds it to its part of *snap (fields[record.field], or
// bands for kBandField).
Status OpenFile(const std::string& dir, const FileRecord& record, const ServiceOptions& options, IndexSnapshot* snap);

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_FIELD_INDEX_H_
