// Printable and Quoted under the engine's name for them: the public
// include/simdex/front_end_text.h holds them, for front ends too.
#ifndef SIMDEX_ENGINE_UTIL_PRINTABLE_H_
#define SIMDEX_ENGINE_UTIL_PRINTABLE_H_

#include "simdex/front_end_text.h"

namespace simdex::util {

using simdex::Printable;
using simdex::Quoted;

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_PRINTABLE_H_
