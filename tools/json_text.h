// JSON text for the command-line output (engine/util/json_text.h).
#ifndef SIMDEX_TOOLS_JSON_TEXT_H_
#define SIMDEX_TOOLS_JSON_TEXT_H_

#include "engine/util/json_text.h"

namespace simdex::tools {

using io::AppendJsonId;
using io::AppendJsonString;

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_JSON_TEXT_H_
