// Counts in the commands' messages (engine/util/plural.h).
#ifndef SIMDEX_TOOLS_PLURAL_H_
#define SIMDEX_TOOLS_PLURAL_H_

#include "engine/util/plural.h"

namespace simdex::tools {

using io::Count;

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_PLURAL_H_
