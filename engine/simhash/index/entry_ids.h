// EntryIds: the ids of an open index's entries by their rank in table 0 (the
// fingerprints in sorted order), for the engine's streaming consumers: the
// de-duplicator against an index, the merger and the service's compaction.
// With simhash::TableCursor it is their whole view of an IndexReader's
// representation (engine/simhash/index/reader_rep.h).
//
// Thread safety: const, and safe to share as the reader is.
#ifndef SIMDEX_ENGINE_SIMHASH_INDEX_ENTRY_IDS_H_
#define SIMDEX_ENGINE_SIMHASH_INDEX_ENTRY_IDS_H_

#include <cstdint>

#include "simdex/index.h"
#include "simdex/status.h"

namespace simdex::simhash {

class EntryIds {
 public:
  // REQUIRES: reader outlives this object.
  explicit EntryIds(const IndexReader& reader);

  // Verifies what reading ids needs (the rank index, the id section and
  // the id map), once per reader: OK or Corruption naming the file. A
  // TableCursor over table 0 has done it by its first Seek().
  Status Check() const;

  // The id of the entry at `rank` in table 0: a number, or with string ids
  // the string's number (IndexReader::IdString).
  // REQUIRES: rank < reader.entries(); Check() returned OK.
  uint64_t AtRank(uint64_t rank) const;

  // `s` with the reader's file named in front when it is an error: for
  // problems a consumer finds in the index's content.
  Status InFile(Status s) const;

 private:
  const IndexReader::Rep& rep_;
};

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_INDEX_ENTRY_IDS_H_
