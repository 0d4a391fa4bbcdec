#include "engine/text/feature_table.h"

namespace simdex::text {

void FeatureTable::Clear() {
  entries_.clear();
  arena_.clear();
  if (++generation_ == 0) {  // wrapped: stale stamps could look current
    for (Slot& s : slots_) s.generation = 0;
    generation_ = 1;
  }
}

void FeatureTable::Grow() {
  size_t cap = slots_.empty() ? 1024 : slots_.size() * 2;
  slots_.assign(cap, Slot{0, 0, 0});
  mask_ = cap - 1;
  for (uint32_t idx = 0; idx < entries_.size(); ++idx) {
    size_t i = static_cast<size_t>(entries_[idx].hash) & mask_;
    while (slots_[i].generation == generation_) i = (i + 1) & mask_;
    slots_[i] = Slot{entries_[idx].hash, idx, generation_};
  }
}

uint32_t FeatureTable::Add(uint64_t hash, std::string_view text, uint64_t count) {
  // Load factor stays below 1/2.
  if (2 * (entries_.size() + 1) > slots_.size()) Grow();
  // XXH3 output is uniform, so its low bits index the table directly.
  size_t i = static_cast<size_t>(hash) & mask_;
  for (;; i = (i + 1) & mask_) {
    Slot& s = slots_[i];
    if (s.generation != generation_) break;
    if (s.hash == hash) {
      entries_[s.index].count += count;
      return s.index;
    }
  }
  FeatureEntry e{hash, count, 0, 0};
  if (keep_text_) {
    e.text_offset = arena_.size();
    e.text_size = text.size();
    arena_.append(text);
  }
  uint32_t index = static_cast<uint32_t>(entries_.size());
  slots_[i] = Slot{hash, index, generation_};
  entries_.push_back(e);
  return index;
}

void HashSet64::Insert(uint64_t hash) {
  if (Contains(hash)) return;
  if (2 * (size_ + 1) > keys_.size()) {
    std::vector<uint64_t> old;
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (used_[i]) old.push_back(keys_[i]);
    }
    size_t cap = keys_.empty() ? 64 : keys_.size() * 2;
    keys_.assign(cap, 0);
    used_.assign(cap, 0);
    mask_ = cap - 1;
    size_ = 0;
    for (uint64_t h : old) Insert(h);
  }
  size_t i = Mix(hash) & mask_;
  while (used_[i]) i = (i + 1) & mask_;
  keys_[i] = hash;
  used_[i] = 1;
  ++size_;
}

}  // namespace simdex::text
