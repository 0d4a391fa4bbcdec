// The options that open a docId service's state, shared by `simdex serve`
// and `simdex import`: the data directory, the distances and schemes, the
// window, the representative rule and the fingerprint options.
#ifndef SIMDEX_TOOLS_SERVICE_OPTIONS_H_
#define SIMDEX_TOOLS_SERVICE_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/cli_fwd.h"

#include "simdex/batch.h"
#include "simdex/service.h"
#include "simdex/status.h"
#include "tools/text_options.h"

namespace simdex::tools {

// The flags of `simdex serve` and `simdex import`. Those that set a field of
// ServiceOptions start from its default (--help shows it).
struct ServiceOptionArgs {
  std::string data;
  int k = ServiceOptions().k;
  int k_title = ServiceOptions().k_title;
  std::string content_scheme;
  std::string title_scheme;
  std::string window = "48h";
  std::string retain = "0";
  std::string keep = KeepRuleSpec(KeepRule::kFirst, "");  // ServiceOptions::keep_field "": the first
  uint64_t compact_entries = ServiceOptions().compact_entries;
  uint64_t max_live_entries = ServiceOptions().max_live_entries;
  int build_threads = 1;
  bool sync = false;
  std::string preload = "off";  // off, read, lock
  std::string confirm;
  int k_short = ServiceOptions().k_short;
  int short_length = ServiceOptions().short_length;
  TextOptionArgs text;
  // The content stage (the flags of `simdex dedup --method minhash`).
  std::string content_method = "auto";  // auto, simhash, minhash (MakeServiceOptions)
  double threshold = ServiceOptions().threshold;
  bool approximate = false;  // minhash: the estimate decides (no exact check)
  int num_perm = ServiceOptions().minhash.num_perm;
  int bands = 0;
  int rows = 0;
  int signature_bits = ServiceOptions().signature_bits;
  // Options given on the command line, among those that only one content
  // method takes, and whether --seed was (it seeds the signatures too).
  std::vector<std::string> simhash_given, minhash_given;
  bool seed_given = false;
  std::optional<ShingleWords> shingle_words;  // --shingles, when given
};

// Registers --data, --k, --k-title, --content-scheme, --title-scheme,
// --window, --retain, --keep, --compact-entries, --build-threads, --sync, --confirm,
// --k-short, --short-length, the text options, and --content-method with
// the MinHash options (--threshold, --num-perm, --bands, --rows,
// --signature-bits) on `sub`.
void AddServiceOptions(CLI::App* sub, ServiceOptionArgs* args);

// The service options the arguments name; InvalidArgument for a window or
// keep rule that does not parse, and for an option of the other content
// method. --content-method auto (the default) is simhash when a SimHash
// content option (--k, --content-scheme, --confirm, --k-short) is given,
// minhash when a MinHash one is (both: InvalidArgument), else
// ContentMethod::kAuto: the state's method, minhash for a new state. --seed seeds the MinHash signatures too (1 when not given, as
// `simdex dedup --method minhash`).
Status MakeServiceOptions(const ServiceOptionArgs& args, ServiceOptions* options);

// Parses a duration: a number of seconds, or a number with s, m, h or d
// ("90s", "30m", "48h", "2d"); false if the text is not one.
bool ParseDuration(const std::string& text, int64_t* seconds);

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_SERVICE_OPTIONS_H_
