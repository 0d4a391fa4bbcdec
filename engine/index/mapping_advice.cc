#include "engine/index/mapping_advice.h"

#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cassert>
#include <string>
#include <string_view>

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

namespace simdex {

namespace {

// The names of ReaderOptions' choices, in their enums' order.
constexpr std::array<std::string_view, 3> kAccessNames = {"auto", "read-around", "random"};
constexpr std::array<std::string_view, 3> kColdReadsNames = {"when-missing", "always", "never"};

// Sets *out to the value named `name` in `names` (in the enum's order), or
// names the option, the value and the allowed ones.
template <typename Enum, size_t N>
Status ParseName(std::string_view option, const std::array<std::string_view, N>& names, std::string_view name,
                 Enum* out) {
  std::string allowed;
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == name) {
      *out = static_cast<Enum>(i);
      return Status::OK();
    }
    allowed += (i == 0 ? "" : ", ") + std::string(names[i]);
  }
  return Status::InvalidArgument(std::string(option) + " '" + std::string(name) + "' is not one of " + allowed);
}

}  // namespace

Status ParseAccess(std::string_view name, ReaderOptions::Access* out) {
  return ParseName("access", kAccessNames, name, out);
}

Status ParseColdReads(std::string_view name, ReaderOptions::ColdReads* out) {
  return ParseName("cold_reads", kColdReadsNames, name, out);
}

std::string_view AccessName(ReaderOptions::Access access) {
  assert(static_cast<size_t>(access) < kAccessNames.size());
  return kAccessNames[static_cast<size_t>(access)];
}

std::string_view ColdReadsName(ReaderOptions::ColdReads cold_reads) {
  assert(static_cast<size_t>(cold_reads) < kColdReadsNames.size());
  return kColdReadsNames[static_cast<size_t>(cold_reads)];
}

}  // namespace simdex
