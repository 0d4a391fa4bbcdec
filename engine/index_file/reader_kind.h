// ReaderKind<Reader>: the IndexFileKind of a reader class with the static
// Open(path, ...) and Open(file, ...) of IndexReader and LshIndexReader, so
// that a kind's registry entry is one line (index_kinds.cc).
#ifndef SIMDEX_ENGINE_INDEX_FILE_READER_KIND_H_
#define SIMDEX_ENGINE_INDEX_FILE_READER_KIND_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "simdex/index_file.h"

namespace simdex::index_file {

template <class Reader>
class ReaderKind final : public IndexFileKind {
 public:
  constexpr ReaderKind(IndexKind kind, std::string_view name, std::string_view method)
      : kind_(kind), name_(name), method_(method) {}

  IndexKind kind() const override { return kind_; }
  std::string_view name() const override { return name_; }
  std::string_view method() const override { return method_; }

  Status Open(const std::string& path, const ReaderOptions& options,
              std::unique_ptr<IndexFile>* out) const override {
    std::unique_ptr<Reader> reader;
    SIMDEX_RETURN_IF_ERROR(Reader::Open(path, options, &reader));
    *out = std::move(reader);
    return Status::OK();
  }
  Status Open(std::unique_ptr<RandomAccessFile> file, const ReaderOptions& options,
              std::unique_ptr<IndexFile>* out) const override {
    std::unique_ptr<Reader> reader;
    SIMDEX_RETURN_IF_ERROR(Reader::Open(std::move(file), options, &reader));
    *out = std::move(reader);
    return Status::OK();
  }

 private:
  IndexKind kind_;
  std::string_view name_;
  std::string_view method_;
};

}  // namespace simdex::index_file

#endif  // SIMDEX_ENGINE_INDEX_FILE_READER_KIND_H_
