// simdex.MinHasher and the MinHash helpers: include/simdex/minhash.h for
// Python (docs/minhash.md), signatures as numpy uint32 arrays. Batches
// release the GIL and run on clones of the hasher, one per thread.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "python/src/arrays.h"
#include "python/src/errors.h"
#include "python/src/module.h"
#include "simdex/confirm.h"
#include "simdex/batch.h"
#include "simdex/minhash.h"
#include "simdex/minhash_join.h"

namespace py = pybind11;

namespace simdex::python {
namespace {

class PyMinHasher {
 public:
  PyMinHasher(int num_perm, uint64_t seed, int word_n, int char_n, const std::string& shingles, int threads)
      : threads_(ResolveThreads(threads, 1)) {
    Status s = MinHasher::Create(MinHashOptionsOf(num_perm, seed, word_n, char_n, shingles), &hasher_);
    if (!s.ok()) throw py::value_error(s.message());
  }

  py::array_t<uint32_t> Sign(py::handle text) {
    py::array_t<uint32_t> out(hasher_->num_perm());
    hasher_->Sign(Utf8(text, 0), out.mutable_data());
    return out;
  }

  // (signatures, has_shingles): n x num_perm uint32, n bool.
  py::tuple Batch(const py::sequence& texts, std::optional<int> threads) {
    auto [signatures, has] = SignTexts(*hasher_, texts, ResolveThreads(threads, threads_));
    return py::make_tuple(signatures, has);
  }

  int num_perm() const { return hasher_->num_perm(); }
  uint64_t seed() const { return hasher_->options().seed; }
  std::string shingles() const { return ShingleWordsName(hasher_->options().shingles.words); }
  std::string profile() const { return MinHashProfile(hasher_->options()); }

 private:
  std::unique_ptr<MinHasher> hasher_;
  int threads_;
};

void CheckThreshold(double threshold, int num_perm) {
  if (!(threshold > 0 && threshold <= 1) || num_perm < 1 || num_perm > kMaxNumPerm) {
    throw py::value_error("threshold must be in (0, 1] and num_perm 1..1024");
  }
}

// A 2-D numpy array: rows of values.
bool IsRows(py::handle obj) { return py::isinstance<py::array>(obj) && py::reinterpret_borrow<py::array>(obj).ndim() == 2; }

void CheckBits(int bits) {
  if (!ValidSignatureBits(bits)) throw py::value_error("bits must be 1, 2, 4, 8, 16 or 32, got " + std::to_string(bits));
}

// One signature (1-D) or an n x num_perm array of them, row after row.
struct SignatureRows {
  py::object holder;  // keeps the memory alive
  const uint32_t* data = nullptr;
  size_t rows = 0, num_perm = 0;
  bool matrix = false;  // 2-D in, 2-D out

  // The result of a function of each row: n x width values, or width for one signature.
  template <typename T>
  py::array_t<T> Out(size_t width) const {
    return matrix ? py::array_t<T>({rows, width}) : py::array_t<T>(static_cast<py::ssize_t>(width));
  }
};

SignatureRows ViewSignatures(py::handle obj, const char* what) {
  SignatureRows s;
  if (IsRows(obj)) {
    s.num_perm = static_cast<size_t>(py::reinterpret_borrow<py::array>(obj).shape(1));
    RowsView<uint32_t> v = ViewRows<uint32_t>(obj, s.num_perm, what);
    s.holder = v.holder;
    s.data = v.data;
    s.rows = v.rows;
    s.matrix = true;
  } else {
    ArrayView<uint32_t> v = ViewArray<uint32_t>(obj, what);
    s.holder = v.holder;
    s.data = v.span.data();
    s.rows = 1;
    s.num_perm = v.span.size();
  }
  return s;
}

}  // namespace

ShingleWords ShingleWordsOf(const std::string& name) {
  ShingleWords words;
  if (!ParseShingleWords(name, &words)) {
    throw py::value_error("shingles '" + name + "' is not word-chars or space-split");
  }
  return words;
}

MinHashOptions MinHashOptionsOf(int num_perm, uint64_t seed, int word_n, int char_n, const std::string& shingles) {
  MinHashOptions o;
  o.num_perm = num_perm;
  o.seed = seed;
  o.shingles.word_n = word_n;
  o.shingles.char_n = char_n;
  o.shingles.words = ShingleWordsOf(shingles);
  return o;
}

std::pair<py::array_t<uint32_t>, py::array_t<bool>> SignTexts(const MinHasher& hasher, const py::sequence& texts,
                                                              int threads,
                                                              std::vector<std::vector<uint64_t>>* shingles) {
  std::vector<py::object> keep;  // references, so the UTF-8 views stay valid
  std::vector<std::string_view> views;
  Utf8Views(texts, &keep, &views);
  const size_t n = views.size(), k = static_cast<size_t>(hasher.num_perm());
  py::array_t<uint32_t> signatures({n, k});
  py::array_t<bool> has(static_cast<py::ssize_t>(n));
  uint32_t* sig = signatures.mutable_data();
  bool* has_shingles = has.mutable_data();
  std::vector<std::unique_ptr<MinHasher>> clones;
  for (int i = 0; i < std::max(1, std::min<int>(threads, static_cast<int>(std::max<size_t>(n, 1)))); ++i) {
    clones.push_back(hasher.Clone());
  }
  if (shingles != nullptr) shingles->assign(n, {});
  WithoutGil([&] {
    ForRanges(n, static_cast<int>(clones.size()), [&](size_t begin, size_t end, size_t w) {
      for (size_t i = begin; i < end; ++i) {
        has_shingles[i] = (shingles != nullptr ? clones[w]->Sign(views[i], sig + i * k, &(*shingles)[i])
                                               : clones[w]->Sign(views[i], sig + i * k)) != ShingleKind::kNone;
      }
    });
  });
  return {signatures, has};
}

void DefineMinHash(py::module_& m) {
  py::class_<PyMinHasher>(m, "MinHasher", R"doc(
MinHash signatures of texts (docs/minhash.md): the Jaccard truth's shingles (word
5-shingles, character 5-shingles for unspaced scripts; NFKC + case folding; words by
`shingles`: "word-chars", the runs of Unicode \w characters, or "space-split", the
runs between spaces, punctuation kept; include/simdex/shingles.h), XXH3-64
each, then num_perm functions h_i(x) = ((a_i x + c_i) mod 2^64) >> 32 drawn from
SplitMix64(seed); signature[i] = the minimum of h_i. A text without shingles gets
0xffffffff everywhere (estimate 0 with everything). Signatures are numpy uint32
arrays, the same bit for bit as `simdex dedup --method minhash` makes.
)doc")
      .def(py::init<int, uint64_t, int, int, const std::string&, int>(), py::kw_only(),
           py::arg("num_perm") = MinHashOptions().num_perm, py::arg("seed") = MinHashOptions().seed,
           py::arg("word_n") = ShingleOptions().word_n, py::arg("char_n") = ShingleOptions().char_n,
           py::arg("shingles") = kDefaultShingles,
           py::arg("threads") = 1,
           "num_perm: 1..1024; seed: draws the functions; word_n, char_n: shingle widths (1..64); shingles: the "
           "word definition, \"word-chars\" or \"space-split\" (`simdex dedup --shingles`); threads: default for "
           "batches (0: one per core). Bad values raise ValueError.")
      .def("sign", &PyMinHasher::Sign, py::arg("text"), "The signature of one text (str or UTF-8 bytes).")
      .def("sign_batch", &PyMinHasher::Batch, py::arg("texts"), py::arg("threads") = py::none(),
           "(signatures, has_shingles): an n x num_perm uint32 array and an n bool array. Releases the GIL.")
      .def_property_readonly("num_perm", &PyMinHasher::num_perm)
      .def_property_readonly("seed", &PyMinHasher::seed)
      .def_property_readonly("shingles", &PyMinHasher::shingles, "The word definition: word-chars or space-split.")
      .def_property_readonly("profile", &PyMinHasher::profile,
                             "The signature profile (MinHashProfile): one line naming everything that decides a "
                             "signature, as MinHash-LSH index files record it.");
  m.def(
      "minhash_estimate",
      [](py::handle a, py::handle b) {
        const ArrayView<uint32_t> x = ViewArray<uint32_t>(a, "a"), y = ViewArray<uint32_t>(b, "b");
        if (x.span.size() != y.span.size() || x.span.empty()) throw py::value_error("a and b must have one non-zero length");
        return EstimateJaccard(x.span.data(), y.span.data(), static_cast<int>(x.span.size()));
      },
      py::arg("a"), py::arg("b"), "The share of equal values of two signatures: the estimate of J (0 if one is empty).");
  m.def(
      "band_keys",
      [](py::handle signatures, int bands, int rows) {
        const SignatureRows s = ViewSignatures(signatures, "signatures");
        ThrowIfError(CheckLshBands({bands, rows}, static_cast<int>(s.num_perm)));
        py::array_t<uint64_t> keys = s.Out<uint64_t>(static_cast<size_t>(bands));
        uint64_t* out = keys.mutable_data();
        {
          py::gil_scoped_release release;
          for (size_t i = 0; i < s.rows; ++i) BandKeys(s.data + i * s.num_perm, {bands, rows}, out + i * bands);
        }
        return keys;
      },
      py::arg("signatures"), py::arg("bands"), py::arg("rows"),
      "The 64-bit key of each band: XXH3-64 of its rows as little-endian 32-bit words, seed = the band. One "
      "signature gives `bands` keys (np.uint64); an n x num_perm array gives an n x bands array (row i: "
      "signature i's keys), without the GIL.");
  m.def(
      "pack_signature",
      [](py::handle signatures, int bits) {
        CheckBits(bits);
        const SignatureRows s = ViewSignatures(signatures, "signatures");
        const int k = static_cast<int>(s.num_perm);
        const size_t width = PackedSignatureBytes(k, bits);
        py::array_t<uint8_t> packed = s.Out<uint8_t>(width);
        uint8_t* out = packed.mutable_data();
        {
          py::gil_scoped_release release;
          for (size_t i = 0; i < s.rows; ++i) PackSignature(s.data + i * s.num_perm, k, bits, out + i * width);
        }
        return packed;
      },
      py::arg("signatures"), py::arg("bits"),
      "The b-bit signature: the low `bits` bits of each value, packed (np.uint8). An n x num_perm array gives "
      "an n x bytes array (row i: signature i packed), which estimate_packed takes as it is.");
  m.def(
      "estimate_packed",
      [](py::handle a, py::handle b, int num_perm, int bits) -> py::object {
        CheckBits(bits);
        if (num_perm < 1 || num_perm > kMaxNumPerm) throw py::value_error("num_perm must be 1..1024");
        const size_t width = PackedSignatureBytes(num_perm, bits);
        if (IsRows(a) || IsRows(b)) {  // n x width each: n estimates
          const RowsView<uint8_t> x = ViewRows<uint8_t>(a, width, "a"), y = ViewRows<uint8_t>(b, width, "b");
          if (x.rows != y.rows) throw py::value_error("a and b differ in rows");
          auto [out] = Columns<double>(x.rows, [&](size_t i) {
            return std::tuple{EstimateJaccardPacked(x.data + i * width, y.data + i * width, num_perm, bits)};
          });
          return py::object(out);
        }
        const ArrayView<uint8_t> x = ViewArray<uint8_t>(a, "a"), y = ViewArray<uint8_t>(b, "b");
        if (x.span.size() != width || y.span.size() != x.span.size()) {
          throw py::value_error("a and b must both hold num_perm values of `bits` bits");
        }
        return py::float_(EstimateJaccardPacked(x.span.data(), y.span.data(), num_perm, bits));
      },
      py::arg("a"), py::arg("b"), py::arg("num_perm"), py::arg("bits"),
      "The b-bit estimate of J, corrected for chance agreements (Li and König), in [0, 1]: a float for two "
      "packed signatures, or an array of n for two n x bytes arrays (row i with row i; releases the GIL).");
  m.def(
      "band_pairs",
      [](py::handle keys, py::handle banded, int threads) {
        // Items x bands, item after item; a 1-D array is one band.
        const bool one = py::isinstance<py::array>(keys) && py::reinterpret_borrow<py::array>(keys).ndim() == 1;
        const size_t bands = one || !py::isinstance<py::array>(keys)
                                 ? 1
                                 : static_cast<size_t>(py::reinterpret_borrow<py::array>(keys).shape(1));
        if (bands < 1) throw py::value_error("keys must have at least one band");
        const RowsView<uint64_t> rows = one ? RowsView<uint64_t>() : ViewRows<uint64_t>(keys, bands, "keys");
        const ArrayView<uint64_t> flat = one ? ViewArray<uint64_t>(keys, "keys") : ArrayView<uint64_t>();
        const size_t n = one ? flat.span.size() : rows.rows;
        const uint64_t* data = one ? flat.span.data() : rows.data;
        const FlagsView flags = ViewFlags(banded, "banded");
        if (!flags.span.empty() && flags.span.size() != n) {
          throw py::value_error("banded holds " + std::to_string(flags.span.size()) + " flags for " +
                                std::to_string(n) + " items");
        }
        const int t = ResolveThreads(threads, 1);
        std::vector<uint64_t> pairs;
        {
          py::gil_scoped_release release;
          std::vector<uint64_t> major(n * bands);  // FindBandPairs' layout: band after band
          for (size_t i = 0; i < n; ++i) {
            for (size_t j = 0; j < bands; ++j) major[j * n + i] = data[i * bands + j];
          }
          std::vector<uint8_t> all;
          if (flags.span.empty()) all.assign(n, 1);
          BandJoinStats stats;
          ThrowIfError(FindBandPairs(major, static_cast<int>(bands), flags.span.empty() ? all : flags.span, t,
                                     &pairs, &stats));
        }
        // np.uint64, the ordinals' dtype throughout (pair_clusters takes these as they are).
        auto [a, b] = Columns<uint64_t, uint64_t>(pairs.size(), [&](size_t i) {
          return std::tuple{pairs[i] >> 32, pairs[i] & 0xffffffffu};
        });
        return py::make_tuple(a, b);
      },
      py::arg("keys"), py::arg("banded") = py::none(), py::kw_only(), py::arg("threads") = 1,
      "The band self-join (FindBandPairs, include/simdex/minhash_join.h): (a, b) np.uint64 arrays of every pair of "
      "items a < b that agree on the key of at least one band, ordered by (a, b), each once. keys: an n x bands "
      "uint64 array (item i's band keys in row i; a 1-D array is one band); banded: optional flags, zero leaving "
      "an item out of every band. Holds the keys, 16 bytes per item and 8 per pair and band in memory (and 16 "
      "per pair returned); releases "
      "the GIL.");
  m.def(
      "pair_clusters",
      [](uint64_t documents, py::handle a, py::handle b, py::handle scores) {
        const ArrayView<uint64_t> x = ViewArray<uint64_t>(a, "a"), y = ViewArray<uint64_t>(b, "b");
        if (x.span.size() != y.span.size()) throw py::value_error("a and b differ in length");
        std::vector<double> s;
        if (!scores.is_none()) {
          const ArrayView<double> v = ViewArray<double>(scores, "scores");
          if (v.span.size() != documents) throw py::value_error("scores must hold one value per document");
          s.assign(v.span.begin(), v.span.end());
        }
        for (size_t i = 0; i < x.span.size(); ++i) {
          if (x.span[i] >= documents || y.span[i] >= documents) {
            throw py::value_error("pair " + std::to_string(i) + " (" + std::to_string(x.span[i]) + ", " +
                                  std::to_string(y.span[i]) + ") is outside the " + std::to_string(documents) +
                                  " documents");
          }
        }
        PairClusters clusters(documents, std::move(s));
        WithoutGil([&] {
          for (size_t i = 0; i < x.span.size(); ++i) clusters.Add(x.span[i], y.span[i]);
          clusters.Finish();
        });
        auto [out] = Columns<uint64_t>(documents, [&](uint64_t d) { return std::tuple{clusters.Representative(d)}; });
        return out;
      },
      py::arg("documents"), py::arg("a"), py::arg("b"), py::arg("scores") = py::none(),
      "Each document's representative (uint64, by ordinal) in the connected components of the pairs (a[i], "
      "b[i]) (PairClusters, include/simdex/confirm.h): the component's document with the largest score, the "
      "smallest ordinal among equals (no scores: the smallest ordinal); a document in no pair represents itself. "
      "Releases the GIL.");
  // The rules of a Jaccard threshold and a number of values: each checks
  // them, then answers value(threshold, num_perm).
  const auto def_rule = [&m](const char* name, auto value, const char* doc) {
    m.def(name, [value](double threshold, int num_perm) {
            CheckThreshold(threshold, num_perm);
            return value(threshold, num_perm);
          }, py::arg("threshold"), py::arg("num_perm"), doc);
  };
  // (bands, rows) as a tuple.
  const auto bands_by = [](LshBands (*choose)(double, int)) {
    return [choose](double threshold, int num_perm) {
      const LshBands b = choose(threshold, num_perm);
      return py::make_tuple(b.bands, b.rows);
    };
  };
  def_rule("default_lsh_bands", bands_by(&DefaultLshBands),
           "(bands, rows) that `simdex dedup --method minhash --approximate` chooses for a threshold "
           "(DefaultLshBands: false negatives weighed 19 times false positives; 16 x 8 at 0.8 and 128 values).");
  def_rule("exact_candidate_bands", bands_by(&ExactCandidateBands),
           "(bands, rows) of the candidates of `simdex dedup --method minhash`, whose pairs are then checked exactly "
           "(ExactCandidateBands: DefaultLshBands of threshold - 0.1; 21 x 6 at 0.8 and 128 values).");
  def_rule("exact_estimate_filter", &ExactEstimateFilter,
           "The estimate filter before the exact check of `simdex dedup --method minhash`: three standard errors "
           "below the threshold (ExactEstimateFilter; 0.694 at 0.8 and 128 values).");
  def_rule("default_estimate_filter", &DefaultEstimateFilter,
           "The estimate filter of `simdex dedup --method minhash --approximate`: two standard errors below the "
           "threshold (DefaultEstimateFilter; 0.729 at 0.8 and 128 values).");
  def_rule("optimal_lsh_bands",
           bands_by([](double threshold, int num_perm) { return OptimalLshBands(threshold, num_perm); }),
           "(bands, rows) minimising equally weighted false positives and negatives at a Jaccard threshold "
           "(OptimalLshBands; simdex dedup --method minhash weighs false negatives more: docs/minhash.md).");
}

}  // namespace simdex::python
