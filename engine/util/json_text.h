// AppendJsonString and AppendJsonId under the engine's names for them (the
// public include/simdex/front_end_text.h holds them, for front ends too),
// and AppendDecimal and ShortestDecimal, the engine's own.
#ifndef SIMDEX_ENGINE_UTIL_JSON_TEXT_H_
#define SIMDEX_ENGINE_UTIL_JSON_TEXT_H_

#include <cstdint>
#include <string>

#include "simdex/front_end_text.h"

namespace simdex::util {

using simdex::AppendJsonId;
using simdex::AppendJsonString;

// Appends `value` in decimal, as std::to_string would, without making a
// string of it (the per-document and per-pair outputs write tens of
// millions of numbers).
void AppendDecimal(std::string* out, uint64_t value);
void AppendDecimal(std::string* out, int value);

// The shortest text that reads back as `value` ("0.2", not
// "0.20000000000000001").
std::string ShortestDecimal(double value);

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_JSON_TEXT_H_
