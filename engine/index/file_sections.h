// What the readers and writers of both index kinds (SimHash tables,
// MinHash-LSH band tables) share about a file's sections: their placement
// check, the decoders of tables, the kind check, and the writer's appends
// (u64 arrays with their checksum, block alignment, the id sections, the
// metadata and footer).
#ifndef SIMDEX_ENGINE_INDEX_FILE_SECTIONS_H_
#define SIMDEX_ENGINE_INDEX_FILE_SECTIONS_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <xxhash.h>

#include "engine/util/output_file.h"
#include "format/codec.h"
#include "format/id_map.h"
#include "format/index_layout.h"
#include "format/packed_ints.h"
#include "simdex/status.h"

namespace simdex::index {

// A section [offset, offset + length) of the file, for placement checks.
struct Section {
  uint64_t offset;
  uint64_t length;
  std::string name;
};

// Corruption naming the first section that overlaps another or lies
// outside [lo, hi]; an empty section may sit where another begins.
Status CheckPlacement(std::vector<Section> sections, uint64_t lo, uint64_t hi);

// One decoder per distinct (codec, parameters) of a file's tables, shared
// by the tables that have them (so that a query's decode tables stay in
// the L1 cache together).
class SharedDecoders {
 public:
  // *decoder = the decoder for this table's codec and parameters.
  Status For(const format::TableMetadata& table, int restarts, const format::TableDecoder** decoder);

 private:
  std::vector<std::pair<uint8_t, std::string>> codecs_;
  std::vector<std::unique_ptr<format::TableDecoder>> decoders_;
};

// The rule that the id base plus each packed id stays within 2^64 - 1
// (docs/format.md); `what` names an entry ("entry", "document") in messages.
Status CheckIdBase(const format::PackedIntsReader& ids, uint64_t base, int width, const char* what);

// With an id map of k strings and n entries: the id base is 0, the width
// the bits of k - 1, k <= n (and k = 0 without entries). Corruption otherwise.
Status CheckIdMapNumbering(uint64_t k, uint64_t n, uint64_t base, int width);

// Every one of the n packed ids names one of the id map's strings, and
// every string is some entry's id (`what` as above).
Status VerifyIdMapUse(const format::IdMapReader& id_map, const format::PackedIntsReader& ids, uint64_t n,
                      const char* what);

// Every byte of the file [0, size) outside the header, the `used` sections
// ([offset, offset + length)) and the metadata and footer (from
// metadata_offset on) is zero: Corruption naming the first that is not.
Status VerifyZeroGaps(const uint8_t* base, uint64_t size, uint64_t metadata_offset,
                      std::vector<std::pair<uint64_t, uint64_t>> used);

// InvalidArgument: the file is an index of kind `have` where one of `want`
// is needed, naming both.
Status WrongIndexKind(format::IndexKind have, format::IndexKind want);

// Block data is aligned to min(B, 4096) so that a block of at most a page
// lies within one page of a cold file.
inline uint64_t BlockAlignment(uint32_t block_size) { return std::min<uint64_t>(block_size, 4096); }

// Appends bytes to out, streaming their checksum (XXH3's streaming digest
// is the one-shot SectionChecksum).
class ChecksummedAppender {
 public:
  static constexpr size_t kChunk = size_t{1} << 20;

  explicit ChecksummedAppender(util::OutputFile* out) : out_(out), state_(XXH3_createState()) {
    XXH3_64bits_reset(state_);
  }
  ~ChecksummedAppender() { XXH3_freeState(state_); }
  Status Append(std::string_view bytes) {
    XXH3_64bits_update(state_, bytes.data(), bytes.size());
    return out_->Append(bytes);
  }
  // Appends buffer when it holds kChunk bytes (or `all`), and clears it.
  Status Flush(std::string* buffer, bool all) {
    if (buffer->size() < kChunk && !all) return Status::OK();
    const Status s = Append(*buffer);
    buffer->clear();
    return s;
  }
  uint64_t Digest() const { return XXH3_64bits_digest(state_); }

 private:
  util::OutputFile* out_;
  XXH3_state_t* state_;
};

// Appends values as little-endian u64 and returns their checksum.
Status AppendU64s(util::OutputFile* out, std::span<const uint64_t> values, uint64_t* checksum);

// Appends `bytes` 8-aligned (and pads after them), and sets its *offset,
// *length and *checksum.
Status AppendSection(util::OutputFile* out, std::string_view bytes, uint64_t* offset, uint64_t* length,
                     uint64_t* checksum);

// Appends the encoded metadata and the footer of format `version` (the
// header's) that points at it, then commits the file (fsync and rename).
// *file_bytes = the file's size.
Status AppendMetadataAndCommit(util::OutputFile* out, std::string metadata, uint32_t version, uint64_t* file_bytes);

// The end of a file of either kind: appends the packed ids and the id map
// (when not empty), placed in *m (IndexMetadata, LshMetadata: their id
// fields are named alike), then *m and the footer (AppendMetadataAndCommit).
template <class M>
Status AppendIdsAndCommit(util::OutputFile* out, std::string_view packed_ids, std::string_view id_map, M* m,
                          uint64_t* file_bytes, uint32_t version = format::kWrittenFormatVersion) {
  SIMDEX_RETURN_IF_ERROR(AppendSection(out, packed_ids, &m->ids_offset, &m->ids_length, &m->ids_checksum));
  if (!id_map.empty()) {
    SIMDEX_RETURN_IF_ERROR(AppendSection(out, id_map, &m->id_map_offset, &m->id_map_length, &m->id_map_checksum));
  }
  std::string tail;
  m->EncodeTo(&tail);
  return AppendMetadataAndCommit(out, std::move(tail), version, file_bytes);
}

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_FILE_SECTIONS_H_
