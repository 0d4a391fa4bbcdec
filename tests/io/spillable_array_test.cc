// SpillableArray (engine/util/spillable_array.h): records in memory within
// the budget, in a nameless temporary file beyond it; the same records
// read back either way.
#include "engine/util/spillable_array.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/io/io_test_util.h"

namespace simdex::util {
namespace {

class SpillableArrayTest : public ::testing::Test {
 protected:
  // Appends 0..n-1 as u64 records in batches of 1,000, finishes, reads them
  // back in one call and checks them.
  void RoundTrip(SpillableArray* array, uint64_t n) {
    std::vector<uint64_t> batch;
    for (uint64_t i = 0; i < n; ++i) {
      batch.push_back(i * 0x9e3779b97f4a7c15ULL);
      if (batch.size() == 1000 || i + 1 == n) {
        ASSERT_TRUE(array->Append(batch.data(), batch.size()).ok());
        batch.clear();
      }
    }
    ASSERT_TRUE(array->Finish().ok());
    std::vector<uint64_t> back(n);
    ASSERT_TRUE(array->Read(0, n, back.data()).ok());
    for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(back[i], i * 0x9e3779b97f4a7c15ULL) << i;
  }

  testing::TempDir temp_;
  const std::string& dir_ = temp_.path();
};

// A quarter of a large budget was reserved at the first Append(): 2^44
// bytes threw std::bad_alloc (issue 36: `dedup --memory 100G` aborted).
TEST_F(SpillableArrayTest, BudgetFarAboveTheRecordsTakesOnlyWhatTheyNeed) {
  SpillableArray array(8, size_t{1} << 44, dir_);
  RoundTrip(&array, 200000);
  EXPECT_FALSE(array.spilled());
  EXPECT_EQ(array.bytes_spilled(), 0u);
}

TEST_F(SpillableArrayTest, RecordsBeyondTheBudgetSpillToANamelessFile) {
  SpillableArray array(8, 64 << 10, dir_);
  RoundTrip(&array, 200000);
  EXPECT_TRUE(array.spilled());
  EXPECT_EQ(array.bytes_spilled(), 200000u * 8);
  EXPECT_TRUE(std::filesystem::is_empty(dir_)) << "the spill has no name";
}

}  // namespace
}  // namespace simdex::util
