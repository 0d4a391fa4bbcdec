// TableCursor: reads one table of an open index in sorted order, a whole
// block at a time, for the engine's streaming consumers (the
// de-duplicator's merge join against an index, merging indexes).
//
// A cursor decodes each block it visits once, with every check of
// format::DecodeBlock (the block's checksum the first time the reader
// decodes it), and moves only forward: Seek(lo) skips the blocks that end
// below lo through the head index, so a sequence of increasing seeks
// touches only the blocks that hold the sought ranges. Before its first
// value it has the table's head index verified, and for table 0 (whose
// ranks are for reading ids) the rank index, id section and id map, once
// per reader (reader_rep.h); so nothing it gives comes from unchecked
// bytes. Its errors name the reader's file.
//
// Thread safety: a cursor is used by one thread; any number of cursors may
// read one IndexReader concurrently.
#ifndef SIMDEX_ENGINE_SIMHASH_INDEX_TABLE_CURSOR_H_
#define SIMDEX_ENGINE_SIMHASH_INDEX_TABLE_CURSOR_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "simdex/index.h"
#include "simdex/status.h"

namespace simdex::simhash {

class TableCursor {
 public:
  // A cursor over table `table` of `reader`, before its first value: call
  // Seek() first.
  // REQUIRES: table < reader.scheme().num_tables(); reader outlives the
  // cursor.
  TableCursor(const IndexReader& reader, int table);

  // Moves to the first value >= lo at or after the current position
  // (values already passed are not revisited). A damaged block is
  // Corruption naming the block and table; the cursor is then invalid.
  Status Seek(uint64_t lo);

  // Moves to the next value. REQUIRES: Valid().
  Status Next();

  // True while the cursor is at a value (false past the last one).
  bool Valid() const { return pos_ < values_.size(); }
  // The (permuted) value at the cursor. REQUIRES: Valid().
  uint64_t value() const { return values_[pos_]; }

  // The value's rank in the table: how many values come before it (for
  // EntryIds::AtRank, which the cursor's first Seek() has made
  // safe to call). REQUIRES: Valid(); table 0 (the only table with a rank
  // index).
  uint64_t Rank() const;

  // Blocks decoded so far.
  uint64_t blocks_decoded() const { return blocks_decoded_; }

 private:
  // Decodes block b into values_ and sets pos_ to its first value >= lo.
  Status Load(uint64_t b, uint64_t lo);
  uint64_t Head(uint64_t b) const;

  const IndexReader::Rep& rep_;
  const int table_;
  bool sections_checked_ = false;  // the head index (and for table 0 the ids) verified
  uint64_t num_blocks_;
  uint64_t block_ = 0;  // the block in values_ (when loaded_)
  bool loaded_ = false;
  std::vector<uint64_t> values_;
  size_t pos_ = 0;
  uint64_t blocks_decoded_ = 0;
  const uint8_t* read_ahead_until_ = nullptr;  // the end of the blocks asked for ahead (random access)
};

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_INDEX_TABLE_CURSOR_H_
