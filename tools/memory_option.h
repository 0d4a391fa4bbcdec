// --memory: a budget parsed from the command line and held to what the
// machine has. Buffers are sized to the input and capped by the budget
// (docs/reliability.md, "Memory budgets"); a budget above the machine's
// memory is clamped to it, with a note, so that no command plans for memory
// that is not there.
#ifndef SIMDEX_TOOLS_MEMORY_OPTION_H_
#define SIMDEX_TOOLS_MEMORY_OPTION_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "simdex/status.h"

namespace simdex::tools {

// The --memory of `command`: "" leaves *bytes (the command's default) as it
// is; else a size (tools/size_argument.h), clamped to MachineMemoryBytes()
// with one line on stderr ("simdex dedup: --memory 100G is more than this
// machine's 23.4 GiB; using 23.4 GiB"). InvalidArgument ("--memory 'x' is
// not a size (e.g. 512M, 2G)") when the text is not a size.
Status ParseMemoryOption(const char* command, const std::string& text, size_t* bytes);
// ParseMemoryOption, a failure reported as a usage error ("simdex
// <command>: --memory 'x' is not a size ..."): 0, else the exit code.
int ParseMemoryOrReport(const char* command, const std::string& text, size_t* bytes);

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_MEMORY_OPTION_H_
