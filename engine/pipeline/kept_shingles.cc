#include "engine/pipeline/kept_shingles.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace simdex::pipeline {

void KeptShingles::Add(std::span<const uint64_t> hashes, size_t room) {
  if (!kept_) return;
  const size_t n = hashes.size();
  const bool new_block = block_used_ + n > block_room_;
  const size_t block = new_block ? std::max(kBlockHashes, n) : 0;
  // The places' buffer may grow by doubling: its old and new buffers both count.
  const size_t places_bytes = places_.size() < places_.capacity()
                                  ? places_.capacity() * sizeof(Place)
                                  : 3 * std::max<size_t>(places_.capacity(), 16) * sizeof(Place);
  if (block_bytes_ + block * sizeof(uint64_t) + places_bytes > room ||
      blocks_.size() + new_block > std::numeric_limits<uint32_t>::max() ||
      n > std::numeric_limits<uint32_t>::max()) {
    Drop();
    return;
  }
  if (new_block) {
    blocks_.push_back(std::make_unique_for_overwrite<uint64_t[]>(block));
    block_bytes_ += block * sizeof(uint64_t);
    block_used_ = 0;
    block_room_ = block;
  }
  if (n > 0) std::memcpy(blocks_.back().get() + block_used_, hashes.data(), n * sizeof(uint64_t));
  const uint32_t last = static_cast<uint32_t>(blocks_.empty() ? 0 : blocks_.size() - 1);
  places_.push_back({last, static_cast<uint32_t>(block_used_), static_cast<uint32_t>(n)});
  block_used_ += n;
}

void KeptShingles::Drop() {
  kept_ = false;
  std::vector<std::unique_ptr<uint64_t[]>>().swap(blocks_);
  std::vector<Place>().swap(places_);
  block_bytes_ = block_used_ = block_room_ = 0;
}

bool SameShingles(const ShingleOptions& x, const ShingleOptions& y) {
  return x.words == y.words && x.word_n == y.word_n && x.char_n == y.char_n && x.unspaced_share == y.unspaced_share;
}

}  // namespace simdex::pipeline
