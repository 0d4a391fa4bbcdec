// Fixed-width little-endian integer coding (leveldb util/coding.h style).
//
// Encode* write into a caller buffer that has room for the value; Decode*
// read from one that holds it; Put* append to a std::string. All go through
// memcpy, so pointers need no alignment. The byte order on disk is always
// little-endian, whatever the host.
#ifndef SIMDEX_FORMAT_CODING_H_
#define SIMDEX_FORMAT_CODING_H_

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

namespace simdex::format {

namespace internal {
template <typename T>
inline T ToLittleEndian(T v) {
  if constexpr (std::endian::native == std::endian::little) {
    return v;
  } else {
    T r = 0;
    for (size_t i = 0; i < sizeof(T); ++i) r = (r << 8) | ((v >> (8 * i)) & 0xff);
    return r;
  }
}
}  // namespace internal

// REQUIRES: dst has room for 2, 4 or 8 bytes.
inline void EncodeFixed16(char* dst, uint16_t v) {
  v = internal::ToLittleEndian(v);
  std::memcpy(dst, &v, sizeof(v));
}
inline void EncodeFixed32(char* dst, uint32_t v) {
  v = internal::ToLittleEndian(v);
  std::memcpy(dst, &v, sizeof(v));
}
inline void EncodeFixed64(char* dst, uint64_t v) {
  v = internal::ToLittleEndian(v);
  std::memcpy(dst, &v, sizeof(v));
}

// REQUIRES: src holds at least 2, 4 or 8 readable bytes.
inline uint16_t DecodeFixed16(const void* src) {
  uint16_t v;
  std::memcpy(&v, src, sizeof(v));
  return internal::ToLittleEndian(v);
}
inline uint32_t DecodeFixed32(const void* src) {
  uint32_t v;
  std::memcpy(&v, src, sizeof(v));
  return internal::ToLittleEndian(v);
}
inline uint64_t DecodeFixed64(const void* src) {
  uint64_t v;
  std::memcpy(&v, src, sizeof(v));
  return internal::ToLittleEndian(v);
}

// Appends the little-endian bytes of v to dst.
inline void PutFixed16(std::string* dst, uint16_t v) {
  char buf[sizeof(v)];
  EncodeFixed16(buf, v);
  dst->append(buf, sizeof(buf));
}
inline void PutFixed32(std::string* dst, uint32_t v) {
  char buf[sizeof(v)];
  EncodeFixed32(buf, v);
  dst->append(buf, sizeof(buf));
}
inline void PutFixed64(std::string* dst, uint64_t v) {
  char buf[sizeof(v)];
  EncodeFixed64(buf, v);
  dst->append(buf, sizeof(buf));
}

// Loads 8 bytes as a big-endian integer: the first byte becomes bits 63..56.
// This is the word load of the MSB-first bit reader.
// REQUIRES: src holds at least 8 readable bytes.
inline uint64_t LoadBigEndian64(const void* src) {
  uint64_t v;
  std::memcpy(&v, src, sizeof(v));
  if constexpr (std::endian::native == std::endian::little) {
    return __builtin_bswap64(v);
  } else {
    return v;
  }
}

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_CODING_H_
