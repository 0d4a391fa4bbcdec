// simdex: near-duplicate detection with SimHash fingerprints and a
// compressed on-disk index. One binary, git-style subcommands.
#include <cstdio>
#include <string>

#include "tools/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"simdex: near-duplicate detection with SimHash fingerprints"};
  app.require_subcommand(1);
  simdex::tools::CommandRunner run;
  simdex::tools::AddDistanceCommand(app, &run);
  simdex::tools::AddFingerprintCommand(app, &run);
  simdex::tools::AddPairsCommand(app, &run);
  simdex::tools::AddDedupCommand(app, &run);
  simdex::tools::AddEvalCommand(app, &run);
  simdex::tools::AddMergeCommand(app, &run);
  simdex::tools::AddBuildCommand(app, &run);
  simdex::tools::AddQueryCommand(app, &run);
  simdex::tools::AddInspectCommand(app, &run);
  simdex::tools::AddVerifyCommand(app, &run);
  simdex::tools::AddServeCommand(app, &run);
  simdex::tools::AddImportCommand(app, &run);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    // A usage error is one line too: "simdex <command>: <what> (see --help)".
    const std::vector<CLI::App*> selected = app.get_subcommands();
    const std::string command = selected.empty() ? "" : " " + selected.front()->get_name();
    std::fprintf(stderr, "simdex%s: %s (see simdex%s --help)\n", command.c_str(), e.what(),
                 command.c_str());
    return simdex::tools::kExitUsage;
  }
  return run ? run() : simdex::tools::kExitUsage;
}
