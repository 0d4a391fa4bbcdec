// The options that decide how text becomes a fingerprint, shared by every
// command that fingerprints documents (`simdex fingerprint`, `simdex dedup`).
#ifndef SIMDEX_TOOLS_TEXT_OPTIONS_H_
#define SIMDEX_TOOLS_TEXT_OPTIONS_H_

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tools/cli_fwd.h"

#include "simdex/fingerprint.h"
#include "simdex/status.h"

namespace simdex::tools {

struct TextOptionArgs {
  std::string tokenizer = "words";
  int ngram = FingerprintOptions().ngram;
  bool no_normalize = false;
  bool no_clean_text = false;
  bool no_cap_numbers = false;
  std::vector<std::string> stop_words;  // empty: the library's default lists
  bool no_stop_words = false;
  std::string weighting;  // empty: tf, or tf-idf with --idf
  std::string idf;        // a term<TAB>idf file, "auto" (learned from the batch: tools/input_options.h) or empty
  double idf_cap = 0;     // --idf-cap: the cap on learned idf values; 0: none
  uint32_t tf_cap = FingerprintOptions().tf_cap;  // --tf-cap: FingerprintOptions::tf_cap
  double max_share = -1;  // --max-share: FingerprintOptions::max_share; -1: the library's default
  uint64_t seed = FingerprintOptions().seed;
  std::string compat = "none";
};

// Registers --tokenizer, --ngram, --no-normalize, --no-clean-text, --no-cap-numbers, --stop-words, --no-stop-words, --weighting,
// --idf, --idf-cap, --tf-cap, --max-share, --seed and --compat on `sub`.
void AddTextOptions(CLI::App* sub, TextOptionArgs* args);

// The fingerprint options the arguments name; a stop-word or idf file that
// cannot be loaded is an error (the rest was checked by the parser). --idf
// weighs by tf-idf, or log-tf-idf when --weighting says so; another
// --weighting with it is an error, and so is --idf-cap without --idf auto.
// With allow_auto, "--idf auto" gives weighting tf-idf and no table yet (the
// caller learns it: tools/input_options.h); without, it is an error saying so.
Status MakeFingerprintOptions(const TextOptionArgs& args, FingerprintOptions* options, bool allow_auto = false);

// True when --idf auto was given.
inline bool IdfAuto(const TextOptionArgs& args) { return args.idf == "auto"; }

// IdfLearnerOptions::max_idf for --idf-cap (infinity when not given).
inline double IdfCap(const TextOptionArgs& args) {
  return args.idf_cap > 0 ? args.idf_cap : std::numeric_limits<double>::infinity();
}

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_TEXT_OPTIONS_H_
