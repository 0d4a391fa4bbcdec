// LshIndexBuilder: collects documents (id, band keys, b-bit signature) in
// memory, then writes the file (docs/format.md, "MinHash-LSH indexes"):
// the documents are put in ordinal order, by (id, b-bit signature, band
// keys cut to the key bits the file keeps), so that the file depends only
// on the documents; then each band table is made of its values (key bits
// | ordinal), sorted and encoded with the table codec; then the signature
// and id sections, the metadata and the footer.
//
// Memory: 8 bytes of id, 8 per band and the b-bit signature per document
// (200 bytes at the defaults), plus 16 bytes per document while writing.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "engine/index/external_sorter.h"
#include "engine/index/file_sections.h"
#include "engine/index/id_map_builder.h"
#include "engine/index/index_writer.h"
#include "engine/io/string_id.h"
#include "format/id_map.h"
#include "format/lsh/lsh_layout.h"
#include "format/packed_ints.h"
#include "simdex/lsh_index.h"

namespace simdex {

struct LshIndexBuilder::Rep {
  std::string path;
  LshBuildOptions options;
  size_t signature_bytes = 0;
  std::vector<uint64_t> ids;   // numbers, or provisional string numbers
  std::vector<uint64_t> keys;  // bands per document
  std::string signatures;      // signature_bytes per document
  std::vector<uint8_t> banded;
  index::IdMapBuilder id_map;
  LshBuildStats stats;
  Status status;
  bool done = false;

  Status AddDocument(uint64_t id, const uint32_t* signature);
  Status SwitchToStringIds();
  Status Write();
};

namespace {

Status CheckOptions(LshBuildOptions* o) {
  std::unique_ptr<MinHasher> hasher;
  SIMDEX_RETURN_IF_ERROR(MinHasher::Create(o->minhash, &hasher));
  if (!(o->threshold > 0 && o->threshold < 1)) {
    return Status::InvalidArgument("threshold " + std::to_string(o->threshold) + " is not between 0 and 1");
  }
  if (o->bands.bands == 0 && o->bands.rows == 0) o->bands = DefaultLshBands(o->threshold, o->minhash.num_perm);
  SIMDEX_RETURN_IF_ERROR(CheckLshBands(o->bands, o->minhash.num_perm));
  if (!ValidSignatureBits(o->signature_bits)) {
    return Status::InvalidArgument("signature bits " + std::to_string(o->signature_bits) +
                                   " is not one of 1, 2, 4, 8, 16, 32");
  }
  if (!format::IsValidBlockSize(o->block_size)) {
    return Status::InvalidArgument("block size " + std::to_string(o->block_size) +
                                   " is not a power of two in 64..65536");
  }
  if (!format::IsValidRestarts(o->restarts)) {
    return Status::InvalidArgument("restarts " + std::to_string(o->restarts) + " is not 0.." +
                                   std::to_string(format::kMaxRestarts));
  }
  return index::CheckCodecOption(o->codec);
}

// The options of the table encoder.
BuildOptions TableOptions(const LshBuildOptions& o) {
  BuildOptions b;
  b.block_size = o.block_size;
  b.codec = o.codec;
  b.restarts = o.restarts;
  return b;
}

}  // namespace

LshIndexBuilder::LshIndexBuilder(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
LshIndexBuilder::~LshIndexBuilder() = default;

Status LshIndexBuilder::Create(const std::string& path, const LshBuildOptions& options,
                               std::unique_ptr<LshIndexBuilder>* out) {
  auto rep = std::make_unique<Rep>();
  rep->path = path;
  rep->options = options;
  SIMDEX_RETURN_IF_ERROR(CheckOptions(&rep->options));
  rep->signature_bytes = PackedSignatureBytes(rep->options.minhash.num_perm, rep->options.signature_bits);
  out->reset(new LshIndexBuilder(std::move(rep)));
  return Status::OK();
}

const LshBuildOptions& LshIndexBuilder::options() const { return rep_->options; }
const LshBuildStats& LshIndexBuilder::stats() const { return rep_->stats; }

Status LshIndexBuilder::Rep::AddDocument(uint64_t id, const uint32_t* signature) {
  const LshBands b = options.bands;
  const size_t at = keys.size();
  keys.resize(at + b.bands);
  BandKeys(signature, b, keys.data() + at);
  const size_t s = signatures.size();
  signatures.resize(s + signature_bytes);
  PackSignature(signature, options.minhash.num_perm, options.signature_bits,
                reinterpret_cast<uint8_t*>(signatures.data() + s));
  const bool in_bands = !IsEmptySignature(signature, options.minhash.num_perm);
  banded.push_back(in_bands);
  ids.push_back(id);
  ++stats.documents;
  stats.banded += in_bands;
  return Status::OK();
}

Status LshIndexBuilder::Rep::SwitchToStringIds() {
  for (uint64_t& id : ids) id = id_map.Intern(std::to_string(id));
  options.string_ids = true;
  return Status::OK();
}

Status LshIndexBuilder::Add(uint64_t id, const uint32_t* signature) {
  Rep& r = *rep_;
  if (!r.status.ok()) return r.status;
  if (r.done) return r.status = Status::InvalidArgument("Add() after Finish() or Abandon()");
  if (r.options.string_ids) id = r.id_map.Intern(std::to_string(id));
  return r.AddDocument(id, signature);
}

Status LshIndexBuilder::Add(std::string_view id, const uint32_t* signature) {
  Rep& r = *rep_;
  if (!r.status.ok()) return r.status;
  if (r.done) return r.status = Status::InvalidArgument("Add() after Finish() or Abandon()");
  SIMDEX_RETURN_IF_ERROR(io::CheckStringId(id).WithContext("id '" + std::string(id.substr(0, 40)) + "'"));
  if (!r.options.string_ids) SIMDEX_RETURN_IF_ERROR(r.SwitchToStringIds());
  return r.AddDocument(r.id_map.Intern(id), signature);
}

void LshIndexBuilder::Abandon() {
  rep_->done = true;
  rep_->ids = {};
  rep_->keys = {};
  rep_->signatures = {};
  rep_->banded = {};
}

Status LshIndexBuilder::Finish() {
  Rep& r = *rep_;
  if (!r.status.ok()) return r.status;
  if (r.done) return r.status = Status::InvalidArgument("Finish() after Finish() or Abandon()");
  r.done = true;
  r.status = r.Write();
  Abandon();
  return r.status;
}

Status LshIndexBuilder::Rep::Write() {
  const uint64_t n = ids.size();
  const int nbands = options.bands.bands;
  if (options.string_ids) {
    id_map.Finish();
    for (uint64_t& id : ids) id = id_map.Rank(id);
  }
  format::LshMetadata m;
  m.documents = n;
  m.banded = stats.banded;
  m.block_size = options.block_size;
  m.restarts = static_cast<uint8_t>(options.restarts);
  m.num_perm = static_cast<uint16_t>(options.minhash.num_perm);
  m.seed = options.minhash.seed;
  m.bands = static_cast<uint16_t>(nbands);
  m.rows = static_cast<uint16_t>(options.bands.rows);
  m.signature_bits = static_cast<uint8_t>(options.signature_bits);
  m.ordinal_bits = static_cast<uint8_t>(n == 0 ? 0 : format::BitWidth(n - 1));
  m.threshold = static_cast<uint32_t>(std::llround(options.threshold * format::kLshThresholdScale));
  m.profile = MinHashProfile(options.minhash);
  const uint64_t ordinal_mask = m.ordinal_bits == 0 ? 0 : ~uint64_t{0} >> (64 - m.ordinal_bits);

  // Ordinal order: by id, then signature, then the band keys as kept.
  std::vector<uint64_t> order(n);
  std::iota(order.begin(), order.end(), uint64_t{0});
  auto sig = [&](uint64_t i) { return signatures.data() + i * signature_bytes; };
  std::sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) {
    if (ids[a] != ids[b]) return ids[a] < ids[b];
    const int c = std::memcmp(sig(a), sig(b), signature_bytes);
    if (c != 0) return c < 0;
    for (int j = 0; j < nbands; ++j) {
      const uint64_t ka = keys[a * nbands + j] & ~ordinal_mask, kb = keys[b * nbands + j] & ~ordinal_mask;
      if (ka != kb) return ka < kb;
    }
    return banded[a] < banded[b];
  });

  std::unique_ptr<index::OutputFile> out;
  SIMDEX_RETURN_IF_ERROR(index::OutputFile::Create(path, &out));
  std::string header;
  format::FileHeader h;
  h.kind = format::IndexKind::kMinHashLsh;
  h.EncodeTo(&header);
  SIMDEX_RETURN_IF_ERROR(out->Append(header));

  const BuildOptions table_options = TableOptions(options);
  std::vector<uint64_t> values;
  values.reserve(stats.banded);
  for (int t = 0; t < nbands; ++t) {
    values.clear();
    for (uint64_t o = 0; o < n; ++o) {
      const uint64_t d = order[o];
      if (banded[d]) values.push_back((keys[d * nbands + t] & ~ordinal_mask) | o);
    }
    index::ExternalSorter<uint64_t>::SortInMemory(values.data(), values.size(), 1);
    format::TableMetadata tm;
    index::EncodedTable enc;
    SIMDEX_RETURN_IF_ERROR(index::AppendTable(out.get(), table_options, t, values, &tm, &enc));
    m.tables.push_back(std::move(tm));
  }
  values = {};

  SIMDEX_RETURN_IF_ERROR(out->PadTo(8));
  m.signatures_offset = out->size();
  m.signatures_length = n * signature_bytes;
  {
    std::string all;
    all.reserve(m.signatures_length);
    for (uint64_t o = 0; o < n; ++o) all.append(sig(order[o]), signature_bytes);
    m.signatures_checksum = format::SectionChecksum(all.data(), all.size());
    SIMDEX_RETURN_IF_ERROR(out->Append(all));
  }

  std::string packed;
  if (n > 0) {
    m.id_base = options.string_ids ? 0 : ids[order[0]];
    m.id_width = static_cast<uint8_t>(format::BitWidth(ids[order[n - 1]] - m.id_base));
  }
  {
    format::PackedIntsWriter writer(&packed, m.id_width);
    for (uint64_t o = 0; o < n; ++o) writer.Add(ids[order[o]] - m.id_base);
    writer.Finish();
  }
  std::string id_map_bytes;
  if (options.string_ids) format::EncodeIdMap(id_map.Sorted(), &id_map_bytes);
  index::IdPlacement placed;
  SIMDEX_RETURN_IF_ERROR(index::AppendIdSections(out.get(), packed, id_map_bytes, &placed));
  index::SetIdPlacement(placed, &m);
  std::string tail;
  m.EncodeTo(&tail);
  return index::AppendMetadataAndCommit(out.get(), std::move(tail), &stats.file_bytes);
}

}  // namespace simdex
