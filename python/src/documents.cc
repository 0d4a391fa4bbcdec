// simdex.fingerprint_file: the documents of a file (JSONL or one per line,
// plain or .gz/.zst/.bz2) read and fingerprinted by the library as `simdex
// dedup` and `simdex fingerprint` do, on threads, without the GIL
// (FingerprintDocuments, include/simdex/document_inputs.h); with a
// Fingerprinter(idf="auto"), the file is read twice, as `simdex fingerprint
// --idf auto` reads it: once to learn the idf (LearnIdf), then to
// fingerprint. simdex._minhash_file has the library read a file and sign
// its documents as `simdex dedup --method minhash` does (SignDocuments),
// makes their band keys, b-bit signatures and the digest that collapses
// identical signatures, and queries each signature in the --against
// MinHash-LSH indexes while it is at hand.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "python/src/arrays.h"
#include "python/src/errors.h"
#include "python/src/index_handle.h"
#include "python/src/module.h"
#include "simdex/batch.h"
#include "simdex/document_inputs.h"
#include "simdex/document_reader.h"
#include "simdex/fingerprint.h"
#include "simdex/idf_learner.h"
#include "simdex/lsh_index.h"
#include "simdex/minhash.h"
#include "simdex/minhash_join.h"

namespace py = pybind11;

namespace simdex::python {

DocumentFiles FilesOf(std::vector<std::string> paths, const std::optional<std::string>& format,
                      const std::string& id_field, const std::vector<std::string>& text_fields,
                      const std::string& id_mode, bool skip_bad) {
  DocumentFiles files;
  if (format) {
    files.formats.assign(paths.size(), Named<DocumentFormat>(*format, "format", {{"jsonl", DocumentFormat::kJsonl},
                                                                                  {"lines", DocumentFormat::kLines}}));
  }
  files.id_mode = Named<IdMode>(id_mode, "id_mode", {{"field", IdMode::kField}, {"ordinal", IdMode::kOrdinal}});
  files.paths = std::move(paths);
  files.id_field = id_field;
  files.text_fields = text_fields;
  files.skip_bad = skip_bad;
  return files;
}

KeepRule KeepNamed(const std::string& keep, std::string* field) {
  KeepRule rule;
  ThrowIfError(ParseKeepRule(keep, &rule, field));
  return rule;
}

DocumentReaderOptions FileReaderOptions(const std::string& path, const std::optional<std::string>& format,
                                        const std::string& id_field, const std::vector<std::string>& text_fields,
                                        const std::string& id_mode, const std::string& keep_spec, bool skip_bad) {
  const DocumentFiles files = FilesOf({path}, format, id_field, text_fields, id_mode, skip_bad);
  DocumentReaderOptions o;
  o.format = format ? files.formats[0] : DocumentFormatFromPath(path);
  o.id_mode = files.id_mode;
  o.id_field = id_field;
  o.text_fields = text_fields;
  o.allow_string_ids = true;
  o.skip_bad = skip_bad;
  KeepNamed(keep_spec, &o.score_field);
  return o;
}

namespace {

// What every read of a file keeps of its documents.
struct FileRecords {
  std::vector<uint64_t> ids;
  std::vector<std::string> id_strings;  // "" for numeric ids
  bool any_string = false;
  std::vector<double> scores;
  // Where the documents were read, as the places where lines stop running
  // on by one (as simdex dedup's DocumentPlaces keeps them): document
  // run_starts[i] was read at line run_lines[i], the next ones on the lines
  // after it until the next run.
  std::vector<uint64_t> run_starts;
  std::vector<uint64_t> run_lines;
};

struct FileFingerprints : FileRecords {
  std::vector<uint64_t> fingerprints;
  std::vector<int8_t> reasons;
};

// Band keys, b-bit signatures and digests (0 when empty) by document; the
// documents with an index match, by position.
struct FileSignatures : FileRecords {
  std::vector<uint64_t> keys;    // bands per document
  std::vector<uint8_t> packed;   // PackedSignatureBytes per document
  std::vector<uint64_t> digests;
  std::vector<int8_t> reasons;   // 1 ("no-text") for a document without shingles
  std::vector<uint32_t> matched;       // positions
  std::vector<LshBestMatch> matches;   // theirs
};

// The --against indexes of a signing run, opened and checked: MinHash-LSH
// indexes whose profile is the batch's (as `simdex dedup --method minhash`
// checks them; their bands and bits may differ, since each is queried with
// the whole signature).
std::vector<std::unique_ptr<LshIndexReader>> OpenAgainst(const std::vector<std::string>& paths,
                                                         const MinHashOptions& signing) {
  std::vector<std::unique_ptr<LshIndexReader>> indexes;
  const std::string batch = MinHashProfile(signing);
  for (const std::string& path : paths) {
    indexes.emplace_back();
    WithoutGil([&] { return LshIndexReader::Open(path, ReaderOptions(), &indexes.back()); });
    if (indexes.back()->profile() != batch) {
      throw py::value_error(path + " holds signatures of '" + indexes.back()->profile() +
                            "'; this batch is signed as '" + batch + "' (num_perm, seed, word_n, char_n, shingles)");
    }
  }
  return indexes;
}

// Keeps what every read keeps of a document: its id, where it was read, and
// its score for the keep rule.
void KeepRecord(const Document& d, KeepRule keep, FileRecords* out) {
  if (out->run_lines.empty() || d.line != out->run_lines.back() + (out->ids.size() - out->run_starts.back())) {
    out->run_starts.push_back(out->ids.size());
    out->run_lines.push_back(d.line);
  }
  out->ids.push_back(d.id);
  out->any_string |= !d.id_string.empty();
  out->id_strings.push_back(d.id_string);
  if (keep == KeepRule::kLongest) out->scores.push_back(static_cast<double>(CodePointLength(d.text)));
  if (keep == KeepRule::kField) out->scores.push_back(d.score);
}

// A new n x width array holding values.
template <typename T>
py::array_t<T> Matrix(const std::vector<T>& values, size_t n, size_t width) {
  py::array_t<T> a({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(width)});
  if (!values.empty()) std::copy(values.begin(), values.end(), a.mutable_data());
  return a;
}

// The end of a read: the read's error raised, then a dict of the ids, scores
// and reader's counts, as fingerprint_file returns them.
py::dict RecordsOf(const DocumentFilesStats& read, const Status& s, KeepRule keep, const FileRecords& got) {
  ThrowIfError(s);
  py::dict d;
  if (got.any_string) {
    d["ids"] = ObjectArray(got.ids.size(), [&](size_t i) {
      return got.id_strings[i].empty() ? py::object(py::int_(got.ids[i])) : py::object(py::str(got.id_strings[i]));
    });
  } else {
    d["ids"] = ToArray(got.ids);
  }
  d["scores"] = keep == KeepRule::kFirst ? py::object(py::none()) : py::object(ToArray(got.scores));
  d["line_runs"] = py::make_tuple(ToArray(got.run_starts), ToArray(got.run_lines));
  d["skipped"] = read.skipped;
  d["first_errors"] = read.first_errors;
  d["blank_lines"] = read.blank_lines;
  d["bytes"] = read.bytes;
  return d;
}

// The documents with an index match as _minhash_file returns them:
// against_positions (uint32), against_index (int32, in the order given),
// against_ids (uint64, or an object array when an index has string ids: the
// strings of those) and against_estimates (float32, as the command writes
// them).
void PutMatches(const FileSignatures& got, const std::vector<std::unique_ptr<LshIndexReader>>& indexes, py::dict* d) {
  const std::vector<LshBestMatch>& m = got.matches;
  auto [index, numbers, estimates] = Columns<int32_t, uint64_t, float>(m.size(), [&](size_t i) {
    return std::tuple{m[i].index, m[i].id, static_cast<float>(m[i].estimate)};
  });
  py::object ids = numbers;
  if (std::any_of(indexes.begin(), indexes.end(), [](const auto& r) { return r->has_string_ids(); })) {
    ids = ObjectArray(m.size(), [&](size_t i) {
      const LshIndexReader& r = *indexes[static_cast<size_t>(m[i].index)];
      return r.has_string_ids() ? py::object(py::str(std::string(r.IdString(m[i].id)))) : py::object(py::int_(m[i].id));
    });
  }
  (*d)["against_positions"] = ToArray(got.matched);
  (*d)["against_index"] = index;
  (*d)["against_ids"] = ids;
  (*d)["against_estimates"] = estimates;
}

py::dict FingerprintFile(const std::string& path, py::handle fingerprinter, std::optional<std::string> format,
                         const std::string& id_field, const std::vector<std::string>& text_fields,
                         const std::string& id_mode, const std::string& keep_spec, bool skip_bad,
                         std::optional<int> threads) {
  DocumentFiles files = FilesOf({path}, format, id_field, text_fields, id_mode, skip_bad);
  const KeepRule keep = KeepNamed(keep_spec, &files.score_field);
  const bool learns_idf = LearnsIdf(fingerprinter);
  const Fingerprinter* proto = learns_idf ? nullptr : &PrototypeOf(fingerprinter);
  const FingerprintOptions& text_options = OptionsOf(fingerprinter);
  const double max_idf = learns_idf ? IdfCapOf(fingerprinter) : std::numeric_limits<double>::infinity();
  const int t = ResolveThreads(threads, 1);
  FileFingerprints got;
  DocumentFilesStats read;
  Status s;
  {
    py::gil_scoped_release release;
    // The library reads, learns the idf and fingerprints (LearnIdf and
    // FingerprintDocuments, as `simdex fingerprint --idf auto` does).
    std::unique_ptr<Fingerprinter> learned;
    if (learns_idf) {
      std::shared_ptr<const IdfTable> table;
      IdfLearnerStats learning;
      s = LearnIdf(files, text_options, AutoIdfOptions(t, max_idf), nullptr, &table, &learning);
      if (s.ok()) s = WithIdf(text_options, std::move(table), &learned);
      proto = learned.get();
    }
    if (s.ok()) {
      s = FingerprintDocuments(files, *proto, t, nullptr, [&](const FingerprintedDocuments& b) {
        for (size_t i = 0; i < b.documents.size(); ++i) {
          KeepRecord(b.documents[i], keep, &got);
          got.fingerprints.push_back(b.results[i].empty() ? 0 : b.results[i].fingerprint);
          got.reasons.push_back(static_cast<int8_t>(b.results[i].reason));
        }
        return Status::OK();
      }, &read);
    }
  }
  py::dict d = RecordsOf(read, s, keep, got);
  d["fingerprints"] = ToArray(got.fingerprints);
  d["reasons"] = ToArray(got.reasons);
  return d;
}

py::dict MinHashFile(const std::string& path, int num_perm, uint64_t seed, int word_n, int char_n,
                     const std::string& shingles, int bands,
                     int rows, int bits, std::optional<std::string> format, const std::string& id_field,
                     const std::vector<std::string>& text_fields, const std::string& id_mode,
                     const std::string& keep_spec, bool skip_bad, std::optional<int> threads,
                     const std::vector<std::string>& against, double min_estimate, double min_sketch_estimate,
                     bool approximate) {
  DocumentFiles files = FilesOf({path}, format, id_field, text_fields, id_mode, skip_bad);
  const KeepRule keep = KeepNamed(keep_spec, &files.score_field);
  if (!(min_estimate >= 0 && min_estimate <= 1)) throw py::value_error("min_estimate must be in [0, 1]");
  const MinHashOptions options = MinHashOptionsOf(num_perm, seed, word_n, char_n, shingles);
  std::unique_ptr<MinHasher> proto;
  ThrowIfError(MinHasher::Create(options, &proto));  // refused before the file is read
  const LshBands layout{bands, rows};
  ThrowIfError(CheckLshBands(layout, num_perm));
  if (!ValidSignatureBits(bits)) throw py::value_error("signature_bits must be 1, 2, 4, 8, 16 or 32");
  const std::vector<std::unique_ptr<LshIndexReader>> indexes = OpenAgainst(against, options);
  std::vector<const LshIndexReader*> queried;
  for (const auto& index : indexes) queried.push_back(index.get());
  LshQueryOptions query;
  query.min_estimate = min_estimate;
  query.min_sketch_estimate = min_sketch_estimate;
  query.approximate = approximate;
  const size_t nb = static_cast<size_t>(bands), sb = PackedSignatureBytes(num_perm, bits);
  const int t = ResolveThreads(threads, 1);
  FileSignatures got;
  DocumentFilesStats read;
  Status s;
  {
    py::gil_scoped_release release;
    // The library signs (SignDocuments, as `simdex dedup --method minhash`
    // does); each batch's keys, b-bit signatures, digests and queries are
    // made here on the same threads.
    s = SignDocuments(files, options, t, nullptr, [&](const SignedDocuments& b) {
      const size_t n = b.documents.size();
      const size_t base = got.digests.size();
      for (const Document& doc : b.documents) KeepRecord(doc, keep, &got);
      got.keys.resize((base + n) * nb);
      got.packed.resize((base + n) * sb);
      got.digests.resize(base + n);
      got.reasons.resize(base + n);
      std::vector<LshBestMatch> best(indexes.empty() ? 0 : n);
      std::vector<Status> failed(static_cast<size_t>(t));
      ForRanges(n, t, [&](size_t begin, size_t end, size_t w) {
        std::vector<LshMatch> found;
        for (size_t i = begin; i < end; ++i) {
          const size_t d = base + i;
          const bool has = b.has_shingles[i] != 0;
          BandKeys(b.signature(i), layout, &got.keys[d * nb]);
          PackSignature(b.signature(i), num_perm, bits, &got.packed[d * sb]);
          got.digests[d] = has ? SignatureDigest(&got.keys[d * nb], nb, &got.packed[d * sb], sb) : 0;
          got.reasons[d] = has ? 0 : 1;
          if (has && !indexes.empty() && failed[w].ok()) {
            failed[w] = QueryBestMatch(queried, b.signature(i), b.shingles[i], query, &found, &best[i]);
          }
        }
      });
      for (const Status& f : failed) SIMDEX_RETURN_IF_ERROR(f);
      for (size_t i = 0; i < best.size(); ++i) {
        if (best[i].index < 0) continue;
        got.matched.push_back(static_cast<uint32_t>(base + i));
        got.matches.push_back(best[i]);
      }
      return Status::OK();
    }, &read);
  }
  py::dict d = RecordsOf(read, s, keep, got);
  const size_t n = got.digests.size();
  d["keys"] = Matrix(got.keys, n, nb);
  d["packed"] = Matrix(got.packed, n, sb);
  d["digests"] = ToArray(got.digests);
  d["reasons"] = ToArray(got.reasons);
  d["profile"] = MinHashProfile(options);
  if (!indexes.empty()) PutMatches(got, indexes, &d);
  return d;
}

}  // namespace

void DefineDocuments(py::module_& m) {
  m.def("_fingerprint_file", &FingerprintFile, py::arg("path"), py::arg("fingerprinter"), py::kw_only(),
        py::arg("format") = py::none(), py::arg("id_field") = "id",
        py::arg("text_fields") = std::vector<std::string>{"text"}, py::arg("id_mode") = "field",
        py::arg("keep") = KeepRuleSpec(SimHashDedupOptions().keep), py::arg("skip_bad") = false,
        py::arg("threads") = py::none(), "Reads and fingerprints one file; use simdex.fingerprint_file().");
  const MinHashOptions minhash;  // the defaults, written in include/simdex/minhash.h
  m.def("_minhash_file", &MinHashFile, py::arg("path"), py::kw_only(), py::arg("num_perm") = minhash.num_perm,
        py::arg("seed") = minhash.seed, py::arg("word_n") = minhash.shingles.word_n,
        py::arg("char_n") = minhash.shingles.char_n, py::arg("shingles") = kDefaultShingles, py::arg("bands"),
        py::arg("rows"), py::arg("signature_bits") = MinHashDedupOptions().signature_bits,
        py::arg("format") = py::none(), py::arg("id_field") = "id",
        py::arg("text_fields") = std::vector<std::string>{"text"}, py::arg("id_mode") = "field",
        py::arg("keep") = KeepRuleSpec(MinHashDedupOptions().keep), py::arg("skip_bad") = false,
        py::arg("threads") = py::none(), py::arg("against") = std::vector<std::string>(), py::arg("min_estimate") = 0.0,
        py::arg("min_sketch_estimate") = -1.0, py::arg("approximate") = false,
        "Reads one file and signs its documents as `simdex dedup --method minhash` does: ids, scores and the "
        "reader's counts as fingerprint_file, keys (n x bands uint64 band keys), packed (n x bytes b-bit "
        "signatures), digests (SignatureDigest; 0 for a document without shingles), reasons (int8, 1: no-text) "
        "and profile (MinHashProfile). against: MinHash-LSH index paths, each document with shingles queried in "
        "each (min_estimate: the run's estimate filter, 0 for off; an index with sketches decides on them unless "
        "approximate, min_sketch_estimate their filter, negative: min_estimate) and its best match kept by the "
        "command's rule (the highest estimate, the first index among equals): against_positions, against_index, against_ids "
        "(the strings of string-id indexes), against_estimates (float32). An index that is not MinHash-LSH, or "
        "whose profile is not the batch's, is a ValueError naming it. simdex.dask's minhash partitions; releases "
        "the GIL.");
}

}  // namespace simdex::python
