// ReaderKind<Reader>: the IndexFileKind of a reader class with the static
// Open(path, ...) and Open(file, ...) of IndexReader and LshIndexReader and
// a merger (index_file::NewMerger, kind_mergers.h), so that a kind's
// registry entry is one line (index_kinds.cc).
#ifndef SIMDEX_ENGINE_INDEX_FILE_READER_KIND_H_
#define SIMDEX_ENGINE_INDEX_FILE_READER_KIND_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "engine/index_file/kind_mergers.h"
#include "simdex/index_file.h"

namespace simdex::index_file {

template <class Reader>
class ReaderKind final : public IndexFileKind {
 public:
  constexpr ReaderKind(IndexKind kind, std::string_view name, std::string_view method, std::string_view records)
      : kind_(kind), name_(name), method_(method), records_(records) {}

  IndexKind kind() const override { return kind_; }
  std::string_view name() const override { return name_; }
  std::string_view method() const override { return method_; }
  std::string_view records_name() const override { return records_; }

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
  Status NewMerger(const IndexFile& old, const std::string& path, const MergeOptions& options,
                   std::unique_ptr<IndexFileMerger>* out) const override {
    const auto* reader = dynamic_cast<const Reader*>(&old);
    if (reader == nullptr) {
      return Status::InvalidArgument("a " + std::string(name_) + " merger cannot merge a " +
                                     IndexKindName(old.kind()) + " index");
    }
    return index_file::NewMerger(*reader, path, options, out);
  }

 private:
  IndexKind kind_;
  std::string_view name_;
  std::string_view method_;
  std::string_view records_;
};

}  // namespace simdex::index_file

#endif  // SIMDEX_ENGINE_INDEX_FILE_READER_KIND_H_
