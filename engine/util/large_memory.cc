#include "engine/util/large_memory.h"

#include <sys/mman.h>

#include <cstdint>

namespace simdex::util {

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kMapLarge = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kMapLarge = false;
#else
constexpr bool kMapLarge = true;
#endif
#else
constexpr bool kMapLarge = true;
#endif

constexpr size_t kHugePage = size_t{2} << 20;

size_t RoundUp(size_t bytes) { return (bytes + kHugePage - 1) & ~(kHugePage - 1); }

bool Mapped(size_t bytes) { return kMapLarge && bytes >= kLargeBytes; }

}  // namespace

void* AllocateLarge(size_t bytes) noexcept {
  if (!Mapped(bytes)) return ::operator new(bytes == 0 ? 1 : bytes, std::nothrow);
  if (bytes > SIZE_MAX - 2 * kHugePage) return nullptr;
  // Map one huge page more than needed and trim both ends, so that the
  // array starts on a 2 MiB boundary and every page of it can be huge.
  const size_t length = RoundUp(bytes);
  void* raw = ::mmap(nullptr, length + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHugePage - 1) & ~(uintptr_t{kHugePage} - 1);
  if (aligned > start) ::munmap(raw, aligned - start);
  const uintptr_t end = start + length + kHugePage;
  if (end > aligned + length) ::munmap(reinterpret_cast<void*>(aligned + length), end - (aligned + length));
  void* p = reinterpret_cast<void*>(aligned);
  ::madvise(p, length, MADV_HUGEPAGE);  // advice: failing it changes nothing but speed
  return p;
}

void FreeLarge(void* p, size_t bytes) noexcept {
  if (p == nullptr) return;
  if (!Mapped(bytes)) {
    ::operator delete(p);
    return;
  }
  ::munmap(p, RoundUp(bytes));
}

}  // namespace simdex::util
