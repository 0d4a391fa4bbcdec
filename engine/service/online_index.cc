#include "engine/service/online_index.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <new>

namespace simdex::service {

namespace {
constexpr uint64_t kChunkEntries = uint64_t{1} << OnlineIndex::kChunkBits;
constexpr size_t kMaxChunks = (OnlineIndex::kMaxEntries + kChunkEntries - 1) >> OnlineIndex::kChunkBits;
}  // namespace

OnlineIndex::OnlineIndex(const Scheme& scheme, uint64_t expected_entries)
    : scheme_(scheme), tables_(scheme.num_tables()), chunks_(kMaxChunks), next_chunks_(kMaxChunks) {
  const uint64_t want = std::max<uint64_t>(1024, std::min<uint64_t>(expected_entries, uint64_t{1} << 30));
  buckets_ = static_cast<size_t>(std::bit_ceil(want));
  bucket_shift_ = 64 - std::countr_zero(static_cast<uint64_t>(buckets_));
  const size_t heads = buckets_ * static_cast<size_t>(tables_);
  heads_.reset(static_cast<uint32_t*>(std::calloc(heads, sizeof(uint32_t))));
  if (heads_ == nullptr) throw std::bad_alloc();
}

OnlineIndex::~OnlineIndex() {
  for (auto& c : chunks_) delete[] c.load(std::memory_order_relaxed);
  for (auto& c : next_chunks_) delete[] c.load(std::memory_order_relaxed);
}

void OnlineIndex::Add(uint64_t seq, uint64_t fingerprint) {
  const uint64_t i = size_.load(std::memory_order_relaxed);
  assert(i < kMaxEntries);
  assert(i == 0 || At(i - 1).seq < seq);
  const size_t chunk = static_cast<size_t>(i >> kChunkBits);
  const size_t slot = static_cast<size_t>(i & (kChunkEntries - 1));
  Entry* entries = chunks_[chunk].load(std::memory_order_relaxed);
  uint32_t* next = next_chunks_[chunk].load(std::memory_order_relaxed);
  if (entries == nullptr) {
    entries = new Entry[kChunkEntries];
    next = new uint32_t[kChunkEntries * static_cast<size_t>(tables_)];
    chunks_[chunk].store(entries, std::memory_order_release);
    next_chunks_[chunk].store(next, std::memory_order_release);
  }
  entries[slot] = Entry{seq, fingerprint};
  // Link first, publish after: a reader that sees a head sees the entry and
  // its links (release stores below, acquire loads in Search).
  for (int t = 0; t < tables_; ++t) {
    next[slot * static_cast<size_t>(tables_) + static_cast<size_t>(t)] =
        Head(t, Bucket(Key(t, fingerprint))).load(std::memory_order_relaxed);
  }
  for (int t = 0; t < tables_; ++t) {
    Head(t, Bucket(Key(t, fingerprint))).store(static_cast<uint32_t>(i + 1), std::memory_order_release);
  }
  size_.store(i + 1, std::memory_order_release);
}

void OnlineIndex::Search(uint64_t fingerprint, int k, uint64_t min_seq, std::vector<OnlineMatch>* out) const {
  assert(k >= 0 && k <= scheme_.k());
  const size_t first = out->size();
  const std::vector<int>& tables = scheme_.TablesForDistance(k);
  for (int t : tables) {
    const uint64_t key = Key(t, fingerprint);
    uint32_t link = Head(t, Bucket(key)).load(std::memory_order_acquire);
    while (link != 0) {
      const uint64_t i = link - 1;
      const Entry& e = At(i);
      if (e.seq < min_seq) break;  // older entries follow
      if (Key(t, e.fingerprint) == key) {
        const int d = std::popcount(e.fingerprint ^ fingerprint);
        if (d <= k) out->push_back(OnlineMatch{e.seq, e.fingerprint, d});
      }
      link = Next(i, t);
    }
  }
  // An entry may agree with the query on several tables' keys.
  if (tables.size() > 1 && out->size() - first > 1) {
    auto by_seq = [](const OnlineMatch& a, const OnlineMatch& b) { return a.seq < b.seq; };
    std::sort(out->begin() + static_cast<std::ptrdiff_t>(first), out->end(), by_seq);
    auto same = [](const OnlineMatch& a, const OnlineMatch& b) { return a.seq == b.seq; };
    out->erase(std::unique(out->begin() + static_cast<std::ptrdiff_t>(first), out->end(), same), out->end());
  }
}

uint64_t OnlineIndex::MemoryBytes() const {
  uint64_t chunks = 0;
  for (const auto& c : chunks_) chunks += c.load(std::memory_order_relaxed) != nullptr;
  return buckets_ * static_cast<uint64_t>(tables_) * 4 +
         chunks * kChunkEntries * (sizeof(Entry) + 4 * static_cast<uint64_t>(tables_)) +
         2 * kMaxChunks * sizeof(void*);
}

}  // namespace simdex::service
