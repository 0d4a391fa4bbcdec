#include "engine/io/buffered_input.h"

#include <algorithm>
#include <cstring>

#include "format/index_layout.h"

namespace simdex::io {

BufferedInput::BufferedInput(std::unique_ptr<InputStream> in) : in_(std::move(in)) {}

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
  Reserve(std::max(want - size(), kChunk));
  while (size() < want && !eof_) {
    // No more than asked for (or a chunk): a buffer grown for a long line
    // would otherwise be filled whole, reading far past a line limit.
    size_t got = 0;
    const size_t ask = std::min(capacity_ - end_, std::max(want - size(), kChunk));
    SIMDEX_RETURN_IF_ERROR(in_->Read(buf_.get() + end_, ask, &got));
    if (got == 0) eof_ = true;
    end_ += got;
  }
  std::memset(buf_.get() + end_, 0, kPadding);
  return Status::OK();
}

// The readers of batches (documents, fingerprint files, signature files)
// recognise a simdex index by the magic number that opens every index file
// (docs/format.md: "SIMDEXIX") and the format version after it, and say so
// instead of reading its bytes as text. An index has a little-endian u32
// version whose upper three bytes are zero. A text line that starts with
// "SIMDEXIX" (a string id, or a document's text) has no NUL there, so a file
// of ids or documents that happens to begin so is read as text, and whatever
// FingerprintFileWriter writes reads back.
static_assert(kBatchHeadBytes == format::kIndexMagic.size() + 4);

Status OpenBatchInput(const std::string& path, std::string_view expected, std::unique_ptr<BufferedInput>* out,
                      std::string* name) {
  std::unique_ptr<InputStream> stream;
  SIMDEX_RETURN_IF_ERROR(InputStream::Open(path, &stream));
  auto input = std::make_unique<BufferedInput>(std::move(stream));
  SIMDEX_RETURN_IF_ERROR(input->Fill(kBatchHeadBytes));
  *name = DisplayName(path);
  const std::string_view head(input->data(), input->size());
  if (head.size() >= kBatchHeadBytes && head.starts_with(format::kIndexMagic) &&
      head.substr(format::kIndexMagic.size() + 1, 3) == std::string_view("\0\0\0", 3)) {
    return Status::InvalidArgument(*name + ": is a simdex index, not " + std::string(expected));
  }
  *out = std::move(input);
  return Status::OK();
}

}  // namespace simdex::io
