#include "engine/service/minhash_content.h"

#include <algorithm>

#include "format/coding.h"

namespace simdex::service {

void BandQuery::Make(const BandSettings& settings, MinHasher* hasher, std::string_view content) {
  signature.resize(static_cast<size_t>(settings.minhash.num_perm));
  has = hasher->Sign(content, signature.data()) != ShingleKind::kNone;
  keys.assign(static_cast<size_t>(settings.bands.bands), 0);
  packed.assign(settings.packed_bytes(), 0);
  if (!has) return;
  BandKeys(signature.data(), settings.bands, keys.data());
  PackSignature(signature.data(), settings.minhash.num_perm, settings.signature_bits, packed.data());
}

std::string BandQuery::Encode() const {
  std::string out;
  for (uint64_t k : keys) format::PutFixed64(&out, k);
  out.append(reinterpret_cast<const char*>(packed.data()), packed.size());
  return out;
}

Status BandQuery::Decode(const BandSettings& settings, std::string_view bytes) {
  if (bytes.size() != settings.entry_bytes()) {
    return Status::Corruption("a MinHash content entry of " + std::to_string(bytes.size()) + " bytes, not " +
                              std::to_string(settings.entry_bytes()) + " (" + std::to_string(settings.bands.bands) +
                              " bands and " + std::to_string(settings.packed_bytes()) + " bytes of signature)");
  }
  has = true;
  signature.clear();
  keys.resize(static_cast<size_t>(settings.bands.bands));
  for (size_t j = 0; j < keys.size(); ++j) keys[j] = format::DecodeFixed64(bytes.data() + 8 * j);
  const std::string_view p = bytes.substr(8 * keys.size());
  packed.assign(p.begin(), p.end());
  return Status::OK();
}

Status OpenBandFile(const std::string& dir, const FileRecord& record, std::shared_ptr<BandFile>* out) {
  auto file = std::make_shared<BandFile>();
  file->record = record;
  SIMDEX_RETURN_IF_ERROR(LshIndexReader::Open(dir + "/" + record.name, ReaderOptions(), &file->reader));
  *out = std::move(file);
  return Status::OK();
}

Status BandIndex::Search(const BandQuery& q, uint64_t min_seq, double min_estimate, std::vector<BandMatch>* out,
                         BandWork* work) const {
  std::vector<LshMatch> found;
  LshQueryOptions options;
  options.min_estimate = min_estimate;
  for (const auto& f : files) {
    if (f->record.max_seq < min_seq) continue;
    LshQueryStats stats;
    Status s = f->reader->Query(q.signature.data(), options, &found, &stats);
    if (!s.ok()) return s.WithContext("index file " + f->record.name);
    work->candidates += stats.candidates;
    work->estimates += stats.candidates;
    for (const LshMatch& m : found) {
      if (m.id >= min_seq) out->push_back(BandMatch{m.id, m.estimate});
    }
  }
  const size_t before = out->size();
  for (const auto& d : frozen) d->Search(q.keys.data(), q.packed.data(), min_seq, out);
  live->Search(q.keys.data(), q.packed.data(), min_seq, out);
  work->candidates += out->size() - before;
  work->estimates += out->size() - before;
  return Status::OK();
}

const BandMatch* BestBandMatch(const std::vector<BandMatch>& found, uint64_t cutoff, double threshold) {
  const BandMatch* best = nullptr;
  for (const BandMatch& m : found) {
    if (m.seq >= cutoff && m.estimate >= threshold && (best == nullptr || Likelier(m, *best))) best = &m;
  }
  return best;
}

}  // namespace simdex::service
