// The subcommands of the `simdex` program. Each Add*Command registers its
// subcommand and options on the app; when the command line selects it, the
// subcommand stores in *run the function that does the work and returns the
// process exit code (0 success, 1 failure, 2 usage error).
#ifndef SIMDEX_TOOLS_COMMANDS_H_
#define SIMDEX_TOOLS_COMMANDS_H_

#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <sys/stat.h>

#include "tools/cli_fwd.h"

#include "simdex/front_end_text.h"
#include "simdex/index.h"
#include "simdex/status.h"

namespace simdex::tools {

using CommandRunner = std::function<int()>;

void AddDistanceCommand(CLI::App& app, CommandRunner* run);
void AddFingerprintCommand(CLI::App& app, CommandRunner* run);
void AddPairsCommand(CLI::App& app, CommandRunner* run);
void AddDedupCommand(CLI::App& app, CommandRunner* run);
void AddEvalCommand(CLI::App& app, CommandRunner* run);
void AddMergeCommand(CLI::App& app, CommandRunner* run);
void AddBuildCommand(CLI::App& app, CommandRunner* run);
void AddPlanCommand(CLI::App& app, CommandRunner* run);
void AddQueryCommand(CLI::App& app, CommandRunner* run);
void AddInspectCommand(CLI::App& app, CommandRunner* run);
void AddVerifyCommand(CLI::App& app, CommandRunner* run);
void AddServeCommand(CLI::App& app, CommandRunner* run);
void AddImportCommand(CLI::App& app, CommandRunner* run);
void AddIdfCommand(CLI::App& app, CommandRunner* run);

// Exit codes of every subcommand.
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// Prints the one error line of a subcommand, "simdex <command>: <what>", on
// stderr (control bytes escaped: never a raw one from the input, never a
// second line) and returns `exit_code`.
inline int ReportError(const char* command, std::string_view what, int exit_code = kExitFailure) {
  std::fprintf(stderr, "simdex %s: %s\n", command, Printable(what).c_str());
  return exit_code;
}

// Prints "simdex <command>: <message>" on stderr and returns the exit code:
// 2 for InvalidArgument raised by the command line itself (usage), else 1.
inline int ReportError(const char* command, const Status& status, bool usage = false) {
  return ReportError(command, status.message(), usage ? kExitUsage : kExitFailure);
}

// The message of a failure concerning the file at `path`, prefixed with
// "<path>: " unless the library's message names the file already.
inline std::string FileError(const std::string& path, const Status& s) {
  return s.message().find(path) != std::string::npos ? s.message() : path + ": " + s.message();
}

// Opens the index at `path` with Reader (IndexFile, IndexReader,
// LshIndexReader): 0, or 1 when it fails, reported as "simdex <command>:
// <path>: <reason>" ("<path>: is a directory").
template <class Reader>
int OpenIndexOrReport(const char* command, const std::string& path, const ReaderOptions& options,
                      std::unique_ptr<Reader>* out) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return ReportError(command, path + ": is a directory");
  Status s = Reader::Open(path, options, out);
  return s.ok() ? 0 : ReportError(command, FileError(path, s));
}

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_COMMANDS_H_
