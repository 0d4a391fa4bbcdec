// PreloadPages, which every kind's IndexFile::Preload calls: a mapped
// file's pages read in, and optionally locked.
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "engine/index/mapping_advice.h"

namespace simdex {

namespace {

std::string MemlockLimit() {
  struct rlimit limit;
  if (::getrlimit(RLIMIT_MEMLOCK, &limit) != 0) return "unknown";
  if (limit.rlim_cur == RLIM_INFINITY) return "unlimited";
  return std::to_string(limit.rlim_cur) + " bytes";
}

}  // namespace

namespace index {

Status PreloadPages(const uint8_t* data, size_t size, bool lock, PreloadResult* result) {
  *result = PreloadResult();
  if (size == 0) return Status::OK();
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const PageSpan span = WholePages(data, size);
  void* const region = span.begin;
  const size_t length = span.length;
  // Advice only: the reads below do the work wherever it is not taken.
  WillRead(data, size);
  // One read per page faults each in (and fetches it from the disk if the
  // page cache does not hold it yet).
  uint8_t sum = 0;
  for (size_t off = 0; off < size; off += page) sum ^= *static_cast<const volatile uint8_t*>(data + off);
  sum ^= *static_cast<const volatile uint8_t*>(data + size - 1);
  (void)sum;
  result->bytes = size;
  if (!lock) return Status::OK();
  if (::mlock(region, length) == 0) {
    result->locked = true;
  } else {
    const int err = errno;
    result->lock_error = "mlock of " + std::to_string(length) + " bytes: " + std::strerror(err) +
                         " (RLIMIT_MEMLOCK is " + MemlockLimit() +
                         ": raise it with ulimit -l or systemd's LimitMEMLOCK=)";
  }
  return Status::OK();
}

}  // namespace index

}  // namespace simdex
