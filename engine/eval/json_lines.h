// The JSON Lines reader of the eval inputs (labelled sets, reported pairs):
// one JSON object per line, blank lines skipped.
#ifndef SIMDEX_ENGINE_EVAL_JSON_LINES_H_
#define SIMDEX_ENGINE_EVAL_JSON_LINES_H_

#include <functional>
#include <string>

#include <simdjson.h>

#include "simdex/status.h"

namespace simdex::eval {

// Calls fn with each line's object, in order. A line that is not a JSON
// object, or for which fn fails, stops the read with InvalidArgument
// "path:line: why" (fn's message without a place); a file that cannot be
// opened or read is an IOError.
Status ForEachJsonObject(const std::string& path, const std::function<Status(simdjson::dom::object)>& fn);

}  // namespace simdex::eval

#endif  // SIMDEX_ENGINE_EVAL_JSON_LINES_H_
