// The cost of confirming a candidate pair by exact word 5-shingle Jaccard
// (--confirm jaccard-shingles5:T) on the long texts of real corpora, per
// pair, as the second stage pays it: each text shingled once, then one merge
// of two sorted 64-bit hash lists per pair. Measured per pair (median and
// p99), with the per-document shingling beside it, and the path it replaced
// (both texts shingled again for every pair: Confirmer::Similarity) on a
// sample of the same pairs.
//
// Pairs: the candidates within 8 bits (default fingerprints) among the long
// texts (>= 500 code points) of each corpus, at most kMaxPairs of them
// (every m-th). Corpora: the JSONL files of docs/corpora.md in the directory
// $SIMDEX_CORPORA (scripts/corpora.sh builds them), one benchmark per corpus:
//
//   SIMDEX_CORPORA=build/corpora build-bench/bin/confirm_corpus_bench
//
// Counters (microseconds unless named): pairs, merge_median, merge_p99,
// shingle_doc_median, shingle_doc_p99 (one text), per_pair_amortized
// (shingling of every text the pairs hold + every merge, over the pairs),
// old_per_pair_median, old_per_pair_p99 (Similarity on both texts).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "simdex/confirm.h"
#include "simdex/eval.h"
#include "simdex/fingerprint.h"

namespace simdex {
namespace {

constexpr size_t kMaxPairs = 200000;
constexpr size_t kOldPairs = 2000;
constexpr uint32_t kLong = 500;
constexpr int kCandidateK = 8;

using Clock = std::chrono::steady_clock;

double Micros(Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

double Quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  const size_t at = std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(at), v.end());
  return v[at];
}

uint32_t CodePoints(const std::string& text) {
  uint32_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

void BM_ConfirmCorpus(benchmark::State& state, const std::string& path) {
  std::vector<LabelledDocument> docs;
  if (Status s = ReadLabelledSet(path, &docs, /*require_cluster=*/false); !s.ok()) {
    state.SkipWithError(s.ToString().c_str());
    return;
  }
  std::vector<std::string> texts;
  for (LabelledDocument& d : docs) {
    if (CodePoints(d.text) >= kLong) texts.push_back(std::move(d.text));
  }
  std::unique_ptr<Fingerprinter> fingerprinter;
  (void)Fingerprinter::Create(FingerprintOptions(), &fingerprinter);
  std::vector<FingerprintResult> fps;
  for (const std::string& t : texts) fps.push_back(fingerprinter->Fingerprint(t));
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (uint32_t a = 0; a < texts.size(); ++a) {
    for (uint32_t b = a + 1; b < texts.size(); ++b) {
      if (!fps[a].empty() && !fps[b].empty() && HammingDistance(fps[a].fingerprint, fps[b].fingerprint) <= kCandidateK) {
        pairs.emplace_back(a, b);
      }
    }
  }
  if (pairs.size() > kMaxPairs) {
    std::vector<std::pair<uint32_t, uint32_t>> every;
    const size_t step = (pairs.size() + kMaxPairs - 1) / kMaxPairs;
    for (size_t i = 0; i < pairs.size(); i += step) every.push_back(pairs[i]);
    pairs.swap(every);
  }
  ConfirmOptions options;
  (void)ParseConfirmSpec("jaccard-shingles5:0.8", &options);
  std::unique_ptr<Confirmer> confirmer;
  (void)Confirmer::Create(options, &confirmer);
  std::vector<double> merge, shingle, old;
  double amortized = 0, sink = 0;
  for (auto _ : state) {
    merge.clear();
    shingle.clear();
    old.clear();
    std::vector<uint32_t> wanted;
    for (const auto& [a, b] : pairs) wanted.insert(wanted.end(), {a, b});
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    std::vector<std::vector<uint64_t>> sets(texts.size());
    const auto start = Clock::now();
    for (uint32_t d : wanted) {
      const auto t0 = Clock::now();
      confirmer->Shingles(texts[d], &sets[d]);
      shingle.push_back(Micros(Clock::now() - t0));
    }
    for (const auto& [a, b] : pairs) {
      const auto t0 = Clock::now();
      sink += Confirmer::JaccardOfShingles(sets[a], sets[b]);
      merge.push_back(Micros(Clock::now() - t0));
    }
    amortized = pairs.empty() ? 0 : Micros(Clock::now() - start) / static_cast<double>(pairs.size());
    const size_t old_step = std::max<size_t>(1, pairs.size() / kOldPairs);
    for (size_t i = 0; i < pairs.size(); i += old_step) {
      const auto t0 = Clock::now();
      sink += confirmer->Similarity(texts[pairs[i].first], texts[pairs[i].second]);
      old.push_back(Micros(Clock::now() - t0));
    }
  }
  benchmark::DoNotOptimize(sink);
  state.counters["long_texts"] = static_cast<double>(texts.size());
  state.counters["pairs"] = static_cast<double>(pairs.size());
  state.counters["merge_median"] = Quantile(merge, 0.5);
  state.counters["merge_p99"] = Quantile(merge, 0.99);
  state.counters["shingle_doc_median"] = Quantile(shingle, 0.5);
  state.counters["shingle_doc_p99"] = Quantile(shingle, 0.99);
  state.counters["per_pair_amortized"] = amortized;
  state.counters["old_per_pair_median"] = Quantile(old, 0.5);
  state.counters["old_per_pair_p99"] = Quantile(old, 0.99);
}

}  // namespace
}  // namespace simdex

int main(int argc, char** argv) {
  const char* dir = std::getenv("SIMDEX_CORPORA");
  if (dir == nullptr || *dir == '\0') {
    std::fprintf(stderr, "confirm_corpus_bench: set SIMDEX_CORPORA to the directory of the corpora (docs/corpora.md)\n");
    return 2;
  }
  for (const char* name : {"changelog", "copyright", "manpages", "web", "titles", "zh", "de"}) {
    const std::string path = std::string(dir) + "/" + name + ".jsonl";
    if (!std::filesystem::exists(path)) continue;
    benchmark::RegisterBenchmark((std::string("ConfirmCorpus/") + name).c_str(),
                                 [path](benchmark::State& state) { simdex::BM_ConfirmCorpus(state, path); })
        ->Iterations(1)
        ->Unit(benchmark::kSecond);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
