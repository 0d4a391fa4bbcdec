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

// An id of a builder or merger batch: a str, or an int.
template <typename Sink>
Status AddId(Sink* sink, py::handle id, const uint32_t* signature, size_t i,
             const std::vector<std::vector<uint64_t>>* shingles) {
  const std::string where = "ids[" + std::to_string(i) + "]";
  if (py::isinstance<py::str>(id)) {
    const std::string s = StrId(id, where);
    return shingles != nullptr ? sink->Add(s, signature, (*shingles)[i]) : sink->Add(s, signature);
  }
  const uint64_t number = ToFingerprint(id, where.c_str());
  return shingles != nullptr ? sink->Add(number, signature, (*shingles)[i]) : sink->Add(number, signature);
}

inline bool NumericArray(py::handle ids) {
  return py::isinstance<py::array>(ids) && py::reinterpret_borrow<py::array>(ids).dtype().kind() != 'O';
}

inline void CheckSameLength(size_t ids, size_t rows, const char* what) {
  if (ids != rows) {
    throw py::value_error("ids and " + std::string(what) + " differ in length: " + std::to_string(ids) + " and " +
                          std::to_string(rows));
  }
}

// Adds (ids[i], rows[i]) to a builder or merger: a numeric array with the
// GIL released, else one id at a time.
template <typename Sink>
void AddRows(Sink* sink, py::handle ids, const uint32_t* rows, size_t n, size_t num_perm, const char* what,
             const std::vector<std::vector<uint64_t>>* shingles = nullptr) {
  if (NumericArray(ids)) {
    const ArrayView<uint64_t> numbers = ViewArray<uint64_t>(ids, "ids");
    CheckSameLength(numbers.span.size(), n, what);
    py::gil_scoped_release release;
    for (size_t i = 0; i < n; ++i) {
      ThrowIfError(shingles != nullptr ? sink->Add(numbers.span[i], rows + i * num_perm, (*shingles)[i])
                                       : sink->Add(numbers.span[i], rows + i * num_perm));
    }
    return;
  }
  const py::sequence seq = py::reinterpret_borrow<py::sequence>(ids);
  CheckSameLength(seq.size(), n, what);
  for (size_t i = 0; i < n; ++i) ThrowIfError(AddId(sink, seq[i], rows + i * num_perm, i, shingles));
}

// The signatures of texts, signed with `options` on `threads` threads:
// (n x num_perm uint32 array, n bool array of has-shingles); shingles (when
// not null): each text's shingle set.
inline std::pair<py::array_t<uint32_t>, py::array_t<bool>> SignWith(const MinHashOptions& options, const py::sequence& texts,
                                                             int threads,
                                                             std::vector<std::vector<uint64_t>>* shingles = nullptr) {
  std::unique_ptr<MinHasher> hasher;
  ThrowIfError(MinHasher::Create(options, &hasher));
  std::vector<py::object> keep;
  std::vector<std::string_view> views;
  Utf8Views(texts, &keep, &views);
  py::array_t<uint32_t> signatures({views.size(), static_cast<size_t>(options.num_perm)});
  py::array_t<bool> has(static_cast<py::ssize_t>(views.size()));
  SignTexts(*hasher, views, threads, signatures.mutable_data(), has.mutable_data(), shingles);
  return {signatures, has};
}

}  // namespace simdex::python

#endif  // SIMDEX_PYTHON_SRC_SIGNATURE_ROWS_H_
