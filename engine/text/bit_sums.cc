// Per-bit sums of SimHash and the public CombineWeightedHashes.
#include "engine/text/bit_sums.h"

#include <bit>
#include <cassert>
#include <cstring>

#include "simdex/fingerprint.h"

namespace simdex::text {
namespace {

struct SpreadTable {
  uint64_t of[256];
  constexpr SpreadTable() : of() {
    for (int b = 0; b < 256; ++b) {
      uint64_t v = 0;
      for (int j = 0; j < 8; ++j) {
        if (b & (1 << j)) v |= uint64_t{1} << (8 * j);
      }
      of[b] = v;
    }
  }
};
constexpr SpreadTable kSpread;

}  // namespace

void IntegerBitSums::Clear() {
  std::memset(lanes_, 0, sizeof(lanes_));
  std::memset(set_, 0, sizeof(set_));
  pending_ = 0;
  total_ = 0;
}

void IntegerBitSums::Flush() {
  for (int k = 0; k < 8; ++k) {
    uint64_t v = lanes_[k];
    for (int j = 0; j < 8; ++j) set_[8 * k + j] += static_cast<int64_t>((v >> (8 * j)) & 0xFF);
    lanes_[k] = 0;
  }
  pending_ = 0;
}

void IntegerBitSums::Add(uint64_t hash, uint64_t weight) {
  total_ += static_cast<int64_t>(weight);
  if (weight >= 256) {
    for (int i = 0; i < 64; ++i) {
      if ((hash >> i) & 1) set_[i] += static_cast<int64_t>(weight);
    }
    return;
  }
  if (pending_ + weight > 255) Flush();
  pending_ += weight;
  for (int k = 0; k < 8; ++k) lanes_[k] += kSpread.of[(hash >> (8 * k)) & 0xFF] * weight;
}

uint64_t IntegerBitSums::Fingerprint(int bits) {
  assert(bits >= 1 && bits <= 64);
  Flush();
  uint64_t fp = 0;
  for (int i = 0; i < bits; ++i) {
    if (2 * set_[i] - total_ > 0) fp |= uint64_t{1} << i;
  }
  return fp;
}

void RealBitSums::Clear() {
  for (double& s : sums_) s = 0.0;
}

void RealBitSums::Add(uint64_t hash, double weight) {
  // Branch-free: the bits of a hash are unpredictable. +w or -w, the sign
  // bit flipped where the hash bit is 0, is exact (as w * (+1 or -1) was).
  const uint64_t w = std::bit_cast<uint64_t>(weight);
  const uint64_t flip = ~hash;
  for (int i = 0; i < 64; ++i) {
    sums_[i] += std::bit_cast<double>(w ^ (((flip >> i) & 1) << 63));
  }
}

uint64_t RealBitSums::Fingerprint(int bits) const {
  assert(bits >= 1 && bits <= 64);
  uint64_t fp = 0;
  for (int i = 0; i < bits; ++i) {
    if (sums_[i] > 0) fp |= uint64_t{1} << i;
  }
  return fp;
}

void RealBitSums::Sums(int bits, std::vector<double>* sums) const {
  sums->assign(sums_, sums_ + bits);
}

}  // namespace simdex::text

namespace simdex {

uint64_t CombineWeightedHashes(std::span<const WeightedHash> hashes, int bits,
                               std::vector<double>* sums) {
  assert(bits >= 1 && bits <= 64);
  bits = bits < 1 ? 1 : (bits > 64 ? 64 : bits);  // keeps a broken REQUIRES memory-safe
  text::RealBitSums acc;
  for (const WeightedHash& h : hashes) acc.Add(h.hash, h.weight);
  if (sums != nullptr) acc.Sums(bits, sums);
  return acc.Fingerprint(bits);
}

}  // namespace simdex
