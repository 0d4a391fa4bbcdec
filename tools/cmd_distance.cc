// simdex distance HEX HEX: the Hamming distance of two fingerprints.
#include <cstdio>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "simdex/fingerprint.h"
#include "simdex/front_end_text.h"
#include "tools/commands.h"

namespace simdex::tools {

void AddDistanceCommand(CLI::App& app, CommandRunner* run) {
  auto hex = std::make_shared<std::vector<std::string>>();
  CLI::App* sub = app.add_subcommand("distance", "Hamming distance between two hex fingerprints");
  sub->add_option("fingerprints", *hex, "two fingerprints, 1 to 16 hex digits each")
      ->required()->expected(2);
  sub->callback([hex, run] {
    *run = [hex] {
      uint64_t a = 0, b = 0;
      for (int i = 0; i < 2; ++i) {
        if (!ParseHexFingerprint((*hex)[i], i == 0 ? &a : &b)) {
          return ReportError("distance", Quoted((*hex)[i]) + " is not a fingerprint (1 to 16 hex digits)",
                             kExitUsage);
        }
      }
      std::printf("%d\n", HammingDistance(a, b));
      return 0;
    };
  });
}

}  // namespace simdex::tools
