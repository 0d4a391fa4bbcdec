// AppendJsonString and AppendJsonId under the engine's names for them: the
// public include/simdex/front_end_text.h holds them, for front ends too.
#ifndef SIMDEX_ENGINE_UTIL_JSON_TEXT_H_
#define SIMDEX_ENGINE_UTIL_JSON_TEXT_H_

#include "simdex/front_end_text.h"

namespace simdex::io {

using simdex::AppendJsonId;
using simdex::AppendJsonString;

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_UTIL_JSON_TEXT_H_
