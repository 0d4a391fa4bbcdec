// Rows of MinHash signatures from Python into a builder or merger: ids
// (a numeric array, or a sequence of int and str), and texts signed on
// threads. LshIndexBuilder (lsh_index.cc) and simdex.merge (merge.cc)
// add their batches through them.
#ifndef SIMDEX_PYTHON_SRC_SIGNATURE_ROWS_H_
#define SIMDEX_PYTHON_SRC_SIGNATURE_ROWS_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "python/src/arrays.h"
#include "python/src/errors.h"
#include "python/src/module.h"
#include "simdex/minhash.h"

namespace simdex::python {

namespace py = pybind11;

// Adds (ids[i], rows[i]) to a builder or merger: a numeric array with the
// GIL released, else one id (a str or an int) at a time.
template <typename Sink>
void AddRows(Sink* sink, py::handle ids, const uint32_t* rows, size_t n, size_t num_perm, const char* what,
             const std::vector<std::vector<uint64_t>>* shingles = nullptr) {
  const auto add = [&](const auto& id, size_t i) {
    const uint32_t* row = rows + i * num_perm;
    return shingles != nullptr ? sink->Add(id, row, (*shingles)[i]) : sink->Add(id, row);
  };
  if (NumericArray(ids)) {
    const ArrayView<uint64_t> numbers = ViewArray<uint64_t>(ids, "ids");
    CheckSameLength(numbers.span.size(), n, what);
    py::gil_scoped_release release;
    for (size_t i = 0; i < n; ++i) ThrowIfError(add(numbers.span[i], i));
    return;
  }
  const py::sequence seq = py::reinterpret_borrow<py::sequence>(ids);
  CheckSameLength(seq.size(), n, what);
  for (size_t i = 0; i < n; ++i) {
    ThrowIfError(WithId(seq[i], "ids[" + std::to_string(i) + "]", [&](const auto& id) { return add(id, i); }));
  }
}

// SignTexts by a hasher of `options`.
inline std::pair<py::array_t<uint32_t>, py::array_t<bool>> SignWith(const MinHashOptions& options, const py::sequence& texts,
                                                             int threads,
                                                             std::vector<std::vector<uint64_t>>* shingles = nullptr) {
  std::unique_ptr<MinHasher> hasher;
  ThrowIfError(MinHasher::Create(options, &hasher));
  return SignTexts(*hasher, texts, threads, shingles);
}

}  // namespace simdex::python

#endif  // SIMDEX_PYTHON_SRC_SIGNATURE_ROWS_H_
