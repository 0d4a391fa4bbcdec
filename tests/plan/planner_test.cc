// PlanIndex: the choices the measured figures make (engine/simhash/plan/
// measured_figures.cc), the budgets and the refusals.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "simdex/plan.h"

namespace simdex {
namespace {

Plan MustPlan(const PlanRequest& request) {
  Plan plan;
  const Status s = PlanIndex(request, &plan);
  EXPECT_TRUE(s.ok()) << s.message();
  return plan;
}

PlanRequest Request(uint64_t n, int k = 3) {
  PlanRequest r;
  r.n = n;
  r.k = k;
  return r;
}

bool AnyReasonHas(const Plan& plan, const std::string& text) {
  for (const std::string& reason : plan.reasons) {
    if (reason.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(Planner, SmallCollectionsPickT4) {
  for (uint64_t n : {uint64_t{1000}, uint64_t{100000}, uint64_t{1000000}}) {
    SCOPED_TRACE(n);
    const Plan plan = MustPlan(Request(n));
    EXPECT_EQ(plan.choice.scheme.Name(), "t4");
    EXPECT_TRUE(plan.choice.p50_measured);
    EXPECT_GT(plan.choice.p50_us, 0);
  }
}

TEST(Planner, LargeCollectionsPickT10) {
  // At 10^8 t4 took 2.4x t10's median (one run, docs/benchmarks.md).
  const Plan plan = MustPlan(Request(100000000));
  EXPECT_EQ(plan.choice.scheme.Name(), "t10");
  EXPECT_FALSE(plan.choice.extrapolated);
  ASSERT_TRUE(plan.has_runner_up);
  EXPECT_EQ(plan.runner_up.scheme.Name(), "t4");
  EXPECT_GT(plan.runner_up.p50_us, 2 * plan.choice.p50_us);
}

TEST(Planner, ThePlanBeatsItsRunnerUpWhichIsAnotherScheme) {
  const Plan plan = MustPlan(Request(1000000));
  ASSERT_TRUE(plan.has_runner_up);
  EXPECT_NE(plan.runner_up.scheme.Name(), plan.choice.scheme.Name());
  EXPECT_TRUE(plan.runner_up.p50_us >= plan.choice.p50_us * 0.9 || plan.runner_up.index_bytes > plan.choice.index_bytes);
  EXPECT_TRUE(AnyReasonHas(plan, "it beats " + plan.runner_up.scheme.Name())) << plan.reasons.front();
}

TEST(Planner, SchemesForAGreaterDistanceAreNotCandidates) {
  // A k = 4 scheme answers k = 3 queries faster with 15 or 35 tables; the
  // plan keeps to the schemes for k = 3.
  for (uint64_t n : {uint64_t{100000}, uint64_t{10000000}, uint64_t{100000000}}) {
    const Plan plan = MustPlan(Request(n));
    EXPECT_EQ(plan.choice.scheme.k(), 3);
    ASSERT_TRUE(plan.has_runner_up);
    EXPECT_EQ(plan.runner_up.scheme.k(), 3);
  }
}

TEST(Planner, DistanceAboveThreeGetsASchemeThatCoversIt) {
  for (int k : {4, 5, 9}) {
    SCOPED_TRACE(k);
    const Plan plan = MustPlan(Request(1000000, k));
    EXPECT_GE(plan.choice.scheme.k(), k);
    if (plan.has_runner_up) {
      EXPECT_GE(plan.runner_up.scheme.k(), k);
    }
  }
  // Beyond the measured schemes: Scheme::Covering, its time an estimate.
  Scheme covering;
  ASSERT_TRUE(Scheme::Covering(6, &covering).ok());
  const Plan plan = MustPlan(Request(1000000, 6));
  EXPECT_EQ(plan.choice.scheme.Name(), covering.Name());
  EXPECT_FALSE(plan.choice.p50_measured);
  EXPECT_TRUE(AnyReasonHas(plan, "an estimate"));
}

TEST(Planner, DiskBudgetBelowT10sBytesPicksASmallerScheme) {
  const uint64_t n = 10000000;
  PlanRequest r = Request(n);
  r.disk_bytes = 40 * n;  // t10 takes ~57 bytes per entry, t4 ~25
  const Plan plan = MustPlan(r);
  EXPECT_EQ(plan.choice.scheme.Name(), "t4");
  EXPECT_LE(plan.choice.disk_bytes, r.disk_bytes);
  EXPECT_TRUE(AnyReasonHas(plan, "rules out"));
  if (plan.has_runner_up) {
    EXPECT_LE(plan.runner_up.disk_bytes, r.disk_bytes);
  }
}

TEST(Planner, ImpossibleDiskBudgetIsRefusedNamingTheSmallestNeed) {
  PlanRequest r = Request(100000000);
  r.disk_bytes = uint64_t{1} << 30;
  Plan plan;
  const Status s = PlanIndex(r, &plan);
  ASSERT_TRUE(s.IsInvalidArgument()) << s.message();
  EXPECT_NE(s.message().find("needs at least"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("t4"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("1 GiB"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find('\n'), std::string::npos);
}

TEST(Planner, BadRequestsAreRefused) {
  Plan plan;
  EXPECT_TRUE(PlanIndex(Request(0), &plan).IsInvalidArgument());
  EXPECT_TRUE(PlanIndex(Request(1000, -1), &plan).IsInvalidArgument());
  EXPECT_TRUE(PlanIndex(Request(1000, 16), &plan).IsInvalidArgument());
  PlanRequest r = Request(1000);
  r.memory_bytes = 1000;
  Status s = PlanIndex(r, &plan);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("minimum of 64 KiB"), std::string::npos) << s.message();
  r = Request(1000);
  r.block_size = 1000;
  EXPECT_TRUE(PlanIndex(r, &plan).IsInvalidArgument());
  r = Request(1000);
  r.codec = "zip";
  EXPECT_TRUE(PlanIndex(r, &plan).IsInvalidArgument());
}

TEST(Planner, ExplicitBlockSizeAndCodecAreKept) {
  PlanRequest r = Request(1000000);
  r.block_size = 2048;
  r.codec = "card";
  const Plan plan = MustPlan(r);
  EXPECT_EQ(plan.choice.block_size, 2048u);
  EXPECT_EQ(plan.choice.codec, "card");
  EXPECT_TRUE(AnyReasonHas(plan, "block size 2 KiB was not measured"));
  r.codec = "auto";
  const Plan automatic = MustPlan(r);
  EXPECT_EQ(automatic.choice.codec, "auto");
  EXPECT_TRUE(AnyReasonHas(automatic, "the figures are ef's"));
}

TEST(Planner, IndexBytesFollowTheMeasuredSpaceFigures) {
  // t4, ef, 4 KiB at 10^6 measured 25.65 bytes per entry (docs/benchmarks.md).
  PlanRequest r = Request(1000000);
  r.codec = "ef";
  r.block_size = 4096;
  const Plan plan = MustPlan(r);
  ASSERT_EQ(plan.choice.scheme.Name(), "t4");
  EXPECT_NEAR(static_cast<double>(plan.choice.index_bytes) / 1e6, 25.65, 0.05);
}

TEST(Planner, InMemoryBuildNeedsNoScratchBeyondTheIds) {
  const Plan plan = MustPlan(Request(1000000));
  EXPECT_FALSE(plan.choice.spills);
  EXPECT_LE(plan.choice.scratch_bytes, 20u * 1000000 / 8 + 1);  // 20-bit ids
  EXPECT_GE(plan.choice.memory_bytes, 32u * 1000000);
  EXPECT_TRUE(AnyReasonHas(plan, "sorts in memory"));
}

TEST(Planner, SmallMemoryBudgetSpillsAndCountsTheScratchFiles) {
  const uint64_t n = 10000000;
  PlanRequest r = Request(n);
  r.memory_bytes = uint64_t{64} << 20;
  const Plan plan = MustPlan(r);
  EXPECT_TRUE(plan.choice.spills);
  EXPECT_GE(plan.choice.scratch_bytes, 16 * n);  // table 0's values and a spilled table
  // The budget and the program.
  EXPECT_GT(plan.choice.memory_bytes, r.memory_bytes);
  EXPECT_LE(plan.choice.memory_bytes, r.memory_bytes + (uint64_t{32} << 20));
  EXPECT_EQ(plan.choice.disk_bytes, plan.choice.index_bytes + plan.choice.scratch_bytes);
  EXPECT_TRUE(AnyReasonHas(plan, "the build spills"));
  // The same N in memory needs less disk.
  const Plan in_memory = MustPlan(Request(n));
  EXPECT_LT(in_memory.choice.scratch_bytes, plan.choice.scratch_bytes);
}

TEST(Planner, InMemorySortAboveTheBudgetIsSaid) {
  // 3 x 10^7 entries: 32 bytes each fit 1 GiB, the measured 44 do not.
  const Plan plan = MustPlan(Request(30000000));
  EXPECT_FALSE(plan.choice.spills);
  EXPECT_GT(plan.choice.memory_bytes, uint64_t{1} << 30);
  EXPECT_TRUE(AnyReasonHas(plan, "above the budget"));
  EXPECT_FALSE(AnyReasonHas(MustPlan(Request(1000000)), "above the budget"));
}

TEST(Planner, BeyondTheMeasuredNTheFiguresAreCarriedOnAndSaidToBe) {
  const Plan plan = MustPlan(Request(uint64_t{1000000000}));
  EXPECT_TRUE(plan.choice.extrapolated);
  EXPECT_TRUE(AnyReasonHas(plan, "outside the N measured"));
  EXPECT_GT(plan.choice.index_bytes, uint64_t{1000000000} * 20);
}

TEST(Planner, NBeyondTenToTheFifteenIsRefused) {
  Plan plan;
  EXPECT_TRUE(PlanIndex(Request(1000000000000000), &plan).ok());
  const Status s = PlanIndex(Request(uint64_t{1} << 62), &plan);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("beyond the 10^15 entries"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace simdex
