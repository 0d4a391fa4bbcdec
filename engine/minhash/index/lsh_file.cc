#include "engine/minhash/index/lsh_file.h"

#include <algorithm>
#include <cmath>

#include "engine/index/file_sections.h"
#include "engine/index/table_writer.h"
#include "format/coding.h"
#include "format/lsh/sketch_section.h"
#include "format/packed_ints.h"

namespace simdex::minhash {

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
  m.sketch_k = static_cast<uint32_t>(options.sketch_k);
  return m;
}

size_t DocumentBytes(const LshBuildOptions& options) {
  return PackedSignatureBytes(options.minhash.num_perm, options.signature_bits) + SketchSlotBytes(options.sketch_k);
}

void PutSketchSlot(std::span<const uint32_t> hashes, bool cut, int k, uint8_t* slot) {
  std::memset(slot, 0, SketchSlotBytes(k));
  format::EncodeFixed32(reinterpret_cast<char*>(slot), static_cast<uint32_t>(hashes.size() * 2 + (cut ? 1 : 0)));
  for (size_t i = 0; i < hashes.size(); ++i) format::EncodeFixed32(reinterpret_cast<char*>(slot + 4 + 4 * i), hashes[i]);
}

namespace {

// Appends the sketch of a document slot to *dst (format/lsh/sketch_section.h).
void EncodeSlot(const uint8_t* slot, std::vector<uint32_t>* scratch, std::string* dst) {
  const uint32_t h = format::DecodeFixed32(slot);
  scratch->resize(h >> 1);
  for (size_t i = 0; i < scratch->size(); ++i) (*scratch)[i] = format::DecodeFixed32(slot + 4 + 4 * i);
  format::EncodeSketch(*scratch, (h & 1) != 0, dst);
}

using index::ChecksummedAppender;
constexpr size_t kChunk = ChecksummedAppender::kChunk;

// The sketch section of the documents (stride bytes each, the sketch slot
// at slot_at), offsets then data; placed and recorded in *m.
Status AppendSketchSection(util::OutputFile* out, std::string_view documents, size_t stride, size_t slot_at,
                           const util::MappedValues* map, format::LshMetadata* m) {
  const uint64_t n = m->documents;
  const auto slot = [&](uint64_t d) { return reinterpret_cast<const uint8_t*>(documents.data() + d * stride + slot_at); };
  std::vector<uint32_t> scratch;
  std::string buffer;
  uint64_t data_bytes = 0;
  for (uint64_t d = 0; d < n; ++d) {
    buffer.clear();
    EncodeSlot(slot(d), &scratch, &buffer);
    data_bytes += buffer.size();
  }
  const int w = format::SketchOffsetBytes(data_bytes);
  SIMDEX_RETURN_IF_ERROR(out->PadTo(8));
  m->sketch_offset_bytes = static_cast<uint8_t>(w);
  m->sketches_offset = out->size();
  m->sketches_length = (n + 1) * static_cast<uint64_t>(w) + data_bytes;
  ChecksummedAppender append(out);
  buffer.clear();
  std::string one;
  uint64_t at = 0;
  for (uint64_t d = 0; d <= n; ++d) {
    if (w == 4) format::PutFixed32(&buffer, static_cast<uint32_t>(at));
    else format::PutFixed64(&buffer, at);
    if (d < n) {
      one.clear();
      EncodeSlot(slot(d), &scratch, &one);
      at += one.size();
    }
    SIMDEX_RETURN_IF_ERROR(append.Flush(&buffer, d == n));
  }
  for (uint64_t d = 0; d < n; ++d) {
    EncodeSlot(slot(d), &scratch, &buffer);
    if (map != nullptr && (d + 1) % 4096 == 0) map->Release((d - 4095) * stride, 4096 * stride);
    SIMDEX_RETURN_IF_ERROR(append.Flush(&buffer, d + 1 == n));
  }
  m->sketches_checksum = append.Digest();
  return Status::OK();
}

}  // namespace

Status BeginLshFile(const std::string& path, const format::LshMetadata& m, std::unique_ptr<util::OutputFile>* out) {
  SIMDEX_RETURN_IF_ERROR(util::OutputFile::Create(path, out));
  std::string header;
  format::FileHeader h;
  h.version = m.WriteVersion();
  h.kind = format::IndexKind::kMinHashLsh;
  h.EncodeTo(&header);
  return (*out)->Append(header);
}

Status AppendBandTable(util::OutputFile* out, const LshBuildOptions& options, int t,
                       std::span<const uint64_t> sorted, format::LshMetadata* m) {
  format::TableMetadata tm;
  index::EncodedTable enc;
  SIMDEX_RETURN_IF_ERROR(index::AppendTable(out, index::TableOptionsOf(options), t, sorted, &tm, &enc));
  m->tables.push_back(std::move(tm));
  return Status::OK();
}

Status FinishLshFile(util::OutputFile* out, std::string_view documents, const util::MappedValues* signatures_map,
                     std::string_view packed_ids, std::string_view id_map, format::LshMetadata* m,
                     uint64_t* file_bytes) {
  const size_t sb = m->SignatureBytes();
  const size_t stride = sb + SketchSlotBytes(static_cast<int>(m->sketch_k));
  SIMDEX_RETURN_IF_ERROR(out->PadTo(8));
  m->signatures_offset = out->size();
  m->signatures_length = m->documents * sb;
  // A chunk at a time, the checksum streamed (XXH3's streaming digest is
  // the one-shot SectionChecksum).
  {
    ChecksummedAppender append(out);
    if (stride == sb) {
      for (size_t at = 0; at < documents.size(); at += kChunk) {
        SIMDEX_RETURN_IF_ERROR(append.Append(documents.substr(at, kChunk)));
        if (signatures_map != nullptr) signatures_map->Release(at, std::min(kChunk, documents.size() - at));
      }
    } else {
      std::string buffer;
      for (uint64_t d = 0; d < m->documents; ++d) {
        buffer.append(documents.data() + d * stride, sb);
        SIMDEX_RETURN_IF_ERROR(append.Flush(&buffer, d + 1 == m->documents));
      }
    }
    m->signatures_checksum = append.Digest();
  }
  if (m->sketch_k > 0) {
    SIMDEX_RETURN_IF_ERROR(AppendSketchSection(out, documents, stride, sb, signatures_map, m));
  }
  return index::AppendIdsAndCommit(out, packed_ids, id_map, m, file_bytes, m->WriteVersion());
}

}  // namespace simdex::minhash
