// The id map section of an index file (docs/format.md, "Id map"): the
// index's K distinct string ids, sorted bytewise, so that an entry's id
// number n (in the id section) is the rank of its string:
//
//   +------------------------------------------------------------+
//   | u64 K: strings | u64 T: bytes of the strings                 |
//   | u8 w = BitWidth(T) | 7 zero bytes                            |
//   | offsets: K + 1 values of w bits, packed as the id section;  |
//   |   string i is bytes [offset i, offset i+1) of the strings;   |
//   |   zero bits, then zero bytes, up to a multiple of 8 bytes    |
//   | strings: T bytes, string 0 first                             |
//   +------------------------------------------------------------+
//
// IdMapEncoder writes it; IdMapReader decodes it from (ptr, length): Init()
// checks the header and the sizes against the length in O(1), Verify()
// every other rule in O(K + T); Get() never reads outside the section.
//
// Thread safety: an IdMapReader is immutable after Init() and may be shared.
#ifndef SIMDEX_FORMAT_ID_MAP_H_
#define SIMDEX_FORMAT_ID_MAP_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "format/packed_ints.h"
#include "simdex/status.h"

namespace simdex::format {

inline constexpr size_t kIdMapHeaderBytes = 24;

// Bytes of the section for K strings of T bytes in all.
uint64_t IdMapBytes(uint64_t k, uint64_t t);

// Appends the section for `strings` to *dst. REQUIRES: strings strictly
// increasing bytewise, none empty.
void EncodeIdMap(std::span<const std::string_view> strings, std::string* dst);

class IdMapReader {
 public:
  // Checks the header (K, T, w, zero bytes) and that the section is exactly
  // as long as K and T say; Corruption("id map: ...") otherwise.
  Status Init(const uint8_t* ptr, uint64_t length);

  uint64_t size() const { return count_; }

  // String i, or an empty view when its offsets are out of order or past
  // the strings (a damaged section that Verify() would reject).
  // REQUIRES: i < size().
  std::string_view Get(uint64_t i) const;

  // Binary search: sets *i and returns true when s is string *i.
  bool Find(std::string_view s, uint64_t* i) const;

  // Offsets start at 0, rise strictly and end at T; strings rise strictly
  // bytewise; the padding after the offsets is zero.
  Status Verify() const;

 private:
  const uint8_t* strings_ = nullptr;
  uint64_t count_ = 0;
  uint64_t string_bytes_ = 0;
  PackedIntsReader offsets_;
  const uint8_t* padding_ = nullptr;  // the zero bytes after the packed offsets
  size_t padding_bytes_ = 0;
};

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_ID_MAP_H_
