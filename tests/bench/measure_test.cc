// simdex-bench's measurement helpers (bench/harness/measure.h, workload.h):
// percentiles, timed runs on several threads, the medians and spread of
// repeated runs, the per-set query cap, and a disagreement with the scan
// reported with the point and the query.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "bench/harness/measure.h"
#include "bench/harness/workload.h"

namespace simdex::bench {
namespace {

TEST(MeasureTest, PercentilesUseNearestRank) {
  std::vector<double> v;
  for (int i = 100; i >= 1; --i) v.push_back(i);
  const Percentiles p = Summarize(v);
  EXPECT_EQ(p.p50, 50);
  EXPECT_EQ(p.p90, 90);
  EXPECT_EQ(p.p99, 99);
  EXPECT_EQ(p.max, 100);
  EXPECT_DOUBLE_EQ(p.mean, 50.5);
  EXPECT_EQ(Summarize({7}).p50, 7);
  EXPECT_EQ(Summarize({}).max, 0);
}

// A searcher that answers query q with one match whose id is q.
Status Echo(uint64_t q, int k, std::vector<Match>* out, SearchStats* stats) {
  out->assign(1, Match{q, q, k});
  ++stats->queries;
  return Status::OK();
}

TEST(MeasureTest, RunSingleAnswersEveryQueryOnEveryThreadCount) {
  std::vector<uint64_t> queries(101);
  for (size_t i = 0; i < queries.size(); ++i) queries[i] = 1000 + i;
  for (int threads : {1, 2, 3}) {
    QueryRun run;
    ASSERT_TRUE(RunSingle(Echo, queries, 2, threads, 10, &run).ok());
    EXPECT_EQ(run.queries, 101u);
    EXPECT_EQ(run.micros.size(), 101u);
    EXPECT_EQ(run.matches, 101u);
    EXPECT_EQ(run.stats.queries, 101u);
    ASSERT_EQ(run.kept.size(), 10u);
    for (size_t i = 0; i < 10; ++i) EXPECT_EQ(run.kept[i], (std::vector<Match>{{1000 + i, 1000 + i, 2}}));
  }
}

TEST(MeasureTest, RunSingleReturnsTheSearchError) {
  const SearchFn failing = [](uint64_t q, int, std::vector<Match>*, SearchStats*) {
    return q == 5 ? Status::Corruption("block 3 of table 1: checksum mismatch") : Status::OK();
  };
  std::vector<uint64_t> queries = {1, 2, 5, 7};
  QueryRun run;
  Status s = RunSingle(failing, queries, 3, 2, 0, &run);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(s.message().find("query 2"), std::string::npos) << s.ToString();
}

Workload SmallWorkload(const std::vector<uint64_t>& fps) {
  Workload w;
  w.dataset = "uniform";
  w.n_requested = fps.size();
  w.fps = fps;
  w.near[3] = {0x10, 0x20};
  w.random = {0x30, 0x40};
  w.checked = 2;
  w.near_ref[3] = {{Match{0, 0x11, 1}}, {}};
  w.random_ref[3] = {{}, {}};
  return w;
}

TEST(MeasureTest, DisagreementWithTheScanNamesThePointAndTheQuery) {
  const std::vector<uint64_t> fps = {0x11, 0x99};
  const Workload w = SmallWorkload(fps);
  const PointId id{"simdex", "t10", 1024};
  QueryRun run;
  run.kept = {{Match{0, 0x11, 1}}, {}};
  EXPECT_TRUE(CheckAgainstScan(w, id, "near", 3, 1, run).ok());
  run.kept[1] = {Match{1, 0x99, 3}};
  Status s = CheckAgainstScan(w, id, "near", 3, 2, run);
  ASSERT_TRUE(s.IsCorruption());
  EXPECT_EQ(s.message(),
            "uniform n=2 simdex t10 block 1024 k=3 threads=2: near query 1 (0000000000000020) disagrees with "
            "the scan: 1 matches, the scan found 0");
}

TEST(MeasureTest, MedianTakesTheMiddleOrTheMeanOfTheMiddleTwo) {
  EXPECT_EQ(Median({5}), 5);
  EXPECT_EQ(Median({3, 1, 2}), 2);
  EXPECT_EQ(Median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(Median({}), 0);
}

// A run of `queries` single queries each taking `micros`, in `seconds`.
QueryRun TimedRun(size_t queries, double micros, double seconds) {
  QueryRun run;
  run.queries = queries;
  run.micros.assign(queries, micros);
  run.seconds = seconds;
  run.matches = queries;
  return run;
}

TEST(MeasureTest, RepeatedRunsGiveTheMedianOfEachFigureAndItsSpread) {
  const std::vector<QueryRun> runs = {TimedRun(4, 30, 2), TimedRun(4, 10, 1), TimedRun(4, 20, 4)};
  const std::string text = QueryRunsJson(runs, 4, false).str();
  for (const char* field : {"\"queries\": 4, \"checked\": 4, \"seconds\": 2, \"qps\": 2, \"p50_us\": 20",
                            "\"matches_per_query\": 1", "\"runs\": 3",
                            "\"spread\": {\"seconds\": [1, 4], \"qps\": [1, 4], \"p50_us\": [10, 30]"}) {
    EXPECT_NE(text.find(field), std::string::npos) << field << " in " << text;
  }
  // One run: its own figures, a spread of width 0.
  const std::string one = QueryRunJson(runs[0], 4, false).str();
  EXPECT_NE(one.find("\"p50_us\": 30, "), std::string::npos) << one;
  EXPECT_NE(one.find("\"runs\": 1, \"spread\": {\"seconds\": [2, 2]"), std::string::npos) << one;
  // Batches have no per-query times: null percentiles, no spread for them.
  QueryRun batch = TimedRun(4, 0, 2);
  batch.micros.clear();
  const std::string b = QueryRunsJson(std::vector<QueryRun>{batch, batch}, 4, false).str();
  EXPECT_NE(b.find("\"p50_us\": null"), std::string::npos) << b;
  EXPECT_NE(b.find("\"spread\": {\"seconds\": [2, 2], \"qps\": [2, 2]}"), std::string::npos) << b;
}

TEST(MeasureTest, QueriesPerSetFitTheTimeButNeverFallBelowTheChecked) {
  const std::vector<uint64_t> fps = {1, 2};
  Workload w = SmallWorkload(fps);
  w.checked = 50;
  EXPECT_EQ(QueriesPerSet(w, 2000, 100.0, 1.0), 2000u);     // 0.2 s: all
  EXPECT_EQ(QueriesPerSet(w, 20000, 100.0, 1.0), 10000u);   // 1 s of 100 us queries
  EXPECT_EQ(QueriesPerSet(w, 20000, 1e6, 1.0), 50u);        // 1 s each: the checked ones
  EXPECT_EQ(QueriesPerSet(w, 20000, 1e6, 0.0), 20000u);     // no limit
}

}  // namespace
}  // namespace simdex::bench
