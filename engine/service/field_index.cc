#include "engine/service/field_index.h"

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

Status OpenFile(const std::string& dir, const FileRecord& record, const ServiceOptions& options, IndexSnapshot* snap) {
  if (record.field == kBandField) {
    std::shared_ptr<BandFile> file;
    SIMDEX_RETURN_IF_ERROR(OpenBandFile(dir, record, &file));
    snap->bands.files.push_back(std::move(file));
    return Status::OK();
  }
  auto file = std::make_shared<IndexFile>();
  file->record = record;
  SIMDEX_RETURN_IF_ERROR(IndexReader::Open(dir + "/" + record.name, ReaderOptions(), &file->reader));
  if (options.preload) SIMDEX_RETURN_IF_ERROR(file->reader->Preload(options.preload_lock, &file->preload));
  snap->fields[record.field].files.push_back(std::move(file));
  return Status::OK();
}

void FieldIndex::AddPreloadStats(ServiceStats* stats) const {
  for (const auto& f : files) {
    stats->preloaded_bytes += f->preload.bytes;
    if (f->preload.locked) stats->locked_bytes += f->preload.bytes;
    if (!f->preload.lock_error.empty()) stats->preload_lock_error = f->preload.lock_error;
  }
}

}  // namespace simdex::service
