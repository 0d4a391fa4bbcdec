// simdex: near-duplicate detection with SimHash fingerprints and a
// compressed on-disk index. One binary, git-style subcommands.
#include <cstdio>

#include "tools/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"simdex: near-duplicate detection with SimHash fingerprints"};
  app.require_subcommand(1);
  simdex::tools::CommandRunner run;
  simdex::tools::AddDistanceCommand(app, &run);
  simdex::tools::AddFingerprintCommand(app, &run);
  simdex::tools::AddPairsCommand(app, &run);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return run ? run() : 2;
}
