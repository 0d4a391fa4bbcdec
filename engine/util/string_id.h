// The rule for string ids, shared by every reader of ids (JSONL records,
// fingerprint files, id lists): a string id is 1 to kMaxStringIdBytes bytes
// of valid UTF-8 without control characters (U+0000..U+001F, U+007F), so
// that it can be written back in a text line or a JSON string unchanged.
#ifndef SIMDEX_ENGINE_UTIL_STRING_ID_H_
#define SIMDEX_ENGINE_UTIL_STRING_ID_H_

#include <cstddef>
#include <string_view>

#include "simdex/status.h"

namespace simdex::io {

inline constexpr size_t kMaxStringIdBytes = 4096;

// OK, or InvalidArgument naming what is wrong ("id is empty", "id is not
// valid UTF-8 at byte 3", "id holds control character 0x09 at byte 5").
Status CheckStringId(std::string_view id);

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_UTIL_STRING_ID_H_
