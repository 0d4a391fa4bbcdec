#include "engine/index/mapped_index.h"

#include <string>
#include <utility>

#include "engine/index/file_sections.h"
#include "engine/index/mapping_advice.h"

namespace simdex::index {

Status MappedIndex::MapEnvelope(std::unique_ptr<RandomAccessFile> f, format::IndexKind kind,
                                format::Envelope* envelope) {
  file = std::move(f);
  file_begin = file->data();
  file_end = file_begin + file->size();
  SIMDEX_RETURN_IF_ERROR(format::OpenEnvelope(file_begin, file->size(), envelope));
  if (envelope->header.kind != kind) return WrongIndexKind(envelope->header.kind, kind);
  format_version = envelope->header.version;
  return Status::OK();
}

void MappedIndex::AdviseOpened(const std::string& file_path, const ReaderOptions& options) {
  path = file_path;
  random_access = AdviseAccess(options.access, file_begin, static_cast<size_t>(file_end - file_begin));
}

void MappedIndex::WillRead(const uint8_t* data, size_t size) const {
  if (random_access) index::WillRead(data, size);
}

Status MappedIndex::VerifySection(const std::string& name, uint64_t offset, uint64_t length, uint64_t checksum) const {
  WillRead(file_begin + offset, static_cast<size_t>(length));
  if (format::SectionChecksum(file_begin + offset, length) != checksum) {
    return Status::Corruption(name + " (byte offset " + std::to_string(offset) + "): checksum mismatch");
  }
  return Status::OK();
}

}  // namespace simdex::index
