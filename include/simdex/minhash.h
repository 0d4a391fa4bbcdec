// MinHash signatures of shingle sets, their b-bit stored form and their LSH
// band keys (docs/minhash.md). Start here for MinHash-LSH: the signature of
// a text estimates the Jaccard similarity of its shingle set (the same set
// as the Jaccard truth of `simdex eval`, include/simdex/shingles.h) with
// another's; documents that agree on all rows of a band are candidates.
//
// The signature, exactly (stable across machines and versions; pinned by
// tests/golden/minhash_golden_test.cc):
//   1. The text's shingle set: ShingleMaker's sorted distinct XXH3-64
//      hashes x (include/simdex/shingles.h).
//   2. num_perm hash functions from the seed: SplitMix64 started at `seed`
//      gives, for i = 0, 1, ..., first a_i (made odd: | 1), then c_i.
//      h_i(x) = bits 32..63 of (a_i * x + c_i) mod 2^64 (multiply-add-shift
//      on 64-bit words, 32-bit results).
//   3. signature[i] = min over the set of h_i(x), a 32-bit value.
//   A text without shingles (empty or only white space: ShingleKind::kNone)
//   has the signature of nothing, every value kEmptyMinimum; it estimates
//   J = 0 with everything (EstimateJaccard checks) and must never be banded:
//   callers keep it out of band tables. A one-shingle text (fewer words
//   than word_n) has the signature of its one shingle: two such texts agree
//   everywhere when their texts normalise to the same shingle, and a band of
//   r rows otherwise with probability 2^-32r, as any unrelated pair.
//
// Band keys: band j (0-based) of r rows is the values signature[j*r ..
// j*r+r-1], written as r little-endian 32-bit words; its key is XXH3-64 of
// those 4r bytes with seed j. Two documents share band j's key iff their
// rows are equal, up to a 2^-64 chance of a key collision.
//
// b-bit signatures: the low `bits` bits of each value, packed value after
// value from bit 0 of byte 0 (little-endian; value i occupies bits
// [i*bits, (i+1)*bits) of the byte string). Two unrelated values agree on b
// bits with probability 2^-b; the estimator corrects for it (Li and König,
// "b-Bit Minwise Hashing", WWW 2010, in the limit of sets small against
// the 2^32 values of h): J = (P - 2^-b) / (1 - 2^-b), P the share of equal
// b-bit values, clamped to [0, 1].
//
// Thread safety: a MinHasher holds scratch buffers: one per thread (Clone).
// The free functions are thread-safe.
#ifndef SIMDEX_MINHASH_H_
#define SIMDEX_MINHASH_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <span>
#include <string_view>
#include <vector>

#include "simdex/shingles.h"
#include "simdex/status.h"

namespace simdex {

// The MinHash defaults, chosen on the quality corpora (docs/minhash.md,
// "Defaults"), written here once: the options types start from them
// (MinHashOptions, LshBuildOptions, MinHashDedupOptions, ServiceOptions),
// and the command line, Python, Dask and the C API read those types'
// defaults. tests/cli/defaults_cli_test.cc and python/tests/test_defaults.py
// compare every surface with them.
inline constexpr int kDefaultNumPerm = 128;                // values per signature
inline constexpr uint64_t kDefaultMinHashSeed = 1;         // of the hash functions
inline constexpr double kDefaultMinHashThreshold = 0.8;    // the Jaccard similarity of a near-duplicate
inline constexpr int kDefaultSignatureBits = 4;            // bits of each value a b-bit signature keeps

// The value of every position of the signature of a text without shingles.
inline constexpr uint32_t kEmptyMinimum = 0xFFFFFFFFu;
// Bounds of num_perm.
inline constexpr int kMaxNumPerm = 1024;

struct MinHashOptions {
  // Values per signature (REQUIRES: 1..kMaxNumPerm); the default is chosen
  // from the quality corpora (docs/minhash.md, "Defaults").
  int num_perm = kDefaultNumPerm;
  // Draws the hash functions; signatures of different seeds are unrelated.
  uint64_t seed = kDefaultMinHashSeed;
  // The shingles (default: word 5-shingles, character 5-shingles for
  // unspaced text: the truth's, words by ShingleOptions' default).
  ShingleOptions shingles;
};

class MinHasher {
 public:
  // InvalidArgument for num_perm or shingle options out of range.
  static Status Create(const MinHashOptions& options, std::unique_ptr<MinHasher>* out);
  ~MinHasher();
  // A MinHasher with the same options, for another thread.
  std::unique_ptr<MinHasher> Clone() const;

  const MinHashOptions& options() const;
  int num_perm() const { return options().num_perm; }

  // Writes the signature of utf8_text to signature[0, num_perm) and returns
  // the kind of its shingles; kNone: the empty signature (kEmptyMinimum
  // everywhere).
  ShingleKind Sign(std::string_view utf8_text, uint32_t* signature);
  // As Sign(), and *shingles = the text's shingle set (ShingleMaker's
  // sorted distinct hashes), for its bottom-k sketch (BottomKSketch).
  ShingleKind Sign(std::string_view utf8_text, uint32_t* signature, std::vector<uint64_t>* shingles);
  // The signature of a shingle set (any order, duplicates allowed); an empty
  // set gives the empty signature.
  void SignShingles(std::span<const uint64_t> shingles, uint32_t* signature) const;

 private:
  struct Rep;
  explicit MinHasher(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

// The signature profile: a one-line descriptor of everything that decides
// a signature, recorded in MinHash-LSH index files and compared before
// signatures made elsewhere are searched in one, e.g. "simdex-minhash/1
// words:5 chars:5 unspaced:0.5 nfkc-casefold word-chars perm:128 seed:1"
// (the shingles of include/simdex/shingles.h; its version changes whenever
// a signature of the same options would). The word definition is written
// after the normalisation when it is word-chars and left out for
// space-split, so that profiles recorded before word-chars existed read as
// space-split.
std::string MinHashProfile(const MinHashOptions& options);
// The options a MinHashProfile() describes; InvalidArgument naming the
// profile for any other text (another version included).
Status ParseMinHashProfile(std::string_view profile, MinHashOptions* options);

// True iff every value is kEmptyMinimum: the signature of no shingles.
bool IsEmptySignature(const uint32_t* signature, int num_perm);

// The share of positions where x and y agree: the unbiased estimate of J.
// 0 when either is the empty signature.
double EstimateJaccard(const uint32_t* x, const uint32_t* y, int num_perm);

// b-bit signatures. bits is one of 1, 2, 4, 8, 16, 32.
bool ValidSignatureBits(int bits);
// Bytes of a packed signature: ceil(num_perm * bits / 8).
size_t PackedSignatureBytes(int num_perm, int bits);
// Packs the low `bits` bits of each value into out[0, PackedSignatureBytes).
void PackSignature(const uint32_t* signature, int num_perm, int bits, uint8_t* out);
// The b-bit estimate of J (corrected, clamped to [0, 1]).
double EstimateJaccardPacked(const uint8_t* x, const uint8_t* y, int num_perm, int bits);

// Bottom-k sketches (docs/minhash.md, "Against a stored index"): the k
// smallest distinct values of the low 32 bits of a text's shingle hashes,
// ascending, all of them when it has at most k ("whole"). Where the
// signature's b-bit estimate of J has a standard error of sqrt(J (1 - J) /
// num_perm) and counts chance agreements of b bits, the sketch estimate of
// two sketches is exact for two whole ones and otherwise the share, among
// the k smallest values of their union, of those in both (the k samples
// of the union have the error sqrt(J (1 - J) / k) and no collisions but
// those of 32-bit hashes).
struct BottomKSketch {
  std::vector<uint32_t> hashes;  // ascending, distinct, at most k
  bool whole = true;             // false: the text has more than k
};
// REQUIRES: k >= 1. shingles: any order, duplicates allowed.
void MakeBottomKSketch(std::span<const uint64_t> shingles, int k, BottomKSketch* out);
// The estimate of J from two sketches of the same k: |x n y| / |x u y| when
// both are whole, else |{h in U : h in x and h in y}| / |U|, U the k
// smallest of x u y; 0 when either is empty (a text without shingles).
double EstimateJaccardSketches(std::span<const uint32_t> x, bool x_whole, std::span<const uint32_t> y, bool y_whole,
                               int k);

// Bands and rows for a threshold: the (b, r) with b * r <= num_perm that
// minimise fp_weight * (integral over s in [0, t] of P(candidate | s)) +
// fn_weight * (integral over [t, 1] of 1 - P(candidate | s)), with
// P(candidate | s) = 1 - (1 - s^r)^b (the usual optimisation, as the
// datasketch package chooses its defaults). Ties go to the smaller b.
struct LshBands {
  int bands = 0;
  int rows = 0;
};
LshBands OptimalLshBands(double threshold, int num_perm, double fp_weight = 0.5, double fn_weight = 0.5);

// The bands `simdex dedup --method minhash` uses for a threshold: false
// negatives weighed 19 times false positives (OptimalLshBands(threshold,
// num_perm, 0.05, 0.95); 16 bands x 8 rows for 0.8 and 128 values), since
// the estimate filter and the confirmation remove false positives and
// nothing recovers a pair the bands miss (docs/minhash.md, "Defaults").
LshBands DefaultLshBands(double threshold, int num_perm);

// The estimate filter's default for a threshold: two standard errors of the
// estimate below it, threshold - 2 * sqrt(threshold * (1 - threshold) /
// num_perm), so that a pair at the threshold is kept about 98 times in 100
// (0.729 for 0.8 and 128 values); at least 0.
double DefaultEstimateFilter(double threshold, int num_perm);

// InvalidArgument unless bands, rows >= 1 and bands * rows <= num_perm.
Status CheckLshBands(LshBands bands, int num_perm);

// keys[j] = the key of band j (above), for j < bands.bands.
// REQUIRES: CheckLshBands(bands, num_perm of the signature) is OK.
void BandKeys(const uint32_t* signature, LshBands bands, uint64_t* keys);

}  // namespace simdex

#endif  // SIMDEX_MINHASH_H_
