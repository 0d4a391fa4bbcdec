// SpillableArray (engine/util/spillable_array.h).
#include "engine/util/spillable_array.h"

#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstring>
#include <new>

#include "engine/util/pending_file.h"  // ErrnoError, WriteFully
#include "engine/util/scratch_file.h"

namespace simdex::util {
namespace {

// The first buffer, before it doubles.
constexpr size_t kFirstBytes = size_t{64} << 10;

}  // namespace

SpillableArray::SpillableArray(size_t record_bytes, size_t memory_bytes, std::string tmpdir)
    : record_bytes_(record_bytes), memory_bytes_(memory_bytes), tmpdir_(std::move(tmpdir)) {
  assert(record_bytes >= 1);
}

SpillableArray::~SpillableArray() = default;

Status SpillableArray::Fail(Status s) {
  if (status_.ok()) status_ = std::move(s);
  return status_;
}

Status SpillableArray::Spill() {
  if (!status_.ok() || spilled()) return status_;
  assert(!finished_);
  Status made = ScratchFile::Create(tmpdir_, "spill", &file_);
  if (!made.ok()) return Fail(std::move(made));
  fd_ = file_->fd();
  path_ = file_->name();
  return Flush();
}

Status SpillableArray::Flush() {
  if (!WriteFully(fd_, memory_.data(), memory_.size())) return Fail(ErrnoError("cannot write the temporary file " + path_));
  bytes_spilled_ += memory_.size();
  memory_.clear();
  return Status::OK();
}

Status SpillableArray::Append(const void* records, size_t n) {
  if (!status_.ok()) return status_;
  assert(!finished_);
  const size_t bytes = n * record_bytes_;
  if (bytes == 0) return Status::OK();
  if (!spilled() && memory_.size() + bytes > memory_bytes_) SIMDEX_RETURN_IF_ERROR(Spill());
  if (!spilled() && memory_.size() + bytes > memory_.capacity()) {
    // Grown with the records, doubling up to the budget: a budget far above
    // the input costs the input (issue 36: reserving a quarter of --memory
    // 100G at once threw std::bad_alloc). While the records are copied the
    // old and new buffers together hold no more than the new one's size.
    const size_t limit = std::max(record_bytes_, memory_bytes_ / record_bytes_ * record_bytes_);
    const size_t grown = std::min(limit, std::max({memory_.size() + bytes, 2 * memory_.capacity(), kFirstBytes}));
    try {
      memory_.reserve(grown);
    } catch (const std::bad_alloc&) {
      return Fail(Status::IOError("cannot allocate " + std::to_string(grown) + " bytes of records in memory"));
    }
  }
  if (spilled() && memory_.size() + bytes > memory_.capacity()) SIMDEX_RETURN_IF_ERROR(Flush());
  const uint8_t* p = static_cast<const uint8_t*>(records);
  if (spilled() && bytes > memory_.capacity()) {
    memory_.assign(p, p + bytes);  // larger than the buffer: written at once
    SIMDEX_RETURN_IF_ERROR(Flush());
  } else {
    memory_.insert(memory_.end(), p, p + bytes);
  }
  size_ += n;
  return Status::OK();
}

Status SpillableArray::Finish() {
  if (!status_.ok()) return status_;
  finished_ = true;
  if (spilled()) {
    SIMDEX_RETURN_IF_ERROR(Flush());
    std::vector<uint8_t>().swap(memory_);
  }
  return Status::OK();
}

Status SpillableArray::Read(uint64_t first, size_t n, void* out) const {
  if (!status_.ok()) return status_;
  assert(finished_ && first + n <= size_);
  const size_t bytes = n * record_bytes_;
  if (!spilled()) {
    if (bytes > 0) std::memcpy(out, memory_.data() + first * record_bytes_, bytes);
    return Status::OK();
  }
  uint8_t* p = static_cast<uint8_t*>(out);
  uint64_t offset = first * record_bytes_;
  for (size_t left = bytes; left > 0;) {
    const ssize_t r = ::pread(fd_, p, left, static_cast<off_t>(offset));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      if (r == 0) return Status::IOError("temporary file " + path_ + " is shorter than what was written to it");
      return ErrnoError("cannot read the temporary file " + path_);
    }
    p += r;
    offset += static_cast<uint64_t>(r);
    left -= static_cast<size_t>(r);
  }
  return Status::OK();
}

}  // namespace simdex::util
