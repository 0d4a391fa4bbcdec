// MergeFound and SortMatches: the tail of a query (engine/simhash/index/result_merge.h).
#include "engine/simhash/index/result_merge.h"

#include <gtest/gtest.h>

#include <vector>

namespace simdex::simhash {
namespace {

std::vector<uint64_t> Fingerprints(const std::vector<Found>& found) {
  std::vector<uint64_t> v;
  for (const Found& f : found) v.push_back(f.fingerprint);
  return v;
}

TEST(MergeFound, EmptyStaysEmpty) {
  std::vector<Found> found;
  MergeFound(&found);
  EXPECT_TRUE(found.empty());
}

TEST(MergeFound, SortsByFingerprint) {
  std::vector<Found> found = {{30, 1}, {~uint64_t{0}, 2}, {0, 3}, {7, 0}};
  MergeFound(&found);
  EXPECT_EQ(Fingerprints(found), (std::vector<uint64_t>{0, 7, 30, ~uint64_t{0}}));
  EXPECT_EQ(found[0].distance, 3);
  EXPECT_EQ(found[3].distance, 2);
}

// The way the tables report: a fingerprint whose blocks agree with the query
// in several tables comes once from each, table by table.
TEST(MergeFound, KeepsOneEntryPerFingerprintWithItsDistance) {
  std::vector<Found> found = {{500, 2}, {9, 0}, {9, 0}, {500, 2}, {77, 3}, {9, 0}, {500, 2}, {9, 0}};
  MergeFound(&found);
  ASSERT_EQ(Fingerprints(found), (std::vector<uint64_t>{9, 77, 500}));
  EXPECT_EQ(found[0].distance, 0);
  EXPECT_EQ(found[1].distance, 3);
  EXPECT_EQ(found[2].distance, 2);
}

TEST(SortMatches, OrdersByDistanceThenIdThenFingerprint) {
  std::vector<Match> matches = {
      {5, 100, 2}, {3, 200, 1}, {5, 50, 2}, {1, 300, 2}, {3, 100, 1}, {9, 9, 0},
  };
  SortMatches(&matches);
  const std::vector<Match> want = {
      {9, 9, 0}, {3, 100, 1}, {3, 200, 1}, {1, 300, 2}, {5, 50, 2}, {5, 100, 2},
  };
  EXPECT_EQ(matches, want);
}

// Several documents may share a fingerprint: each id is a match of its own.
TEST(SortMatches, KeepsEveryIdOfAFingerprint) {
  std::vector<Match> matches = {{40, 4, 1}, {7, 4, 1}, {2, 8, 0}, {12, 4, 1}};
  SortMatches(&matches);
  const std::vector<Match> want = {{2, 8, 0}, {7, 4, 1}, {12, 4, 1}, {40, 4, 1}};
  EXPECT_EQ(matches, want);
}

}  // namespace
}  // namespace simdex::simhash
