// Checks of a command's output paths made before anything is read or
// written, shared by every command that writes files (fingerprint, dedup,
// build, merge, eval).
#ifndef SIMDEX_TOOLS_OUTPUT_CHECKS_H_
#define SIMDEX_TOOLS_OUTPUT_CHECKS_H_

#include <string>
#include <vector>

#include "simdex/status.h"

namespace simdex::tools {

// One output of a command: the option that names it ("-o", "--out") and the
// path given ("-" and "" are standard output or unused, never checked).
struct OutputPath {
  std::string option;
  std::string path;
};

// Refuses a command line whose output is one of its inputs (the same file:
// the same device and inode, through hard and symbolic links; "-" as an
// input is standard input, whatever it was redirected from), or whose two
// outputs are one file: "-o in.jsonl is the input in.jsonl: writing it would
// destroy the input". Character devices (/dev/null, a terminal) are never a
// conflict: writing one destroys nothing. Paths that do not exist yet are
// compared by their absolute, normalized names. Returns InvalidArgument.
Status CheckOutputsAreNotInputs(const std::vector<OutputPath>& outputs, const std::vector<std::string>& inputs);

// The scratch directory for a command whose scratch files default to the
// output's directory: `tmpdir` when given; else "" (next to the output)
// unless the output is written in place (a device, FIFO or socket, such as
// /dev/null, whose directory is no place for scratch files): then $TMPDIR,
// else /tmp.
std::string ScratchDirFor(const std::string& output, const std::string& tmpdir);

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_OUTPUT_CHECKS_H_
