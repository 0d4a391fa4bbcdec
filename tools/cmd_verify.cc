// simdex verify INDEX: checks every rule of docs/format.md "When a file is
// considered corrupted" for the file's kind (OpenIndexFile, then
// IndexFile::Verify). Prints "ok: <entries> entries, <tables> tables"
// ("ok: <n> documents, <b> band tables": IndexFile::VerifySummary) for a
// sound file; otherwise the first problem, as the library names it, and
// exits 1.
#include <cstdio>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "simdex/index_file.h"
#include "tools/commands.h"

namespace simdex::tools {
namespace {

constexpr const char* kVerifyCommand = "verify";

int RunVerify(const std::string& path) {
  ReaderOptions options;
  options.verify_block_checksums = true;
  options.verify_heads_on_open = true;
  std::unique_ptr<IndexFile> file;
  if (int bad = OpenIndexOrReport(kVerifyCommand, path, options, &file)) return bad;
  Status s = file->Verify();
  if (!s.ok()) return ReportError(kVerifyCommand, FileError(path, s));
  std::printf("ok: %s\n", file->VerifySummary().c_str());
  return std::fflush(stdout) == 0 ? 0 : ReportError(kVerifyCommand, "error writing standard output");
}

}  // namespace

void AddVerifyCommand(CLI::App& app, CommandRunner* run) {
  auto path = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand("verify", "Check every checksum and rule of an index file");
  sub->add_option("index", *path, "index file")->required();
  sub->callback([path, run] { *run = [path] { return RunVerify(*path); }; });
}

}  // namespace simdex::tools
