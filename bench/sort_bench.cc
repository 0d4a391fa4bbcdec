// Sorting benchmarks for the index builder.
//
// Scenarios (N records; "threads" is the sorter's thread count):
//   StdSortU64/N               std::sort of N random u64: the baseline
//   RadixU64/N/threads         RadixSort of the same input
//   StdSortPairs/N/ids         std::sort of N (random fingerprint, id) pairs;
//                              ids=0: ids in input order (the builder's case),
//                              ids=1: random ids
//   RadixPairs/N/ids/threads   RadixSort of the same input
//   ExternalPairs/N/threads    ExternalSorter over N pairs (ids in input
//                              order) with a 32 MiB budget: Add, Finish and
//                              Read everything; run files go to
//                              $SIMDEX_BENCH_TMPDIR or /tmp
//
// bytes_per_second counts the records' bytes once per sort; items_per_second
// counts records. Every timing is wall-clock time.
//
//   build/bin/sort_bench --benchmark_filter='/10000000'
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "engine/util/external_sorter.h"
#include "engine/util/radix_sort.h"

namespace simdex::util {
namespace {

std::vector<uint64_t> RandomU64(size_t n) {
  std::mt19937_64 rng(1);
  std::vector<uint64_t> v(n);
  for (uint64_t& x : v) x = rng();
  return v;
}

std::vector<FingerprintIdPair> RandomPairs(size_t n, bool random_ids) {
  std::mt19937_64 rng(2);
  std::vector<FingerprintIdPair> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = {rng(), random_ids ? rng() % n : i};
  return v;
}

template <class R>
void Report(benchmark::State& state, size_t n) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * sizeof(R)));
}

// Times sort(work) on a fresh copy of input each iteration.
template <class R, class Sort>
void TimeSort(benchmark::State& state, const std::vector<R>& input, Sort sort) {
  std::vector<R> work(input.size());
  for (auto _ : state) {
    state.PauseTiming();
    std::memcpy(work.data(), input.data(), input.size() * sizeof(R));
    state.ResumeTiming();
    sort(work.data(), work.size());
    benchmark::DoNotOptimize(work.data());
  }
  if (!std::is_sorted(work.begin(), work.end())) state.SkipWithError("output is not sorted");
  Report<R>(state, input.size());
}

void StdSortU64(benchmark::State& state) {
  TimeSort(state, RandomU64(state.range(0)), [](uint64_t* p, size_t n) { std::sort(p, p + n); });
}

void RadixU64(benchmark::State& state) {
  std::vector<uint64_t> scratch(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  TimeSort(state, RandomU64(state.range(0)),
           [&](uint64_t* p, size_t n) { RadixSort(p, scratch.data(), n, threads); });
}

void StdSortPairs(benchmark::State& state) {
  TimeSort(state, RandomPairs(state.range(0), state.range(1) != 0),
           [](FingerprintIdPair* p, size_t n) { std::sort(p, p + n); });
}

void RadixPairs(benchmark::State& state) {
  std::vector<FingerprintIdPair> scratch(state.range(0));
  const int threads = static_cast<int>(state.range(2));
  TimeSort(state, RandomPairs(state.range(0), state.range(1) != 0),
           [&](FingerprintIdPair* p, size_t n) { RadixSort(p, scratch.data(), n, threads); });
}

void ExternalPairs(benchmark::State& state) {
  const size_t n = state.range(0);
  const std::vector<FingerprintIdPair> input = RandomPairs(n, false);
  const char* env = std::getenv("SIMDEX_BENCH_TMPDIR");
  const ExternalSortOptions options = {.memory_bytes = size_t{32} << 20,
                                       .tmpdir = env != nullptr ? env : "/tmp",
                                       .threads = static_cast<int>(state.range(1))};
  constexpr size_t kBatch = size_t{1} << 16;
  std::vector<FingerprintIdPair> out(kBatch);
  ExternalSortStats stats;
  for (auto _ : state) {
    ExternalSorter<FingerprintIdPair> sorter(options);
    Status s = sorter.status();
    for (size_t i = 0; s.ok() && i < n; i += kBatch) s = sorter.Add(input.data() + i, std::min(kBatch, n - i));
    if (s.ok()) s = sorter.Finish();
    size_t got = 0;
    size_t total = 0;
    FingerprintIdPair last{0, 0};
    bool sorted = true;
    do {
      if (s.ok()) s = sorter.Read(out.data(), out.size(), &got);
      for (size_t i = 0; s.ok() && i < got; ++i) {
        sorted &= !(out[i] < last);
        last = out[i];
      }
      total += got;
    } while (s.ok() && got > 0);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      return;
    }
    if (!sorted || total != n) {
      state.SkipWithError("output is not the sorted input");
      return;
    }
    stats = sorter.stats();
  }
  state.counters["runs"] = static_cast<double>(stats.runs_spilled);
  state.counters["merge_passes"] = static_cast<double>(stats.merge_passes);
  state.counters["spilled_MiB"] = static_cast<double>(stats.bytes_spilled) / (1 << 20);
  Report<FingerprintIdPair>(state, n);
}

BENCHMARK(StdSortU64)->Arg(1000000)->Arg(10000000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(RadixU64)
    ->ArgsProduct({{1000000, 10000000}, {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(StdSortPairs)
    ->ArgsProduct({{1000000, 10000000}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(RadixPairs)
    ->ArgsProduct({{1000000, 10000000}, {0, 1}, {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(ExternalPairs)
    ->ArgsProduct({{10000000}, {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace simdex::util

BENCHMARK_MAIN();
