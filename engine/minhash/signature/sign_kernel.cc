// The two builds of the signing loop (engine/minhash/signature/sign_kernel.h).
#include "engine/minhash/signature/sign_kernel.h"

#include <atomic>

namespace simdex::minhash {
namespace {

// The loop is over positions for one shingle, the signature staying in L1;
// the compiler vectorises it across positions in either build.
[[gnu::always_inline]] inline void SignLoop(const uint64_t* __restrict a, const uint64_t* __restrict c, size_t k,
                                            std::span<const uint64_t> shingles, uint32_t* __restrict sig) {
  for (const uint64_t x : shingles) {
    for (size_t i = 0; i < k; ++i) {
      const uint32_t h = static_cast<uint32_t>((a[i] * x + c[i]) >> 32);
      sig[i] = h < sig[i] ? h : sig[i];
    }
  }
}

void SignPortable(const uint64_t* a, const uint64_t* c, size_t k, std::span<const uint64_t> shingles, uint32_t* sig) {
  SignLoop(a, c, k, shingles, sig);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define SIMDEX_SIGN_AVX512 1
[[gnu::target("avx512f,avx512dq,avx512vl")]] void SignAvx512(const uint64_t* a, const uint64_t* c, size_t k,
                                                             std::span<const uint64_t> shingles, uint32_t* sig) {
  SignLoop(a, c, k, shingles, sig);
}

bool ProcessorHasAvx512() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("avx512vl");
}
#else
bool ProcessorHasAvx512() { return false; }
#endif

std::atomic<bool> use_fast{true};

}  // namespace

bool FastSignKernel() {
  static const bool available = ProcessorHasAvx512();
  return available && use_fast.load(std::memory_order_relaxed);
}

void UseFastSignKernel(bool use) { use_fast.store(use, std::memory_order_relaxed); }

void SignKernel(const uint64_t* a, const uint64_t* c, size_t k, std::span<const uint64_t> shingles, uint32_t* sig) {
#ifdef SIMDEX_SIGN_AVX512
  if (FastSignKernel()) return SignAvx512(a, c, k, shingles, sig);
#endif
  SignPortable(a, c, k, shingles, sig);
}

}  // namespace simdex::minhash
