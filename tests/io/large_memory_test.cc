// util::AllocateLarge and its containers: small and large sizes give usable
// memory of the asked size; large blocks start on a 2 MiB boundary (outside
// AddressSanitizer, which gets everything from operator new); sizes that
// overflow give no memory rather than a short block.
#include "engine/util/large_memory.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>

namespace simdex::util {
namespace {

constexpr bool kSanitized = SIMDEX_SANITIZED_BUILD;

TEST(LargeMemory, SmallAndLargeBlocksHoldWhatIsWrittenAndLargeOnesAreHugePageAligned) {
  for (size_t bytes : {size_t{0}, size_t{1}, size_t{4096}, kLargeBytes - 1, kLargeBytes, kLargeBytes + 12345,
                       size_t{40} << 20}) {
    auto* p = static_cast<unsigned char*>(AllocateLarge(bytes));
    ASSERT_NE(p, nullptr) << bytes;
    for (size_t i = 0; i < bytes; i += 4093) p[i] = static_cast<unsigned char>(i * 7);
    if (bytes > 0) p[bytes - 1] = 0x5a;
    for (size_t i = 0; i + 1 < bytes; i += 4093) {
      ASSERT_EQ(p[i], static_cast<unsigned char>(i * 7)) << bytes;
    }
    if (bytes > 0) {
      EXPECT_EQ(p[bytes - 1], 0x5a);
    }
    if (bytes >= kLargeBytes && !kSanitized) {
      EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % (size_t{2} << 20), 0u) << bytes;
    }
    FreeLarge(p, bytes);
  }
  FreeLarge(nullptr, kLargeBytes);  // a no-op, like delete of null
}

TEST(LargeMemory, VectorsAndArraysWorkAcrossTheThreshold) {
  LargeVector<uint64_t> v;
  for (uint64_t i = 0; i < (kLargeBytes / 8) * 3; ++i) v.push_back(i);  // grows through both kinds of memory
  EXPECT_EQ(std::accumulate(v.begin(), v.end(), uint64_t{0}), v.size() * (v.size() - 1) / 2);
  LargeVector<uint32_t> zeros(kLargeBytes, 0);
  EXPECT_EQ(std::accumulate(zeros.begin(), zeros.end(), uint64_t{0}), 0u);
  LargeArray<uint32_t> a = MakeLargeArray<uint32_t>(kLargeBytes / 2);
  ASSERT_NE(a, nullptr);
  a[kLargeBytes / 2 - 1] = 7;
  EXPECT_EQ(a[kLargeBytes / 2 - 1], 7u);
  a = MakeLargeArray<uint32_t>(3);  // the large block is returned, a small one taken
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(MakeLargeArray<uint64_t>(SIZE_MAX / 4), nullptr);  // n * 8 overflows
}

}  // namespace
}  // namespace simdex::util
