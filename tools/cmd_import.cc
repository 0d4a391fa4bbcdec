// simdex import: seeds a docId service's window with stored documents from
// fingerprint files (their ids and content fingerprints), while the
// service is not running.
//
//   simdex import --data /var/lib/simdex corpus.fp
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "simdex/fingerprint_file.h"
#include "simdex/front_end_text.h"
#include "simdex/profile.h"
#include "simdex/service.h"
#include "tools/commands.h"
#include "tools/service_options.h"
#include "tools/stopwatch.h"

namespace simdex::tools {
namespace {

constexpr const char* kImportCommand = "import";

struct ImportArgs {
  ServiceOptionArgs service;
  std::vector<std::string> inputs;
  bool quiet = false;
};

int RunImport(const ImportArgs& args) {
  ServiceOptions options;
  Status s = MakeServiceOptions(args.service, &options);
  if (!s.ok()) return ReportError(kImportCommand, s, s.IsInvalidArgument());
  // The inputs are SimHash fingerprints: a new state made by an import
  // matches contents by SimHash (a MinHash state refuses imports).
  if (options.content_method == ContentMethod::kAuto) options.content_method = ContentMethod::kSimHash;
  options.background_compaction = false;
  const Stopwatch stopwatch;
  std::vector<std::string> ids;
  std::vector<uint64_t> fps;
  uint64_t empty = 0;
  ProfileCheck profiles;  // the files' one fingerprint profile
  for (const std::string& path : args.inputs) {
    std::unique_ptr<FingerprintFileReader> reader;
    s = FingerprintFileReader::Open(path, FingerprintFileReaderOptions(), &reader);
    if (s.ok()) s = profiles.Add(reader->name(), reader->profile());
    if (!s.ok()) return ReportError(kImportCommand, FileError(path, s));
    FingerprintEntry e;
    for (bool eof = false;;) {
      s = reader->Next(&e, &eof);
      if (!s.ok()) return ReportError(kImportCommand, FileError(path, s));
      if (eof) break;
      if (e.empty) {
        ++empty;
        continue;
      }
      std::string id;
      AppendJsonId(&id, e.id, e.id_string);
      ids.push_back(std::move(id));
      fps.push_back(e.fingerprint);
    }
  }
  std::unique_ptr<DocIdService> service;
  s = DocIdService::Open(options, &service);
  if (!s.ok()) return ReportError(kImportCommand, s, s.IsInvalidArgument());
  s = service->Import(ids, fps, profiles.profile());
  if (!s.ok()) return ReportError(kImportCommand, s);
  if (!args.quiet) {
    std::fprintf(stderr, "simdex import: %s imported into %s (%llu without a fingerprint skipped), %.1f s\n",
                 Count(fps.size(), "document").c_str(), args.service.data.c_str(), static_cast<unsigned long long>(empty),
                 stopwatch.Seconds());
  }
  return 0;
}

}  // namespace

void AddImportCommand(CLI::App& app, CommandRunner* run) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* sub = app.add_subcommand("import", "seed a docId service's window from fingerprint files (offline)");
  AddServiceOptions(sub, &args->service);
  sub->add_option("inputs", args->inputs, "fingerprint files (<id>\\t<hex> text or binary; '-' = stdin)")
      ->required();
  sub->add_flag("-q,--quiet", args->quiet, "no summary");
  sub->footer("Each document becomes a docId of the service, stamped now, without url, title or representative.");
  sub->callback([args, run] { *run = [args] { return RunImport(*args); }; });
}

}  // namespace simdex::tools
