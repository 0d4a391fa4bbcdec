// The binary fingerprint file (docs/fingerprint-files.md):
//
//   offset  size  field
//   0       8     magic "SDXFPv1\0"
//   8       4     version, u32 LE (1, or 2 with a profile)
//   12      4     flags, u32 LE (0; other values are rejected)
//   version 2 only:
//   16      4     profile length P, u32 LE (1..4096)
//   20      P     the fingerprint profile (printable ASCII, include/simdex/profile.h)
//   then, at H = 16 (version 1) or 20 + P (version 2):
//   H       16*N  records: id u64 LE, fingerprint u64 LE
//   H+16N   8     record count N, u64 LE
//   H+8+16N 8     count of empty documents left out, u64 LE
//   H+16+16N 8    XXH3-64 (seed 0) of every byte before it, u64 LE
//   H+24+16N 8    end magic "SDXFPend"
//
// The checksum covers the header, the profile and both counts as well as
// the records, so that a change to any byte before it is detected.
//
// The text form's profile is its first line: "#simdex-profile\t<profile>".
#ifndef SIMDEX_ENGINE_IO_FINGERPRINT_FILE_FORMAT_H_
#define SIMDEX_ENGINE_IO_FINGERPRINT_FILE_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/io/text_record.h"  // kTextProfilePrefix
#include "format/coding.h"

namespace simdex::io {

inline constexpr std::string_view kBinaryMagic{"SDXFPv1\0", 8};
inline constexpr std::string_view kBinaryEndMagic{"SDXFPend", 8};
inline constexpr uint32_t kBinaryVersion = 1;
inline constexpr uint32_t kBinaryProfileVersion = 2;
inline constexpr size_t kBinaryRecordSize = 16;

struct BinaryHeader {
  static constexpr size_t kEncodedLength = 16;
  uint32_t version = kBinaryVersion;
  uint32_t flags = 0;

  void EncodeTo(char* dst) const {
    kBinaryMagic.copy(dst, kBinaryMagic.size());
    format::EncodeFixed32(dst + 8, version);
    format::EncodeFixed32(dst + 12, flags);
  }
  // REQUIRES: src holds kEncodedLength bytes starting with kBinaryMagic.
  void DecodeFrom(const char* src) {
    version = format::DecodeFixed32(src + 8);
    flags = format::DecodeFixed32(src + 12);
  }
};

struct BinaryTrailer {
  static constexpr size_t kEncodedLength = 32;
  static constexpr size_t kChecksumOffset = 16;  // the checksum covers bytes before it
  uint64_t records = 0;
  uint64_t empty = 0;
  uint64_t checksum = 0;
  bool end_magic_ok = true;

  void EncodeTo(char* dst) const {
    format::EncodeFixed64(dst, records);
    format::EncodeFixed64(dst + 8, empty);
    format::EncodeFixed64(dst + 16, checksum);
    kBinaryEndMagic.copy(dst + 24, kBinaryEndMagic.size());
  }
  // REQUIRES: src holds kEncodedLength bytes.
  void DecodeFrom(const char* src) {
    records = format::DecodeFixed64(src);
    empty = format::DecodeFixed64(src + 8);
    checksum = format::DecodeFixed64(src + 16);
    end_magic_ok = std::string_view(src + 24, kBinaryEndMagic.size()) == kBinaryEndMagic;
  }
};

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_FINGERPRINT_FILE_FORMAT_H_
