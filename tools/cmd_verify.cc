// simdex verify INDEX: checks every rule of docs/format.md "When a file is
// considered corrupted" (IndexReader::Open, then Verify; LshIndexReader's
// for a MinHash-LSH index). Prints "ok: <entries> entries, <tables> tables"
// ("ok: <n> documents, <b> band tables") for a sound file; otherwise the
// first problem, as the library names it, and exits 1.
#include <cstdio>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "simdex/index.h"
#include "simdex/lsh_index.h"
#include "tools/commands.h"
#include "tools/plural.h"

namespace simdex::tools {
namespace {

constexpr const char* kVerifyCommand = "verify";

// A MinHash-LSH index: "ok: <documents> documents, <bands> band tables".
int RunVerifyLsh(const std::string& path, const ReaderOptions& options) {
  std::unique_ptr<LshIndexReader> reader;
  int exit_code = 0;
  if (!OpenIndexOrReport(kVerifyCommand, path, options, &reader, &exit_code)) return exit_code;
  Status s = reader->Verify();
  if (!s.ok()) return ReportError(kVerifyCommand, FileError(path, s));
  std::printf("ok: %s, %s\n", Count(reader->documents(), "document").c_str(),
              Count(static_cast<uint64_t>(reader->bands().bands), "band table").c_str());
  return std::fflush(stdout) == 0 ? 0 : ReportError(kVerifyCommand, "error writing standard output");
}

int RunVerify(const std::string& path) {
  ReaderOptions options;
  options.verify_block_checksums = true;
  options.verify_heads_on_open = true;
  IndexKind kind;
  if (ReadIndexKind(path, &kind).ok() && kind == IndexKind::kMinHashLsh) return RunVerifyLsh(path, options);
  std::unique_ptr<IndexReader> reader;
  int exit_code = 0;
  if (!OpenIndexOrReport(kVerifyCommand, path, options, &reader, &exit_code)) return exit_code;
  Status s = reader->Verify();
  if (!s.ok()) return ReportError(kVerifyCommand, FileError(path, s));
  std::printf("ok: %s, %s\n", Count(reader->entries(), "entry", "entries").c_str(),
              Count(static_cast<uint64_t>(reader->scheme().num_tables()), "table").c_str());
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
