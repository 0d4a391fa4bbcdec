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

#include "simdex/status.h"

namespace simdex::index {

// A buffered, append-only file at a unique temporary path. Commit() fsyncs it
// and renames it to its final name; if Commit() does not succeed, the
// destructor removes the temporary file. Not thread-safe.
class OutputFile {
 public:
  // Creates "<final_path>.tmp-XXXXXX" (or, when final_path is "", a scratch
  // file "simdex-<tag>-XXXXXX" in dir).
  static Status Create(const std::string& final_path, std::unique_ptr<OutputFile>* out);
  static Status CreateScratch(const std::string& dir, const std::string& tag, std::unique_ptr<OutputFile>* out);
  ~OutputFile();

  Status Append(std::string_view data);
  // Appends zero bytes up to the next multiple of alignment.
  Status PadTo(uint64_t alignment);
  uint64_t size() const { return size_; }
  const std::string& path() const { return tmp_path_; }

  // Flushes, fsyncs, closes and renames to the final path; then fsyncs the
  // directory so the rename is durable.
  Status Commit();
  // Flushes and closes, keeping the file (scratch files: to map it).
  Status Close();
  // Closes and removes the file.
  void Remove();

 private:
  OutputFile(int fd, std::string tmp_path, std::string final_path);
  Status Flush();

  int fd_;
  std::string tmp_path_;
  std::string final_path_;
  std::string buffer_;
  uint64_t size_ = 0;
  bool keep_ = false;
};

// A read-only memory map of a closed scratch file.
class MappedValues {
 public:
  static Status Open(const std::string& path, std::unique_ptr<MappedValues>* out);
  ~MappedValues();
  // The file as u64 values (its size rounded down to a multiple of 8).
  std::span<const uint64_t> values() const;
  // The file's bytes.
  std::string_view bytes() const;

 private:
  MappedValues() = default;
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_OUTPUT_FILE_H_
