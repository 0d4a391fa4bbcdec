// The kernel of MinHasher::SignShingles: for each shingle x and position i,
// sig[i] = min(sig[i], ((a[i] * x + c[i]) mod 2^64) >> 32). Two builds of
// the same loop: the build's instruction set (SSE4.2 at x86-64-v2, where a
// 64-bit multiply takes three 32-bit ones, two lanes at a time) and, where
// the processor has them, AVX-512 F/DQ/VL (one vpmullq, eight lanes). The
// arithmetic is exact in both, so the signatures are the same bits; a
// switch forces the portable build so that tests compare the two.
#ifndef SIMDEX_ENGINE_MINHASH_SIGNATURE_SIGN_KERNEL_H_
#define SIMDEX_ENGINE_MINHASH_SIGNATURE_SIGN_KERNEL_H_

#include <cstddef>
#include <cstdint>
#include <span>

namespace simdex::minhash {

// sig[0, k) is lowered by every shingle (it starts as the caller set it).
void SignKernel(const uint64_t* a, const uint64_t* c, size_t k, std::span<const uint64_t> shingles, uint32_t* sig);

// Whether SignKernel runs the AVX-512 build: the processor has it and it
// is not switched off.
bool FastSignKernel();
// Switches the AVX-512 build off (false) or back on where the processor
// has it (true). For tests: signatures made meanwhile on other threads
// may use either build (the same bits).
void UseFastSignKernel(bool use);

}  // namespace simdex::minhash

#endif  // SIMDEX_ENGINE_MINHASH_SIGNATURE_SIGN_KERNEL_H_
