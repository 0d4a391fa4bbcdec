#include "engine/service/field_index.h"

#include <algorithm>

namespace simdex::service {

Status FieldIndex::Search(uint64_t fingerprint, int k, uint64_t min_seq, std::vector<OnlineMatch>* out) const {
  std::vector<Match> found;
  for (const auto& f : files) {
    if (f->record.max_seq < min_seq) continue;
    found.clear();
    Status s = f->reader->Search(fingerprint, k, &found);
    if (!s.ok()) return s.WithContext("index file " + f->record.name);
    for (const Match& m : found) {
      if (m.id >= min_seq) out->push_back(OnlineMatch{m.id, m.fingerprint, m.distance});
    }
  }
  for (const auto& d : frozen) d->Search(fingerprint, k, min_seq, out);
  live->Search(fingerprint, k, min_seq, out);
  return Status::OK();
}

uint64_t FieldIndex::file_entries() const {
  uint64_t n = 0;
  for (const auto& f : files) n += f->record.entries;
  return n;
}

Status OpenIndexFile(const std::string& dir, const FileRecord& record, const ServiceOptions& options,
                     std::shared_ptr<IndexFile>* out) {
  auto file = std::make_shared<IndexFile>();
  file->record = record;
  SIMDEX_RETURN_IF_ERROR(IndexReader::Open(dir + "/" + record.name, ReaderOptions(), &file->reader));
  if (options.preload) SIMDEX_RETURN_IF_ERROR(file->reader->Preload(options.preload_lock, &file->preload));
  *out = std::move(file);
  return Status::OK();
}

uint64_t FieldIndex::file_bytes() const {
  uint64_t n = 0;
  for (const auto& f : files) n += f->reader->Info().total_bytes;
  return n;
}

void FieldIndex::AddPreloadStats(ServiceStats* stats) const {
  for (const auto& f : files) {
    stats->preloaded_bytes += f->preload.bytes;
    if (f->preload.locked) stats->locked_bytes += f->preload.bytes;
    if (!f->preload.lock_error.empty()) stats->preload_lock_error = f->preload.lock_error;
  }
}

uint64_t FieldIndex::delta_entries() const {
  uint64_t n = live->size();
  for (const auto& d : frozen) n += d->size();
  return n;
}

uint64_t FieldIndex::delta_memory_bytes() const {
  uint64_t n = live->MemoryBytes();
  for (const auto& d : frozen) n += d->MemoryBytes();
  return n;
}

}  // namespace simdex::service
