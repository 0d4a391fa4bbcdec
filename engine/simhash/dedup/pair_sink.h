// The pairs the self-join and the joins against indexes produce, and the
// per-thread buffer that hands them to one shared consumer in batches.
#ifndef SIMDEX_ENGINE_SIMHASH_DEDUP_PAIR_SINK_H_
#define SIMDEX_ENGINE_SIMHASH_DEDUP_PAIR_SINK_H_

#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <vector>

namespace simdex::simhash {

// Two distinct fingerprints of a batch within distance k: indexes into the
// batch's sorted distinct fingerprints, a < b.
struct DistinctPair {
  uint32_t a;
  uint32_t b;
  uint32_t distance;
};

// Receives pairs in batches. Called by one thread at a time (PairBuffer
// holds a lock around each call), in no particular order of pairs.
using PairSink = std::function<void(std::span<const DistinctPair> pairs)>;

// Collects one thread's pairs and passes them on, under the shared lock,
// whenever kBatch have gathered and when flushed.
class PairBuffer {
 public:
  static constexpr size_t kBatch = size_t{1} << 14;

  PairBuffer(const PairSink& sink, std::mutex& mu) : sink_(sink), mu_(mu) { pairs_.reserve(kBatch); }
  ~PairBuffer() { Flush(); }
  PairBuffer(const PairBuffer&) = delete;
  PairBuffer& operator=(const PairBuffer&) = delete;

  void Add(uint32_t a, uint32_t b, int distance) {
    pairs_.push_back({a < b ? a : b, a < b ? b : a, static_cast<uint32_t>(distance)});
    if (pairs_.size() == kBatch) Flush();
  }
  void Flush() {
    if (pairs_.empty()) return;
    {
      std::lock_guard<std::mutex> lock(mu_);
      sink_(pairs_);
    }
    pairs_.clear();
  }

 private:
  const PairSink& sink_;
  std::mutex& mu_;
  std::vector<DistinctPair> pairs_;
};

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_DEDUP_PAIR_SINK_H_
