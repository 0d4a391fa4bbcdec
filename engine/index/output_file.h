// Files the builder writes: the output index, written under a temporary name
// and renamed into place only when complete, and scratch files that are
// removed when they go out of scope.
#ifndef SIMDEX_ENGINE_INDEX_OUTPUT_FILE_H_
#define SIMDEX_ENGINE_INDEX_OUTPUT_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "engine/io/pending_file.h"
#include "simdex/status.h"

namespace simdex::index {

// A buffered, append-only file at a unique temporary path: the output index
// (an io::PendingFile: Commit() fsyncs it and renames it to its final name;
// if Commit() does not succeed, the destructor removes the temporary) or a
// scratch file (mode 0600, removed by the destructor unless Close()d and
// kept). Not thread-safe.
class OutputFile {
 public:
  // Creates "<final_path>.tmp-XXXXXX" (or, when final_path is "", a scratch
  // file "simdex-<tag>-XXXXXX" in dir).
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
  const std::string& path() const { return tmp_path_; }

  // Output files: flushes, fsyncs, closes and renames to the final path;
  // then fsyncs the directory so the rename is durable.
  Status Commit();
  // Scratch files: flushes and closes, keeping the file (to map it).
  Status Close();
  // Closes and removes the file.
  void Remove();

 private:
  OutputFile(int fd, std::string tmp_path, size_t buffer_bytes);
  Status Flush();
  Status WriteAll(std::string_view data);

  int fd_;
  std::string tmp_path_;
  std::string buffer_;
  size_t buffer_bytes_;
  uint64_t size_ = 0;
  bool keep_ = false;
  std::unique_ptr<io::PendingFile> pending_;  // output files only; owns fd_
};

// Where a build's scratch files go: tmpdir, or ("") the directory of the
// output path ("." for a bare name).
std::string ScratchDirFor(const std::string& output_path, const std::string& tmpdir);

// OK when dir is an existing directory; else IOError naming it
// ("temporary directory <dir>: <reason>").
Status CheckScratchDir(const std::string& dir);

// A read-only memory map of a closed scratch file.
class MappedValues {
 public:
  static Status Open(const std::string& path, std::unique_ptr<MappedValues>* out);
  ~MappedValues();
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
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_OUTPUT_FILE_H_
