#include "engine/index/mapping_advice.h"

#include <sys/mman.h>
#include <unistd.h>

namespace simdex::index {

PageSpan WholePages(const uint8_t* data, size_t size) {
  const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t begin = reinterpret_cast<uintptr_t>(data) & ~(page - 1);
  return {reinterpret_cast<void*>(begin), reinterpret_cast<uintptr_t>(data) + size - begin};
}

namespace {

void Advise(const uint8_t* data, size_t size, int advice) {
  if (size == 0) return;
  const PageSpan span = WholePages(data, size);
  ::madvise(span.begin, span.length, advice);
}

}  // namespace

bool WantsRandomAccess(ReaderOptions::Access access, uint64_t file_bytes) {
  if (access != ReaderOptions::Access::kAuto) return access == ReaderOptions::Access::kRandom;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return false;
  return file_bytes > static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) / 2;
}

bool AdviseAccess(ReaderOptions::Access access, const uint8_t* file, size_t size) {
  if (!WantsRandomAccess(access, size)) return false;
  Advise(file, size, MADV_RANDOM);
  return true;
}

void WillRead(const uint8_t* data, size_t size) { Advise(data, size, MADV_WILLNEED); }

}  // namespace simdex::index
