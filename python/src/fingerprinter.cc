// simdex.Fingerprinter: include/simdex/fingerprint.h for Python. Batches
// release the GIL and run on clones of the fingerprinter, one per thread.
// idf="auto" learns the idf of each batch first (include/simdex/idf_learner.h),
// as `simdex fingerprint --idf auto` does for its input; learn_idf() returns
// such a table (simdex.parts.IdfTable) for Fingerprinter(idf=table).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "python/src/arrays.h"
#include "python/src/errors.h"
#include "python/src/module.h"
#include "simdex/fingerprint.h"
#include "simdex/idf_learner.h"

namespace py = pybind11;

namespace simdex::python {

namespace {

// simdex.parts.IdfTable: an idf table learned from a batch, keyed by feature hash.
struct PyIdfTable {
  std::shared_ptr<const IdfTable> table;
  IdfLearnerStats stats;
};

// Learns the idf of texts under options (the caller has released the GIL).
Status LearnFromTexts(const FingerprintOptions& options, const IdfLearnerOptions& learn,
                      std::span<const std::string_view> texts, PyIdfTable* out) {
  std::unique_ptr<IdfLearner> learner;
  SIMDEX_RETURN_IF_ERROR(IdfLearner::Create(options, learn, &learner));
  SIMDEX_RETURN_IF_ERROR(learner->AddBatch(texts));
  SIMDEX_RETURN_IF_ERROR(learner->Finish(&out->table));
  out->stats = learner->stats();
  return Status::OK();
}

}  // namespace

std::string_view Utf8(py::handle text, size_t i) {
  if (PyUnicode_Check(text.ptr())) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
    if (data == nullptr) throw py::error_already_set();
    return {data, static_cast<size_t>(size)};
  }
  if (PyBytes_Check(text.ptr())) return {PyBytes_AS_STRING(text.ptr()), static_cast<size_t>(PyBytes_GET_SIZE(text.ptr()))};
  throw py::type_error("texts[" + std::to_string(i) + "] must be str or bytes, got " +
                       py::str(py::type::handle_of(text).attr("__name__")).cast<std::string>());
}

void Utf8Views(const py::sequence& texts, std::vector<py::object>* keep, std::vector<std::string_view>* views) {
  const size_t n = texts.size();
  keep->resize(n);
  views->resize(n);
  for (size_t i = 0; i < n; ++i) {
    (*keep)[i] = texts[i];
    (*views)[i] = Utf8((*keep)[i], i);
  }
}

IdfLearnerOptions AutoIdfOptions(int threads, double max_idf) {
  const char* env = std::getenv("TMPDIR");
  return {.memory_bytes = size_t{1} << 30,
          .tmpdir = env != nullptr && *env != '\0' ? env : "/tmp",
          .threads = threads,
          .max_idf = max_idf};
}

// idf_cap as given: infinity when None; ValueError unless > 0.
double ResolveIdfCap(std::optional<double> cap) {
  if (!cap) return std::numeric_limits<double>::infinity();
  if (!(*cap > 0)) throw py::value_error("idf_cap must be above 0, got " + std::to_string(*cap));
  return *cap;
}

Status WithIdf(FingerprintOptions options, std::shared_ptr<const IdfTable> table, std::unique_ptr<Fingerprinter>* out) {
  if (options.weighting != Weighting::kLogTfIdf) options.weighting = Weighting::kTfIdf;
  options.idf = std::move(table);
  return Fingerprinter::Create(options, out);
}

int ResolveThreads(std::optional<int> threads, int fallback) {
  const int t = threads.value_or(fallback);
  if (t == 0) return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (t < 0) throw py::value_error("threads must be >= 0 (0: one per core), got " + std::to_string(t));
  return t;
}

class PyFingerprinter {
 public:
  PyFingerprinter(const std::string& tokenizer, int ngram, bool normalize, bool clean_text, bool cap_numbers,
                  py::object stop_words, std::optional<std::string> stop_words_file,
                  std::optional<std::string> weighting, py::object idf, std::optional<double> idf_default,
                  std::optional<double> idf_cap, std::optional<double> max_share, uint32_t tf_cap, uint64_t seed,
                  std::optional<std::string> compat, int threads) {
    FingerprintOptions o;
    o.tokenizer = Named<Tokenizer>(tokenizer, "tokenizer",
                                    {{"words", Tokenizer::kWords},
                                     {"char-ngrams", Tokenizer::kCharNgrams},
                                     {"word-ngrams", Tokenizer::kWordNgrams}}, true);
    o.ngram = ngram;
    o.normalize = normalize;
    o.clean_text = clean_text;
    o.cap_numbers = cap_numbers;
    if (max_share) o.max_share = *max_share;  // else the library's default (0.1 since profile 4)
    o.tf_cap = tf_cap;
    if (py::isinstance<py::str>(stop_words)) {
      const std::string lang = stop_words.cast<std::string>();
      if (lang != "en" && lang != "zh") throw py::value_error("stop_words '" + lang + "' is not en or zh (or a list of words)");
      o.stop_words = BuiltinStopWords(lang);
    } else if (!stop_words.is_none()) {
      try {
        o.stop_words = stop_words.cast<std::vector<std::string>>();
      } catch (const py::cast_error&) {
        throw py::type_error("stop_words must be 'en', 'zh' or a list of str");
      }
    }
    if (stop_words_file) ThrowIfError(LoadStopWords(*stop_words_file, &o.stop_words));
    // As --weighting and --idf: tf, or tf-idf when an idf is given (or
    // log-tf-idf when asked); another weighting with an idf is refused
    // rather than the idf ignored, and an idf weighting without one too.
    if (weighting) {
      o.weighting = Named<Weighting>(*weighting, "weighting",
                                      {{"tf", Weighting::kTermFrequency},
                                       {"binary", Weighting::kBinary},
                                       {"log-tf", Weighting::kLogTf},
                                       {"tf-idf", Weighting::kTfIdf},
                                       {"log-tf-idf", Weighting::kLogTfIdf}}, true);
    }
    const bool idf_weighting = o.weighting == Weighting::kTfIdf || o.weighting == Weighting::kLogTfIdf;
    if (!idf.is_none()) {
      if (weighting && !idf_weighting) {
        throw py::value_error("idf weighs features by tf-idf or log-tf-idf; weighting '" + *weighting +
                              "' contradicts it");
      }
      if (!idf_weighting) o.weighting = Weighting::kTfIdf;
    } else if (idf_weighting) {
      throw py::value_error("weighting '" + *weighting + "' needs an idf (a file, a dict, an IdfTable or 'auto')");
    }
    o.seed = seed;
    if (compat) {
      o.compat = Named<Compat>(*compat, "compat", {{"none", Compat::kNone}, {"python-simhash", Compat::kPythonSimhash}}, true);
    }
    if (py::isinstance<PyIdfTable>(idf)) {
      if (idf_default) throw py::value_error("idf_default applies to an idf dict or file, not a learned table");
      o.idf = idf.cast<const PyIdfTable&>().table;
    } else if (py::isinstance<py::str>(idf) && idf.cast<std::string>() == "auto") {  // a file named auto: "./auto"
      if (idf_default) throw py::value_error("idf_default applies to an idf dict or file, not idf='auto'");
      if (o.compat != Compat::kNone) throw py::value_error("idf='auto': the python-simhash profile has no idf weighting");
      idf_auto_ = true;
      idf_cap_ = ResolveIdfCap(idf_cap);
    } else if (!idf.is_none()) {
      auto table = std::make_shared<IdfTable>();
      if (py::isinstance<py::dict>(idf)) {
        for (const auto& [term, value] : idf.cast<py::dict>()) table->Set(term.cast<std::string>(), value.cast<double>());
        table->set_default_idf(idf_default.value_or(1.0));
      } else {
        ThrowIfError(IdfTable::Load(py::str(idf).cast<std::string>(), normalize, table.get()));
        if (idf_default) table->set_default_idf(*idf_default);  // else the file's #default-idf line
      }
      o.idf = std::move(table);
    }
    if (idf_cap && !idf_auto_) {
      throw py::value_error("idf_cap caps the idf that idf='auto' learns (or learn_idf(idf_cap=)); a file's, "
                            "dict's or table's values are used as given");
    }
    threads_ = ResolveThreads(threads, 1);
    options_ = o;
    if (idf_auto_) {
      // Until a batch gives the idf: the features and their hashes only.
      o.weighting = Weighting::kTermFrequency;
    }
    ThrowIfError(Fingerprinter::Create(o, &prototype_));
  }

  py::object Fingerprint(py::handle text) {
    const FingerprintResult r = Weighing("fingerprint").Fingerprint(Utf8(text, 0));
    return r.empty() ? py::object(py::none()) : py::object(py::int_(r.fingerprint));
  }

  py::dict Details(py::handle text) {
    const FingerprintResult r = Weighing("details").Fingerprint(Utf8(text, 0));
    py::dict d;
    d["fingerprint"] = r.empty() ? py::object(py::none()) : py::object(py::int_(r.fingerprint));
    d["empty_reason"] = r.empty() ? EmptyReasonName(r.reason) : "";
    d["features"] = r.features;
    d["occurrences"] = r.occurrences;
    d["invalid_utf8"] = r.invalid_utf8;
    return d;
  }

  // Fingerprints of texts[i] (0 for empty documents) and each document's
  // EmptyReason code (0: not empty).
  // With idf="auto", the idf is learned from texts first, on the same
  // threads, as `simdex fingerprint --idf auto` learns it from its input.
  std::pair<py::array_t<uint64_t>, py::array_t<int8_t>> Batch(const py::sequence& texts, std::optional<int> threads_arg) {
    const size_t n = texts.size();
    std::vector<py::object> keep;  // references, so the UTF-8 views stay valid
    std::vector<std::string_view> views;
    Utf8Views(texts, &keep, &views);
    py::array_t<uint64_t> fps(static_cast<py::ssize_t>(n));
    py::array_t<int8_t> reasons(static_cast<py::ssize_t>(n));
    uint64_t* fp = fps.mutable_data();
    int8_t* reason = reasons.mutable_data();
    const int given = ResolveThreads(threads_arg, threads_);
    const int threads = static_cast<int>(std::min<size_t>(given, std::max<size_t>(n / 64, 1)));
    Status status;
    {
      py::gil_scoped_release release;
      const Fingerprinter* prototype = prototype_.get();
      std::unique_ptr<Fingerprinter> learned;
      if (idf_auto_) {
        PyIdfTable table;
        status = LearnFromTexts(options_, AutoIdfOptions(given, idf_cap_), views, &table);
        if (status.ok()) status = WithIdf(options_, std::move(table.table), &learned);
        prototype = learned.get();
      }
      // Clones even for one thread: single-text calls may use the
      // prototype meanwhile.
      std::vector<std::unique_ptr<Fingerprinter>> clones;
      for (int t = 0; status.ok() && t < threads; ++t) clones.push_back(prototype->Clone());
      if (status.ok()) {  // else nothing fingerprinted: the error is raised below, with the GIL
        ForRanges(n, threads, [&](size_t begin, size_t end, size_t w) {
          for (size_t i = begin; i < end; ++i) {
            const FingerprintResult r = clones[w]->Fingerprint(views[i]);
            fp[i] = r.empty() ? 0 : r.fingerprint;
            reason[i] = static_cast<int8_t>(r.reason);
          }
        });
      }
    }
    ThrowIfError(status);
    return {fps, reasons};
  }

  // The idf of texts under this fingerprinter's text options (tokenizer,
  // normalization, stop words, seed), learned as `simdex idf` learns it.
  PyIdfTable LearnIdf(const py::sequence& texts, size_t memory, std::optional<std::string> tmpdir,
                      std::optional<int> threads_arg, std::optional<double> idf_cap) {
    std::vector<py::object> keep;
    std::vector<std::string_view> views;
    Utf8Views(texts, &keep, &views);
    IdfLearnerOptions learn =
        AutoIdfOptions(ResolveThreads(threads_arg, threads_), idf_cap ? ResolveIdfCap(idf_cap) : idf_cap_);
    learn.memory_bytes = memory;
    if (tmpdir) learn.tmpdir = *tmpdir;
    PyIdfTable table;
    WithoutGil([&] { return LearnFromTexts(options_, learn, views, &table); });
    return table;
  }

  py::object FromFeatures(py::handle features) {
    std::vector<WeightedFeature> list;
    const py::iterable items = py::isinstance<py::dict>(features) ? py::iterable(features.attr("items")())
                                                                   : py::reinterpret_borrow<py::iterable>(features);
    for (py::handle item : items) {
      try {
        const auto pair = item.cast<std::pair<std::string, double>>();
        list.push_back({pair.first, pair.second});
      } catch (const py::cast_error&) {
        throw py::type_error("features must map str to a number (or be (str, number) pairs), got " +
                             py::repr(item).cast<std::string>());
      }
    }
    FingerprintResult r;
    ThrowIfError(prototype_->FromFeatures(list, &r));  // the caller's weights: no idf involved
    return r.empty() ? py::object(py::none()) : py::object(py::int_(r.fingerprint));
  }

  std::vector<std::pair<std::string, double>> Features(py::handle text) {
    std::vector<WeightedFeature> features;
    Weighing("features").ExtractFeatures(Utf8(text, 0), &features);
    std::vector<std::pair<std::string, double>> out;
    for (WeightedFeature& f : features) out.emplace_back(std::move(f.text), f.weight);
    return out;
  }

  uint64_t HashFeature(const std::string& feature) const { return prototype_->HashFeature(feature); }
  int threads() const { return threads_; }
  const std::string& profile() const { return prototype_->profile(); }
  const Fingerprinter& prototype() const { return *prototype_; }
  bool idf_auto() const { return idf_auto_; }
  double idf_cap() const { return idf_cap_; }
  const FingerprintOptions& options() const { return options_; }

 private:
  // The prototype, for what depends on the weights; idf="auto" has none
  // outside a batch.
  Fingerprinter& Weighing(const char* method) {
    if (idf_auto_) {
      throw py::value_error(std::string(method) +
                            "(): idf='auto' learns the idf from a batch: use fingerprint_batch() or "
                            "simdex.fingerprint_file(), or Fingerprinter(idf=fingerprinter.learn_idf(texts))");
    }
    return *prototype_;
  }

  FingerprintOptions options_;  // as given; with idf="auto", tf-idf without a table
  bool idf_auto_ = false;
  double idf_cap_ = std::numeric_limits<double>::infinity();  // of idf="auto"
  std::unique_ptr<Fingerprinter> prototype_;
  int threads_ = 1;
};

const Fingerprinter& PrototypeOf(py::handle fingerprinter) {
  return fingerprinter.cast<const PyFingerprinter&>().prototype();
}

bool LearnsIdf(py::handle fingerprinter) { return fingerprinter.cast<const PyFingerprinter&>().idf_auto(); }

double IdfCapOf(py::handle fingerprinter) { return fingerprinter.cast<const PyFingerprinter&>().idf_cap(); }

const FingerprintOptions& OptionsOf(py::handle fingerprinter) {
  return fingerprinter.cast<const PyFingerprinter&>().options();
}

void DefineFingerprinter(py::module_& m) {
  py::class_<PyIdfTable>(m, "IdfTable", R"doc(
An idf table learned from a batch (Fingerprinter.learn_idf): idf = ln((N + 1) / df)
for each feature two or more of the N documents hold, keyed by the feature's hash
under the fingerprinter's seed; default_idf = ln(N + 1) for every other feature.
Fingerprinter(idf=table) weighs by it (docs/fingerprint.md, "IDF learned from the batch").
)doc")
      .def_property_readonly("documents", [](const PyIdfTable& t) { return t.stats.documents; },
                             "N, the documents learned from (empty ones included).")
      .def_property_readonly("features", [](const PyIdfTable& t) { return t.stats.features; },
                             "Distinct features of the batch.")
      .def_property_readonly("default_idf", [](const PyIdfTable& t) { return t.table->default_idf(); })
      .def_property_readonly("seed", [](const PyIdfTable& t) { return t.table->hash_seed(); },
                             "The seed of the feature hashes it is keyed by.")
      .def("__len__", [](const PyIdfTable& t) { return t.table->size(); },
           "Features held by two or more documents: the table's entries.")
      .def("idf_of_hash", [](const PyIdfTable& t, uint64_t hash) { return t.table->LookupHash(hash); },
           py::arg("hash"), "The idf of a feature by its hash (Fingerprinter.hash_feature).");
  const FingerprintOptions defaults;  // the text options' defaults (include/simdex/fingerprint.h)
  py::class_<PyFingerprinter>(m, "Fingerprinter", R"doc(
SimHash fingerprints of text (docs/fingerprint.md): UTF-8 text -> NFKC and case
folding -> features (ICU words, character or word n-grams) -> stop words dropped
-> weights -> XXH3-64 per feature -> the sign of each bit's weighted sum.

A document without features gets no fingerprint (None, or 0 flagged empty in
batches), never a constant that would match every other empty document.
idf="auto" learns the idf of each batch (fingerprint_batch, fingerprint_file) before
fingerprinting it, as `simdex fingerprint --idf auto` does; learn_idf(texts) returns
such a table to fingerprint other texts with.
compat="python-simhash" reproduces the Python `simhash` package's
Simhash(text).value and ignores the other text options.

Batch calls release the GIL and run on `threads` threads (0: one per core).
Single-text calls hold the GIL, so one object may be shared between threads.
)doc")
      .def(py::init<const std::string&, int, bool, bool, bool, py::object, std::optional<std::string>,
                    std::optional<std::string>, py::object, std::optional<double>, std::optional<double>,
                    std::optional<double>, uint32_t, uint64_t, std::optional<std::string>, int>(),
           py::kw_only(), py::arg("tokenizer") = "words", py::arg("ngram") = defaults.ngram,
           py::arg("normalize") = defaults.normalize, py::arg("clean_text") = defaults.clean_text,
           py::arg("cap_numbers") = defaults.cap_numbers,
           py::arg("stop_words") = py::none(), py::arg("stop_words_file") = py::none(), py::arg("weighting") = py::none(),
           py::arg("idf") = py::none(), py::arg("idf_default") = py::none(), py::arg("idf_cap") = py::none(),
           py::arg("max_share") = py::none(), py::arg("tf_cap") = defaults.tf_cap, py::arg("seed") = defaults.seed,
           py::arg("compat") = py::none(), py::arg("threads") = 1,
           R"doc(tokenizer: "words" | "char-ngrams" | "word-ngrams"; ngram: n (1..16) of the n-gram tokenizers;
normalize: NFKC + case folding; clean_text: markup, character references, percent-escapes, URLs and
e-mail addresses made text first (profile 3); cap_numbers: a word without letters counts once (profile 3;
both False give profile 2's fingerprints); stop_words: "en", "zh" (built-in lists) or a list of words;
stop_words_file: one word per line; weighting: "tf" | "binary" | "log-tf" | "tf-idf" | "log-tf-idf" (default:
tf, or tf-idf with idf; another weighting with idf, or an idf weighting without one, is a ValueError); idf: a
term<TAB>idf file (`simdex idf` writes one; a file named auto is "./auto"), a dict, an IdfTable (learn_idf),
or "auto" (learned from each batch, within 1 GiB and $TMPDIR or /tmp, as the command line's defaults);
idf_default: idf of unlisted terms (dict: default 1.0; file: default its #default-idf line); idf_cap: with
idf="auto", learned idf values above it are it (--idf-cap: 0.693 = ln 2 discounts only what more than half of
the batch holds); max_share: no feature weighs more than this share of its text's weight (default 0.1 since
profile 4; 0 gives profile 3's weights); tf_cap: a feature counts at most this often in its tf (default 0: no
cap; docs/fingerprint.md, step 5, "Weight caps"); seed: XXH3 seed; compat: None | "python-simhash"; threads: default for batches (0: one per core).
Bad options raise ValueError with the library's message.)doc")
      .def("fingerprint", &PyFingerprinter::Fingerprint, py::arg("text"),
           "The fingerprint of one text (str or UTF-8 bytes) as an int, or None when it has no features.")
      .def("fingerprint_batch", &PyFingerprinter::Batch, py::arg("texts"), py::arg("threads") = py::none(),
           R"doc(Fingerprints of a sequence of texts: (fingerprints, reasons), np.uint64 and np.int8 arrays.
reasons[i] is 0 for a fingerprinted text, else the code of why it has none (simdex.parts.EMPTY_REASONS[code];
fingerprints[i] is then 0). Releases the GIL; runs on `threads` threads (default: the constructor's).
With idf="auto" the idf is learned from these texts first, on the same threads.)doc")
      .def("learn_idf", &PyFingerprinter::LearnIdf, py::arg("texts"), py::kw_only(),
           py::arg("memory") = size_t{1} << 30, py::arg("tmpdir") = py::none(), py::arg("threads") = py::none(),
           py::arg("idf_cap") = py::none(),
           R"doc(The idf of a sequence of texts under this fingerprinter's text options (tokenizer, normalization,
stop words, seed), as `simdex idf` learns it: document frequencies counted exactly within half of `memory`
bytes (spilling to `tmpdir`, default $TMPDIR or /tmp), the table in the other half; features found on
`threads` threads without the GIL; idf values above `idf_cap` (default: the fingerprinter's) are idf_cap, as
`simdex idf --idf-cap` writes them. Returns an IdfTable for Fingerprinter(idf=table).)doc")
      .def("details", &PyFingerprinter::Details, py::arg("text"),
           "A dict: fingerprint (or None), empty_reason, features, occurrences, invalid_utf8.")
      .def("from_features", &PyFingerprinter::FromFeatures, py::arg("features"),
           "The fingerprint of caller-weighted features ({'Apache': 20, 'hadoop': 25} or (feature, weight) pairs), "
           "hashed as given; None when no feature has a non-zero weight. A weight that is negative, not finite or above "
           "1e288 is a ValueError naming the feature.")
      .def("features", &PyFingerprinter::Features, py::arg("text"),
           "The (feature, weight) pairs fingerprint() combines for this text, in first-occurrence order.")
      .def("hash_feature", &PyFingerprinter::HashFeature, py::arg("feature"),
           "The 64-bit hash of one feature as this fingerprinter hashes it.")
      .def_property_readonly("threads", &PyFingerprinter::threads)
      .def_property_readonly("profile", &PyFingerprinter::profile,
                             "The profile of this fingerprinter's fingerprints (docs/fingerprint.md, \"Profiles\"), "
                             "which indexes built from them record: IndexBuilder(profile=...).");
  m.def("hamming_distance", [](uint64_t a, uint64_t b) { return HammingDistance(a, b); }, py::arg("a"), py::arg("b"),
        "popcount(a ^ b).");
}

}  // namespace simdex::python
