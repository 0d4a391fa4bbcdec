// simdex.fingerprint_file: documents read by the engine's DocumentReader
// (JSONL or one per line, plain or .gz/.zst/.bz2) and fingerprinted as
// `simdex dedup` and `simdex fingerprint` do, on threads, without the GIL;
// with a Fingerprinter(idf="auto"), the file is read twice, as `simdex
// fingerprint --idf auto` reads it: once to learn the idf, then to
// fingerprint.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "python/src/errors.h"
#include "python/src/module.h"
#include "simdex/document_reader.h"
#include "simdex/fingerprint.h"
#include "simdex/idf_learner.h"

namespace py = pybind11;

namespace simdex::python {

namespace {

constexpr size_t kBatch = 4096;

struct FileFingerprints {
  std::vector<uint64_t> ids;
  std::vector<std::string> id_strings;  // "" for numeric ids
  bool any_string = false;
  std::vector<uint64_t> fingerprints;
  std::vector<int8_t> reasons;
  std::vector<double> scores;
  DocumentReaderStats stats;
};

enum class Keep { kFirst, kLongest, kMaxField };

void FingerprintBatch(const std::vector<Document>& docs, size_t n,
                      const std::vector<std::unique_ptr<Fingerprinter>>& clones, FileFingerprints* out) {
  const size_t base = out->fingerprints.size();
  out->fingerprints.resize(base + n);
  out->reasons.resize(base + n);
  auto run = [&](Fingerprinter* f, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const FingerprintResult r = f->Fingerprint(docs[i].text);
      out->fingerprints[base + i] = r.empty() ? 0 : r.fingerprint;
      out->reasons[base + i] = static_cast<int8_t>(r.reason);
    }
  };
  const size_t threads = clones.size();
  std::vector<std::thread> workers;
  for (size_t t = 1; t < threads; ++t) workers.emplace_back(run, clones[t].get(), n * t / threads, n * (t + 1) / threads);
  run(clones[0].get(), 0, n / threads);
  for (std::thread& w : workers) w.join();
}

// The first pass of idf="auto": the idf of every document of the file.
Status LearnIdfOfFile(const std::string& path, const DocumentReaderOptions& options,
                      const FingerprintOptions& text_options, int threads, std::shared_ptr<const IdfTable>* table) {
  std::unique_ptr<DocumentReader> reader;
  SIMDEX_RETURN_IF_ERROR(DocumentReader::Open(path, options, &reader));
  std::unique_ptr<IdfLearner> learner;
  SIMDEX_RETURN_IF_ERROR(IdfLearner::Create(text_options, AutoIdfOptions(threads), &learner));
  std::vector<Document> docs(kBatch);
  std::vector<std::string_view> texts;
  for (bool eof = false; !eof;) {
    texts.clear();
    for (size_t n = 0; n < kBatch; ++n) {
      SIMDEX_RETURN_IF_ERROR(reader->Next(&docs[n], &eof));
      if (eof) break;
      texts.push_back(docs[n].text);
    }
    SIMDEX_RETURN_IF_ERROR(learner->AddBatch(texts));
  }
  return learner->Finish(table);
}

Status ReadFile(const std::string& path, const DocumentReaderOptions& options, Keep keep, const Fingerprinter& proto,
                int threads, FileFingerprints* out) {
  std::unique_ptr<DocumentReader> reader;
  SIMDEX_RETURN_IF_ERROR(DocumentReader::Open(path, options, &reader));
  std::vector<std::unique_ptr<Fingerprinter>> clones;
  for (int t = 0; t < threads; ++t) clones.push_back(proto.Clone());
  std::vector<Document> docs(kBatch);
  for (bool eof = false; !eof;) {
    size_t n = 0;
    while (n < kBatch) {
      SIMDEX_RETURN_IF_ERROR(reader->Next(&docs[n], &eof));
      if (eof) break;
      const Document& d = docs[n++];
      out->ids.push_back(d.id);
      out->any_string |= !d.id_string.empty();
      out->id_strings.push_back(d.id_string);
      if (keep == Keep::kLongest) out->scores.push_back(static_cast<double>(CodePointLength(d.text)));
      if (keep == Keep::kMaxField) out->scores.push_back(d.score);
    }
    FingerprintBatch(docs, n, clones, out);
  }
  out->stats = reader->stats();
  return Status::OK();
}

py::dict FingerprintFile(const std::string& path, py::handle fingerprinter, std::optional<std::string> format,
                         const std::string& id_field, const std::vector<std::string>& text_fields,
                         const std::string& id_mode, const std::string& keep_spec, bool skip_bad,
                         std::optional<int> threads) {
  DocumentReaderOptions o;
  if (!format) o.format = DocumentFormatFromPath(path);
  else if (*format == "jsonl") o.format = DocumentFormat::kJsonl;
  else if (*format == "lines") o.format = DocumentFormat::kLines;
  else throw py::value_error("format '" + *format + "' is not jsonl or lines");
  if (id_mode != "field" && id_mode != "ordinal") throw py::value_error("id_mode '" + id_mode + "' is not field or ordinal");
  o.id_mode = id_mode == "ordinal" ? IdMode::kOrdinal : IdMode::kField;
  o.id_field = id_field;
  o.text_fields = text_fields;
  o.allow_string_ids = true;
  o.skip_bad = skip_bad;
  Keep keep = Keep::kFirst;
  if (keep_spec == "longest") {
    keep = Keep::kLongest;
  } else if (keep_spec.starts_with("max:") && keep_spec.size() > 4) {
    keep = Keep::kMaxField;
    o.score_field = keep_spec.substr(4);
  } else if (keep_spec != "first") {
    throw py::value_error("keep '" + keep_spec + "' is not first, longest or max:FIELD");
  }
  const bool learns_idf = LearnsIdf(fingerprinter);
  const Fingerprinter* proto = learns_idf ? nullptr : &PrototypeOf(fingerprinter);
  const FingerprintOptions& text_options = OptionsOf(fingerprinter);
  const int t = ResolveThreads(threads, 1);
  FileFingerprints got;
  Status s;
  {
    py::gil_scoped_release release;
    std::unique_ptr<Fingerprinter> learned;
    if (learns_idf) {
      std::shared_ptr<const IdfTable> table;
      s = LearnIdfOfFile(path, o, text_options, t, &table);
      if (s.ok()) s = WithIdf(text_options, std::move(table), &learned);
      proto = learned.get();
    }
    if (s.ok()) s = ReadFile(path, o, keep, *proto, t, &got);
  }
  ThrowIfError(s);
  py::dict d;
  const size_t n = got.fingerprints.size();
  if (got.any_string) {
    py::array ids(py::dtype("O"), std::vector<py::ssize_t>{static_cast<py::ssize_t>(n)});
    PyObject** slot = static_cast<PyObject**>(ids.mutable_data());
    for (size_t i = 0; i < n; ++i) {
      py::object id = got.id_strings[i].empty() ? py::object(py::int_(got.ids[i])) : py::object(py::str(got.id_strings[i]));
      Py_XDECREF(slot[i]);
      slot[i] = id.release().ptr();
    }
    d["ids"] = ids;
  } else {
    py::array_t<uint64_t> ids(static_cast<py::ssize_t>(n));
    std::copy(got.ids.begin(), got.ids.end(), ids.mutable_data());
    d["ids"] = ids;
  }
  py::array_t<uint64_t> fps(static_cast<py::ssize_t>(n));
  std::copy(got.fingerprints.begin(), got.fingerprints.end(), fps.mutable_data());
  py::array_t<int8_t> reasons(static_cast<py::ssize_t>(n));
  std::copy(got.reasons.begin(), got.reasons.end(), reasons.mutable_data());
  d["fingerprints"] = fps;
  d["reasons"] = reasons;
  if (keep == Keep::kFirst) {
    d["scores"] = py::none();
  } else {
    py::array_t<double> scores(static_cast<py::ssize_t>(n));
    std::copy(got.scores.begin(), got.scores.end(), scores.mutable_data());
    d["scores"] = scores;
  }
  d["skipped"] = got.stats.skipped;
  d["first_errors"] = got.stats.first_errors;
  d["blank_lines"] = got.stats.blank_lines;
  d["bytes"] = got.stats.bytes;
  return d;
}

}  // namespace

void DefineDocuments(py::module_& m) {
  m.def("_fingerprint_file", &FingerprintFile, py::arg("path"), py::arg("fingerprinter"), py::kw_only(),
        py::arg("format") = py::none(), py::arg("id_field") = "id",
        py::arg("text_fields") = std::vector<std::string>{"text"}, py::arg("id_mode") = "field",
        py::arg("keep") = "first", py::arg("skip_bad") = false, py::arg("threads") = py::none(),
        "Reads and fingerprints one file; use simdex.fingerprint_file().");
}

}  // namespace simdex::python
