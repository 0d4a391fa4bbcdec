// The registry of index kinds: one line per kind (include/simdex/index_file.h).
#include "engine/index_file/reader_kind.h"
#include "format/index_layout.h"
#include "simdex/index.h"
#include "simdex/lsh_index.h"

namespace simdex {

namespace {

using index_file::ReaderKind;

const ReaderKind<IndexReader> kSimHash(IndexKind::kSimHash, "simhash", "simhash", "entries");
const ReaderKind<LshIndexReader> kMinHashLsh(IndexKind::kMinHashLsh, "minhash-lsh", "minhash", "documents");
const IndexFileKind* const kKinds[] = {&kSimHash, &kMinHashLsh};

}  // namespace

const IndexFileKind* FindIndexKind(IndexKind kind) {
  for (const IndexFileKind* k : kKinds) {
    if (k->kind() == kind) return k;
  }
  return nullptr;
}

const IndexFileKind* FindIndexKind(std::string_view name) {
  for (const IndexFileKind* k : kKinds) {
    if (k->name() == name) return k;
  }
  return nullptr;
}

std::string IndexKindNames() {
  std::string names;
  for (const IndexFileKind* k : kKinds) {
    if (!names.empty()) names += ", ";
    names += k->name();
  }
  return names;
}

Status OpenIndexFile(const std::string& path, const ReaderOptions& options, std::unique_ptr<IndexFile>* out) {
  IndexKind kind;
  SIMDEX_RETURN_IF_ERROR(ReadIndexKind(path, &kind));
  const IndexFileKind* k = FindIndexKind(kind);
  if (k == nullptr) return Status::NotSupported(path + ": index kind " + std::to_string(static_cast<int>(kind)));
  return k->Open(path, options, out);
}

Status IndexFile::Open(const std::string& path, const ReaderOptions& options, std::unique_ptr<IndexFile>* out) {
  return OpenIndexFile(path, options, out);
}

Status OpenIndexFile(std::unique_ptr<RandomAccessFile> file, const ReaderOptions& options,
                     std::unique_ptr<IndexFile>* out) {
  format::Envelope envelope;
  SIMDEX_RETURN_IF_ERROR(format::OpenEnvelope(file->data(), file->size(), &envelope));
  const auto kind = static_cast<IndexKind>(envelope.header.kind);
  const IndexFileKind* k = FindIndexKind(kind);
  if (k == nullptr) return Status::NotSupported("index kind " + std::to_string(static_cast<int>(kind)));
  return k->Open(std::move(file), options, out);
}

}  // namespace simdex
