// Memory for the big arrays of sorts and de-duplication (sort buffers, the
// per-fingerprint and per-document tables): allocations of at least
// kLargeBytes (1 MiB) are mapped 2 MiB-aligned and advised MADV_HUGEPAGE, so that
// where transparent huge pages are enabled "on madvise" (Debian's default)
// the kernel backs them with 2 MiB pages: one page fault per 2 MiB instead
// of per 4 KiB, and fewer TLB misses in the random accesses of a union-find
// or a radix scatter. Smaller ones come from operator new. On a machine
// without transparent huge pages the advice is ignored and nothing changes.
//
// Under AddressSanitizer everything comes from operator new, so that the
// sanitizer still sees every access out of bounds.
//
//   util::LargeVector<uint64_t> v(n);                  // std::vector with this memory
//   util::LargeArray<uint32_t> a = util::MakeLargeArray<uint32_t>(n);  // uninitialized; null if out of memory
#ifndef SIMDEX_ENGINE_UTIL_LARGE_MEMORY_H_
#define SIMDEX_ENGINE_UTIL_LARGE_MEMORY_H_

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace simdex::util {

inline constexpr size_t kLargeBytes = size_t{1} << 20;

// `bytes` bytes of memory, or nullptr when there is none. Release with
// FreeLarge(p, bytes), the same `bytes`.
void* AllocateLarge(size_t bytes) noexcept;
void FreeLarge(void* p, size_t bytes) noexcept;

// A std::allocator for LargeVector.
template <class T>
struct LargeAllocator {
  using value_type = T;
  LargeAllocator() = default;
  template <class U>
  LargeAllocator(const LargeAllocator<U>&) noexcept {}  // NOLINT: rebinding
  T* allocate(size_t n) {
    if (n > static_cast<size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    void* p = AllocateLarge(n * sizeof(T));
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) noexcept { FreeLarge(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const LargeAllocator<U>&) const noexcept {
    return true;
  }
};

template <class T>
using LargeVector = std::vector<T, LargeAllocator<T>>;

// An array of trivial values, uninitialized, owning its memory.
template <class T>
struct LargeDeleter {
  size_t bytes = 0;
  void operator()(T* p) const noexcept { FreeLarge(p, bytes); }
};
template <class T>
using LargeArray = std::unique_ptr<T[], LargeDeleter<T>>;

// n values of T, uninitialized; a null array when out of memory.
template <class T>
LargeArray<T> MakeLargeArray(size_t n) noexcept {
  static_assert(std::is_trivially_default_constructible_v<T> && std::is_trivially_destructible_v<T>);
  if (n > static_cast<size_t>(-1) / sizeof(T)) return LargeArray<T>(nullptr, LargeDeleter<T>{0});
  const size_t bytes = n * sizeof(T);
  return LargeArray<T>(static_cast<T*>(AllocateLarge(bytes)), LargeDeleter<T>{bytes});
}

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_LARGE_MEMORY_H_
