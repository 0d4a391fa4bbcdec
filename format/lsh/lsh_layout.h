// The metadata of a MinHash-LSH index (docs/format.md, "MinHash-LSH
// indexes"): the file header says kind 1 (format/index_layout.h), and the
// metadata describes band tables, a signature section and the ids.
//
// A band table is a table of the format (blocks of a codec, a head index)
// whose sorted values are (band key with its low ordinal_bits bits cleared)
// | the document's ordinal: a document's ordinal is its place in the id and
// signature sections, so that a value found in a band table names its
// document without a second lookup. The format does not interpret keys or
// signatures: it knows their sizes.
#ifndef SIMDEX_FORMAT_LSH_LSH_LAYOUT_H_
#define SIMDEX_FORMAT_LSH_LSH_LAYOUT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "format/index_layout.h"
#include "simdex/status.h"

namespace simdex::format {

// Bounds the metadata accepts (the engine's MinHash bounds).
inline constexpr uint32_t kMaxLshValues = 1024;  // values per signature (num_perm)
inline constexpr uint32_t kLshThresholdScale = 1000000;  // the threshold is stored in millionths

// True for the stored widths of a signature value: 1, 2, 4, 8, 16, 32.
bool IsValidSignatureBits(int bits);

struct LshMetadata {
  uint64_t documents = 0;  // N: ids and signatures
  uint64_t banded = 0;     // documents in every band table (those whose signature is not empty)
  uint32_t block_size = 0;
  uint8_t restarts = 0;
  uint16_t num_perm = 0;       // values per signature
  uint64_t seed = 0;           // of the hash functions
  uint16_t bands = 0;          // band tables
  uint16_t rows = 0;           // values per band
  uint8_t signature_bits = 0;  // stored bits per value
  uint8_t ordinal_bits = 0;    // the low bits of a band table value: BitWidth(N - 1) to 63
  uint32_t threshold = 0;      // the Jaccard threshold the bands were chosen for, in millionths
  std::vector<TableMetadata> tables;  // one per band; leading_blocks empty
  uint64_t signatures_offset = 0;
  uint64_t signatures_length = 0;
  uint64_t signatures_checksum = 0;
  uint64_t ids_offset = 0;
  uint64_t ids_length = 0;
  uint8_t id_width = 0;
  uint64_t id_base = 0;
  uint64_t ids_checksum = 0;
  uint64_t id_map_offset = 0;
  uint64_t id_map_length = 0;
  uint64_t id_map_checksum = 0;
  // How signatures are made (the engine's descriptor, opaque here).
  std::string profile;
  // The sketch section (version 6 on; format/lsh/sketch_section.h): k = 0
  // when the file has none, and then the fields below are 0 and the file is
  // written as version 5.
  uint32_t sketch_k = 0;
  uint8_t sketch_offset_bytes = 0;  // W: 4 or 8
  uint64_t sketches_offset = 0;
  uint64_t sketches_length = 0;
  uint64_t sketches_checksum = 0;

  // The version a file with this metadata is written as: 6 with a sketch
  // section, else 5 (the bytes version 5 wrote).
  uint32_t WriteVersion() const { return sketch_k > 0 ? 6 : 5; }

  // Bytes of one document's signature: ceil(num_perm * signature_bits / 8).
  uint64_t SignatureBytes() const { return (uint64_t{num_perm} * signature_bits + 7) / 8; }

  void EncodeTo(std::string* dst) const;
  // Decodes and checks every field that can be checked on its own; section
  // placement is the reader's. `version` is the file header's (5 on; the
  // sketch fields from 6 on).
  Status DecodeFrom(const uint8_t* ptr, const uint8_t* limit, uint32_t version);
};

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_LSH_LSH_LAYOUT_H_
