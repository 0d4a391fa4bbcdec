// The options that open a docId service's state, shared by `simdex serve`
// and `simdex import`: the data directory, the distances and schemes, the
// window, the representative rule and the fingerprint options.
#ifndef SIMDEX_TOOLS_SERVICE_OPTIONS_H_
#define SIMDEX_TOOLS_SERVICE_OPTIONS_H_

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "simdex/service.h"
#include "simdex/status.h"
#include "tools/text_options.h"

namespace simdex::tools {

struct ServiceOptionArgs {
  std::string data;
  int k = 3;
  int k_title = 0;
  std::string content_scheme;
  std::string title_scheme;
  std::string window = "48h";
  std::string retain = "0";
  std::string keep = "first";
  uint64_t compact_entries = uint64_t{1} << 20;
  int build_threads = 1;
  bool sync = false;
  std::string preload = "off";  // off, read, lock
  std::string confirm;
  int k_short = -1;
  int short_length = 140;
  TextOptionArgs text;
};

// Registers --data, --k, --k-title, --content-scheme, --title-scheme,
// --window, --retain, --keep, --compact-entries, --build-threads, --sync, --confirm,
// --k-short, --short-length and the text options on `sub`.
void AddServiceOptions(CLI::App* sub, ServiceOptionArgs* args);

// The service options the arguments name; InvalidArgument for a window or
// keep rule that does not parse.
Status MakeServiceOptions(const ServiceOptionArgs& args, ServiceOptions* options);

// Parses a duration: a number of seconds, or a number with s, m, h or d
// ("90s", "30m", "48h", "2d"); false if the text is not one.
bool ParseDuration(const std::string& text, int64_t* seconds);

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_SERVICE_OPTIONS_H_
