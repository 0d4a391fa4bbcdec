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

class HashSet64;

struct FeatureEntry {
  uint64_t hash;
  uint64_t count;
  // The feature's UTF-8 bytes in FeatureTable's text arena (empty unless the
  // table keeps text).
  size_t text_offset;
  size_t text_size;
};

// An open-addressing (linear probing) map from hash to count. A repeated
// feature touches one 16-byte slot and nothing else; the first-occurrence list
// and the texts are only written for new features, and the counts are copied
// into that list by entries().
//
// Clear() is O(1): slots are stamped with a 16-bit generation instead of
// being wiped (the slots are wiped once every 65535 clears), so a table grown
// by one large document costs nothing for the next small one.
class FeatureTable {
 public:
  explicit FeatureTable(bool keep_text = false) : keep_text_(keep_text) {}

  void set_keep_text(bool keep) { keep_text_ = keep; }
  void Clear();

  // Adds count occurrences of the feature. The text is stored (first
  // occurrence only) when the table keeps text.
  // REQUIRES: the total count of one feature stays below 2^48.
  void Add(uint64_t hash, std::string_view text, uint64_t count = 1) {
    if (2 * (order_.size() + 1) <= slots_.size()) {
      // XXH3 output is uniform, so its low bits index the table directly.
      for (size_t i = static_cast<size_t>(hash) & mask_;; i = (i + 1) & mask_) {
        Slot& s = slots_[i];
        if ((s.meta & kGenerationMask) != generation_) return Insert(i, hash, text, count);
        if (s.hash == hash) {
          s.meta += count << kCountShift;
          return;
        }
      }
    }
    GrowAndAdd(hash, text, count);
  }

  // Adds one occurrence of a feature that is not in the table yet, and
  // nothing for one that is: its count stays 1 (for number features).
  void AddOnce(uint64_t hash, std::string_view text) {
    if (!Contains(hash)) Add(hash, text, 1);
  }

  bool Contains(uint64_t hash) const {
    if (slots_.empty()) return false;
    for (size_t i = static_cast<size_t>(hash) & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if ((s.meta & kGenerationMask) != generation_) return false;
      if (s.hash == hash) return true;
    }
  }

  // Distinct features in first-occurrence order, with their counts.
  const std::vector<FeatureEntry>& entries();

  // Drops the features whose hash `set` holds from entries(), the others
  // keeping their order; returns the occurrences dropped. For the end of a
  // document: a later Add of a dropped feature would count it in its old slot
  // but not list it.
  uint64_t DropFeaturesIn(const HashSet64& set);
  std::string_view text(const FeatureEntry& e) const {
    return std::string_view(arena_).substr(e.text_offset, e.text_size);
  }

 private:
  static constexpr int kCountShift = 16;
  static constexpr uint64_t kGenerationMask = (uint64_t{1} << kCountShift) - 1;
  struct Slot {
    uint64_t hash;
    uint64_t meta;  // count << kCountShift | generation
  };
  // Stores a new feature in the free slot i.
  void Insert(size_t i, uint64_t hash, std::string_view text, uint64_t count);
  // Doubles the slot array (load factor stays below 1/2), then adds.
  void GrowAndAdd(uint64_t hash, std::string_view text, uint64_t count);
  const Slot& Find(uint64_t hash) const;

  bool keep_text_;
  uint64_t generation_ = 1;
  size_t mask_ = 0;
  std::vector<Slot> slots_;
  std::vector<FeatureEntry> order_;  // counts are filled in by entries()
  std::string arena_;
};

// A set of 64-bit hashes (the hashed stop words), built once, read often,
// mostly for hashes it does not hold: a 64 Kibit filter indexed by the top 16
// bits of the hash (8 KiB, in L1) answers most of those with one bit; the
// rest probe the table.
class HashSet64 {
 public:
  void Insert(uint64_t hash);
  bool Contains(uint64_t hash) const {
    if (size_ == 0) return false;
    const uint64_t bit = hash >> (64 - kFilterBits);
    if ((filter_[bit / 64] >> (bit % 64) & 1) == 0) return false;
    for (size_t i = Mix(hash) & mask_;; i = (i + 1) & mask_) {
      if (!used_[i]) return false;
      if (keys_[i] == hash) return true;
    }
  }
  size_t size() const { return size_; }

 private:
  static constexpr int kFilterBits = 16;
  static size_t Mix(uint64_t h) { return static_cast<size_t>(h ^ (h >> 29)); }
  size_t size_ = 0;
  size_t mask_ = 0;
  std::vector<uint64_t> keys_;
  std::vector<uint8_t> used_;
  std::vector<uint64_t> filter_ = std::vector<uint64_t>((size_t{1} << kFilterBits) / 64);
};

}  // namespace simdex::text

#endif  // SIMDEX_ENGINE_TEXT_FEATURE_TABLE_H_
