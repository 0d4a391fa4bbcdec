// Interpolation and binary search over a little-endian head index.
#include "format/head_search.h"

#include <algorithm>
#include <cmath>

#include "format/coding.h"
#include "format/prefetch.h"

namespace simdex::format {

namespace {

inline uint64_t HeadAt(const uint8_t* heads, size_t i) { return DecodeFixed64(heads + 8 * i); }

}  // namespace

namespace {

// The search range [left, right] of the answer (the number of heads < x),
// bracketed by values lo_val < x <= hi_val at indexes left - 1 and right.
// Before the first probe the brackets are virtual: 0 at index -1 and
// UINT64_MAX at index n.
struct Range {
  const uint8_t* heads;
  uint64_t x;
  size_t left, right;
  uint64_t lo_val, hi_val;
  uint64_t probes = 0;

  size_t width() const { return right - left; }

  // Probes heads[m], left <= m < right, and keeps the side holding the
  // answer. Returns true when the answer lies above m.
  bool Probe(size_t m) {
    const uint64_t v = HeadAt(heads, m);
    ++probes;
    if (v < x) {
      left = m + 1;
      lo_val = v;
      return true;
    }
    right = m;
    hi_val = v;
    return false;
  }

  // Where x falls between the brackets, if the heads between them are
  // evenly spread. Doubles are exact enough for a guess.
  size_t Interpolate() const {
    const double frac = static_cast<double>(x - lo_val) / static_cast<double>(hi_val - lo_val);
    const double guess = static_cast<double>(left) - 1.0 + frac * static_cast<double>(width() + 1);
    if (guess <= static_cast<double>(left)) return left;
    const size_t m = static_cast<size_t>(guess);
    return m >= right ? right - 1 : m;
  }
};

// Below this width the search bisects: a few probes within a cache line or two.
constexpr size_t kSmallRange = 16;

}  // namespace

size_t FindLastLess(const uint8_t* heads, size_t n, uint64_t x, HeadSearchStats* stats) {
  Range r{heads, x, 0, n, 0, ~uint64_t{0}};
  if (x == 0) r.right = 0;  // no head is < 0; and lo_val < x must hold below
  bool bisect = false;
  while (r.width() > kSmallRange) {
    const size_t width = r.width();
    if (bisect) {
      r.Probe(r.left + width / 2);
      bisect = false;
      continue;
    }
    // An interpolation round: probe the guess, then a guard probe one
    // expected error (about sqrt(width) heads on evenly spread data) further
    // toward the answer, which usually brackets it tightly.
    const bool above = r.Probe(r.Interpolate());
    if (r.width() > kSmallRange) {
      const size_t d = static_cast<size_t>(std::sqrt(static_cast<double>(width))) + 1;
      r.Probe(above ? std::min(r.left + d, r.right - 1) : (r.right > r.left + d ? r.right - 1 - d : r.left));
    }
    // A round that fails to halve the range is followed by a bisection, so
    // every three probes at least halve it: O(log n) in the worst case.
    bisect = r.width() > width / 2;
  }
  while (r.width() > 0) r.Probe(r.left + r.width() / 2);
  if (stats != nullptr) {
    ++stats->searches;
    stats->probes += r.probes;
  }
  return r.left == 0 ? kNoHead : r.left - 1;
}

size_t FindLastLessBinary(const uint8_t* heads, size_t n, uint64_t x, HeadSearchStats* stats) {
  size_t left = 0, right = n;  // heads[< left] < x <= heads[>= right]
  uint64_t probes = 0;
  while (left < right) {
    const size_t m = left + (right - left) / 2;
    ++probes;
    if (HeadAt(heads, m) < x) {
      left = m + 1;
    } else {
      right = m;
    }
  }
  if (stats != nullptr) {
    ++stats->searches;
    stats->probes += probes;
  }
  return left == 0 ? kNoHead : left - 1;
}

void HeadSample::Init(const uint8_t* heads_le, size_t n) {
  sample_le_.clear();
  sample_le_.reserve((n + kStride - 1) / kStride * 8);
  for (size_t i = 0; i < n; i += kStride) {
    sample_le_.insert(sample_le_.end(), heads_le + 8 * i, heads_le + 8 * i + 8);
  }
  // About one sampled head per bucket: the bits to tell them apart.
  const size_t m = sample_le_.size() / 8;
  dir_bits_ = 0;
  while (dir_bits_ < kMaxDirBits && (size_t{1} << dir_bits_) < m) ++dir_bits_;
  dir_.clear();
  if (m == 0) return;
  dir_.resize((size_t{1} << dir_bits_) + 1);
  size_t j = 0;
  for (size_t d = 0; d < dir_.size(); ++d) {
    // The sampled heads in buckets below d come before index j.
    while (j < m && Bucket(HeadAt(sample_le_.data(), j)) < d) ++j;
    dir_[d] = static_cast<uint32_t>(j);
  }
}

size_t HeadSample::Bucket(uint64_t x) const {
  return dir_bits_ == 0 ? 0 : static_cast<size_t>(x >> (64 - dir_bits_));
}

void HeadSample::PrefetchBucket(uint64_t x) const {
  if (!dir_.empty()) PrefetchLine(dir_.data() + Bucket(x));
}

void HeadSample::PrefetchSample(uint64_t x) const {
  if (dir_.empty()) return;
  const size_t d = Bucket(x);
  // The bucket's first sampled head and the line after it: a bucket holds
  // about one sampled head, and the answer may be the one before.
  const size_t begin = dir_[d] == 0 ? 0 : dir_[d] - 1;
  PrefetchLine(sample_le_.data() + 8 * begin);
  PrefetchLine(sample_le_.data() + std::min(sample_le_.size() - 1, 8 * begin + 64));
}

size_t HeadSample::FindInSample(uint64_t x, HeadSearchStats* stats) const {
  if (dir_.empty()) return kNoHead;
  // Every sampled head with a smaller prefix is < x, every one with a larger
  // prefix is > x: the answer's index is in [begin - 1, end - 1].
  const size_t d = Bucket(x);
  const size_t begin = dir_[d];
  const size_t end = dir_[d + 1];
  constexpr size_t kScan = 4;
  size_t i = begin;
  if (end - begin <= kScan) {
    while (i < end && HeadAt(sample_le_.data(), i) < x) ++i;
    if (stats != nullptr) {
      ++stats->searches;
      stats->probes += std::min(end, i + 1) - begin;
    }
  } else {
    const size_t j = FindLastLess(sample_le_.data() + 8 * begin, end - begin, x, stats);
    i = j == kNoHead ? begin : begin + j + 1;
  }
  return i == 0 ? kNoHead : i - 1;
}

size_t HeadSample::Window(uint64_t x, HeadSearchStats* stats) const {
  const size_t j = FindInSample(x, stats);
  return j == kNoHead ? kNoHead : j * kStride;
}

size_t HeadSample::FinishInWindow(const uint8_t* heads_le, size_t n, size_t w, uint64_t x, HeadSearchStats* stats) {
  if (w == kNoHead) return kNoHead;
  // heads[w] < x; the answer is the last head < x among the next kStride - 1.
  const size_t end = std::min(n, w + kStride);
  size_t i = w;
  while (i + 1 < end && HeadAt(heads_le, i + 1) < x) ++i;
  if (stats != nullptr) stats->probes += std::min(end, i + 2) - w - 1;
  return i;
}

bool HeadSample::SampledHead(size_t i, uint64_t* head) const {
  if (i % kStride != 0 || i / kStride >= sample_le_.size() / 8) return false;
  *head = HeadAt(sample_le_.data(), i / kStride);
  return true;
}

}  // namespace simdex::format
