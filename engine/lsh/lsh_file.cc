#include "engine/lsh/lsh_file.h"

#include <algorithm>
#include <cmath>

#include "engine/index/file_sections.h"
#include "engine/index/index_writer.h"
#include "format/packed_ints.h"
#include <xxhash.h>

namespace simdex::lsh {

format::LshMetadata LshMetadataFor(const LshBuildOptions& options, uint64_t n, uint64_t banded,
                                   int min_ordinal_bits) {
  format::LshMetadata m;
  m.documents = n;
  m.banded = banded;
  m.block_size = options.block_size;
  m.restarts = static_cast<uint8_t>(options.restarts);
  m.num_perm = static_cast<uint16_t>(options.minhash.num_perm);
  m.seed = options.minhash.seed;
  m.bands = static_cast<uint16_t>(options.bands.bands);
  m.rows = static_cast<uint16_t>(options.bands.rows);
  m.signature_bits = static_cast<uint8_t>(options.signature_bits);
  m.ordinal_bits = static_cast<uint8_t>(std::max(n == 0 ? 0 : format::BitWidth(n - 1), min_ordinal_bits));
  m.threshold = static_cast<uint32_t>(std::llround(options.threshold * format::kLshThresholdScale));
  m.profile = MinHashProfile(options.minhash);
  return m;
}

Status BeginLshFile(const std::string& path, std::unique_ptr<index::OutputFile>* out) {
  SIMDEX_RETURN_IF_ERROR(index::OutputFile::Create(path, out));
  std::string header;
  format::FileHeader h;
  h.kind = format::IndexKind::kMinHashLsh;
  h.EncodeTo(&header);
  return (*out)->Append(header);
}

Status AppendBandTable(index::OutputFile* out, const LshBuildOptions& options, int t,
                       std::span<const uint64_t> sorted, format::LshMetadata* m) {
  BuildOptions b;
  b.block_size = options.block_size;
  b.codec = options.codec;
  b.restarts = options.restarts;
  format::TableMetadata tm;
  index::EncodedTable enc;
  SIMDEX_RETURN_IF_ERROR(index::AppendTable(out, b, t, sorted, &tm, &enc));
  m->tables.push_back(std::move(tm));
  return Status::OK();
}

Status FinishLshFile(index::OutputFile* out, std::string_view signatures, const index::MappedValues* signatures_map,
                     std::string_view packed_ids, std::string_view id_map, format::LshMetadata* m,
                     uint64_t* file_bytes) {
  SIMDEX_RETURN_IF_ERROR(out->PadTo(8));
  m->signatures_offset = out->size();
  m->signatures_length = signatures.size();
  // A chunk at a time, the checksum streamed (XXH3's streaming digest is
  // the one-shot SectionChecksum).
  constexpr size_t kChunk = size_t{1} << 20;
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  Status s;
  for (size_t at = 0; at < signatures.size() && s.ok(); at += kChunk) {
    const std::string_view chunk = signatures.substr(at, kChunk);
    XXH3_64bits_update(state, chunk.data(), chunk.size());
    s = out->Append(chunk);
    if (signatures_map != nullptr) signatures_map->Release(at, chunk.size());
  }
  m->signatures_checksum = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  SIMDEX_RETURN_IF_ERROR(s);
  index::IdPlacement placed;
  SIMDEX_RETURN_IF_ERROR(index::AppendIdSections(out, packed_ids, id_map, &placed));
  index::SetIdPlacement(placed, m);
  std::string tail;
  m->EncodeTo(&tail);
  return index::AppendMetadataAndCommit(out, std::move(tail), file_bytes);
}

}  // namespace simdex::lsh
