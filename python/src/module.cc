// simdex._simdex: the extension module under the simdex package
// (python/simdex/__init__.py re-exports it with docstrings and helpers).
#include <pybind11/pybind11.h>

#include "python/src/errors.h"
#include "python/src/module.h"

PYBIND11_MODULE(_simdex, m) {
  m.doc() = "simdex's C++ engine: fingerprints, compressed indexes, de-duplication (see the simdex package).";
  simdex::python::RegisterErrors(m);
  simdex::python::DefineFingerprinter(m);
  simdex::python::DefineDocuments(m);
  simdex::python::DefineIndex(m);
  simdex::python::DefineDedup(m);
  simdex::python::DefineParts(m);
  simdex::python::DefineMerge(m);
  simdex::python::DefineMinHash(m);
  simdex::python::DefineMinHashParts(m);
  simdex::python::DefinePlan(m);
  simdex::python::DefineLshIndex(m);
  simdex::python::DefineConfirm(m);
  simdex::python::DefineBatch(m);
}
