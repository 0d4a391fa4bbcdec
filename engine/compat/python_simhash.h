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

// Simhash(text).value (f = 64). Returns false, leaving *value untouched,
// when the text has no features (see PythonSimhashFeatures).
// Substitutions are added to *invalid_utf8 (if not null) in either case.
bool PythonSimhashOfText(std::string_view utf8_text, uint64_t* value, uint32_t* invalid_utf8);

// Simhash([(feature, weight), ...]).value (f = 64): the weighted features
// hashed as given. Returns false when the list is empty.
// When every weight is an integer and their magnitudes add up to less than
// 2^53 the sums are exact (as Python's, for int or float weights); otherwise
// they are added as doubles in list order, as Python does with float weights
// (so a NaN weight makes every bit 0, and integral weights beyond 2^53 act as
// Python floats, not Python ints). That is the package's pure-Python vote;
// its numpy versions compare sum(w * bit) with sum(w) / 2 instead, which is
// the same for integral weights but may round differently for others.
struct WeightedCompatFeature {
  std::string_view text;  // UTF-8
  double weight;
};
bool PythonSimhashOfFeatures(const std::vector<WeightedCompatFeature>& features, uint64_t* value);

}  // namespace simdex::compat

#endif  // SIMDEX_ENGINE_COMPAT_PYTHON_SIMHASH_H_
