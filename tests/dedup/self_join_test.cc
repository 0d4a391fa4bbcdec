// The self-join against a brute-force oracle: every pair of distinct
// fingerprints within k, each exactly once, for every scheme, every k up to
// the scheme's, large groups split or compared whole, sorted in memory or
// spilled through the external sorter, on one and two threads.
#include "engine/simhash/dedup/self_join.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "engine/util/external_sorter.h"
#include "tests/index/test_data.h"

namespace simdex::testing {
namespace {

using simhash::DistinctPair;

std::vector<uint64_t> Distinct(const std::vector<Entry>& entries) {
  std::vector<uint64_t> v;
  for (const Entry& e : entries) v.push_back(e.fingerprint);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

using PairKey = std::tuple<uint32_t, uint32_t, uint32_t>;

std::vector<PairKey> BruteForcePairs(const std::vector<uint64_t>& v, int k) {
  std::vector<PairKey> out;
  for (uint32_t i = 0; i < v.size(); ++i) {
    for (uint32_t j = i + 1; j < v.size(); ++j) {
      const int d = std::popcount(v[i] ^ v[j]);
      if (d <= k) out.emplace_back(i, j, d);
    }
  }
  return out;
}

// Runs the self-join; fails the test if a pair comes out twice.
std::vector<PairKey> JoinPairs(const std::vector<uint64_t>& v, const simhash::SelfJoinOptions& o,
                               simhash::SelfJoinStats* stats) {
  std::vector<PairKey> got;
  Status s = simhash::SelfJoin(v, o, [&](std::span<const DistinctPair> pairs) {
    for (const DistinctPair& p : pairs) got.emplace_back(p.a, p.b, p.distance);
  }, stats);
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::sort(got.begin(), got.end());
  EXPECT_TRUE(std::adjacent_find(got.begin(), got.end()) == got.end()) << "a pair was reported twice";
  return got;
}

struct Mode {
  const char* name;
  size_t memory_bytes;
  int threads;
  bool force_plain;
};
const Mode kModes[] = {
    {"memory", size_t{64} << 20, 1, false},
    {"memory_plain", size_t{64} << 20, 1, true},
    {"memory_2threads", size_t{64} << 20, 2, false},
    {"spilled", util::kExternalSortMinMemoryBytes, 1, false},
};

class SelfJoinOracleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SelfJoinOracleTest, FindsExactlyTheBruteForcePairsForEveryK) {
  const Scheme scheme = SchemeOrDie(GetParam());
  ScopedTempDir dir;
  for (const DataSet& data : StandardDataSets(scheme.num_tables() > 20 ? 2 : 1)) {
    const std::vector<uint64_t> v = Distinct(data.entries);
    for (int k = 0; k <= scheme.k(); ++k) {
      const std::vector<PairKey> want = BruteForcePairs(v, k);
      for (const Mode& mode : kModes) {
        simhash::SelfJoinOptions o;
        o.scheme = scheme;
        o.k = k;
        o.sort.memory_bytes = mode.memory_bytes;
        o.sort.tmpdir = dir.path();
        o.sort.threads = mode.threads;
        o.force_plain_groups = mode.force_plain;
        simhash::SelfJoinStats stats;
        EXPECT_EQ(JoinPairs(v, o, &stats), want) << data.name << " k=" << k << " " << mode.name;
        EXPECT_EQ(stats.pairs, want.size());
      }
    }
  }
  EXPECT_TRUE(dir.List().empty()) << "spill files left behind";
}

INSTANTIATE_TEST_SUITE_P(Schemes, SelfJoinOracleTest,
                         ::testing::Values("t4", "t10", "t20", "32,32:1", "16,16,16,16:1", "8,8,8,8,8,8,8,8:4",
                                           "64:0"),
                         [](const auto& param_info) {
                           std::string name;
                           for (char c : param_info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

// A batch whose fingerprints share their leading 40 bits lands in one key
// group of t10's table 0 (and of several others): the group is split by
// chunks of its varying bits, and the result is still exactly the oracle's.
TEST(SelfJoinTest, LargeGroupsAreSplitAndStillExact) {
  const std::vector<uint64_t> fps = ConstantPrefixFingerprints(3000, 40, 11);
  std::vector<uint64_t> v(fps.begin(), fps.end());
  // Plant near neighbours inside the group.
  std::mt19937_64 rng(5);
  for (size_t i = 0; i < 600; ++i) v.push_back(FlipRandomBits(v[i], 1 + static_cast<int>(i % 3), rng) );
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  simhash::SelfJoinOptions o;
  o.scheme = Scheme::Default();
  o.k = 3;
  o.sort.memory_bytes = size_t{16} << 20;
  simhash::SelfJoinStats stats;
  EXPECT_EQ(JoinPairs(v, o, &stats), BruteForcePairs(v, 3));
  EXPECT_GT(stats.groups.splits, 0u);
  // Far fewer comparisons than the whole group pairwise (~C(3600, 2) per table).
  EXPECT_LT(stats.groups.comparisons, 3600ull * 3599 / 2);
}

// A batch of 30,000 (planted clusters, skewed bits, uniform) is larger
// than the smallest budget holds, so the spilled path really spills; every
// mode gives the oracle's pairs.
TEST(SelfJoinTest, LargerMixedBatchInEveryModeEqualsTheOracle) {
  std::vector<uint64_t> v = ClusterFingerprints(2000, 5, 21);
  for (uint64_t x : ConstantPrefixFingerprints(8000, 24, 22)) v.push_back(x);
  for (uint64_t x : LowBitsFingerprints(2000, 16, 23)) v.push_back(x);
  for (uint64_t x : UniformFingerprints(10000, 24)) v.push_back(x);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  ScopedTempDir dir;
  for (const char* spec : {"t4", "t10", "t20"}) {
    const std::vector<PairKey> want = BruteForcePairs(v, 3);
    ASSERT_GT(want.size(), 10000u);
    for (const Mode& mode : kModes) {
      simhash::SelfJoinOptions o;
      o.scheme = SchemeOrDie(spec);
      o.k = 3;
      o.sort.memory_bytes = mode.memory_bytes;
      o.sort.tmpdir = dir.path();
      o.sort.threads = mode.threads;
      o.force_plain_groups = mode.force_plain;
      simhash::SelfJoinStats stats;
      EXPECT_EQ(JoinPairs(v, o, &stats), want) << spec << " " << mode.name;
      if (mode.memory_bytes == util::kExternalSortMinMemoryBytes) {
        EXPECT_GT(stats.sort.spilled_runs, 0u) << spec;
      }
    }
  }
  EXPECT_TRUE(dir.List().empty()) << "spill files left behind";
}

// The oracle test above runs on sets too small to leave memory (the sort
// spills beyond memory_bytes / 16 fingerprints); here the smallest budget
// meets a batch of 10,000, so every scheme and k goes through spilled runs.
TEST(SelfJoinTest, SpilledSortsGiveTheOraclePairsForEverySchemeAndK) {
  std::vector<uint64_t> v = ClusterFingerprints(800, 5, 31);
  for (uint64_t x : ConstantPrefixFingerprints(3000, 30, 32)) v.push_back(x);
  for (uint64_t x : UniformFingerprints(3000, 33)) v.push_back(x);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  ASSERT_GT(v.size(), util::kExternalSortMinMemoryBytes / 16 * 2);
  ScopedTempDir dir;
  for (const char* spec : {"t4", "t10", "t20", "32,32:1", "16,16,16,16:1", "8,8,8,8,8,8,8,8:4", "64:0"}) {
    const Scheme scheme = SchemeOrDie(spec);
    for (int k = 1; k <= scheme.k(); ++k) {
      simhash::SelfJoinOptions o;
      o.scheme = scheme;
      o.k = k;
      o.sort.memory_bytes = util::kExternalSortMinMemoryBytes;
      o.sort.tmpdir = dir.path();
      simhash::SelfJoinStats stats;
      EXPECT_EQ(JoinPairs(v, o, &stats), BruteForcePairs(v, k)) << spec << " k=" << k;
      EXPECT_GT(stats.sort.spilled_runs, 0u) << spec << " k=" << k;
    }
  }
  EXPECT_TRUE(dir.List().empty()) << "spill files left behind";
}

TEST(SelfJoinTest, EmptyAndSingleBatchesHaveNoPairs) {
  simhash::SelfJoinOptions o;
  o.scheme = Scheme::Default();
  o.k = 3;
  simhash::SelfJoinStats stats;
  EXPECT_TRUE(JoinPairs({}, o, &stats).empty());
  EXPECT_TRUE(JoinPairs({42}, o, &stats).empty());
}

}  // namespace
}  // namespace simdex::testing
