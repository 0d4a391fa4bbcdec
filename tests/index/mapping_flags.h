// What the kernel was advised about this process's mapping of a file, read
// from /proc/self/smaps: the tests of ReaderOptions::access for both
// readers.
#ifndef SIMDEX_TESTS_INDEX_MAPPING_FLAGS_H_
#define SIMDEX_TESTS_INDEX_MAPPING_FLAGS_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "simdex/index.h"

namespace simdex::testing {

// The "VmFlags:" line of this process's mapping of `path` ("" when it is
// not mapped).
std::string MappingFlags(const std::string& path);

// Whether that mapping was advised MADV_RANDOM ("rr" in VmFlags).
bool AdvisedRandom(const std::string& path);

// Opens the index at `path` with a Reader (IndexReader or LshIndexReader)
// under each ReaderOptions::access and expects the advice it asks for:
// MADV_RANDOM under kRandom only (kAuto on a file far smaller than memory).
template <typename Reader>
void ExpectTheMappingAdvisedAsAsked(const std::string& path) {
  using Access = ReaderOptions::Access;
  for (Access access : {Access::kRandom, Access::kReadAround, Access::kAuto}) {
    ReaderOptions options;
    options.access = access;
    std::unique_ptr<Reader> reader;
    Status s = Reader::Open(path, options, &reader);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_NE(MappingFlags(path), "");
    EXPECT_EQ(AdvisedRandom(path), access == Access::kRandom) << static_cast<int>(access) << ": " << MappingFlags(path);
  }
}

}  // namespace simdex::testing

#endif  // SIMDEX_TESTS_INDEX_MAPPING_FLAGS_H_
