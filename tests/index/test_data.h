// Test helper for the index tests and the index fuzz target: data-set
// generators with fixed seeds, the brute-force oracle the searches are checked
// against, and small file-system helpers (temporary directories, whole-file
// reads and writes, building an index from a list of entries).
//
// Every generator is deterministic: the same arguments give the same entries
// on every platform (std::mt19937_64 is fully specified; no standard
// distribution or std::shuffle is used, since their output is not).
//
// Nothing here depends on GoogleTest, so the fuzz targets can use it too.
#ifndef SIMDEX_TESTS_INDEX_TEST_DATA_H_
#define SIMDEX_TESTS_INDEX_TEST_DATA_H_

#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "simdex/index.h"
#include "simdex/status.h"

namespace simdex::testing {

struct Entry {
  uint64_t id;
  uint64_t fingerprint;
};

// How a data set numbers its entries.
enum class IdStyle {
  kSequential,  // 0, 1, 2, ... (in generation order)
  kNearMax,     // distinct, all within 2^16 of 2^64 - 1 (a large id base)
  kFullRange,   // distinct random 64-bit values, 0 and 2^64 - 1 included
  kAllEqual,    // every entry has the same large id
};

struct DataSet {
  std::string name;  // letters, digits and '_' only (usable in test names)
  std::vector<Entry> entries;
};

// ---- Fingerprint generators (ids are assigned afterwards by AssignIds).

// n independent uniform random fingerprints.
std::vector<uint64_t> UniformFingerprints(size_t n, uint64_t seed);

// `clusters` random centres, each followed by `members` fingerprints at
// distance 0, 1, 2, 3, 4, 0, 1, ... from it (exact bit counts; distance 0
// members repeat the centre).
std::vector<uint64_t> ClusterFingerprints(size_t clusters, size_t members, uint64_t seed);

// Each fingerprint of `values` (random) repeated run_lengths[i] times, mixed
// with `others` uniform random fingerprints.
std::vector<uint64_t> RepeatedFingerprints(std::span<const size_t> run_lengths, size_t others,
                                           uint64_t seed);

// n fingerprints whose leading `constant_bits` bits are one fixed random
// value and whose other bits are random.
std::vector<uint64_t> ConstantPrefixFingerprints(size_t n, int constant_bits, uint64_t seed);

// n fingerprints of which only the low `varying_bits` bits are random; the
// high bits are one fixed random value.
std::vector<uint64_t> LowBitsFingerprints(size_t n, int varying_bits, uint64_t seed);

// Pairs fingerprints with ids in the given style (in order; the result is
// in generation order, not shuffled).
std::vector<Entry> AssignIds(std::span<const uint64_t> fingerprints, IdStyle style, uint64_t seed);

// The data sets the search harness runs over, a few hundred to a few
// thousand entries each; `divisor` divides the sizes of the random parts
// (not the runs of equal fingerprints, which must stay longer than a block).
// Covers: 0, 1 and 2 entries; uniform; planted clusters; long runs of equal
// fingerprints; constant 20- and 40-bit prefixes; only low bits varying; and
// every IdStyle. The names and order do not depend on divisor.
std::vector<DataSet> StandardDataSets(size_t divisor = 1);

// ---- Queries and the oracle.

// `x` with exactly `count` distinct random bits flipped. REQUIRES 0 <= count <= 64.
uint64_t FlipRandomBits(uint64_t x, int count, std::mt19937_64& rng);

// A Fisher-Yates shuffle driven by rng (same result on every platform).
void Shuffle(std::vector<Entry>* entries, std::mt19937_64& rng);

// Every entry within Hamming distance k (inclusive) of `query`, one Match
// per entry (an (id, fingerprint) pair present twice is reported twice),
// ordered by distance, then id, then fingerprint: the order of
// IndexReader::Search.
std::vector<Match> BruteForceSearch(std::span<const Entry> entries, uint64_t query, int k);

// ---- Files.

// A fresh empty directory under the system temporary directory, removed
// with its contents on destruction.
class ScopedTempDir {
 public:
  ScopedTempDir();
  ~ScopedTempDir();
  ScopedTempDir(const ScopedTempDir&) = delete;
  ScopedTempDir& operator=(const ScopedTempDir&) = delete;

  const std::string& path() const { return path_; }
  // path() + "/" + name.
  std::string File(const std::string& name) const;
  // The names of the directory's entries, sorted.
  std::vector<std::string> List() const;

 private:
  std::string path_;
};

std::string ReadFileOrDie(const std::string& path);
void WriteFileOrDie(const std::string& path, const std::string& bytes);

// Builds an index of `entries` at `path`, adding them in the given order
// (half one at a time, the rest through the span overload). Returns the
// first error; *stats (if not null) receives the builder's statistics.
Status BuildIndex(const std::string& path, const BuildOptions& options,
                  std::span<const Entry> entries, BuildStats* stats = nullptr);

// Scheme::Parse for specs known to be valid (aborts otherwise).
Scheme SchemeOrDie(const std::string& spec);

}  // namespace simdex::testing

#endif  // SIMDEX_TESTS_INDEX_TEST_DATA_H_
