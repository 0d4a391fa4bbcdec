// The pieces of the simdex._simdex extension module, one file each.
#ifndef SIMDEX_PYTHON_MODULE_H_
#define SIMDEX_PYTHON_MODULE_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "python/src/errors.h"
#include "simdex/batch.h"
#include "simdex/dedup.h"
#include "simdex/document_reader.h"
#include "simdex/fingerprint.h"
#include "simdex/idf_learner.h"
#include "simdex/minhash.h"
#include "simdex/status.h"

namespace simdex::python {

void DefineFingerprinter(pybind11::module_& m);  // fingerprinter.cc
void DefineDocuments(pybind11::module_& m);      // documents.cc
void DefineIndex(pybind11::module_& m);          // index.cc
void DefineDedup(pybind11::module_& m);          // dedup.cc
void DefineParts(pybind11::module_& m);          // parts.cc
void DefineMerge(pybind11::module_& m);          // merge.cc
void DefineMinHash(pybind11::module_& m);        // minhash.cc
void DefineMinHashParts(pybind11::module_& m);   // minhash_parts.cc
void DefinePlan(pybind11::module_& m);           // plan.cc
void DefineLshIndex(pybind11::module_& m);       // lsh_index.cc
void DefineConfirm(pybind11::module_& m);        // confirm.cc
void DefineBatch(pybind11::module_& m);          // batch.cc

// The UTF-8 bytes of texts[i], a str (its cached UTF-8 form, no copy) or a
// bytes object; TypeError naming texts[i] otherwise.
std::string_view Utf8(pybind11::handle text, size_t i);
// The UTF-8 views of a sequence of texts; *keep holds the references that
// keep them valid.
void Utf8Views(const pybind11::sequence& texts, std::vector<pybind11::object>* keep,
               std::vector<std::string_view>* views);

// Runs fn(begin, end, worker) over [0, n) cut into `threads` consecutive
// ranges, worker 0 on the calling thread (call it with the GIL released).
template <typename Fn>
void ForRanges(size_t n, int threads, Fn&& fn) {
  const size_t t = std::max<size_t>(1, std::min<size_t>(n, static_cast<size_t>(std::max(threads, 1))));
  std::vector<std::thread> workers;
  for (size_t w = 1; w < t; ++w) workers.emplace_back([&fn, n, t, w] { fn(n * w / t, n * (w + 1) / t, w); });
  fn(0, n / t, 0);
  for (std::thread& w : workers) w.join();
}

// The object behind simdex.IndexBuilder and simdex.LshIndexBuilder: a
// Builder (IndexBuilder, LshIndexBuilder) until finish() or abandon().
template <typename Builder>
class BuilderHandle {
 public:
  // The builder; ValueError naming `name` once it is finished or abandoned.
  Builder& builder() const {
    if (!builder_) throw pybind11::value_error(std::string("the ") + name_ + " is finished or abandoned");
    return *builder_;
  }
  // Finishes the builder without the GIL and releases it, finished or
  // failed; returns its statistics.
  auto Finish() {
    builder();
    WithoutGil([&] {
      const Status s = builder_->Finish();
      if (!s.ok()) builder_.reset();
      return s;
    });
    auto stats = builder_->stats();
    builder_.reset();
    return stats;
  }
  void Abandon() {
    if (builder_) builder_->Abandon();
    builder_.reset();
  }
  bool live() const { return builder_ != nullptr; }

 protected:
  explicit BuilderHandle(const char* name) : name_(name) {}
  std::unique_ptr<Builder> builder_;

 private:
  const char* name_;
};

// Defines cls.finish() (returning stats_dict(the builder's statistics)),
// abandon() (documented by abandon_doc) and the context manager, which
// finishes on success and abandons on an exception.
template <class Class, class StatsDict>
void DefineBuilderMethods(Class& cls, StatsDict stats_dict, const char* abandon_doc) {
  using Handle = typename Class::type;
  cls.def("finish", [stats_dict](Handle& b) { return stats_dict(b.Finish()); },
          "Writes the index; returns build statistics as a dict.")
      .def("abandon", [](Handle& b) { b.Abandon(); }, abandon_doc)
      .def("__enter__", [](pybind11::object self) { return self; })
      .def("__exit__", [](Handle& b, pybind11::handle type, pybind11::handle, pybind11::handle) {
        if (type.is_none()) {
          if (b.live()) b.Finish();
        } else {
          b.Abandon();
        }
      });
}

// The word definition a `shingles` argument names ("word-chars",
// "space-split"; include/simdex/shingles.h); ValueError otherwise
// (minhash.cc). kDefaultShingles is the library's default's name.
ShingleWords ShingleWordsOf(const std::string& name);
// The MinHashOptions of the Python arguments that make signatures
// (MinHasher, LshIndexBuilder, minhash_file): num_perm values of `seed`
// over word_n-word (char_n-character) shingles of the `shingles` words;
// ValueError for an unknown word definition (minhash.cc).
MinHashOptions MinHashOptionsOf(int num_perm, uint64_t seed, int word_n, int char_n, const std::string& shingles);
inline const char* const kDefaultShingles = ShingleWordsName(ShingleOptions{}.words);

// The signatures of texts (str or UTF-8 bytes) on up to `threads` threads
// (clones of hasher), the GIL released: (n x num_perm uint32 array, n bool
// array of which texts have shingles); shingles (when not null): each
// text's shingle set, for its sketch.
std::pair<pybind11::array_t<uint32_t>, pybind11::array_t<bool>> SignTexts(
    const MinHasher& hasher, const pybind11::sequence& texts, int threads,
    std::vector<std::vector<uint64_t>>* shingles = nullptr);

// The files of paths as simdex.dedup, fingerprint_file and _minhash_file
// read them: format "jsonl", "lines" or None (each by its name), id_mode
// "field" or "ordinal"; ValueError for another (documents.cc).
DocumentFiles FilesOf(std::vector<std::string> paths, const std::optional<std::string>& format,
                      const std::string& id_field, const std::vector<std::string>& text_fields,
                      const std::string& id_mode, bool skip_bad);
// The KeepRule a keep argument names ("first", "longest", "max:FIELD"), the
// field in *field; ValueError for another.
KeepRule KeepNamed(const std::string& keep, std::string* field);
// The DocumentReader options of path read as FilesOf reads it, with keep's
// score field.
DocumentReaderOptions FileReaderOptions(const std::string& path, const std::optional<std::string>& format,
                                        const std::string& id_field, const std::vector<std::string>& text_fields,
                                        const std::string& id_mode, const std::string& keep_spec, bool skip_bad);

// The DedupResult of each ordinal (Deduplicator's, SimHashDedupResult's) as
// the columns of simdex.DedupResult: representative (np.uint32 when narrow
// and n < 2^32, else np.uint64), distance (-1: empty), duplicate, empty, and
// against_index, against_id, against_distance (-1, 0, -1: no match; None
// unless with_against) (dedup.cc).
pybind11::dict DedupColumns(uint64_t n, const std::function<DedupResult(uint64_t)>& record, bool narrow,
                            bool with_against);

// The E `name` names among choices; else ValueError "<what> '<name>' is not
// a, b or c" ("is not one of a, b, c" when one_of).
template <typename E>
E Named(const std::string& name, const char* what, std::initializer_list<std::pair<const char*, E>> choices,
        bool one_of = false) {
  std::string names;
  size_t i = 0;
  for (const auto& [n, e] : choices) {
    if (name == n) return e;
    if (i++ > 0) names += !one_of && i == choices.size() ? " or " : ", ";
    names += n;
  }
  throw pybind11::value_error(std::string(what) + " '" + name + "' is not " + (one_of ? "one of " : "") + names);
}

// The AgainstStrategy named "auto", "probe" or "merge-join"; ValueError
// for another name.
inline AgainstStrategy StrategyNamed(const std::string& name) {
  return Named<AgainstStrategy>(name, "strategy", {{"auto", AgainstStrategy::kAuto}, {"probe", AgainstStrategy::kProbe},
                                                   {"merge-join", AgainstStrategy::kMergeJoin}});
}

// threads as given (0: one per core), or `fallback` when None; ValueError below 0.
int ResolveThreads(std::optional<int> threads, int fallback);
// The Fingerprinter inside a simdex.Fingerprinter object. REQUIRES: not
// LearnsIdf(fingerprinter).
const Fingerprinter& PrototypeOf(pybind11::handle fingerprinter);
// Whether a simdex.Fingerprinter learns its idf from each batch it is given
// (idf="auto"), and then the options it learns under and fingerprints with.
bool LearnsIdf(pybind11::handle fingerprinter);
const FingerprintOptions& OptionsOf(pybind11::handle fingerprinter);

// What idf="auto" learns with: the command line's --memory and --tmpdir
// defaults (1 GiB; $TMPDIR, else /tmp), and the cap on idf values
// (idf_cap; infinity: none).
IdfLearnerOptions AutoIdfOptions(int threads, double max_idf);
// The idf_cap of a simdex.Fingerprinter that LearnsIdf (infinity: none).
double IdfCapOf(pybind11::handle fingerprinter);
// A Fingerprinter of `options` (tf-idf, or log-tf-idf when they say so)
// with the idf of `table`.
Status WithIdf(FingerprintOptions options, std::shared_ptr<const IdfTable> table,
               std::unique_ptr<Fingerprinter>* out);

}  // namespace simdex::python

#endif  // SIMDEX_PYTHON_MODULE_H_
