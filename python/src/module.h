// The pieces of the simdex._simdex extension module, one file each.
#ifndef SIMDEX_PYTHON_MODULE_H_
#define SIMDEX_PYTHON_MODULE_H_

#include <pybind11/pybind11.h>

#include <optional>

#include "simdex/fingerprint.h"

namespace simdex::python {

void DefineFingerprinter(pybind11::module_& m);  // fingerprinter.cc
void DefineDocuments(pybind11::module_& m);      // documents.cc
void DefineIndex(pybind11::module_& m);          // index.cc
void DefineDedup(pybind11::module_& m);          // dedup.cc
void DefineParts(pybind11::module_& m);          // parts.cc
void DefineMerge(pybind11::module_& m);          // merge.cc

// threads as given (0: one per core), or `fallback` when None; ValueError below 0.
int ResolveThreads(std::optional<int> threads, int fallback);
// The Fingerprinter inside a simdex.Fingerprinter object.
const Fingerprinter& PrototypeOf(pybind11::handle fingerprinter);

}  // namespace simdex::python

#endif  // SIMDEX_PYTHON_MODULE_H_
