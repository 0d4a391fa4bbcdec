#include "engine/service/online_bands.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>
#include <new>

#include "simdex/minhash.h"

namespace simdex::service {

namespace {
constexpr uint64_t kChunkEntries = uint64_t{1} << OnlineBands::kChunkBits;
constexpr size_t kMaxChunks = (OnlineBands::kMaxEntries + kChunkEntries - 1) >> OnlineBands::kChunkBits;
}  // namespace

OnlineBands::OnlineBands(int bands, int num_perm, int bits, uint64_t expected_entries)
    : bands_(bands),
      num_perm_(num_perm),
      bits_(bits),
      signature_bytes_(PackedSignatureBytes(num_perm, bits)),
      stride_(8 + 8 * static_cast<size_t>(bands) + (PackedSignatureBytes(num_perm, bits) + 7) / 8 * 8),
      chunks_(kMaxChunks) {
  const uint64_t want = std::max<uint64_t>(1024, std::min<uint64_t>(expected_entries, uint64_t{1} << 30));
  buckets_ = static_cast<size_t>(std::bit_ceil(want));
  bucket_shift_ = 64 - std::countr_zero(static_cast<uint64_t>(buckets_));
  heads_.reset(static_cast<uint32_t*>(std::calloc(buckets_ * static_cast<size_t>(bands_), sizeof(uint32_t))));
  if (heads_ == nullptr) throw std::bad_alloc();
}

OnlineBands::~OnlineBands() {
  for (auto& c : chunks_) delete[] c.load(std::memory_order_relaxed);
}

const uint8_t* OnlineBands::Record(uint64_t i) const {
  return chunks_[i >> kChunkBits].load(std::memory_order_acquire) + (i & (kChunkEntries - 1)) * stride_;
}

uint64_t OnlineBands::Seq(const uint8_t* record) {
  uint64_t seq;
  std::memcpy(&seq, record, 8);
  return seq;
}

uint32_t OnlineBands::Next(uint64_t i, int j) const {
  const uint8_t* chunk = chunks_[i >> kChunkBits].load(std::memory_order_acquire);
  const uint32_t* links = reinterpret_cast<const uint32_t*>(chunk + kChunkEntries * stride_);
  return links[(i & (kChunkEntries - 1)) * static_cast<size_t>(bands_) + static_cast<size_t>(j)];
}

void OnlineBands::Add(uint64_t seq, const uint64_t* keys, const uint8_t* packed) {
  const uint64_t i = size_.load(std::memory_order_relaxed);
  assert(i < kMaxEntries);
  assert(i == 0 || Seq(Record(i - 1)) < seq);
  const size_t slot = static_cast<size_t>(i & (kChunkEntries - 1));
  uint8_t* chunk = chunks_[i >> kChunkBits].load(std::memory_order_relaxed);
  if (chunk == nullptr) {
    chunk = new uint8_t[kChunkEntries * EntryBytes()];
    chunks_[i >> kChunkBits].store(chunk, std::memory_order_release);
  }
  uint8_t* record = chunk + slot * stride_;
  std::memcpy(record, &seq, 8);
  std::memcpy(record + 8, keys, 8 * static_cast<size_t>(bands_));
  std::memcpy(record + 8 + 8 * static_cast<size_t>(bands_), packed, signature_bytes_);
  uint32_t* links = reinterpret_cast<uint32_t*>(chunk + kChunkEntries * stride_) + slot * static_cast<size_t>(bands_);
  // Link first, publish after: a reader that sees a head sees the record
  // and its links (release stores below, acquire loads in Search).
  for (int j = 0; j < bands_; ++j) links[j] = Head(j, Bucket(keys[j])).load(std::memory_order_relaxed);
  for (int j = 0; j < bands_; ++j) {
    Head(j, Bucket(keys[j])).store(static_cast<uint32_t>(i + 1), std::memory_order_release);
  }
  size_.store(i + 1, std::memory_order_release);
}

void OnlineBands::Search(const uint64_t* keys, const uint8_t* packed, uint64_t min_seq,
                         std::vector<BandMatch>* out) const {
  std::vector<uint64_t> found;  // entry numbers
  for (int j = 0; j < bands_; ++j) {
    for (uint32_t link = Head(j, Bucket(keys[j])).load(std::memory_order_acquire); link != 0;) {
      const uint64_t i = link - 1;
      const uint8_t* e = Record(i);
      if (Seq(e) < min_seq) break;  // older entries follow
      if (Keys(e)[j] == keys[j]) found.push_back(i);
      link = Next(i, j);
    }
  }
  // An entry may share several bands' keys with the query; entry numbers
  // follow seqs.
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  for (uint64_t i : found) {
    const uint8_t* e = Record(i);
    out->push_back(BandMatch{Seq(e), EstimateJaccardPacked(packed, Packed(e), num_perm_, bits_)});
  }
}

uint64_t OnlineBands::MemoryBytes() const {
  uint64_t chunks = 0;
  for (const auto& c : chunks_) chunks += c.load(std::memory_order_relaxed) != nullptr;
  return buckets_ * static_cast<uint64_t>(bands_) * 4 + chunks * kChunkEntries * EntryBytes() +
         kMaxChunks * sizeof(void*);
}

}  // namespace simdex::service
