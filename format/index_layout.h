// The fixed parts of a simdex index file: file header, footer and metadata
// (docs/format.md, "File header", "Footer", "Metadata"). Each type has
// EncodeTo / DecodeFrom; decoders take (ptr, limit), never read past limit,
// and reject leftover bytes and out-of-range fields as Corruption.
#ifndef SIMDEX_FORMAT_INDEX_LAYOUT_H_
#define SIMDEX_FORMAT_INDEX_LAYOUT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "format/block_frame.h"
#include "format/codec.h"
#include "simdex/status.h"

namespace simdex::format {

// The version this code writes, and the oldest it reads. Version 1 files
// have no id map (their metadata ends with the id section's fields);
// versions 1 and 2 have no codec tag (every table is the card codec's, its
// 33 bytes of code lengths in place of the tag and parameters); versions 1
// to 3 have no fingerprint profile (it reads as "", unrecorded); versions
// 1 to 4 have no index kind (every file is a SimHash index); version 6
// adds the sketch section of MinHash-LSH files, and a file is written as
// version 6 only when it has one (every other file is written as version
// 5: kWrittenFormatVersion).
inline constexpr uint32_t kFormatVersion = 6;
inline constexpr uint32_t kWrittenFormatVersion = 5;
inline constexpr uint32_t kOldestFormatVersion = 1;

// The first 8 bytes of every index file.
inline constexpr std::string_view kIndexMagic = "SIMDEXIX";

// What a file indexes (version 5 on: header byte 16; before, always
// SimHash). The metadata after the header is the kind's own.
enum class IndexKind : uint8_t {
  kSimHash = 0,     // permuted tables of a scheme (IndexMetadata)
  kMinHashLsh = 1,  // band tables and signatures (format/lsh/lsh_layout.h)
};
// "SimHash", "MinHash-LSH".
const char* IndexKindName(IndexKind kind);

// 64 bytes at offset 0: magic, version, length, kind, checksum.
struct FileHeader {
  static constexpr size_t kEncodedLength = 64;
  uint32_t version = kWrittenFormatVersion;
  IndexKind kind = IndexKind::kSimHash;
  void EncodeTo(std::string* dst) const;
  Status DecodeFrom(const uint8_t* ptr, const uint8_t* limit);
};

// 56 bytes at file_size - 56.
struct Footer {
  static constexpr size_t kEncodedLength = 56;
  uint32_t version = kWrittenFormatVersion;
  uint64_t metadata_offset = 0;
  uint64_t metadata_length = 0;
  uint64_t metadata_checksum = 0;
  uint64_t file_size = 0;

  void EncodeTo(std::string* dst) const;
  Status DecodeFrom(const uint8_t* ptr, const uint8_t* limit);
};

struct TableMetadata {
  std::vector<uint8_t> leading_blocks;
  uint64_t blocks_offset = 0;
  uint64_t num_blocks = 0;
  uint64_t heads_offset = 0;
  uint64_t heads_checksum = 0;
  uint64_t payload_bits = 0;
  // The table's codec (format/codec.h) and its parameters, opaque here and
  // checked by the codec (the card codec's: its Huffman code lengths).
  uint8_t codec = static_cast<uint8_t>(CodecTag::kCard);
  std::string codec_params;
};

struct IndexMetadata {
  uint64_t entries = 0;
  uint64_t distinct_fingerprints = 0;
  uint32_t block_size = 0;
  uint8_t restarts = 0;         // restart points per block (block_builder.h)
  std::vector<uint8_t> widths;  // scheme block widths, block 0 first
  uint8_t k = 0;
  std::vector<TableMetadata> tables;
  uint64_t rank_offset = 0;
  uint64_t rank_checksum = 0;
  uint64_t ids_offset = 0;
  uint64_t ids_length = 0;
  uint8_t id_width = 0;
  uint64_t id_base = 0;
  uint64_t ids_checksum = 0;
  // Version 2: the id map section (format/id_map.h); length 0 when the ids
  // are numbers (then offset and checksum are 0 too).
  uint64_t id_map_offset = 0;
  uint64_t id_map_length = 0;
  uint64_t id_map_checksum = 0;
  // Version 4: the fingerprint profile of the entries (the engine's
  // descriptor, include/simdex/fingerprint.h), opaque bytes here; "" when
  // unrecorded. At most kMaxProfileLength bytes.
  std::string profile;

  // Writes the fields of format `version` (the id map's only from 2 on, the
  // codec tags only from 3 on: before that every table must be the card
  // codec's; the profile only from 4 on).
  void EncodeTo(std::string* dst, uint32_t version = kFormatVersion) const;
  // Decodes and checks every field that can be checked on its own (block
  // size, widths, k, table count and leading blocks, each table's codec and
  // its parameters (NotSupported for a codec this build does not have), id
  // width, an absent id map's zeros). Section placement is checked by the
  // reader, which knows the file. `version` is the file header's.
  Status DecodeFrom(const uint8_t* ptr, const uint8_t* limit, uint32_t version = kFormatVersion);
};

// The longest fingerprint profile the metadata holds.
inline constexpr uint32_t kMaxProfileLength = 4096;

// The checked frame of a file: its header and footer agree, the footer's
// size is the file's, and the metadata ends at the footer with its
// checksum right. Corruption otherwise (NotSupported for a version or kind
// this build does not read).
struct Envelope {
  FileHeader header;
  uint64_t metadata_offset = 0;
  uint64_t metadata_length = 0;
  const uint8_t* metadata = nullptr;
};
Status OpenEnvelope(const uint8_t* base, uint64_t size, Envelope* out);

// XXH3-64 with seed 0, the section checksum of docs/format.md.
uint64_t SectionChecksum(const void* data, size_t n);

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_INDEX_LAYOUT_H_
