// Memory sizes on the command line: "4096", "64K", "512M", "2G", "1T".
#ifndef SIMDEX_TOOLS_SIZE_ARGUMENT_H_
#define SIMDEX_TOOLS_SIZE_ARGUMENT_H_

#include <cstddef>
#include <string>

namespace simdex::tools {

// Parses a byte count with an optional binary unit (K, M, G, T, any case,
// optionally followed by "B" or "iB"); false if the text is not one or the
// value overflows.
bool ParseSize(std::string text, size_t* out);

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_SIZE_ARGUMENT_H_
