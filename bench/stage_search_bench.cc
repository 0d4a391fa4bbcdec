// Per-stage benchmarks of a query, the search stages (stage_bench.cc lists
// every scenario of the binary): head search over skewed heads, the Hamming
// check of the candidates, and the merge of what the tables found.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "engine/simhash/index/result_merge.h"
#include "format/coding.h"
#include "format/head_search.h"
#include "simdex/fingerprint.h"
#include "simdex/index.h"
#include "simdex/scheme.h"

namespace simdex::format {
namespace {

const Scheme& T10() {
  static const Scheme scheme = Scheme::Default();
  return scheme;
}

// Head distributions: 0 uniform; 1 the leading 20 bits constant; 2 64 narrow
// clusters (2^36 wide) at random places; 3 log-uniform (a uniform value
// shifted right by 0..63 bits: dense near zero).
const char* const kDistNames[] = {"uniform", "constant prefix", "clusters", "log-uniform"};

uint64_t Draw(int dist, std::mt19937_64& rng) {
  static const std::vector<uint64_t> centres = [] {
    std::mt19937_64 r(5);
    std::vector<uint64_t> c(64);
    for (auto& x : c) x = r();
    return c;
  }();
  switch (dist) {
    case 1: return (uint64_t{0x5a5a5} << 44) | (rng() >> 20);
    case 2: return centres[rng() % centres.size()] + (rng() >> 28);
    case 3: return rng() >> (rng() % 64);
    default: return rng();
  }
}

void HeadSearchDist(benchmark::State& state, bool interpolation) {
  const size_t n = static_cast<size_t>(state.range(0));
  const int dist = static_cast<int>(state.range(1));
  std::mt19937_64 rng(6);
  std::vector<uint64_t> heads(n);
  for (auto& h : heads) h = Draw(dist, rng);
  std::sort(heads.begin(), heads.end());
  std::string heads_le;
  for (uint64_t h : heads) PutFixed64(&heads_le, h);
  std::vector<uint64_t> queries(1 << 16);  // keys from the same distribution
  for (auto& q : queries) q = Draw(dist, rng);
  const auto* p = reinterpret_cast<const uint8_t*>(heads_le.data());
  HeadSearchStats stats;
  size_t i = 0;
  for (auto _ : state) {
    const uint64_t x = queries[i++ & (queries.size() - 1)];
    benchmark::DoNotOptimize(interpolation ? FindLastLess(p, n, x, &stats) : FindLastLessBinary(p, n, x, &stats));
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["probes"] = static_cast<double>(stats.probes) / static_cast<double>(stats.searches);
  state.SetLabel(kDistNames[dist]);
}

void BM_HeadSearchDistInterpolation(benchmark::State& state) { HeadSearchDist(state, true); }
void BM_HeadSearchDistBinary(benchmark::State& state) { HeadSearchDist(state, false); }
BENCHMARK(BM_HeadSearchDistInterpolation)->ArgsProduct({{10'000, 100'000, 1'000'000}, {0, 1, 2, 3}});
BENCHMARK(BM_HeadSearchDistBinary)->ArgsProduct({{10'000, 100'000, 1'000'000}, {0, 1, 2, 3}});

// The candidate loop of a query (engine/simhash/index/index_search.cc SearchOne):
// the values of a key range (the query's 28-bit key and random low bits,
// one in 64 a near-duplicate within 3), equal neighbours skipped, Hamming
// distance to the permuted query, those within k counted.
void BM_HammingCheck(benchmark::State& state) {
  const size_t count = static_cast<size_t>(state.range(0));
  std::mt19937_64 rng(7);
  const uint64_t pq = rng();
  const uint64_t low = ~uint64_t{0} >> T10().table(0).key_bits();
  std::vector<uint64_t> values(count);
  for (auto& v : values) {
    v = (pq & ~low) | (rng() & low);
    if (rng() % 64 == 0) v = pq ^ (uint64_t{1} << (rng() % 36)) ^ (uint64_t{1} << (rng() % 36));
  }
  std::sort(values.begin(), values.end());
  const int k = T10().k();
  for (auto _ : state) {
    int64_t within = 0;
    for (size_t j = 0; j < values.size(); ++j) {
      if (j > 0 && values[j] == values[j - 1]) continue;
      within += HammingDistance(values[j], pq) <= k;
    }
    benchmark::DoNotOptimize(within);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(count));
}
BENCHMARK(BM_HammingCheck)->RangeMultiplier(8)->Range(8, 4096);

// What the tables of t10 report for a query with `unique` neighbours, each
// at distance 0..3 (random bits flipped): every table whose key blocks the
// flips miss reports it, table by table, each table in its value order.
std::vector<simhash::Found> FoundFor(size_t unique, std::mt19937_64& rng) {
  const uint64_t q = rng();
  std::vector<simhash::Found> neighbours;
  for (size_t u = 0; u < unique; ++u) {
    const int d = static_cast<int>(rng() % (T10().k() + 1));
    uint64_t f = q;
    while (HammingDistance(f, q) < d) f ^= uint64_t{1} << (rng() % 64);
    neighbours.push_back({f, d});
  }
  std::vector<simhash::Found> found;
  for (int t = 0; t < T10().num_tables(); ++t) {
    const BlockPermutation& perm = T10().table(t);
    std::vector<simhash::Found> in_table;
    for (const simhash::Found& f : neighbours) {
      if ((perm.Apply(f.fingerprint ^ q) >> (64 - perm.key_bits())) == 0) in_table.push_back(f);
    }
    std::sort(in_table.begin(), in_table.end(), [&](const simhash::Found& a, const simhash::Found& b) {
      return perm.Apply(a.fingerprint) < perm.Apply(b.fingerprint);
    });
    found.insert(found.end(), in_table.begin(), in_table.end());
  }
  return found;
}

// Each iteration copies one of 2^10 inputs into reused capacity and merges
// it (the copy is part of the figure).
void BM_MergeFound(benchmark::State& state) {
  std::mt19937_64 rng(8);
  std::vector<std::vector<simhash::Found>> inputs(1 << 10);
  size_t total = 0;
  for (auto& in : inputs) {
    in = FoundFor(static_cast<size_t>(state.range(0)), rng);
    total += in.size();
  }
  std::vector<simhash::Found> found;
  int64_t entries = 0;
  size_t i = 0;
  for (auto _ : state) {
    const std::vector<simhash::Found>& in = inputs[i++ & (inputs.size() - 1)];
    found.assign(in.begin(), in.end());
    simhash::MergeFound(&found);
    benchmark::DoNotOptimize(found.data());
    entries += static_cast<int64_t>(in.size());
  }
  state.SetItemsProcessed(entries);
  state.counters["found_per_query"] = static_cast<double>(total) / static_cast<double>(inputs.size());
}
BENCHMARK(BM_MergeFound)->Arg(1)->Arg(2)->Arg(5);

// Matches as SearchOne holds them before sorting: one id (random) per
// fingerprint, in fingerprint order, distances 0..3. Copied as above.
void BM_SortMatches(benchmark::State& state) {
  const size_t count = static_cast<size_t>(state.range(0));
  std::mt19937_64 rng(9);
  std::vector<std::vector<Match>> inputs(1 << 10);
  for (auto& in : inputs) {
    for (size_t j = 0; j < count; ++j) {
      in.push_back({rng() % 1'000'000'000, rng(), static_cast<int>(rng() % (T10().k() + 1))});
    }
    std::sort(in.begin(), in.end(), [](const Match& a, const Match& b) { return a.fingerprint < b.fingerprint; });
  }
  std::vector<Match> matches;
  size_t i = 0;
  for (auto _ : state) {
    const std::vector<Match>& in = inputs[i++ & (inputs.size() - 1)];
    matches.assign(in.begin(), in.end());
    simhash::SortMatches(&matches);
    benchmark::DoNotOptimize(matches.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(count));
}
BENCHMARK(BM_SortMatches)->Arg(1)->Arg(3)->Arg(10)->Arg(30);

}  // namespace
}  // namespace simdex::format
