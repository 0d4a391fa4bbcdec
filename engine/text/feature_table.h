// Per-document feature counts keyed by the feature's 64-bit hash.
//
// Features are identified by their XXH3-64 hash alone: two different
// features collide with probability ~n^2 / 2^65 for n distinct features in a
// document (below 1e-10 for a million features), and a collision would only
// merge two features' weights, so no feature text is compared.
#ifndef SIMDEX_ENGINE_TEXT_FEATURE_TABLE_H_
#define SIMDEX_ENGINE_TEXT_FEATURE_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace simdex::text {

struct FeatureEntry {
  uint64_t hash;
  uint64_t count;
  // The feature's UTF-8 bytes in FeatureTable's text arena (empty unless the
  // table keeps text).
  size_t text_offset;
  size_t text_size;
};

// An open-addressing (linear probing) map from hash to entry index. Clear()
// is O(1): slots are stamped with a generation instead of being wiped, so a
// table grown by one large document costs nothing for the next small one.
class FeatureTable {
 public:
  explicit FeatureTable(bool keep_text = false) : keep_text_(keep_text) {}

  void set_keep_text(bool keep) { keep_text_ = keep; }
  void Clear();

  // Adds count occurrences of the feature and returns its index in entries().
  // The text is stored (first occurrence only) when the table keeps text.
  uint32_t Add(uint64_t hash, std::string_view text, uint64_t count = 1);

  // Distinct features in first-occurrence order.
  const std::vector<FeatureEntry>& entries() const { return entries_; }
  std::string_view text(const FeatureEntry& e) const {
    return std::string_view(arena_).substr(e.text_offset, e.text_size);
  }

 private:
  struct Slot {
    uint64_t hash;
    uint32_t index;
    uint32_t generation;
  };
  void Grow();

  bool keep_text_;
  uint32_t generation_ = 1;
  size_t mask_ = 0;
  std::vector<Slot> slots_;
  std::vector<FeatureEntry> entries_;
  std::string arena_;
};

// A set of 64-bit hashes (the hashed stop words), built once, read often.
class HashSet64 {
 public:
  void Insert(uint64_t hash);
  bool Contains(uint64_t hash) const {
    if (size_ == 0) return false;
    for (size_t i = Mix(hash) & mask_;; i = (i + 1) & mask_) {
      if (!used_[i]) return false;
      if (keys_[i] == hash) return true;
    }
  }
  size_t size() const { return size_; }

 private:
  static size_t Mix(uint64_t h) { return static_cast<size_t>(h ^ (h >> 29)); }
  size_t size_ = 0;
  size_t mask_ = 0;
  std::vector<uint64_t> keys_;
  std::vector<uint8_t> used_;
};

}  // namespace simdex::text

#endif  // SIMDEX_ENGINE_TEXT_FEATURE_TABLE_H_
