#include "engine/lsh/lsh_documents.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "engine/index/external_sorter.h"
#include "engine/index/file_sections.h"
#include "engine/index/index_writer.h"
#include "format/id_map.h"
#include "format/lsh/lsh_layout.h"
#include "format/packed_ints.h"

namespace simdex::lsh {

namespace {

// The options of the table encoder.
BuildOptions TableOptions(const LshBuildOptions& o) {
  BuildOptions b;
  b.block_size = o.block_size;
  b.codec = o.codec;
  b.restarts = o.restarts;
  return b;
}

}  // namespace

LshDocuments::LshDocuments(const LshBuildOptions& options)
    : options_(options),
      signature_bytes_(PackedSignatureBytes(options.minhash.num_perm, options.signature_bits)) {}

uint64_t LshDocuments::IdNumber(uint64_t id) {
  return options_.string_ids ? id_map_.Intern(std::to_string(id)) : id;
}

uint64_t LshDocuments::IdNumber(std::string_view id) {
  if (!options_.string_ids) SwitchToStringIds();
  return id_map_.Intern(id);
}

void LshDocuments::SwitchToStringIds() {
  if (options_.string_ids) return;
  for (uint64_t& id : ids_) id = id_map_.Intern(std::to_string(id));
  options_.string_ids = true;
}

void LshDocuments::Add(uint64_t id, const uint32_t* signature) {
  const size_t at = keys_.size();
  keys_.resize(at + options_.bands.bands);
  BandKeys(signature, options_.bands, keys_.data() + at);
  const size_t s = signatures_.size();
  signatures_.resize(s + signature_bytes_);
  PackSignature(signature, options_.minhash.num_perm, options_.signature_bits,
                reinterpret_cast<uint8_t*>(signatures_.data() + s));
  const bool in_bands = !IsEmptySignature(signature, options_.minhash.num_perm);
  banded_.push_back(in_bands);
  banded_count_ += in_bands;
  ids_.push_back(id);
}

void LshDocuments::AddStored(uint64_t id, const uint64_t* keys, const uint8_t* packed, bool banded) {
  keys_.insert(keys_.end(), keys, keys + options_.bands.bands);
  signatures_.append(reinterpret_cast<const char*>(packed), signature_bytes_);
  banded_.push_back(banded);
  banded_count_ += banded;
  ids_.push_back(id);
}

void LshDocuments::ApplyOrder(const std::vector<uint64_t>& order) {
  // Position o takes document order[o]: each cycle of the permutation is
  // walked once, moving each document's row to its place (one random
  // access per document, instead of one per document and band table when
  // the tables are filled).
  const size_t n = ids_.size(), nb = static_cast<size_t>(options_.bands.bands), sb = signature_bytes_;
  std::vector<bool> placed(n, false);
  std::vector<uint64_t> keys(nb);
  std::string sig(sb, '\0');
  for (size_t start = 0; start < n; ++start) {
    if (placed[start] || order[start] == start) continue;
    const uint64_t id = ids_[start];
    const uint8_t banded = banded_[start];
    std::copy_n(keys_.begin() + start * nb, nb, keys.begin());
    sig.assign(signatures_, start * sb, sb);
    size_t at = start;
    for (size_t from = order[at]; from != start; at = from, from = order[at]) {
      ids_[at] = ids_[from];
      banded_[at] = banded_[from];
      std::copy_n(keys_.begin() + from * nb, nb, keys_.begin() + at * nb);
      signatures_.replace(at * sb, sb, signatures_, from * sb, sb);
      placed[at] = true;
    }
    ids_[at] = id;
    banded_[at] = banded;
    std::copy_n(keys.begin(), nb, keys_.begin() + at * nb);
    signatures_.replace(at * sb, sb, sig);
    placed[at] = true;
  }
}

Status LshDocuments::Write(const std::string& path, int min_ordinal_bits, uint64_t* file_bytes) {
  const uint64_t n = ids_.size();
  const LshBuildOptions& options = options_;
  const int nbands = options.bands.bands;
  std::vector<uint64_t>& ids = ids_;
  const std::vector<uint64_t>& keys = keys_;
  const std::vector<uint8_t>& banded = banded_;
  const size_t signature_bytes = signature_bytes_;
  if (options.string_ids) {
    id_map_.Finish();
    for (uint64_t& id : ids) id = id_map_.Rank(id);
  }
  format::LshMetadata m;
  m.documents = n;
  m.banded = banded_count_;
  m.block_size = options.block_size;
  m.restarts = static_cast<uint8_t>(options.restarts);
  m.num_perm = static_cast<uint16_t>(options.minhash.num_perm);
  m.seed = options.minhash.seed;
  m.bands = static_cast<uint16_t>(nbands);
  m.rows = static_cast<uint16_t>(options.bands.rows);
  m.signature_bits = static_cast<uint8_t>(options.signature_bits);
  m.ordinal_bits = static_cast<uint8_t>(std::max(n == 0 ? 0 : format::BitWidth(n - 1), min_ordinal_bits));
  m.threshold = static_cast<uint32_t>(std::llround(options.threshold * format::kLshThresholdScale));
  m.profile = MinHashProfile(options.minhash);
  const uint64_t ordinal_mask = m.ordinal_bits == 0 ? 0 : ~uint64_t{0} >> (64 - m.ordinal_bits);

  // Ordinal order: by id, then signature, then the band keys as kept.
  std::vector<uint64_t> order(n);
  std::iota(order.begin(), order.end(), uint64_t{0});
  auto sig = [&](uint64_t i) { return signatures_.data() + i * signature_bytes; };
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
  ApplyOrder(order);
  order = {};

  std::unique_ptr<index::OutputFile> out;
  SIMDEX_RETURN_IF_ERROR(index::OutputFile::Create(path, &out));
  std::string header;
  format::FileHeader h;
  h.kind = format::IndexKind::kMinHashLsh;
  h.EncodeTo(&header);
  SIMDEX_RETURN_IF_ERROR(out->Append(header));

  const BuildOptions table_options = TableOptions(options);
  std::vector<uint64_t> values;
  values.reserve(banded_count_);
  for (int t = 0; t < nbands; ++t) {
    values.clear();
    for (uint64_t o = 0; o < n; ++o) {
      const uint64_t d = o;
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
  m.signatures_checksum = format::SectionChecksum(signatures_.data(), signatures_.size());
  SIMDEX_RETURN_IF_ERROR(out->Append(signatures_));  // in ordinal order since ApplyOrder

  std::string packed;
  if (n > 0) {
    m.id_base = options.string_ids ? 0 : ids[0];
    m.id_width = static_cast<uint8_t>(format::BitWidth(ids[n - 1] - m.id_base));
  }
  {
    format::PackedIntsWriter writer(&packed, m.id_width);
    for (uint64_t o = 0; o < n; ++o) writer.Add(ids[o] - m.id_base);
    writer.Finish();
  }
  std::string id_map_bytes;
  if (options.string_ids) format::EncodeIdMap(id_map_.Sorted(), &id_map_bytes);
  index::IdPlacement placed;
  SIMDEX_RETURN_IF_ERROR(index::AppendIdSections(out.get(), packed, id_map_bytes, &placed));
  index::SetIdPlacement(placed, &m);
  std::string tail;
  m.EncodeTo(&tail);
  return index::AppendMetadataAndCommit(out.get(), std::move(tail), file_bytes);
}

}  // namespace simdex::lsh
