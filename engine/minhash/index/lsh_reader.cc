// Opens a MinHash-LSH index: maps it, checks header, footer, metadata and
// section placement (docs/format.md, "MinHash-LSH indexes") before anything
// else is read; the once-per-reader checks of its sections; Info().
#include "engine/minhash/index/lsh_rep.h"
#include "format/coding.h"
#include "format/lsh/sketch_section.h"

namespace simdex {

namespace {

format::IndexKind ToFormat(IndexKind kind) { return static_cast<format::IndexKind>(kind); }

}  // namespace

const char* IndexKindName(IndexKind kind) { return format::IndexKindName(ToFormat(kind)); }

Status ReadIndexKind(const std::string& path, IndexKind* kind) {
  std::unique_ptr<RandomAccessFile> file;
  SIMDEX_RETURN_IF_ERROR(MapFile(path, &file));
  format::Envelope envelope;
  SIMDEX_RETURN_IF_ERROR(format::OpenEnvelope(file->data(), file->size(), &envelope).WithContext(path));
  *kind = static_cast<IndexKind>(envelope.header.kind);
  return Status::OK();
}

void LshQueryStats::Add(const LshQueryStats& o) {
  queries += o.queries;
  tables_probed += o.tables_probed;
  blocks_decoded += o.blocks_decoded;
  candidates += o.candidates;
  sketched += o.sketched;
  matches += o.matches;
}

LshIndexReader::LshIndexReader(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
LshIndexReader::~LshIndexReader() = default;

Status LshIndexReader::Open(const std::string& path, const ReaderOptions& options,
                            std::unique_ptr<LshIndexReader>* out) {
  std::unique_ptr<RandomAccessFile> file;
  SIMDEX_RETURN_IF_ERROR(MapFile(path, &file));
  SIMDEX_RETURN_IF_ERROR(Open(std::move(file), options, out).WithContext(path));
  (*out)->rep_->AdviseOpened(path, options);
  return Status::OK();
}

Status LshIndexReader::Open(std::unique_ptr<RandomAccessFile> file, const ReaderOptions& options,
                            std::unique_ptr<LshIndexReader>* out) {
  auto rep = std::make_unique<Rep>();
  format::Envelope envelope;
  SIMDEX_RETURN_IF_ERROR(rep->MapEnvelope(std::move(file), format::IndexKind::kMinHashLsh, &envelope));
  format::LshMetadata& m = rep->meta;
  SIMDEX_RETURN_IF_ERROR(
      m.DecodeFrom(envelope.metadata, envelope.metadata + envelope.metadata_length, envelope.header.version));
  Status s = ParseMinHashProfile(m.profile, &rep->minhash);
  if (!s.ok()) return Status::NotSupported("metadata: " + s.message());
  if (rep->minhash.num_perm != m.num_perm || rep->minhash.seed != m.seed) {
    return Status::Corruption("metadata: the signature profile '" + m.profile + "' does not match its " +
                              std::to_string(m.num_perm) + " values and seed " + std::to_string(m.seed));
  }

  // Section placement: everything between the header and the metadata.
  const uint64_t area = envelope.metadata_offset;
  std::vector<index::Section> sections;
  SIMDEX_RETURN_IF_ERROR(
      index::PlaceTables(m.tables, m.block_size, m.restarts, m.banded, area, &rep->decoders, &rep->tables, &sections));
  if (m.documents > area / std::max<uint64_t>(m.SignatureBytes(), 1) ||
      m.signatures_length != m.documents * m.SignatureBytes()) {
    return Status::Corruption("metadata: signature section length " + std::to_string(m.signatures_length) +
                              " does not match " + std::to_string(m.documents) + " signatures of " +
                              std::to_string(m.SignatureBytes()) + " bytes");
  }
  sections.push_back({m.signatures_offset, m.signatures_length, "signature section"});
  SIMDEX_RETURN_IF_ERROR(rep->PlaceIds(m.documents, area, &sections));
  if (m.sketch_k > 0) {
    if (m.documents + 1 > m.sketches_length / m.sketch_offset_bytes) {
      return Status::Corruption("metadata: sketch section length " + std::to_string(m.sketches_length) +
                                " is below the offsets of " + std::to_string(m.documents) + " documents");
    }
    sections.push_back({m.sketches_offset, m.sketches_length, "sketch section"});
  }
  SIMDEX_RETURN_IF_ERROR(rep->Attach(m.documents, area, std::move(sections)));
  rep->signatures = rep->file_begin + m.signatures_offset;
  if (m.sketch_k > 0) rep->sketches = rep->file_begin + m.sketches_offset;
  if (options.verify_heads_on_open || options.verify_block_checksums) {
    SIMDEX_RETURN_IF_ERROR(rep->CheckAllHeads());
    SIMDEX_RETURN_IF_ERROR(rep->CheckIdMap());
  }
  index::SampleTables(&rep->tables);
  if (options.verify_block_checksums) {
    SIMDEX_RETURN_IF_ERROR(rep->CheckIds());
    SIMDEX_RETURN_IF_ERROR(rep->CheckSignatures());
    if (m.sketch_k > 0) SIMDEX_RETURN_IF_ERROR(rep->CheckSketches());
    SIMDEX_RETURN_IF_ERROR(rep->CheckAllBlocks());
  }
  out->reset(new LshIndexReader(std::move(rep)));
  return Status::OK();
}

Status LshIndexReader::Rep::VerifySignatures() const {
  return VerifySection("signature section", meta.signatures_offset, meta.signatures_length, meta.signatures_checksum);
}

Status LshIndexReader::Rep::VerifySketches() const {
  SIMDEX_RETURN_IF_ERROR(VerifySection("sketch section", meta.sketches_offset, meta.sketches_length,
                                       meta.sketches_checksum));
  const int w = meta.sketch_offset_bytes;
  const uint64_t first = w == 4 ? format::DecodeFixed32(sketches) : format::DecodeFixed64(sketches);
  const uint8_t* last_at = sketches + meta.documents * w;
  const uint64_t last = w == 4 ? format::DecodeFixed32(last_at) : format::DecodeFixed64(last_at);
  const uint64_t data = meta.sketches_length - (meta.documents + 1) * w;
  if (first != 0 || last != data) {
    return Status::Corruption("sketch section: offsets run from " + std::to_string(first) + " to " +
                              std::to_string(last) + ", not 0 to its " + std::to_string(data) + " bytes of sketches");
  }
  return Status::OK();
}

Status LshIndexReader::Rep::CheckSketches() const {
  return sketches_checked.Run([&] { return VerifySketches(); });
}

Status LshIndexReader::Rep::SketchAt(uint64_t ordinal, std::vector<uint32_t>* hashes, bool* cut) const {
  const uint8_t *begin = nullptr, *end = nullptr;
  SIMDEX_RETURN_IF_ERROR(format::SketchBytes(sketches, meta.sketches_length, meta.documents,
                                             meta.sketch_offset_bytes, ordinal, &begin, &end));
  const Status s = format::DecodeSketch(begin, end, meta.sketch_k, hashes, cut);
  if (!s.ok()) return Status::Corruption("sketch section: document " + std::to_string(ordinal) + ": " + s.message());
  return Status::OK();
}

Status LshIndexReader::Rep::CheckIds() const {
  SIMDEX_RETURN_IF_ERROR(CheckIdSection());
  return CheckIdMap();
}

Status LshIndexReader::Rep::CheckSignatures() const {
  return signatures_checked.Run([&] { return VerifySignatures(); });
}

uint64_t LshIndexReader::documents() const { return rep_->meta.documents; }
const MinHashOptions& LshIndexReader::minhash_options() const { return rep_->minhash; }
LshBands LshIndexReader::bands() const { return {rep_->meta.bands, rep_->meta.rows}; }
int LshIndexReader::signature_bits() const { return rep_->meta.signature_bits; }
double LshIndexReader::threshold() const {
  return static_cast<double>(rep_->meta.threshold) / format::kLshThresholdScale;
}
const std::string& LshIndexReader::profile() const { return rep_->meta.profile; }
int LshIndexReader::sketch_k() const { return static_cast<int>(rep_->meta.sketch_k); }
bool LshIndexReader::has_string_ids() const { return rep_->has_id_map; }
std::string_view LshIndexReader::IdString(uint64_t number) const { return rep_->id_map.Get(number); }
uint64_t LshIndexReader::IdStringCount() const { return rep_->IdStringCount(); }

Status LshIndexReader::FindIdString(std::string_view id, uint64_t* number) const {
  return rep_->FindIdString(id, number);
}

LshIndexInfo LshIndexReader::Info() const {
  const format::LshMetadata& m = rep_->meta;
  LshIndexInfo info;
  info.documents = m.documents;
  info.banded = m.banded;
  info.num_perm = m.num_perm;
  info.seed = m.seed;
  info.bands = m.bands;
  info.rows = m.rows;
  info.signature_bits = m.signature_bits;
  info.threshold = threshold();
  info.ordinal_bits = m.ordinal_bits;
  rep_->DescribeFile(&info);
  info.signature_bytes = m.signatures_length;
  info.sketch_k = static_cast<int>(m.sketch_k);
  info.sketch_bytes = m.sketches_length;
  info.band_key_bound_bits = 64 - m.ordinal_bits;
  return info;
}

}  // namespace simdex
