// The rule for string ids under the engine's names for it: the public
// include/simdex/front_end_text.h holds it, for front ends too.
#ifndef SIMDEX_ENGINE_UTIL_STRING_ID_H_
#define SIMDEX_ENGINE_UTIL_STRING_ID_H_

#include "simdex/front_end_text.h"

namespace simdex::util {

using simdex::CheckStringId;
using simdex::kMaxStringIdBytes;

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_STRING_ID_H_
