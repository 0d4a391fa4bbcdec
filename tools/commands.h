// The subcommands of the `simdex` program. Each Add*Command registers its
// subcommand and options on the app; when the command line selects it, the
// subcommand stores in *run the function that does the work and returns the
// process exit code (0 success, 1 failure, 2 usage error).
#ifndef SIMDEX_TOOLS_COMMANDS_H_
#define SIMDEX_TOOLS_COMMANDS_H_

#include <cstdio>
#include <functional>

#include <CLI/CLI.hpp>

#include "simdex/status.h"

namespace simdex::tools {

using CommandRunner = std::function<int()>;

void AddDistanceCommand(CLI::App& app, CommandRunner* run);
void AddFingerprintCommand(CLI::App& app, CommandRunner* run);
void AddPairsCommand(CLI::App& app, CommandRunner* run);

// Prints "simdex <command>: <message>" on stderr and returns the exit code:
// 2 for InvalidArgument raised by the command line itself (usage), else 1.
inline int ReportError(const char* command, const Status& status, bool usage = false) {
  std::fprintf(stderr, "simdex %s: %s\n", command, status.message().c_str());
  return usage ? 2 : 1;
}

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_COMMANDS_H_
