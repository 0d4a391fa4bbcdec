// Chains: the storage of the docId service's mutable deltas (OnlineIndex,
// OnlineBands). Entries that one writer appends while any number of
// readers walk them, without locks on either side. Each entry is a record
// of fixed size, its seq first, chained into one hashed bucket per chain
// (a table's or a band's key). A search walks, in a chain, the bucket of
// its own key and tests each entry's key (a bucket may hold other keys:
// hash collisions).
//
// Chains are newest first, and seqs are appended in increasing order, so a
// walk for entries with seq >= min_seq stops at the first older entry:
// expired entries (the retention window) and entries already seen cost
// nothing.
//
// Memory: per entry the record and 4 bytes per chain (its links), in
// chunks of 2^16 entries whose pages are touched as entries fill them;
// plus 4 bytes per bucket per chain (buckets = the power of two >=
// expected_entries, 1024 to 2^30), touched as buckets are first used.
//
// Thread safety: Append() from one thread at a time; Walk(), Record() of
// published entries and size() from any number of threads concurrently
// with it. An entry is visible to walks once Append() has returned.
#ifndef SIMDEX_ENGINE_SERVICE_CHAINS_H_
#define SIMDEX_ENGINE_SERVICE_CHAINS_H_

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

namespace simdex::service {

class Chains {
 public:
  static constexpr int kChunkBits = 16;
  // Entries are chained by u32 links, entry i as i + 1 and 0 ending a
  // chain: at most 2^32 - 1 (kMaxLiveEntries of include/simdex/service.h).
  static constexpr uint64_t kMaxEntries = (uint64_t{1} << 32) - 1;

  // Records of record_bytes (a multiple of 8, the seq first), each linked
  // into `chains` chains.
  Chains(size_t record_bytes, int chains, uint64_t expected_entries)
      : stride_(record_bytes), chains_(chains), chunks_(kMaxChunks) {
    const uint64_t want = std::max<uint64_t>(1024, std::min<uint64_t>(expected_entries, uint64_t{1} << 30));
    buckets_ = static_cast<size_t>(std::bit_ceil(want));
    bucket_shift_ = 64 - std::countr_zero(static_cast<uint64_t>(buckets_));
    // calloc'ed: the kernel hands out zero pages as they are first touched,
    // so a fresh delta costs nothing up front however many buckets it has.
    heads_.reset(static_cast<uint32_t*>(std::calloc(buckets_ * static_cast<size_t>(chains_), sizeof(uint32_t))));
    if (heads_ == nullptr) throw std::bad_alloc();
  }
  ~Chains() {
    for (auto& c : chunks_) delete[] c.load(std::memory_order_relaxed);
  }
  Chains(const Chains&) = delete;
  Chains& operator=(const Chains&) = delete;

  // Entries appended so far (published).
  uint64_t size() const { return size_.load(std::memory_order_acquire); }
  // Bytes allocated: records, links, every bucket (bucket pages never
  // touched take no memory) and the chunk table.
  uint64_t MemoryBytes() const {
    uint64_t chunks = 0;
    for (const auto& c : chunks_) chunks += c.load(std::memory_order_relaxed) != nullptr;
    return buckets_ * static_cast<uint64_t>(chains_) * 4 + chunks * kChunkEntries * EntryBytes() +
           kMaxChunks * sizeof(void*);
  }

  // Entry i's record. REQUIRES: i < size().
  const uint8_t* Record(uint64_t i) const {
    return chunks_[i >> kChunkBits].load(std::memory_order_acquire) + (i & (kChunkEntries - 1)) * stride_;
  }
  static uint64_t Seq(const uint8_t* record) {
    uint64_t seq;
    std::memcpy(&seq, record, 8);
    return seq;
  }

  // Appends an entry: its seq, then write(p) fills the rest of its record
  // from p; it is chained in chain j under key(j). REQUIRES: seq greater
  // than every seq appended before; size() < kMaxEntries; one writer at a
  // time.
  template <typename Write, typename Key>
  void Append(uint64_t seq, Write&& write, Key&& key) {
    const uint64_t i = size_.load(std::memory_order_relaxed);
    assert(i < kMaxEntries);
    assert(i == 0 || Seq(Record(i - 1)) < seq);
    uint8_t* chunk = chunks_[i >> kChunkBits].load(std::memory_order_relaxed);
    if (chunk == nullptr) {
      chunk = new uint8_t[kChunkEntries * EntryBytes()];
      chunks_[i >> kChunkBits].store(chunk, std::memory_order_release);
    }
    uint8_t* record = chunk + (i & (kChunkEntries - 1)) * stride_;
    std::memcpy(record, &seq, 8);
    write(record + 8);
    uint32_t* links = Links(chunk, i);
    // Link first, publish after: a reader that sees a head sees the record
    // and its links (release stores below, acquire loads in Walk).
    for (int j = 0; j < chains_; ++j) links[j] = Head(j, key(j)).load(std::memory_order_relaxed);
    for (int j = 0; j < chains_; ++j) Head(j, key(j)).store(static_cast<uint32_t>(i + 1), std::memory_order_release);
    size_.store(i + 1, std::memory_order_release);
  }

  // Calls fn(i, record) for the entries in chain j's bucket of `key`,
  // newest first, down to the first with seq < min_seq.
  template <typename Fn>
  void Walk(int j, uint64_t key, uint64_t min_seq, Fn&& fn) const {
    for (uint32_t link = Head(j, key).load(std::memory_order_acquire); link != 0;) {
      const uint64_t i = link - 1;
      const uint8_t* record = Record(i);
      if (Seq(record) < min_seq) break;  // older entries follow
      fn(i, record);
      link = Links(chunks_[i >> kChunkBits].load(std::memory_order_acquire), i)[j];
    }
  }

 private:
  static constexpr uint64_t kChunkEntries = uint64_t{1} << kChunkBits;
  static constexpr size_t kMaxChunks = (kMaxEntries + kChunkEntries - 1) >> kChunkBits;

  // Bytes of one entry: its record and its links.
  size_t EntryBytes() const { return stride_ + 4 * static_cast<size_t>(chains_); }
  // Entry i's links in its chunk (2^kChunkBits records, then their links):
  // link j is the next (older) entry of its bucket in chain j, plus one (0
  // ends the chain).
  uint32_t* Links(uint8_t* chunk, uint64_t i) const {
    return reinterpret_cast<uint32_t*>(chunk + kChunkEntries * stride_) +
           (i & (kChunkEntries - 1)) * static_cast<size_t>(chains_);
  }
  std::atomic_ref<uint32_t> Head(int j, uint64_t key) const {
    const size_t bucket = static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> bucket_shift_);
    return std::atomic_ref<uint32_t>(heads_[static_cast<size_t>(j) * buckets_ + bucket]);
  }

  const size_t stride_;
  const int chains_;
  int bucket_shift_ = 0;
  size_t buckets_ = 0;
  struct FreeDeleter {
    void operator()(uint32_t* p) const { std::free(p); }
  };
  // heads_[j * buckets_ + b]: the newest entry of bucket b of chain j, plus
  // one; read and written through std::atomic_ref.
  std::unique_ptr<uint32_t[], FreeDeleter> heads_;
  // Chunk c: 2^kChunkBits records, then 2^kChunkBits x chains links; new[]
  // without initialising, so its pages cost memory only as entries fill them.
  std::vector<std::atomic<uint8_t*>> chunks_;
  std::atomic<uint64_t> size_{0};
};

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_CHAINS_H_
