// Files the builder writes: the output index, written unnamed (or under a
// temporary name) and renamed into place only when complete, and scratch
// files, which never have a name (engine/util/scratch_file.h) and are gone
// when they and their maps go out of scope.
#ifndef SIMDEX_ENGINE_UTIL_OUTPUT_FILE_H_
#define SIMDEX_ENGINE_UTIL_OUTPUT_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "engine/util/pending_file.h"
#include "engine/util/scratch_file.h"
#include "simdex/status.h"

namespace simdex::util {

// A buffered, append-only file: the output index (an util::PendingFile:
// Commit() fsyncs it and renames it to its final name; if Commit() does not
// succeed, the destructor removes the temporary) or a scratch file (an
// util::ScratchFile, readable through MappedValues once Close()d, gone with
// the OutputFile and its maps). Not thread-safe.
class OutputFile {
 public:
  // The output for final_path (util::PendingFile), or a scratch file in dir
  // (named "<dir>/simdex-<tag>-XXXXXX" in messages).
  static Status Create(const std::string& final_path, std::unique_ptr<OutputFile>* out);
  static Status CreateScratch(const std::string& dir, const std::string& tag, std::unique_ptr<OutputFile>* out);
  // A scratch file that buffers at most buffer_bytes (else 1 MiB).
  static Status CreateScratch(const std::string& dir, const std::string& tag, size_t buffer_bytes,
                              std::unique_ptr<OutputFile>* out);
  ~OutputFile();

  // Data of at least the buffer's size is written without a copy.
  Status Append(std::string_view data);
  // Appends zero bytes up to the next multiple of alignment.
  Status PadTo(uint64_t alignment);
  uint64_t size() const { return size_; }
  // For messages: where the bytes go (a scratch file's name() has no file).
  const std::string& path() const { return tmp_path_; }
  // A scratch file's descriptor (MappedValues, readers); -1 for outputs.
  int scratch_fd() const { return scratch_ ? scratch_->fd() : -1; }

  // Output files: flushes, fsyncs, closes and renames to the final path;
  // then fsyncs the directory so the rename is durable.
  Status Commit();
  // Scratch files: flushes; the file stays (to map it) until the OutputFile
  // goes. Appends fail after it.
  Status Close();
  // Writes what is buffered out, so that reads of the file (pread) see it.
  Status Flush();
  // Scratch files: gives the space of [offset, offset + length) back
  // (util::ScratchFile::Discard).
  void Discard(uint64_t offset, uint64_t length) {
    if (scratch_) scratch_->Discard(offset, length);
  }
  // Closes and removes the file.
  void Remove();

 private:
  OutputFile(int fd, std::string tmp_path, size_t buffer_bytes);
  Status WriteAll(std::string_view data);

  int fd_;
  std::string tmp_path_;
  std::string buffer_;
  size_t buffer_bytes_;
  uint64_t size_ = 0;
  bool keep_ = false;
  std::unique_ptr<util::PendingFile> pending_;  // output files only; owns fd_
  std::unique_ptr<util::ScratchFile> scratch_;  // scratch files only; owns fd_
  bool closed_ = false;                       // scratch: Close() was called
};

// Where a build's scratch files go: tmpdir, or ("") the directory of the
// output path ("." for a bare name).
std::string ScratchDirFor(const std::string& output_path, const std::string& tmpdir);

// OK when dir is an existing directory; else IOError naming it
// ("temporary directory <dir>: <reason>").
Status CheckScratchDir(const std::string& dir);

// A read-only memory map of a closed scratch file; it keeps the file's
// bytes while it lives, also after the OutputFile is gone.
class MappedValues {
 public:
  // REQUIRES: file is a scratch file, Close()d.
  static Status Open(const OutputFile& file, std::unique_ptr<MappedValues>* out);
  ~MappedValues();
  MappedValues(const MappedValues&) = delete;
  MappedValues& operator=(const MappedValues&) = delete;
  // The file as u64 values (its size rounded down to a multiple of 8).
  std::span<const uint64_t> values() const;
  // The file's bytes.
  std::string_view bytes() const;
  // Drops the whole pages within [offset, offset + length) from this
  // process's memory (they stay in the page cache and are read again if
  // touched): a map read once, front to back, does not grow the RSS.
  void Release(uint64_t offset, uint64_t length) const;

 private:
  MappedValues() = default;
  const char* data_ = nullptr;  // null for an empty file (mapping zero bytes is an error)
  size_t size_ = 0;
};

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_OUTPUT_FILE_H_
