// The feature extraction and feature hash of the Python `simhash` package
// (module simhash, class Simhash), reproduced so users can migrate
// fingerprint databases. Used by Fingerprinter when options.compat is
// Compat::kPythonSimhash.
//
// Text semantics are Python 3's, on ICU 72 (Unicode 15.0); python_text.h lists
// the code points, new in Unicode 15.0, on which Python 3.11 (Unicode 14.0)
// differs. All functions are thread-safe: their scratch buffers are
// per-thread.
#ifndef SIMDEX_ENGINE_COMPAT_PYTHON_SIMHASH_H_
#define SIMDEX_ENGINE_COMPAT_PYTHON_SIMHASH_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace simdex::compat {

struct CountedFeature {
  std::string text;  // UTF-8
  uint32_t count;
};

// Simhash._tokenize + the grouping in build_by_text: str.lower(); keep the
// matches of [\w\u4e00-\u9fcc]+ joined with no separator; slide a window of
// 4 code points with step 1 (the whole string when shorter). Appends the
// distinct features with their counts, in sorted (code point) order as the
// Python package does. Invalid UTF-8 is replaced by U+FFFD first and the
// number of replacements added to *invalid_utf8 (if not null).
// When nothing is kept the output is empty (the Python package would hash
// the empty string instead: simdex reports such documents as empty).
// The count of a feature, and *invalid_utf8, saturate at 2^32 - 1. Texts of
// any size are accepted; a Σ may lower differently from Python only inside a
// run of over 255 MiB without a space, digit or other uncased character (see
// PieceSizes in python_text.h).
void PythonSimhashFeatures(std::string_view utf8_text, std::vector<CountedFeature>* out,
                           uint32_t* invalid_utf8);

// _hashfunc: int(md5(feature).hexdigest(), 16) & (2^64 - 1), i.e. the last 8
// bytes of the MD5 digest of the UTF-8 bytes read big-endian.
uint64_t PythonSimhashFeatureHash(std::string_view utf8_feature);

}  // namespace simdex::compat

#endif  // SIMDEX_ENGINE_COMPAT_PYTHON_SIMHASH_H_
