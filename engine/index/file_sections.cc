#include "engine/index/file_sections.h"

#include <algorithm>

#include "format/coding.h"
#include "simdex/front_end_text.h"

namespace simdex::index {

Status CheckPlacement(std::vector<Section> sections, uint64_t lo, uint64_t hi) {
  // Empty sections first at equal offsets: an empty section may sit where
  // the next one begins.
  std::sort(sections.begin(), sections.end(), [](const Section& a, const Section& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.length < b.length;
  });
  uint64_t at = lo;
  for (const Section& s : sections) {
    if (s.offset < at || s.offset > hi || s.length > hi - s.offset) {
      return Status::Corruption(s.name + " (byte offset " + std::to_string(s.offset) + ", " +
                                std::to_string(s.length) + " bytes) overlaps another section or lies outside the data area");
    }
    at = s.offset + s.length;
  }
  return Status::OK();
}

Status SharedDecoders::For(const format::TableMetadata& tm, int restarts, const format::TableDecoder** decoder) {
  for (size_t i = 0; i < codecs_.size(); ++i) {
    if (codecs_[i].first == tm.codec && codecs_[i].second == tm.codec_params) {
      *decoder = decoders_[i].get();
      return Status::OK();
    }
  }
  const format::Codec* codec = format::FindCodec(tm.codec);
  if (codec == nullptr) return Status::NotSupported("codec tag " + std::to_string(tm.codec));  // metadata checked it
  std::unique_ptr<format::TableDecoder> d;
  SIMDEX_RETURN_IF_ERROR(codec->NewDecoder(tm.codec_params, restarts, &d));
  codecs_.emplace_back(tm.codec, tm.codec_params);
  decoders_.push_back(std::move(d));
  *decoder = decoders_.back().get();
  return Status::OK();
}

Status CheckIdBase(const format::PackedIntsReader& ids, uint64_t base, int width, const char* what) {
  // Any w-bit value fits when base <= 2^64 - 2^w; only a base closer to
  // 2^64 needs the values read (a sound file may have one: its largest id
  // need not be base + 2^w - 1).
  const uint64_t room = ~uint64_t{0} - base;
  const uint64_t widest = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  if (widest <= room) return Status::OK();
  for (uint64_t r = 0; r < ids.size(); ++r) {
    const uint64_t packed = ids.Get(r);
    if (packed > room) {
      return Status::Corruption("id section: " + std::string(what) + " " + std::to_string(r) + ": id base " +
                                std::to_string(base) + " + " + std::to_string(packed) + " passes 2^64 - 1");
    }
  }
  return Status::OK();
}

Status CheckIdMapNumbering(uint64_t k, uint64_t n, uint64_t base, int width) {
  if (n > 0 && (k == 0 || base != 0 || width != format::BitWidth(k - 1) || k > n)) {
    return Status::Corruption("metadata: ids base " + std::to_string(base) + " and width " + std::to_string(width) +
                              " do not number an id map of " + std::to_string(k) + " strings");
  }
  if (n == 0 && k != 0) return Status::Corruption("id map: " + std::to_string(k) + " strings but no entries");
  return Status::OK();
}

Status VerifyIdMapUse(const format::IdMapReader& id_map, const format::PackedIntsReader& ids, uint64_t n,
                      const char* what) {
  SIMDEX_RETURN_IF_ERROR(id_map.Verify());
  for (uint64_t i = 0; i < id_map.size(); ++i) {
    Status s = simdex::CheckStringId(id_map.Get(i));
    if (!s.ok()) return Status::Corruption("id map: string " + std::to_string(i) + ": " + s.message());
  }
  std::vector<bool> used(id_map.size(), false);
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t number = ids.Get(i);  // the base is 0 (CheckIdMapNumbering)
    if (number >= used.size()) {
      return Status::Corruption("id section: " + std::string(what) + " " + std::to_string(i) + " has id number " +
                                std::to_string(number) + " past the id map's " + std::to_string(used.size()) +
                                " strings");
    }
    used[number] = true;
  }
  const auto unused = std::find(used.begin(), used.end(), false);
  if (unused != used.end()) {
    return Status::Corruption("id map: string " + std::to_string(unused - used.begin()) + " is no " + what + "'s id");
  }
  return Status::OK();
}

Status VerifyZeroGaps(const uint8_t* base, uint64_t size, uint64_t metadata_offset,
                      std::vector<std::pair<uint64_t, uint64_t>> used) {
  used.push_back({0, format::FileHeader::kEncodedLength});
  used.push_back({metadata_offset, size - metadata_offset});
  std::sort(used.begin(), used.end());
  for (size_t i = 0, at = 0; i < used.size(); ++i) {
    for (uint64_t p = at; p < used[i].first; ++p) {
      if (base[p] != 0) return Status::Corruption("padding byte at offset " + std::to_string(p) + " is not zero");
    }
    at = std::max<uint64_t>(at, used[i].first + used[i].second);
  }
  return Status::OK();
}

Status WrongIndexKind(format::IndexKind have, format::IndexKind want) {
  return Status::InvalidArgument(std::string("a ") + format::IndexKindName(have) + " index where a " +
                                 format::IndexKindName(want) + " index is needed");
}

Status AppendU64s(util::OutputFile* out, std::span<const uint64_t> values, uint64_t* checksum) {
  ChecksummedAppender append(out);
  std::string buf;
  for (size_t i = 0; i < values.size(); ++i) {
    format::PutFixed64(&buf, values[i]);
    SIMDEX_RETURN_IF_ERROR(append.Flush(&buf, i + 1 == values.size()));
  }
  *checksum = append.Digest();
  return Status::OK();
}

Status AppendSection(util::OutputFile* out, std::string_view bytes, uint64_t* offset, uint64_t* length,
                     uint64_t* checksum) {
  SIMDEX_RETURN_IF_ERROR(out->PadTo(8));
  *offset = out->size();
  *length = bytes.size();
  *checksum = format::SectionChecksum(bytes.data(), bytes.size());
  SIMDEX_RETURN_IF_ERROR(out->Append(bytes));
  return out->PadTo(8);
}

Status AppendMetadataAndCommit(util::OutputFile* out, std::string tail, uint32_t version, uint64_t* file_bytes) {
  format::Footer footer;
  footer.version = version;
  footer.metadata_offset = out->size();
  footer.metadata_length = tail.size();
  footer.metadata_checksum = format::SectionChecksum(tail.data(), tail.size());
  footer.file_size = out->size() + tail.size() + format::Footer::kEncodedLength;
  footer.EncodeTo(&tail);
  SIMDEX_RETURN_IF_ERROR(out->Append(tail));
  *file_bytes = out->size();
  return out->Commit();
}

}  // namespace simdex::index
