// Writes and reads the file header, footer and metadata of docs/format.md.
//
//   header:   magic "SIMDEXIX" | u32 version | u32 64 | 40 zero bytes | u64 xxh3
//   footer:   u64 metadata offset | u64 metadata length | u64 metadata xxh3 |
//             u64 file size | u32 version | u32 56 | u64 xxh3 | magic "SIMDEXFT"
//   metadata: see the table in docs/format.md; fields in that order, no gaps;
//             version 2 adds the id map's offset, length and checksum at the end;
//             version 3 stores each table's codec tag and parameter length
//             before its parameters (versions 1 and 2: 33 bytes of card code
//             lengths); version 4 adds the fingerprint profile (u32 length,
//             bytes) at the end.
#include "format/index_layout.h"

#include <cstring>

#include <xxhash.h>

#include "format/coding.h"
#include "format/layout_fields.h"

namespace simdex::format {

namespace {

constexpr char kFooterMagic[8] = {'S', 'I', 'M', 'D', 'E', 'X', 'F', 'T'};

template <class T>
T Get(const uint8_t* p) {
  if constexpr (sizeof(T) == 1) return *p;
  if constexpr (sizeof(T) == 4) return DecodeFixed32(p);
  if constexpr (sizeof(T) == 8) return DecodeFixed64(p);
}

Status CheckVersion(uint32_t version) {
  if (version >= kOldestFormatVersion && version <= kFormatVersion) return Status::OK();
  return Status::NotSupported("index format version " + std::to_string(version) + " (this build reads versions " +
                              std::to_string(kOldestFormatVersion) + " to " + std::to_string(kFormatVersion) + ")");
}

// Versions 1 and 2 store the card codec's code lengths (33 bytes) where
// version 3 has the tag, the length and the parameters.
constexpr uint32_t kVersion2CardParamsLength = 33;

uint64_t Binomial(int n, int r) {
  uint64_t c = 1;
  for (int i = 1; i <= r; ++i) c = c * static_cast<uint64_t>(n - r + i) / static_cast<uint64_t>(i);
  return c;
}

}  // namespace

uint64_t SectionChecksum(const void* data, size_t n) { return XXH3_64bits(data, n); }

void FileHeader::EncodeTo(std::string* dst) const {
  const size_t start = dst->size();
  dst->append(kIndexMagic);
  PutFixed32(dst, version);
  PutFixed32(dst, kEncodedLength);
  dst->push_back(static_cast<char>(version >= 5 ? static_cast<uint8_t>(kind) : 0));
  dst->append(39, '\0');
  PutFixed64(dst, SectionChecksum(dst->data() + start, 56));
}

Status FileHeader::DecodeFrom(const uint8_t* ptr, const uint8_t* limit) {
  if (limit - ptr < static_cast<ptrdiff_t>(kEncodedLength)) return Status::Corruption("file header is truncated");
  if (std::memcmp(ptr, kIndexMagic.data(), kIndexMagic.size()) != 0) return Status::Corruption("bad magic number: not a simdex index");
  // The checksum first: only an intact header that names another version is
  // NotSupported; a damaged one is Corruption.
  if (Get<uint64_t>(ptr + 56) != SectionChecksum(ptr, 56)) return Status::Corruption("file header: checksum mismatch");
  version = Get<uint32_t>(ptr + 8);
  SIMDEX_RETURN_IF_ERROR(CheckVersion(version));
  if (Get<uint32_t>(ptr + 12) != kEncodedLength) return Status::Corruption("file header: bad header length");
  // Byte 16 was reserved (zero) before version 5.
  const uint8_t k = ptr[16];
  if (version >= 5 && k > static_cast<uint8_t>(IndexKind::kMinHashLsh)) {
    return Status::NotSupported("index kind " + std::to_string(k) + " (this build reads 0, SimHash, and 1, MinHash-LSH)");
  }
  kind = static_cast<IndexKind>(version >= 5 ? k : 0);
  for (int i = version >= 5 ? 17 : 16; i < 56; ++i) {
    if (ptr[i] != 0) return Status::Corruption("file header: reserved bytes are not zero");
  }
  return Status::OK();
}

const char* IndexKindName(IndexKind kind) {
  return kind == IndexKind::kMinHashLsh ? "MinHash-LSH" : "SimHash";
}

Status OpenEnvelope(const uint8_t* base, uint64_t size, Envelope* out) {
  constexpr uint64_t kFixed = FileHeader::kEncodedLength + Footer::kEncodedLength;
  if (size < kFixed) {
    return Status::Corruption("file is too short to be a simdex index (" + std::to_string(size) + " bytes)");
  }
  SIMDEX_RETURN_IF_ERROR(out->header.DecodeFrom(base, base + size));
  Footer footer;
  SIMDEX_RETURN_IF_ERROR(footer.DecodeFrom(base + size - Footer::kEncodedLength, base + size));
  if (out->header.version != footer.version) {
    return Status::Corruption("the header says format version " + std::to_string(out->header.version) +
                              ", the footer " + std::to_string(footer.version));
  }
  if (footer.file_size != size) {
    return Status::Corruption("file is " + std::to_string(size) + " bytes but its footer records " +
                              std::to_string(footer.file_size) + ": truncated or extended");
  }
  const uint64_t data_begin = FileHeader::kEncodedLength;
  const uint64_t data_end = size - Footer::kEncodedLength;
  if (footer.metadata_offset < data_begin || footer.metadata_offset > data_end ||
      footer.metadata_length != data_end - footer.metadata_offset) {
    return Status::Corruption("metadata (byte offset " + std::to_string(footer.metadata_offset) +
                              ") does not end at the footer");
  }
  const uint8_t* meta = base + footer.metadata_offset;
  if (SectionChecksum(meta, footer.metadata_length) != footer.metadata_checksum) {
    return Status::Corruption("metadata (byte offset " + std::to_string(footer.metadata_offset) +
                              "): checksum mismatch");
  }
  out->metadata_offset = footer.metadata_offset;
  out->metadata_length = footer.metadata_length;
  out->metadata = meta;
  return Status::OK();
}

void Footer::EncodeTo(std::string* dst) const {
  const size_t start = dst->size();
  PutFixed64(dst, metadata_offset);
  PutFixed64(dst, metadata_length);
  PutFixed64(dst, metadata_checksum);
  PutFixed64(dst, file_size);
  PutFixed32(dst, version);
  PutFixed32(dst, kEncodedLength);
  PutFixed64(dst, SectionChecksum(dst->data() + start, 40));
  dst->append(kFooterMagic, 8);
}

Status Footer::DecodeFrom(const uint8_t* ptr, const uint8_t* limit) {
  if (limit - ptr < static_cast<ptrdiff_t>(kEncodedLength)) return Status::Corruption("footer is truncated");
  if (std::memcmp(ptr + 48, kFooterMagic, 8) != 0) {
    return Status::Corruption("bad footer magic: truncated file or not a simdex index");
  }
  if (Get<uint64_t>(ptr + 40) != SectionChecksum(ptr, 40)) return Status::Corruption("footer: checksum mismatch");
  version = Get<uint32_t>(ptr + 32);
  SIMDEX_RETURN_IF_ERROR(CheckVersion(version));
  if (Get<uint32_t>(ptr + 36) != kEncodedLength) return Status::Corruption("footer: bad footer length");
  metadata_offset = Get<uint64_t>(ptr);
  metadata_length = Get<uint64_t>(ptr + 8);
  metadata_checksum = Get<uint64_t>(ptr + 16);
  file_size = Get<uint64_t>(ptr + 24);
  return Status::OK();
}

void IndexMetadata::EncodeTo(std::string* dst, uint32_t version) const {
  PutFixed64(dst, entries);
  PutFixed64(dst, distinct_fingerprints);
  PutFixed32(dst, block_size);
  dst->push_back(static_cast<char>(widths.size()));
  dst->push_back(static_cast<char>(k));
  dst->push_back(static_cast<char>(restarts));
  for (uint8_t w : widths) dst->push_back(static_cast<char>(w));
  PutFixed32(dst, static_cast<uint32_t>(tables.size()));
  for (const TableMetadata& t : tables) {
    for (uint8_t b : t.leading_blocks) dst->push_back(static_cast<char>(b));
    EncodeTableFields(t, version, dst);
  }
  PutFixed64(dst, rank_offset);
  PutFixed64(dst, rank_checksum);
  EncodeIdFields(*this, version, dst);
  if (version >= 4) EncodeProfile(profile, dst);
}

void EncodeTableFields(const TableMetadata& t, uint32_t version, std::string* dst) {
  PutFixed64(dst, t.blocks_offset);
  PutFixed64(dst, t.num_blocks);
  PutFixed64(dst, t.heads_offset);
  PutFixed64(dst, t.heads_checksum);
  PutFixed64(dst, t.payload_bits);
  if (version >= 3) {
    dst->push_back(static_cast<char>(t.codec));
    PutFixed32(dst, static_cast<uint32_t>(t.codec_params.size()));
  }
  dst->append(t.codec_params);
}

Status DecodeTableFields(Cursor* in, uint32_t version, size_t number, TableMetadata* tm) {
  tm->blocks_offset = in->Read<uint64_t>();
  tm->num_blocks = in->Read<uint64_t>();
  tm->heads_offset = in->Read<uint64_t>();
  tm->heads_checksum = in->Read<uint64_t>();
  tm->payload_bits = in->Read<uint64_t>();
  uint32_t params_length = kVersion2CardParamsLength;
  tm->codec = static_cast<uint8_t>(CodecTag::kCard);
  if (version >= 3) {
    tm->codec = in->Read<uint8_t>();
    params_length = in->Read<uint32_t>();
  }
  const uint8_t* params = in->Take(params_length);
  if (!in->ok()) return Status::Corruption("metadata is truncated in table " + std::to_string(number));
  tm->codec_params.assign(reinterpret_cast<const char*>(params), params_length);
  const Codec* codec = FindCodec(tm->codec);
  if (codec == nullptr) {
    return Status::NotSupported("metadata: table " + std::to_string(number) + ": codec tag " +
                                std::to_string(tm->codec) + " (this build has " + CodecNames() + ")");
  }
  Status s = codec->CheckParams(tm->codec_params);
  if (!s.ok()) return s.WithContext("metadata: table " + std::to_string(number));
  return Status::OK();
}

Status CheckIdFields(uint64_t id_map_offset, uint64_t id_map_length, uint64_t id_map_checksum, int id_width) {
  if (id_map_length == 0 && (id_map_offset != 0 || id_map_checksum != 0)) {
    return Status::Corruption("metadata: an absent id map with a nonzero offset or checksum");
  }
  if (id_width > 64) return Status::Corruption("metadata: id width " + std::to_string(id_width) + " exceeds 64");
  return Status::OK();
}

void EncodeProfile(const std::string& profile, std::string* dst) {
  PutFixed32(dst, static_cast<uint32_t>(profile.size()));
  dst->append(profile);
}

Status DecodeProfile(Cursor* in, const char* what, std::string* profile) {
  profile->clear();
  const uint32_t length = in->Read<uint32_t>();
  if (in->ok() && length > kMaxProfileLength) {
    return Status::Corruption(std::string("metadata: ") + what + " of " + std::to_string(length) +
                              " bytes (at most " + std::to_string(kMaxProfileLength) + ")");
  }
  const uint8_t* bytes = in->Take(length);
  for (uint32_t i = 0; in->ok() && i < length; ++i) {
    if (bytes[i] < 0x20 || bytes[i] > 0x7e) {
      return Status::Corruption(std::string("metadata: ") + what + " byte " + std::to_string(i) +
                                " is not printable ASCII");
    }
  }
  if (in->ok()) profile->assign(reinterpret_cast<const char*>(bytes), length);
  return Status::OK();
}

Status IndexMetadata::DecodeFrom(const uint8_t* ptr, const uint8_t* limit, uint32_t version) {
  Cursor in(ptr, limit);
  entries = in.Read<uint64_t>();
  distinct_fingerprints = in.Read<uint64_t>();
  block_size = in.Read<uint32_t>();
  const int nblocks = in.Read<uint8_t>();
  k = in.Read<uint8_t>();
  restarts = in.Read<uint8_t>();
  if (!in.ok()) return Status::Corruption("metadata is truncated");
  if (!IsValidRestarts(restarts)) {
    return Status::Corruption("metadata: " + std::to_string(restarts) + " restart points per block (at most " +
                              std::to_string(kMaxRestarts) + ")");
  }
  if (!IsValidBlockSize(block_size)) {
    return Status::Corruption("metadata: block size " + std::to_string(block_size) +
                              " is not a power of two in 64..65536");
  }
  if (distinct_fingerprints > entries) return Status::Corruption("metadata: more distinct fingerprints than entries");
  if (nblocks < 1 || nblocks > 16 || k >= nblocks) {
    return Status::Corruption("metadata: bad scheme (" + std::to_string(nblocks) + " blocks, k = " +
                              std::to_string(k) + ")");
  }
  widths.assign(nblocks, 0);
  int sum = 0;
  for (auto& w : widths) {
    w = in.Read<uint8_t>();
    sum += w;
    if (in.ok() && w == 0) return Status::Corruption("metadata: scheme block of width 0");
  }
  if (!in.ok()) return Status::Corruption("metadata is truncated");
  if (sum != 64) return Status::Corruption("metadata: scheme widths sum to " + std::to_string(sum));
  const uint32_t ntables = in.Read<uint32_t>();
  if (!in.ok()) return Status::Corruption("metadata is truncated");
  if (ntables != Binomial(nblocks, k)) {
    return Status::Corruption("metadata: " + std::to_string(ntables) + " tables where the scheme has " +
                              std::to_string(Binomial(nblocks, k)));
  }
  tables.assign(ntables, TableMetadata());
  for (uint32_t t = 0; t < ntables; ++t) {
    TableMetadata& tm = tables[t];
    tm.leading_blocks.resize(nblocks - k);
    for (auto& b : tm.leading_blocks) b = in.Read<uint8_t>();
    SIMDEX_RETURN_IF_ERROR(DecodeTableFields(&in, version, t, &tm));
  }
  rank_offset = in.Read<uint64_t>();
  rank_checksum = in.Read<uint64_t>();
  DecodeIdFields(&in, version, this);
  profile.clear();
  if (version >= 4) SIMDEX_RETURN_IF_ERROR(DecodeProfile(&in, "fingerprint profile", &profile));
  if (!in.ok()) return Status::Corruption("metadata is truncated");
  SIMDEX_RETURN_IF_ERROR(CheckIdFields(id_map_offset, id_map_length, id_map_checksum, id_width));
  if (!in.at_end()) return Status::Corruption("metadata has trailing bytes");
  return Status::OK();
}

}  // namespace simdex::format
