// Reads tests/compat/python_simhash_vectors.tsv, the Simhash(text).value
// fixture made by python_simhash_reference.py (its header states the columns).
#ifndef SIMDEX_TESTS_COMPAT_PYTHON_VECTORS_H_
#define SIMDEX_TESTS_COMPAT_PYTHON_VECTORS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace simdex::compat {

struct PythonVector {
  std::string label;
  std::optional<uint64_t> value;  // empty: the text has no features
  uint32_t substitutions = 0;     // U+FFFD made while decoding
  std::string utf8;               // the input bytes
};

// The fixture's rows in file order; an empty vector (and a test failure
// recorded through GoogleTest) if the file is missing or malformed.
std::vector<PythonVector> LoadPythonVectors();

}  // namespace simdex::compat

#endif  // SIMDEX_TESTS_COMPAT_PYTHON_VECTORS_H_
