// The subcommands of the `simdex` program. Each Add*Command registers its
// subcommand and options on the app; when the command line selects it, the
// subcommand stores in *run the function that does the work and returns the
// process exit code (0 success, 1 failure, 2 usage error).
#ifndef SIMDEX_TOOLS_COMMANDS_H_
#define SIMDEX_TOOLS_COMMANDS_H_

#include <functional>

#include <CLI/CLI.hpp>

namespace simdex::tools {

using CommandRunner = std::function<int()>;

void AddDistanceCommand(CLI::App& app, CommandRunner* run);

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_COMMANDS_H_
