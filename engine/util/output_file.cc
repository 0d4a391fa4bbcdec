#include "engine/util/output_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

namespace simdex::util {

namespace {

constexpr size_t kBufferBytes = size_t{1} << 20;

}  // namespace

OutputFile::OutputFile(int fd, std::string tmp_path, size_t buffer_bytes)
    : fd_(fd), tmp_path_(std::move(tmp_path)), buffer_bytes_(buffer_bytes) {
  buffer_.reserve(buffer_bytes_);
}

Status OutputFile::Create(const std::string& final_path, std::unique_ptr<OutputFile>* out) {
  std::unique_ptr<util::PendingFile> pending;
  SIMDEX_RETURN_IF_ERROR(util::PendingFile::Create(final_path, &pending));
  out->reset(new OutputFile(pending->fd(), pending->write_path(), kBufferBytes));
  (*out)->pending_ = std::move(pending);
  return Status::OK();
}

Status OutputFile::CreateScratch(const std::string& dir, const std::string& tag, std::unique_ptr<OutputFile>* out) {
  return CreateScratch(dir, tag, kBufferBytes, out);
}

Status OutputFile::CreateScratch(const std::string& dir, const std::string& tag, size_t buffer_bytes,
                                 std::unique_ptr<OutputFile>* out) {
  std::unique_ptr<util::ScratchFile> scratch;
  SIMDEX_RETURN_IF_ERROR(util::ScratchFile::Create(dir, tag, &scratch));
  out->reset(new OutputFile(scratch->fd(), scratch->name(), buffer_bytes));
  (*out)->scratch_ = std::move(scratch);
  return Status::OK();
}

OutputFile::~OutputFile() {
  if (!keep_) Remove();
}

Status OutputFile::Flush() {
  SIMDEX_RETURN_IF_ERROR(WriteAll(buffer_));
  buffer_.clear();
  return Status::OK();
}

Status OutputFile::WriteAll(std::string_view data) {
  return WriteFully(fd_, data.data(), data.size()) ? Status::OK() : ErrnoError("cannot write " + tmp_path_);
}

Status OutputFile::Append(std::string_view data) {
  if (fd_ < 0 || closed_) return Status::IOError("write to closed file " + tmp_path_);
  size_ += data.size();
  if (buffer_.size() + data.size() > buffer_bytes_) {
    SIMDEX_RETURN_IF_ERROR(Flush());
    if (data.size() >= buffer_bytes_) return WriteAll(data);  // no copy of a large section
  }
  buffer_.append(data);
  return Status::OK();
}

Status OutputFile::PadTo(uint64_t alignment) {
  const uint64_t rem = size_ % alignment;
  if (rem == 0) return Status::OK();
  return Append(std::string(alignment - rem, '\0'));
}

Status OutputFile::Close() {
  if (pending_) return Status::IOError("close of " + tmp_path_ + " before its commit");
  if (fd_ < 0 || closed_) return Status::OK();
  closed_ = true;
  return Flush();
}

Status OutputFile::Commit() {
  if (!pending_) return Status::IOError("commit of scratch file " + tmp_path_);
  SIMDEX_RETURN_IF_ERROR(Flush());
  fd_ = -1;  // the PendingFile closes it
  SIMDEX_RETURN_IF_ERROR(pending_->Commit());
  keep_ = true;
  return Status::OK();
}

void OutputFile::Remove() {
  fd_ = -1;
  // Whichever of the two owns fd_ closes it: a PendingFile also removes its
  // temporary unless committed (never a device it writes to); a scratch
  // file has no name to remove.
  pending_.reset();
  scratch_.reset();
  keep_ = true;  // removed once
}

std::string ScratchDirFor(const std::string& output_path, const std::string& tmpdir) {
  if (!tmpdir.empty()) return tmpdir;
  const size_t slash = output_path.rfind('/');
  return slash == std::string::npos ? "." : output_path.substr(0, slash == 0 ? 1 : slash);
}

Status CheckScratchDir(const std::string& dir) {
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0) return ErrnoError("temporary directory " + dir);
  if (!S_ISDIR(st.st_mode)) return Status::IOError("temporary directory " + dir + ": not a directory");
  return Status::OK();
}

Status MappedValues::Open(const OutputFile& file, std::unique_ptr<MappedValues>* out) {
  std::unique_ptr<MappedValues> m(new MappedValues());
  struct stat st;
  if (::fstat(file.scratch_fd(), &st) != 0) return ErrnoError("cannot stat " + file.path());
  if (st.st_size > 0) {
    void* p = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_SHARED, file.scratch_fd(), 0);
    if (p == MAP_FAILED) return ErrnoError("cannot map " + file.path());
    m->data_ = static_cast<const char*>(p);
    m->size_ = static_cast<size_t>(st.st_size);
  }
  *out = std::move(m);
  return Status::OK();
}

MappedValues::~MappedValues() {
  if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
}

std::span<const uint64_t> MappedValues::values() const {
  return {reinterpret_cast<const uint64_t*>(data_), size_ / sizeof(uint64_t)};
}

std::string_view MappedValues::bytes() const { return {data_, size_}; }

void MappedValues::Release(uint64_t offset, uint64_t length) const {
  if (data_ == nullptr) return;
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t base = reinterpret_cast<uintptr_t>(data_);
  const uint64_t end = std::min<uint64_t>(offset + length, size_);
  const uintptr_t first = (base + offset + page - 1) / page * page;
  const uintptr_t last = (base + end) / page * page;
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

}  // namespace simdex::util
