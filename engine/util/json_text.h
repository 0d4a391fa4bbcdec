// JSON text output: strings escaped per RFC 8259, and ids written as the
// JSON number or string they were given as. Used by the command-line tools
// and the docId service's HTTP API.
#ifndef SIMDEX_ENGINE_UTIL_JSON_TEXT_H_
#define SIMDEX_ENGINE_UTIL_JSON_TEXT_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace simdex::io {

// Appends `text` as a quoted JSON string: '"' and '\' are escaped, control
// characters below U+0020 become \n, \t, \r, \b, \f or \u00XX, and every
// byte that is not part of valid UTF-8 becomes U+FFFD (JSON text is UTF-8).
void AppendJsonString(std::string* out, std::string_view text);

// Appends a document id: `id_string` as a JSON string when it is not empty,
// else `id` as a JSON number.
void AppendJsonId(std::string* out, uint64_t id, std::string_view id_string);

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_UTIL_JSON_TEXT_H_
