// Count under the engine's name for it: the public
// include/simdex/front_end_text.h holds it, for front ends too.
#ifndef SIMDEX_ENGINE_UTIL_PLURAL_H_
#define SIMDEX_ENGINE_UTIL_PLURAL_H_

#include "simdex/front_end_text.h"

namespace simdex::util {

using simdex::Count;

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_PLURAL_H_
