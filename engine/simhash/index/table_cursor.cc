#include "engine/simhash/index/table_cursor.h"

#include <algorithm>

#include "engine/index/mapping_advice.h"
#include "engine/simhash/index/reader_rep.h"
#include "format/codec.h"
#include "format/coding.h"
#include "format/head_search.h"

namespace simdex::simhash {

TableCursor::TableCursor(const IndexReader& reader, int table)
    : rep_(reader.rep()), table_(table), num_blocks_(rep_.tables[table].num_blocks) {}

uint64_t TableCursor::Head(uint64_t b) const { return format::DecodeFixed64(rep_.tables[table_].heads + 8 * b); }

Status TableCursor::Load(uint64_t b, uint64_t lo) {
  const IndexReader::Rep::Table& table = rep_.tables[table_];
  // A cursor that walks block after block (not one that hops far ahead)
  // asks for the next window of blocks when it enters it.
  const uint8_t* block = rep_.Block(table, b);
  if (rep_.random_access && block >= read_ahead_until_ && (!loaded_ || b <= block_ + 2)) {
    const uint8_t* end = rep_.Block(table, num_blocks_);
    const size_t window = std::min(index::kReadAheadWindowBytes, static_cast<size_t>(end - block));
    rep_.WillRead(block, window);
    read_ahead_until_ = block + window;
  }
  format::BlockReadOptions options;
  options.verified = &table.verified;
  options.block = b;
  options.seed = format::BlockSeed(static_cast<uint32_t>(table_), b);
  Status s = table.decoder->DecodeBlock(rep_.Block(table, b), rep_.file_end, rep_.meta.block_size, Head(b), options,
                                       &values_);
  ++blocks_decoded_;
  block_ = b;
  loaded_ = true;
  if (!s.ok()) {
    values_.clear();
    pos_ = 0;
    num_blocks_ = b;  // nothing after a damaged block is read
    return rep_.InFile(s.WithContext(index::BlockOfTable(b, static_cast<size_t>(table_))));
  }
  pos_ = static_cast<size_t>(std::lower_bound(values_.begin(), values_.end(), lo) - values_.begin());
  return Status::OK();
}

Status TableCursor::Seek(uint64_t lo) {
  if (!sections_checked_) {
    Status s = rep_.CheckHeads(static_cast<size_t>(table_));
    if (s.ok() && table_ == 0) s = rep_.CheckIds();
    if (!s.ok()) {
      num_blocks_ = 0;  // nothing is read
      return rep_.InFile(s);
    }
    sections_checked_ = true;
  }
  if (loaded_ && Valid() && value() >= lo) return Status::OK();
  if (loaded_ && !values_.empty() && values_.back() >= lo) {
    // Seeks are usually short hops forward: gallop from the cursor, then
    // bisect the last stride.
    size_t step = 1, from = pos_;
    while (from + step < values_.size() && values_[from + step] < lo) {
      from += step;
      step *= 2;
    }
    const auto end = values_.begin() + static_cast<std::ptrdiff_t>(std::min(values_.size(), from + step + 1));
    pos_ = static_cast<size_t>(std::lower_bound(values_.begin() + static_cast<std::ptrdiff_t>(from), end, lo) -
                               values_.begin());
    return Status::OK();
  }
  // The first value >= lo lies in the last block whose head is < lo (a run
  // of values equal to lo may begin before the first head equal to lo), or
  // in the block after it; never before the next block not yet visited.
  const uint64_t next = loaded_ ? block_ + 1 : 0;
  if (next >= num_blocks_) {
    values_.clear();
    pos_ = 0;
    return Status::OK();
  }
  uint64_t b = next;
  if (Head(next) < lo) {
    // Only heads from `next` on are searched: the cursor never moves back.
    const size_t last_less = format::FindLastLess(rep_.tables[table_].heads + 8 * next, num_blocks_ - next, lo, nullptr);
    b = next + last_less;  // last_less != kNoHead since Head(next) < lo
  }
  for (;; ++b) {
    SIMDEX_RETURN_IF_ERROR(Load(b, lo));
    if (Valid() || b + 1 >= num_blocks_) return Status::OK();
  }
}

uint64_t TableCursor::Rank() const { return format::DecodeFixed64(rep_.ranks + 8 * block_) + pos_; }

Status TableCursor::Next() {
  if (++pos_ < values_.size()) return Status::OK();
  if (block_ + 1 >= num_blocks_) return Status::OK();
  return Load(block_ + 1, 0);
}

}  // namespace simdex::simhash
