// simdex inspect INDEX: the size and shape of an index of any kind as pretty
// JSON, keys always in the same order (IndexFile::InspectJson).
#include <cstdio>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "simdex/index_file.h"
#include "tools/commands.h"

namespace simdex::tools {
namespace {

constexpr const char* kInspectCommand = "inspect";

int RunInspect(const std::string& path) {
  std::unique_ptr<IndexFile> file;
  if (int bad = OpenIndexOrReport(kInspectCommand, path, ReaderOptions(), &file)) return bad;
  const std::string json = file->InspectJson();
  if (std::fwrite(json.data(), 1, json.size(), stdout) != json.size() || std::fflush(stdout) != 0) {
    return ReportError(kInspectCommand, "error writing standard output");
  }
  return 0;
}

}  // namespace

void AddInspectCommand(CLI::App& app, CommandRunner* run) {
  auto path = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand("inspect", "Print an index's size and shape as JSON");
  sub->add_option("index", *path, "index file")->required();
  sub->callback([path, run] { *run = [path] { return RunInspect(*path); }; });
}

}  // namespace simdex::tools
