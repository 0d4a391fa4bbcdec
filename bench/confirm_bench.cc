// The second stage's measures on one pair at a time: edit-distance
// similarity (bit-parallel) against the textbook one-row table it replaced,
// measured in the same run, and Jaccard of character 3-gram sets.
//
// Scenarios (one pair per iteration; a text of L code points and a copy with
// 5% of its code points substituted, inserted or deleted; English-like
// letters and spaces):
//   EditDistance/L          confirm::EditDistance, bound = 40% of L (edit:0.6)
//   EditDistanceRowTable/L  the O(L^2) one-row table, same bound and cutoff
//   ConfirmerEdit/L         Confirmer::Similarity("edit:0.6"): texts prepared too
//   ConfirmerJaccard/L      Confirmer::Similarity("jaccard:0.5")
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "engine/confirm/edit_distance.h"
#include "engine/util/utf.h"
#include "simdex/confirm.h"

namespace simdex {
namespace {

struct Pair {
  std::u32string a, b;
};

Pair MakePair(size_t length) {
  std::mt19937 rng(static_cast<unsigned>(length));
  Pair p;
  for (size_t i = 0; i < length; ++i) p.a.push_back(rng() % 6 == 0 ? U' ' : static_cast<char32_t>(U'a' + rng() % 26));
  p.b = p.a;
  for (size_t e = 0; e < length / 20; ++e) {
    size_t at = rng() % p.b.size();
    switch (rng() % 3) {
      case 0: p.b[at] = U'a' + rng() % 26; break;
      case 1: p.b.insert(at, 1, U'a' + rng() % 26); break;
      default: p.b.erase(at, 1); break;
    }
  }
  return p;
}

std::string Utf8(const std::u32string& s) {
  std::string out;
  for (char32_t c : s) out.push_back(static_cast<char>(c));  // ASCII only
  return out;
}

// The implementation before the bit-parallel one: one row of the table,
// stopped once a whole row exceeds the bound.
size_t RowTable(std::span<const char32_t> a, std::span<const char32_t> b, size_t max_distance) {
  if (a.size() < b.size()) std::swap(a, b);
  if (a.size() - b.size() > max_distance) return max_distance + 1;
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0], smallest = ++row[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({up + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
      smallest = std::min(smallest, row[j]);
    }
    if (smallest > max_distance) return max_distance + 1;
  }
  return row[b.size()];
}

template <size_t (*Distance)(std::span<const char32_t>, std::span<const char32_t>, size_t)>
void BM_Distance(benchmark::State& state) {
  const Pair p = MakePair(static_cast<size_t>(state.range(0)));
  const size_t bound = p.a.size() * 4 / 10;
  size_t d = 0;
  for (auto _ : state) {
    d = Distance(p.a, p.b, bound);
    benchmark::DoNotOptimize(d);
  }
  state.counters["distance"] = static_cast<double>(d);
  state.SetItemsProcessed(state.iterations());
}

size_t BitParallel(std::span<const char32_t> a, std::span<const char32_t> b, size_t max_distance) {
  return confirm::EditDistance(a, b, max_distance);
}

void BM_Confirmer(benchmark::State& state, const char* spec) {
  const Pair p = MakePair(static_cast<size_t>(state.range(0)));
  const std::string a = Utf8(p.a), b = Utf8(p.b);
  ConfirmOptions options;
  if (!ParseConfirmSpec(spec, &options).ok()) return state.SkipWithError("spec");
  std::unique_ptr<Confirmer> confirmer;
  if (!Confirmer::Create(options, &confirmer).ok()) return state.SkipWithError("create");
  double similarity = 0;
  for (auto _ : state) {
    similarity = confirmer->Similarity(a, b);
    benchmark::DoNotOptimize(similarity);
  }
  state.counters["similarity"] = similarity;
  state.SetItemsProcessed(state.iterations());
}

#define LENGTHS Arg(140)->Arg(500)->Arg(2000)->Arg(8000)
BENCHMARK(BM_Distance<BitParallel>)->Name("EditDistance")->LENGTHS;
BENCHMARK(BM_Distance<RowTable>)->Name("EditDistanceRowTable")->LENGTHS;
BENCHMARK_CAPTURE(BM_Confirmer, edit, "edit:0.6")->Name("ConfirmerEdit")->LENGTHS;
BENCHMARK_CAPTURE(BM_Confirmer, jaccard, "jaccard:0.5")->Name("ConfirmerJaccard")->LENGTHS;

}  // namespace
}  // namespace simdex

BENCHMARK_MAIN();
