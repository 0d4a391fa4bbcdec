// The options that decide how text becomes a fingerprint, shared by every
// command that fingerprints documents (`simdex fingerprint`, `simdex dedup`).
#ifndef SIMDEX_TOOLS_TEXT_OPTIONS_H_
#define SIMDEX_TOOLS_TEXT_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "simdex/fingerprint.h"
#include "simdex/status.h"

namespace simdex::tools {

struct TextOptionArgs {
  std::string tokenizer = "words";
  int ngram = 3;
  bool no_normalize = false;
  bool no_clean_text = false;
  bool no_cap_numbers = false;
  std::vector<std::string> stop_words;  // empty: the library's default lists
  bool no_stop_words = false;
  std::string weighting = "tf";
  std::string idf;
  uint64_t seed = 0;
  std::string compat = "none";
};

// Registers --tokenizer, --ngram, --no-normalize, --no-clean-text, --no-cap-numbers, --stop-words, --no-stop-words, --weighting,
// --idf, --seed and --compat on `sub`.
void AddTextOptions(CLI::App* sub, TextOptionArgs* args);

// The fingerprint options the arguments name; a stop-word or idf file that
// cannot be loaded is an error (the rest was checked by the parser).
Status MakeFingerprintOptions(const TextOptionArgs& args, FingerprintOptions* options);

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_TEXT_OPTIONS_H_
