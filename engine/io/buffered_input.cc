#include "engine/io/buffered_input.h"

#include <algorithm>
#include <cstring>

namespace simdex::io {

BufferedInput::BufferedInput(std::unique_ptr<InputStream> in, size_t chunk)
    : in_(std::move(in)), chunk_(chunk) {}

BufferedInput::~BufferedInput() = default;

void BufferedInput::Reserve(size_t room) {
  size_t live = size();
  if (end_ + room <= capacity_) return;
  if (live + room <= capacity_) {
    std::memmove(buf_.get(), buf_.get() + begin_, live);
  } else {
    size_t cap = std::max(capacity_ * 2, live + room);
    std::unique_ptr<char[]> bigger(new char[cap + kPadding]);
    if (live > 0) std::memcpy(bigger.get(), buf_.get() + begin_, live);
    buf_ = std::move(bigger);
    capacity_ = cap;
  }
  consumed_base_ += begin_;
  begin_ = 0;
  end_ = live;
}

// One more byte than the window holds: Fill reserves a whole chunk and
// stops after the first read that returns anything.
Status BufferedInput::FillMore() { return Fill(size() + 1); }

Status BufferedInput::Fill(size_t want) {
  if (size() >= want || eof_) return Status::OK();
  Reserve(std::max(want - size(), chunk_));
  while (size() < want && !eof_) {
    // No more than asked for (or a chunk): a buffer grown for a long line
    // would otherwise be filled whole, reading far past a line limit.
    size_t got = 0;
    const size_t ask = std::min(capacity_ - end_, std::max(want - size(), chunk_));
    SIMDEX_RETURN_IF_ERROR(in_->Read(buf_.get() + end_, ask, &got));
    if (got == 0) eof_ = true;
    end_ += got;
  }
  std::memset(buf_.get() + end_, 0, kPadding);
  return Status::OK();
}

}  // namespace simdex::io
