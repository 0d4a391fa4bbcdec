// Pieces of the metadata that both index kinds write (docs/format.md,
// "Metadata" and "MinHash-LSH indexes"): a bounded cursor over the metadata
// bytes, a table's fields after its leading blocks, the id section's and id
// map's fields, and the profile. Internal to format/.
#ifndef SIMDEX_FORMAT_LAYOUT_FIELDS_H_
#define SIMDEX_FORMAT_LAYOUT_FIELDS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "format/coding.h"
#include "format/index_layout.h"
#include "simdex/status.h"

namespace simdex::format {

// Sequential bounded reads; the first read past the limit fails the cursor
// (and every read after it returns 0 / null).
class Cursor {
 public:
  Cursor(const uint8_t* p, const uint8_t* limit) : p_(p), limit_(limit) {}
  template <class T>
  T Read() {
    if (static_cast<size_t>(limit_ - p_) < sizeof(T)) {
      ok_ = false;
      p_ = limit_;
      return 0;
    }
    T v;
    if constexpr (sizeof(T) == 1) v = *p_;
    if constexpr (sizeof(T) == 2) v = DecodeFixed16(p_);
    if constexpr (sizeof(T) == 4) v = DecodeFixed32(p_);
    if constexpr (sizeof(T) == 8) v = DecodeFixed64(p_);
    p_ += sizeof(T);
    return v;
  }
  const uint8_t* Take(size_t n) {
    if (static_cast<size_t>(limit_ - p_) < n) {
      ok_ = false;
      p_ = limit_;
      return nullptr;
    }
    const uint8_t* at = p_;
    p_ += n;
    return at;
  }
  bool ok() const { return ok_; }
  bool at_end() const { return p_ == limit_; }

 private:
  const uint8_t* p_;
  const uint8_t* limit_;
  bool ok_ = true;
};

// A table's fields from its block data offset to its codec parameters
// (the tag and length from version 3 on).
void EncodeTableFields(const TableMetadata& t, uint32_t version, std::string* dst);
// Decodes them into *t and checks the codec and its parameters: Corruption
// naming table `number`, or NotSupported for a codec this build lacks.
Status DecodeTableFields(Cursor* in, uint32_t version, size_t number, TableMetadata* t);

// The id section's fields (offset, length, width, base, checksum) and,
// from version 2 on, the id map's (offset, length, checksum), of any
// metadata with those members.
template <class M>
void EncodeIdFields(const M& m, uint32_t version, std::string* dst) {
  PutFixed64(dst, m.ids_offset);
  PutFixed64(dst, m.ids_length);
  dst->push_back(static_cast<char>(m.id_width));
  PutFixed64(dst, m.id_base);
  PutFixed64(dst, m.ids_checksum);
  if (version >= 2) {
    PutFixed64(dst, m.id_map_offset);
    PutFixed64(dst, m.id_map_length);
    PutFixed64(dst, m.id_map_checksum);
  }
}
template <class M>
void DecodeIdFields(Cursor* in, uint32_t version, M* m) {
  m->ids_offset = in->Read<uint64_t>();
  m->ids_length = in->Read<uint64_t>();
  m->id_width = in->Read<uint8_t>();
  m->id_base = in->Read<uint64_t>();
  m->ids_checksum = in->Read<uint64_t>();
  m->id_map_offset = m->id_map_length = m->id_map_checksum = 0;
  if (version >= 2) {
    m->id_map_offset = in->Read<uint64_t>();
    m->id_map_length = in->Read<uint64_t>();
    m->id_map_checksum = in->Read<uint64_t>();
  }
}
// The checks of those fields that need nothing else: an id width of at
// most 64, an absent id map's zero offset and checksum. (Not a template:
// a template returning Status would be exported with the public API,
// packaging/simdex.map.)
Status CheckIdFields(uint64_t id_map_offset, uint64_t id_map_length, uint64_t id_map_checksum, int id_width);

// The profile: u32 length (at most kMaxProfileLength), then that many
// bytes of printable ASCII.
void EncodeProfile(const std::string& profile, std::string* dst);
// Corruption for a length over the limit or a byte outside 0x20..0x7e; a
// truncation fails the cursor (the caller reports it).
Status DecodeProfile(Cursor* in, const char* what, std::string* profile);

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_LAYOUT_FIELDS_H_
