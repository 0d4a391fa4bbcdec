#include "engine/text/feature_table.h"

namespace simdex::text {

void FeatureTable::Clear() {
  order_.clear();
  arena_.clear();
  if (++generation_ > kGenerationMask) {  // wrapped: stale stamps could look current
    for (Slot& s : slots_) s.meta = 0;
    generation_ = 1;
  }
}

void FeatureTable::GrowAndAdd(uint64_t hash, std::string_view text, uint64_t count) {
  std::vector<Slot> old;
  old.swap(slots_);
  size_t cap = old.empty() ? 1024 : old.size() * 2;
  slots_.assign(cap, Slot{0, 0});
  mask_ = cap - 1;
  for (const Slot& s : old) {
    if ((s.meta & kGenerationMask) != generation_) continue;
    size_t i = static_cast<size_t>(s.hash) & mask_;
    while ((slots_[i].meta & kGenerationMask) == generation_) i = (i + 1) & mask_;
    slots_[i] = s;
  }
  Add(hash, text, count);
}

void FeatureTable::Insert(size_t i, uint64_t hash, std::string_view text, uint64_t count) {
  FeatureEntry e{hash, 0, 0, 0};
  if (keep_text_) {
    e.text_offset = arena_.size();
    e.text_size = text.size();
    arena_.append(text);
  }
  slots_[i] = Slot{hash, count << kCountShift | generation_};
  order_.push_back(e);
}

const FeatureTable::Slot& FeatureTable::Find(uint64_t hash) const {
  size_t i = static_cast<size_t>(hash) & mask_;
  while (slots_[i].hash != hash || (slots_[i].meta & kGenerationMask) != generation_) {
    i = (i + 1) & mask_;
  }
  return slots_[i];
}

const std::vector<FeatureEntry>& FeatureTable::entries() {
  for (FeatureEntry& e : order_) e.count = Find(e.hash).meta >> kCountShift;
  return order_;
}

uint64_t FeatureTable::DropFeaturesIn(const HashSet64& set) {
  uint64_t dropped = 0;
  size_t kept = 0;
  for (const FeatureEntry& e : order_) {
    if (set.Contains(e.hash)) {
      dropped += Find(e.hash).meta >> kCountShift;
    } else {
      order_[kept++] = e;
    }
  }
  order_.resize(kept);
  return dropped;
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
  const uint64_t bit = hash >> (64 - kFilterBits);
  filter_[bit / 64] |= uint64_t{1} << (bit % 64);
}

}  // namespace simdex::text
