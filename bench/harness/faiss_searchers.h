// Faiss's binary hash indexes (Debian's libfaiss-dev 1.7.3), configured to
// return every fingerprint within k exactly, behind the Searcher interface.
//
//   FaissHashSearcher ("faiss-hash"): faiss::IndexBinaryHash. One hash map
//     keyed on the low `bits` bits of the code; each bucket keeps its codes
//     and ids. A search probes every key within `nflip` bit flips of the
//     query's key (sum of C(bits, i) for i <= nflip lookups) and checks the
//     codes of each bucket found.
//   FaissMultiHashSearcher ("faiss-multihash"): faiss::IndexBinaryMultiHash.
//     The codes in one flat array (an IndexBinaryFlat) and `nhash` hash maps;
//     map h is keyed on code bits [h*bits, (h+1)*bits) and holds id lists. A
//     search gathers the ids of every key within `nflip` flips in each map
//     into one set, then checks each id's code once.
//
// Exactness (checked against the scan by tests/bench/baselines_test.cc):
// - Faiss's range_search keeps distances strictly below its radius, so
//   Search(q, k) asks for radius k + 1.
// - A fingerprint within k of q differs from it in at most min(k, bits) key
//   bits, so IndexBinaryHash is exact for every k <= max_k with
//   nflip = min(max_k, bits).
// - The k differing bits fall into nhash disjoint keys, so one key differs
//   in at most floor(k / nhash) bits (pigeonhole; bits outside every key
//   only help). IndexBinaryMultiHash is exact with
//   nflip = min(floor(max_k / nhash), bits): 4 maps of 16 bits at k = 3 need
//   nflip 0, like simdex t4.
// nflip is a member of the faiss index, fixed when the searcher is made:
// faiss 1.7.3 rejects per-search parameters for these indexes and changing
// the member while other threads search is a data race. A search with
// k < max_k is exact but probes as many keys as one with max_k; make one
// searcher per k for the tightest figures.
//
// Byte order: a fingerprint is handed to faiss as 8 code bytes in
// little-endian order (byte i holds bits 8i..8i+7), so faiss's code bit j
// (bit j % 8 of byte j / 8, the order in which it cuts hash keys) is
// fingerprint bit j. Faiss's key h of `bits` bits is then fingerprint bits
// [h*bits, (h+1)*bits): with 4 x 16 bits these are simdex t4's four blocks
// (block 3 - h). Hamming distance does not depend on the order.
//
// Bytes(): what faiss allocates while the codes are added, measured as the
// growth of glibc's in-use heap (mallinfo2: uordblks, the arena chunks in
// use, plus hblkhd, the chunks served by mmap) from before the index is made
// to after the last add. It counts the code copies, the hash maps' nodes and
// buckets, the id vectors and their spare capacity: everything the structure
// keeps, with malloc's per-chunk overhead. Only exact while no other thread
// allocates during Build(); 0 under AddressSanitizer, whose allocator glibc
// does not see.
//
// Threads: faiss parallelizes range_search with OpenMP only for more than
// 100 queries (`omp parallel if (n > 100)`); Search() passes one query, so
// it runs on the calling thread alone and its latency is a single-thread
// figure, without changing the process-wide OpenMP thread count. Add is
// serial in faiss.
//
// Thread safety: concurrent Search() calls only read the index, except that
// faiss adds to its global statistics (faiss::indexBinaryHash_stats)
// without synchronization: those counters may lose updates (nothing here
// reads them), and ThreadSanitizer reports the race.
#ifndef SIMDEX_BENCH_HARNESS_FAISS_SEARCHERS_H_
#define SIMDEX_BENCH_HARNESS_FAISS_SEARCHERS_H_

#include <memory>
#include <span>

#include "bench/harness/searcher.h"

namespace faiss {
struct IndexBinary;
}

namespace simdex::bench {

// The part both faiss searchers share: building (in slices, with the heap
// measured), searching through range_search and converting the results.
class FaissSearcher : public Searcher {
 public:
  ~FaissSearcher() override;
  FaissSearcher(const FaissSearcher&) = delete;
  FaissSearcher& operator=(const FaissSearcher&) = delete;

  // Adds fps[i] with id i. Keeps a view of fps (to report fingerprints).
  // Errors thrown by faiss (including running out of memory) are returned
  // as a Status.
  Status Build(std::span<const uint64_t> fps) override;
  size_t Bytes() const override { return bytes_; }
  int MaxK() const override { return max_k_; }
  Status Search(uint64_t q, int k, std::vector<Match>* out) const override;

  // The number of key bits flipped per probe (see above).
  int nflip() const { return nflip_; }

 protected:
  FaissSearcher(int max_k, int nflip);
  // A new empty faiss index configured with nflip().
  virtual std::unique_ptr<faiss::IndexBinary> NewIndex() const = 0;

 private:
  const int max_k_;
  const int nflip_;
  std::unique_ptr<faiss::IndexBinary> index_;
  std::span<const uint64_t> fps_;
  size_t bytes_ = 0;
};

class FaissHashSearcher final : public FaissSearcher {
 public:
  // REQUIRES: 1 <= bits <= 63, 0 <= max_k <= 64.
  FaissHashSearcher(int bits, int max_k);
  std::string Name() const override { return "faiss-hash"; }
  int bits() const { return bits_; }

 private:
  std::unique_ptr<faiss::IndexBinary> NewIndex() const override;
  const int bits_;
};

class FaissMultiHashSearcher final : public FaissSearcher {
 public:
  // REQUIRES: nhash >= 1, 1 <= bits <= 57, nhash * bits <= 64,
  // 0 <= max_k <= 64.
  FaissMultiHashSearcher(int nhash, int bits, int max_k);
  std::string Name() const override { return "faiss-multihash"; }
  int nhash() const { return nhash_; }
  int bits() const { return bits_; }

 private:
  std::unique_ptr<faiss::IndexBinary> NewIndex() const override;
  const int nhash_;
  const int bits_;
};

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_HARNESS_FAISS_SEARCHERS_H_
