#include "engine/simhash/dedup/group_join.h"

#include <algorithm>
#include <bit>

namespace simdex::simhash {

namespace {

// Cuts the set bits of `bits` into `parts` chunks of (nearly) equal size,
// in bit order. REQUIRES: popcount(bits) >= parts >= 1.
void CutIntoChunks(uint64_t bits, int parts, std::vector<uint64_t>* chunks) {
  chunks->clear();
  const int total = std::popcount(bits);
  for (int p = 0; p < parts; ++p) {
    const int take = total / parts + (p < total % parts ? 1 : 0);
    uint64_t chunk = 0;
    for (int i = 0; i < take; ++i) {
      const uint64_t low = bits & (~bits + 1);  // lowest set bit
      chunk |= low;
      bits ^= low;
    }
    chunks->push_back(chunk);
  }
}

}  // namespace

bool GroupJoin::Owned(uint64_t diff) const {
  if ((diff & required_) != 0) return false;
  for (uint64_t m : exclusions_) {
    if ((diff & m) == 0) return false;
  }
  return true;
}

void GroupJoin::Plain(const Member* begin, const Member* end, PairBuffer* out, GroupJoinStats* stats) {
  const size_t n = static_cast<size_t>(end - begin);
  stats->comparisons += n * (n - 1) / 2;
  for (const Member* x = begin; x != end; ++x) {
    for (const Member* y = x + 1; y != end; ++y) {
      const uint64_t diff = x->value ^ y->value;
      const int d = std::popcount(diff);
      if (d <= k_ && Owned(diff)) out->Add(x->id, y->id, d);
    }
  }
}

void GroupJoin::Recurse(Member* begin, Member* end, PairBuffer* out, GroupJoinStats* stats) {
  const size_t n = static_cast<size_t>(end - begin);
  if (n < 2) return;
  uint64_t varying = 0;
  for (const Member* m = begin; m != end; ++m) varying |= m->value ^ begin->value;
  if (n <= kPlainGroup || force_plain_ || std::popcount(varying) <= k_) {
    // Small, or so few bits vary that every pair is within k anyway.
    Plain(begin, end, out, stats);
    return;
  }
  ++stats->splits;
  std::vector<uint64_t> chunks;
  CutIntoChunks(varying, k_ + 1, &chunks);
  const size_t saved = exclusions_.size();
  for (const uint64_t chunk : chunks) {
    std::sort(begin, end, [chunk](const Member& a, const Member& b) {
      const uint64_t ka = a.value & chunk, kb = b.value & chunk;
      return ka != kb ? ka < kb : a.value < b.value;
    });
    for (Member* run = begin; run != end;) {
      Member* run_end = run + 1;
      while (run_end != end && ((run_end->value ^ run->value) & chunk) == 0) ++run_end;
      // Each run is smaller than the group: the chunk holds a bit that varies.
      Recurse(run, run_end, out, stats);
      run = run_end;
    }
    // Pairs agreeing on this chunk were reported here: exclude them below.
    exclusions_.push_back(chunk);
  }
  exclusions_.resize(saved);
}

void GroupJoin::Join(uint64_t required, const std::vector<uint64_t>& exclusions, PairBuffer* out,
                     GroupJoinStats* stats) {
  required_ = required;
  exclusions_ = exclusions;
  Recurse(members_.data(), members_.data() + members_.size(), out, stats);
  members_.clear();
}

}  // namespace simdex::simhash
