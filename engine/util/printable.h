// Text from outside (a line, an id, an argument) as it may appear in a
// one-line message: no control byte reaches a terminal or a log unescaped.
#ifndef SIMDEX_ENGINE_UTIL_PRINTABLE_H_
#define SIMDEX_ENGINE_UTIL_PRINTABLE_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace simdex::io {

// s with every control byte (0x00-0x1F, 0x7F) written as an escape: \t,
// \n, \r or \xNN; other bytes (UTF-8 included) as they are. When s is longer than max_bytes, only its first max_bytes bytes
// (fewer, to end at a UTF-8 character boundary) are kept, followed by "...".
std::string Printable(std::string_view s, size_t max_bytes = std::string_view::npos);

// Printable(s, 40) in single quotes: "'9f3a0c71z'", for the excerpts of bad
// input that error messages quote.
std::string Quoted(std::string_view s);

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_UTIL_PRINTABLE_H_
