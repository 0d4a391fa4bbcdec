#include "engine/service/timeline.h"

#include <gtest/gtest.h>

namespace simdex::service {
namespace {

TEST(Timeline, FirstSeqAfterFindsTheFirstSeqOfALaterSecond) {
  Timeline t;
  EXPECT_EQ(t.FirstSeqAfter(100, 7), 7u);  // nothing recorded
  t.Record(10, 0);
  t.Record(10, 1);  // same second: no new point
  t.Record(12, 2);
  t.Record(20, 5);
  EXPECT_EQ(t.FirstSeqAfter(9, 6), 0u);
  EXPECT_EQ(t.FirstSeqAfter(10, 6), 2u);
  EXPECT_EQ(t.FirstSeqAfter(11, 6), 2u);
  EXPECT_EQ(t.FirstSeqAfter(12, 6), 5u);
  EXPECT_EQ(t.FirstSeqAfter(20, 6), 6u);
  EXPECT_EQ(t.last_second(), 20);
}

TEST(Timeline, DroppingOldPointsKeepsLaterAnswers) {
  Timeline t;
  for (int64_t s = 0; s < 5000; ++s) t.Record(s, static_cast<uint64_t>(s) * 3);
  t.DropThrough(3000);
  for (int64_t q = 3000; q < 5000; ++q) ASSERT_EQ(t.FirstSeqAfter(q, 15000), static_cast<uint64_t>(q + 1) * 3) << q;
  EXPECT_EQ(t.FirstSeqAfter(4999, 15000), 15000u);
  t.Record(6000, 20000);
  EXPECT_EQ(t.FirstSeqAfter(5000, 20001), 20000u);
}

}  // namespace
}  // namespace simdex::service
