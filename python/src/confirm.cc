// simdex.Confirmer and the confirmation's pieces for simdex.dask:
// include/simdex/confirm.h for Python (docs/generated/quality.md, "Short texts:
// two-stage confirmation"). A spec is `simdex dedup --confirm`'s
// ("jaccard-shingles:0.8", "edit:0.6", ...).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "python/src/arrays.h"
#include "python/src/errors.h"
#include "python/src/module.h"
#include "simdex/batch.h"
#include "simdex/confirm.h"
#include "simdex/document_reader.h"
#include "simdex/minhash_dedup_parts.h"

namespace py = pybind11;

namespace simdex::python {

// The Confirmer of a spec; ValueError naming the spec for a bad one.
std::unique_ptr<Confirmer> MakeConfirmer(const std::string& spec) {
  ConfirmOptions options;
  ThrowIfError(ParseConfirmSpec(spec, &options));
  std::unique_ptr<Confirmer> confirmer;
  ThrowIfError(Confirmer::Create(options, &confirmer));
  return confirmer;
}

namespace {

// The confirmer's view of the documents at `positions` (sorted, each once)
// of a file read as _minhash_file reads it: (lims, values), document i's
// values[lims[i]:lims[i+1]], its sorted distinct shingle hashes (uint64)
// for a Jaccard spec, its UTF-8 bytes (uint8) for edit. Only those
// documents are kept.
py::tuple ConfirmFile(const std::string& path, const std::string& spec, py::handle positions,
                      std::optional<std::string> format, const std::string& id_field,
                      const std::vector<std::string>& text_fields, const std::string& id_mode,
                      const std::string& keep_spec, bool skip_bad) {
  const DocumentReaderOptions o = FileReaderOptions(path, format, id_field, text_fields, id_mode, keep_spec, skip_bad);
  std::unique_ptr<Confirmer> confirmer = MakeConfirmer(spec);
  const ArrayView<uint32_t> wanted = ViewArray<uint32_t>(positions, "positions");
  for (size_t i = 1; i < wanted.span.size(); ++i) {
    if (wanted.span[i] <= wanted.span[i - 1]) throw py::value_error("positions must be increasing");
  }
  const bool by_shingles = confirmer->options().measure == ConfirmMeasure::kJaccard;
  std::vector<uint64_t> lims{0}, hashes, shingles;
  std::vector<uint8_t> bytes;
  Status s;
  {
    py::gil_scoped_release release;
    std::unique_ptr<DocumentReader> reader;
    s = DocumentReader::Open(path, o, &reader);
    Document doc;
    bool eof = false;
    for (uint64_t position = 0; s.ok() && lims.size() <= wanted.span.size(); ++position) {
      s = reader->Next(&doc, &eof);
      if (!s.ok() || eof) break;
      if (wanted.span[lims.size() - 1] != position) continue;
      if (by_shingles) {
        confirmer->Shingles(doc.text, &shingles);
        hashes.insert(hashes.end(), shingles.begin(), shingles.end());
      } else {
        bytes.insert(bytes.end(), doc.text.begin(), doc.text.end());
      }
      lims.push_back(by_shingles ? hashes.size() : bytes.size());
    }
    if (s.ok() && lims.size() <= wanted.span.size()) {
      s = Status::InvalidArgument(path + " holds no document at position " +
                                  std::to_string(wanted.span[lims.size() - 1]) + " (it changed since it was read?)");
    }
  }
  ThrowIfError(s);
  py::object values = by_shingles ? py::object(ToArray(hashes)) : py::object(ToArray(bytes));
  return py::make_tuple(ToArray(lims), values);
}

// The pieces' documents rows_a[i] and rows_b[i] confirmed (ConfirmRowPairs,
// include/simdex/minhash_dedup_parts.h): (accepted, similarity).
py::tuple ConfirmPairs(const std::string& spec, py::handle lims, py::handle values, py::handle rows_a,
                       py::handle rows_b) {
  std::unique_ptr<Confirmer> confirmer = MakeConfirmer(spec);
  const ArrayView<uint64_t> l = ViewArray<uint64_t>(lims, "lims");
  const ArrayView<uint64_t> a = ViewArray<uint64_t>(rows_a, "rows_a"), b = ViewArray<uint64_t>(rows_b, "rows_b");
  ArrayView<uint64_t> hashes;
  ArrayView<uint8_t> bytes;
  if (confirmer->options().measure == ConfirmMeasure::kJaccard) hashes = ViewArray<uint64_t>(values, "values");
  else bytes = ViewArray<uint8_t>(values, "values");
  std::vector<uint8_t> accepted;
  std::vector<double> similarity;
  WithoutGil([&] {
    return ConfirmRowPairs(confirmer.get(), {{}, l.span, hashes.span, bytes.span}, a.span, b.span, &accepted,
                           &similarity);
  });
  py::array_t<bool> ok(static_cast<py::ssize_t>(accepted.size()));
  std::copy(accepted.begin(), accepted.end(), ok.mutable_data());
  return py::make_tuple(ok, ToArray(similarity));
}

}  // namespace

void DefineConfirm(py::module_& m) {
  // Calls hold the GIL: a Confirmer is for one thread at a time.
  py::class_<Confirmer>(m, "Confirmer", R"doc(
An exact similarity of two texts (include/simdex/confirm.h), as `simdex dedup --confirm
SPEC` confirms a candidate pair: "jaccard-shingles:T" (the Jaccard truth's word 5-shingles),
"jaccard:T" (code point 3-grams), "jaccard-words:T", "jaccard-chars:T" (with an optional
shingle length: "jaccard-words3:0.5") or "edit:T" (edit-distance similarity); a pair is
confirmed iff its similarity is >= T. A bad spec is a ValueError naming it. One thread at
a time (calls hold the GIL).
)doc")
      .def(py::init(&MakeConfirmer), py::arg("spec"))
      .def("similarity", [](Confirmer& c, py::handle a, py::handle b) { return c.Similarity(Utf8(a, 0), Utf8(b, 1)); },
           py::arg("a"), py::arg("b"), "The similarity of two texts (str or UTF-8 bytes), in [0, 1].")
      .def("confirms", [](Confirmer& c, py::handle a, py::handle b) { return c.Confirms(Utf8(a, 0), Utf8(b, 1)); },
           py::arg("a"), py::arg("b"), "similarity(a, b) >= threshold.")
      .def("shingles", [](Confirmer& c, py::handle text) {
             if (c.options().measure != ConfirmMeasure::kJaccard) {
               throw py::value_error("shingles() needs a Jaccard spec, not " + ConfirmSpecName(c.options()));
             }
             std::vector<uint64_t> out;
             c.Shingles(Utf8(text, 0), &out);
             return ToArray(out);
           }, py::arg("text"),
           "The text's sorted distinct shingle hashes (np.uint64) of a Jaccard spec: jaccard_of_shingles of two "
           "texts' equals their similarity. ValueError for edit.")
      .def_static("jaccard_of_shingles",
                  [](py::handle a, py::handle b) {
                    const ArrayView<uint64_t> x = ViewArray<uint64_t>(a, "a"), y = ViewArray<uint64_t>(b, "b");
                    return Confirmer::JaccardOfShingles(x.span, y.span);
                  },
                  py::arg("a"), py::arg("b"),
                  "|a & b| / |a | b| of two sorted lists of distinct hashes (uint64), by one merge; 0 when both "
                  "are empty.")
      .def_property_readonly("spec", [](const Confirmer& c) { return ConfirmSpecName(c.options()); },
                             "The spec as the library names it (\"jaccard-chars3:0.5\").")
      .def_property_readonly("measure", [](const Confirmer& c) {
        return c.options().measure == ConfirmMeasure::kJaccard ? "jaccard" : "edit";
      })
      .def_property_readonly("threshold", [](const Confirmer& c) { return c.options().threshold; })
      .def("__repr__", [](const Confirmer& c) { return "<simdex.Confirmer " + ConfirmSpecName(c.options()) + ">"; });
  m.def("_confirm_file", &ConfirmFile, py::arg("path"), py::arg("spec"), py::arg("positions"), py::kw_only(),
        py::arg("format") = py::none(), py::arg("id_field") = "id",
        py::arg("text_fields") = std::vector<std::string>{"text"}, py::arg("id_mode") = "field",
        py::arg("keep") = KeepRuleSpec(MinHashDedupOptions().keep), py::arg("skip_bad") = false,
        "Reads one file again (read as _minhash_file reads it) for the documents at `positions` (uint32, "
        "increasing): (lims, values) with document i's values[lims[i]:lims[i+1]]: the sorted distinct shingle "
        "hashes of the Confirmer of `spec` (uint64) for a Jaccard spec, the UTF-8 text (uint8) for edit. "
        "simdex.dask's confirmation; releases the GIL.");
  m.def("_confirm_pairs", &ConfirmPairs, py::arg("spec"), py::arg("lims"), py::arg("values"), py::arg("rows_a"),
        py::arg("rows_b"),
        "(accepted, similarity) of the document pairs (rows_a[i], rows_b[i]) of _confirm_file's (lims, values), "
        "as `simdex dedup --confirm` decides them: Jaccard of the shingle hashes, or the edit similarity where "
        "Confirmer.confirms holds (NaN where it ruled the pair out early). simdex.dask's confirmation; releases "
        "the GIL.");
}

}  // namespace simdex::python
