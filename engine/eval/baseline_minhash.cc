// BaselineMinHash (include/simdex/eval.h): the min-hash family of the
// MinHash-LSH baseline. BASELINE, not a product feature: it exists to
// measure simdex against the field's standard tool in the same harness.
//
// h_i(x) = (a_i * (x mod p) + b_i) mod p, p = 2^61 - 1 (the universal
// family datasketch and most MinHash implementations use), evaluated with a
// 128-bit product and the Mersenne reduction.
#include <limits>

#include "base/split_mix.h"
#include "simdex/eval.h"

namespace simdex {
namespace {

constexpr uint64_t kPrime = (uint64_t{1} << 61) - 1;
__extension__ typedef unsigned __int128 Uint128;  // GCC and Clang; __extension__ keeps -Wpedantic quiet

// x mod p for x < 2^64.
inline uint64_t Mod(uint64_t x) {
  x = (x & kPrime) + (x >> 61);
  return x >= kPrime ? x - kPrime : x;
}

// (a * x + b) mod p for a, x, b < p.
inline uint64_t MulAddMod(uint64_t a, uint64_t x, uint64_t b) {
  const Uint128 v = static_cast<Uint128>(a) * x + b;
  const uint64_t folded = (static_cast<uint64_t>(v) & kPrime) + static_cast<uint64_t>(v >> 61);
  return Mod(folded);
}

}  // namespace

Status BaselineMinHash::Create(int num_perm, uint64_t seed, std::unique_ptr<BaselineMinHash>* out) {
  if (num_perm < 1 || num_perm > 1024) return Status::InvalidArgument("minhash: num_perm must be 1..1024");
  auto m = std::make_unique<BaselineMinHash>();
  uint64_t state = seed;
  for (int i = 0; i < num_perm; ++i) {
    uint64_t a = 0;
    while (a == 0) a = Mod(base::SplitMix64(&state));
    m->a_.push_back(a);
    m->b_.push_back(Mod(base::SplitMix64(&state)));
  }
  *out = std::move(m);
  return Status::OK();
}

void BaselineMinHash::Sign(std::span<const uint64_t> shingles, uint64_t* signature) const {
  const size_t k = a_.size();
  for (size_t i = 0; i < k; ++i) signature[i] = std::numeric_limits<uint64_t>::max();
  for (uint64_t s : shingles) {
    const uint64_t x = Mod(s);
    for (size_t i = 0; i < k; ++i) {
      const uint64_t h = MulAddMod(a_[i], x, b_[i]);
      signature[i] = h < signature[i] ? h : signature[i];
    }
  }
}

double BaselineMinHash::Estimate(const uint64_t* x, const uint64_t* y, int num_perm) {
  int equal = 0;
  for (int i = 0; i < num_perm; ++i) equal += x[i] == y[i];
  return num_perm == 0 ? 0.0 : static_cast<double>(equal) / num_perm;
}

}  // namespace simdex
