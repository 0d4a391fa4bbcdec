// LshMetadata's fields, in this order (docs/format.md, "MinHash-LSH
// indexes"): documents, banded, block size, restarts, num_perm, seed,
// bands, rows, signature bits, ordinal bits, threshold; per band table the
// fields of a table after its leading blocks; the signature section's
// offset, length and checksum; the id section's and id map's fields; the
// profile; (version 6) the sketch section's k, offset width, offset, length
// and checksum.
#include "format/lsh/lsh_layout.h"

#include "format/coding.h"
#include "format/layout_fields.h"
#include "format/packed_ints.h"
#include "format/lsh/sketch_section.h"

namespace simdex::format {

bool IsValidSignatureBits(int bits) {
  return bits == 1 || bits == 2 || bits == 4 || bits == 8 || bits == 16 || bits == 32;
}

void LshMetadata::EncodeTo(std::string* dst) const {
  PutFixed64(dst, documents);
  PutFixed64(dst, banded);
  PutFixed32(dst, block_size);
  dst->push_back(static_cast<char>(restarts));
  PutFixed16(dst, num_perm);
  PutFixed64(dst, seed);
  PutFixed16(dst, bands);
  PutFixed16(dst, rows);
  dst->push_back(static_cast<char>(signature_bits));
  dst->push_back(static_cast<char>(ordinal_bits));
  PutFixed32(dst, threshold);
  for (const TableMetadata& t : tables) EncodeTableFields(t, kFormatVersion, dst);
  PutFixed64(dst, signatures_offset);
  PutFixed64(dst, signatures_length);
  PutFixed64(dst, signatures_checksum);
  EncodeIdFields(*this, kFormatVersion, dst);
  EncodeProfile(profile, dst);
  if (WriteVersion() >= 6) {
    PutFixed32(dst, sketch_k);
    dst->push_back(static_cast<char>(sketch_offset_bytes));
    PutFixed64(dst, sketches_offset);
    PutFixed64(dst, sketches_length);
    PutFixed64(dst, sketches_checksum);
  }
}

Status LshMetadata::DecodeFrom(const uint8_t* ptr, const uint8_t* limit, uint32_t version) {
  Cursor in(ptr, limit);
  documents = in.Read<uint64_t>();
  banded = in.Read<uint64_t>();
  block_size = in.Read<uint32_t>();
  restarts = in.Read<uint8_t>();
  num_perm = in.Read<uint16_t>();
  seed = in.Read<uint64_t>();
  bands = in.Read<uint16_t>();
  rows = in.Read<uint16_t>();
  signature_bits = in.Read<uint8_t>();
  ordinal_bits = in.Read<uint8_t>();
  threshold = in.Read<uint32_t>();
  if (!in.ok()) return Status::Corruption("metadata is truncated");
  if (!IsValidBlockSize(block_size)) {
    return Status::Corruption("metadata: block size " + std::to_string(block_size) +
                              " is not a power of two in 64..65536");
  }
  if (!IsValidRestarts(restarts)) {
    return Status::Corruption("metadata: " + std::to_string(restarts) + " restart points per block (at most " +
                              std::to_string(kMaxRestarts) + ")");
  }
  if (num_perm < 1 || num_perm > kMaxLshValues) {
    return Status::Corruption("metadata: " + std::to_string(num_perm) + " signature values (1.." +
                              std::to_string(kMaxLshValues) + ")");
  }
  if (bands < 1 || rows < 1 || uint32_t{bands} * rows > num_perm) {
    return Status::Corruption("metadata: " + std::to_string(bands) + " bands of " + std::to_string(rows) +
                              " rows do not fit " + std::to_string(num_perm) + " signature values");
  }
  if (!IsValidSignatureBits(signature_bits)) {
    return Status::Corruption("metadata: signature values of " + std::to_string(signature_bits) +
                              " bits (1, 2, 4, 8, 16 or 32)");
  }
  if (banded > documents) return Status::Corruption("metadata: more banded documents than documents");
  const int want_bits = documents == 0 ? 0 : BitWidth(documents - 1);
  if (ordinal_bits < want_bits || ordinal_bits > 63) {
    return Status::Corruption("metadata: ordinals of " + std::to_string(ordinal_bits) + " bits for " +
                              std::to_string(documents) + " documents (" + std::to_string(want_bits) + " to 63)");
  }
  if (threshold > kLshThresholdScale) {
    return Status::Corruption("metadata: threshold " + std::to_string(threshold) + " millionths is above 1");
  }
  tables.assign(bands, TableMetadata());
  for (uint32_t t = 0; t < bands; ++t) SIMDEX_RETURN_IF_ERROR(DecodeTableFields(&in, version, t, &tables[t]));
  signatures_offset = in.Read<uint64_t>();
  signatures_length = in.Read<uint64_t>();
  signatures_checksum = in.Read<uint64_t>();
  DecodeIdFields(&in, version, this);
  SIMDEX_RETURN_IF_ERROR(DecodeProfile(&in, "signature profile", &profile));
  if (version >= 6) {
    sketch_k = in.Read<uint32_t>();
    sketch_offset_bytes = in.Read<uint8_t>();
    sketches_offset = in.Read<uint64_t>();
    sketches_length = in.Read<uint64_t>();
    sketches_checksum = in.Read<uint64_t>();
  }
  if (!in.ok()) return Status::Corruption("metadata is truncated");
  if (version >= 6 && (sketch_k < 1 || sketch_k > kMaxSketchK)) {
    return Status::Corruption("metadata: sketches of " + std::to_string(sketch_k) + " hashes (1.." +
                              std::to_string(kMaxSketchK) + ")");
  }
  if (version >= 6 && sketch_offset_bytes != 4 && sketch_offset_bytes != 8) {
    return Status::Corruption("metadata: sketch offsets of " + std::to_string(sketch_offset_bytes) +
                              " bytes (4 or 8)");
  }
  SIMDEX_RETURN_IF_ERROR(CheckIdFields(id_map_offset, id_map_length, id_map_checksum, id_width));
  if (!in.at_end()) return Status::Corruption("metadata has trailing bytes");
  return Status::OK();
}

}  // namespace simdex::format
