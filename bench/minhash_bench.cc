// MinHash signatures and the band self-join (include/simdex/minhash.h,
// include/simdex/minhash_join.h) against the MinHash-LSH baseline of
// `simdex eval --baseline` (include/simdex/eval.h), in the same process.
//
// Sign/<corpus>/<stage>, one thread, bytes = the corpus's UTF-8 text:
//   shingles        ShingleMaker alone (the truth's shingle sets: word-chars)
//   shingles_space_split  ShingleMaker alone, words split at white space
//   simdex          MinHasher::SignShingles on those sets (128 values)
//   baseline        BaselineMinHash::Sign on the same sets (128 values)
//   simdex_text     MinHasher::Sign: text to signature, shingling included
// Join/<n>/<who>, synthetic signatures (pairs of near-duplicates, each
// value replaced with probability 0.15, J about 0.74 per pair; the rest
// unrelated), 16 bands x 8 rows (the default at 0.8), one thread:
//   simdex          FindBandPairs over the band keys (which signing makes:
//                   band_keys_ns_per_doc is BandKeys' time, reported apart,
//                   and transpose_ns_per_doc the time to lay its keys out
//                   band after band, as FindBandPairs takes them)
//   baseline        LshCandidatePairs (64-bit values; it holds n x 128 x 8
//                   bytes: 10 GB at 10^7, run only with SIMDEX_BENCH_BASELINE_1E7=1)
//   joiner/<memory> BandJoiner within <memory> bytes (Add, Finish, Read),
//                   spilling to $SIMDEX_BENCH_TMPDIR (default /tmp)
// Scale/<n>, only with SIMDEX_MINHASH_SCALE=n: the join and the estimate
// filter of n synthetic documents within SIMDEX_MINHASH_MEMORY bytes (default
// 4 GiB), as `simdex dedup --method minhash` shares it out: half for
// BandJoiner, a quarter for the 4-bit signatures (util::SpillableArray); the
// signatures are made and banded in chunks as they are added, so that the
// process's peak RSS (/usr/bin/time -v) is the join's. Counters: seconds to
// make the signatures (apart), to add them, to join, to read the pairs
// and estimate each; bytes spilled; pairs; pairs kept by the filter (0.729).
// Corpora: the JSONL files of docs/corpora.md in $SIMDEX_CORPORA.
//
//   SIMDEX_CORPORA=build/corpora build/bin/minhash_bench
//   SIMDEX_MINHASH_SCALE=100000000 /usr/bin/time -v build/bin/minhash_bench --benchmark_filter=Scale
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench/mix64.h"
#include "engine/util/spillable_array.h"
#include "simdex/eval.h"
#include "simdex/minhash.h"
#include "simdex/minhash_join.h"

namespace simdex {
namespace {

constexpr int kPerm = 128;
constexpr LshBands kBands{16, 8};  // DefaultLshBands(0.8, 128)

struct Corpus {
  std::vector<std::string> texts;
  std::vector<std::vector<uint64_t>> sets;
  int64_t bytes = 0;
};

const Corpus& LoadCorpus(const std::string& path) {
  static std::string loaded;
  static Corpus corpus;
  if (loaded == path) return corpus;
  corpus = Corpus();
  std::vector<LabelledDocument> docs;
  if (!ReadLabelledSet(path, &docs, /*require_cluster=*/false).ok()) std::abort();
  std::unique_ptr<ShingleMaker> maker;
  if (!ShingleMaker::Create(ShingleOptions(), &maker).ok()) std::abort();
  for (LabelledDocument& d : docs) {
    corpus.bytes += static_cast<int64_t>(d.text.size());
    corpus.sets.emplace_back();
    maker->Make(d.text, &corpus.sets.back());
    corpus.texts.push_back(std::move(d.text));
  }
  loaded = path;
  return corpus;
}

void BM_Sign(benchmark::State& state, const std::string& path, const std::string& stage) {
  const Corpus& c = LoadCorpus(path);
  MinHashOptions o;
  o.num_perm = kPerm;
  std::unique_ptr<MinHasher> hasher;
  std::unique_ptr<BaselineMinHash> baseline;
  std::unique_ptr<ShingleMaker> maker;
  ShingleOptions shingle_options;
  if (stage == "shingles_space_split") shingle_options.words = ShingleWords::kSpaceSplit;
  if (!MinHasher::Create(o, &hasher).ok() || !BaselineMinHash::Create(kPerm, 1, &baseline).ok() ||
      !ShingleMaker::Create(shingle_options, &maker).ok()) {
    std::abort();
  }
  std::vector<uint32_t> sig(kPerm);
  std::vector<uint64_t> sig64(kPerm), shingles;
  for (auto _ : state) {
    for (size_t d = 0; d < c.texts.size(); ++d) {
      if (stage == "shingles" || stage == "shingles_space_split") {
        maker->Make(c.texts[d], &shingles);
      } else if (stage == "simdex") {
        hasher->SignShingles(c.sets[d], sig.data());
      } else if (stage == "baseline") {
        baseline->Sign(c.sets[d], sig64.data());
      } else {
        hasher->Sign(c.texts[d], sig.data());
      }
      benchmark::ClobberMemory();
    }
  }
  state.SetBytesProcessed(state.iterations() * c.bytes);
  state.counters["documents"] = static_cast<double>(c.texts.size());
}

// Signature d of the synthetic batch: documents 2i and 2i+1 share cluster
// i's values except where a per-document draw (probability 0.15) replaces one.
using bench::Mix64;
uint32_t SyntheticValue(uint64_t d, int i) {
  const uint64_t own = Mix64((d << 8) ^ static_cast<uint64_t>(i) ^ 0x5555);
  const bool replaced = (own & 0xffff) < 0.15 * 65536;
  return static_cast<uint32_t>(replaced ? own >> 32 : Mix64(((d / 2) << 8) ^ static_cast<uint64_t>(i)) >> 32);
}

// The synthetic band keys of n documents (band after band), made in chunks
// of signatures. *key_seconds: the time BandKeys took (signature generation
// excluded); *transpose_seconds: the time to put each chunk's keys, made
// document after document, band after band (the layout FindBandPairs takes).
void SyntheticKeys(size_t n, std::vector<uint64_t>* keys, double* key_seconds, double* transpose_seconds) {
  constexpr size_t kChunk = 4096;
  keys->assign(n * kBands.bands, 0);
  std::vector<uint32_t> sigs(kChunk * kPerm);
  std::vector<uint64_t> rows(kChunk * kBands.bands);
  *key_seconds = *transpose_seconds = 0;
  for (size_t begin = 0; begin < n; begin += kChunk) {
    const size_t end = std::min(n, begin + kChunk);
    for (size_t d = begin; d < end; ++d) {
      for (int i = 0; i < kBands.bands * kBands.rows; ++i) sigs[(d - begin) * kPerm + i] = SyntheticValue(d, i);
    }
    const auto start = std::chrono::steady_clock::now();
    for (size_t d = begin; d < end; ++d) BandKeys(&sigs[(d - begin) * kPerm], kBands, &rows[(d - begin) * kBands.bands]);
    const auto keyed = std::chrono::steady_clock::now();
    for (int j = 0; j < kBands.bands; ++j) {
      for (size_t d = begin; d < end; ++d) (*keys)[j * n + d] = rows[(d - begin) * kBands.bands + j];
    }
    *key_seconds += std::chrono::duration<double>(keyed - start).count();
    *transpose_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - keyed).count();
  }
}

void BM_Join(benchmark::State& state, const std::string& who) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<uint64_t> keys, signatures, pairs;
  double key_seconds = 0, transpose_seconds = 0;
  if (who == "baseline") {
    signatures.resize(n * kPerm);
    for (size_t d = 0; d < n; ++d) {
      for (int i = 0; i < kPerm; ++i) signatures[d * kPerm + i] = SyntheticValue(d, i);
    }
  } else {
    SyntheticKeys(n, &keys, &key_seconds, &transpose_seconds);
  }
  std::vector<uint8_t> banded(n, 1);
  for (auto _ : state) {
    if (who == "baseline") {
      if (!LshCandidatePairs(signatures, kPerm, kBands, &pairs).ok()) std::abort();
    } else {
      BandJoinStats stats;
      if (!FindBandPairs(keys, kBands.bands, banded, 1, &pairs, &stats).ok()) std::abort();
    }
  }
  state.counters["pairs"] = static_cast<double>(pairs.size());
  state.counters["ns_per_doc"] = benchmark::Counter(
      static_cast<double>(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  if (who != "baseline") {
    state.counters["band_keys_ns_per_doc"] = key_seconds * 1e9 / static_cast<double>(n);
    state.counters["transpose_ns_per_doc"] = transpose_seconds * 1e9 / static_cast<double>(n);
  }
}

std::string TmpDir() {
  const char* dir = std::getenv("SIMDEX_BENCH_TMPDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/tmp";
}

void Check(const Status& s) {
  if (!s.ok()) {
    std::fprintf(stderr, "minhash_bench: %s\n", s.ToString().c_str());
    std::abort();
  }
}

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void BM_Joiner(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const size_t memory = static_cast<size_t>(state.range(1));
  std::vector<uint64_t> band_major, pairs(4096);
  double key_seconds = 0, transpose_seconds = 0;
  SyntheticKeys(n, &band_major, &key_seconds, &transpose_seconds);
  // The rows item after item, as a caller has them.
  std::vector<uint64_t> rows(n * kBands.bands);
  for (size_t d = 0; d < n; ++d) {
    for (int j = 0; j < kBands.bands; ++j) rows[d * kBands.bands + j] = band_major[j * n + d];
  }
  std::vector<uint64_t>().swap(band_major);
  BandJoinStats stats;
  double add_seconds = 0;
  for (auto _ : state) {
    std::unique_ptr<BandJoiner> join;
    Check(BandJoiner::Create(kBands.bands, {.memory_bytes = memory, .tmpdir = TmpDir()}, &join));
    const auto start = std::chrono::steady_clock::now();
    for (size_t d = 0; d < n; ++d) Check(join->Add(&rows[d * kBands.bands]));
    add_seconds = Since(start);
    Check(join->Finish());
    for (size_t got = 1; got > 0;) Check(join->Read(pairs.data(), pairs.size(), &got));
    stats = join->stats();
  }
  state.counters["pairs"] = static_cast<double>(stats.pairs);
  state.counters["bytes_spilled"] = static_cast<double>(stats.bytes_spilled);
  state.counters["runs_spilled"] = static_cast<double>(stats.runs_spilled);
  state.counters["add_ns_per_doc"] = add_seconds * 1e9 / static_cast<double>(n);
  state.counters["ns_per_doc"] = benchmark::Counter(
      static_cast<double>(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_Scale(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const size_t memory = static_cast<size_t>(state.range(1));
  constexpr int kBits = 4;
  constexpr size_t kChunk = 4096;
  const size_t sig_bytes = PackedSignatureBytes(kPerm, kBits);
  const double threshold = DefaultEstimateFilter(0.8, kPerm);
  std::vector<uint32_t> sigs(kChunk * kPerm);
  std::vector<uint64_t> keys(kChunk * kBands.bands), pairs(4096);
  std::vector<uint8_t> packed(kChunk * sig_bytes);
  double make_s = 0, add_s = 0, join_s = 0, filter_s = 0;
  uint64_t kept = 0, spilled = 0;
  BandJoinStats stats;
  for (auto _ : state) {
    std::unique_ptr<BandJoiner> join;
    Check(BandJoiner::Create(kBands.bands, {.memory_bytes = memory / 2, .tmpdir = TmpDir()}, &join));
    util::SpillableArray signatures(sig_bytes, memory / 4, TmpDir());
    for (size_t begin = 0; begin < n; begin += kChunk) {
      const size_t count = std::min(kChunk, n - begin);
      auto start = std::chrono::steady_clock::now();
      for (size_t d = 0; d < count; ++d) {
        uint32_t* sig = &sigs[d * kPerm];
        for (int i = 0; i < kPerm; ++i) sig[i] = SyntheticValue(begin + d, i);
        BandKeys(sig, kBands, &keys[d * kBands.bands]);
        PackSignature(sig, kPerm, kBits, &packed[d * sig_bytes]);
      }
      make_s += Since(start);
      start = std::chrono::steady_clock::now();
      for (size_t d = 0; d < count; ++d) Check(join->Add(&keys[d * kBands.bands]));
      Check(signatures.Append(packed.data(), count));
      add_s += Since(start);
    }
    auto start = std::chrono::steady_clock::now();
    Check(signatures.Finish());
    Check(join->Finish());
    join_s = Since(start);
    start = std::chrono::steady_clock::now();
    std::vector<uint8_t> a(signatures.record_bytes()), b(signatures.record_bytes());
    for (size_t got = 1; got > 0;) {
      Check(join->Read(pairs.data(), pairs.size(), &got));
      for (size_t i = 0; i < got; ++i) {
        Check(signatures.Read(pairs[i] >> 32, 1, a.data()));
        Check(signatures.Read(pairs[i] & 0xffffffffu, 1, b.data()));
        kept += EstimateJaccardPacked(a.data(), b.data(), kPerm, kBits) >= threshold;
      }
    }
    filter_s = Since(start);
    stats = join->stats();
    spilled = stats.bytes_spilled + signatures.bytes_spilled();
  }
  state.counters["make_s"] = make_s;
  state.counters["add_s"] = add_s;
  state.counters["join_s"] = join_s;
  state.counters["filter_s"] = filter_s;
  state.counters["ns_per_doc"] = (add_s + join_s + filter_s) * 1e9 / static_cast<double>(n);
  state.counters["bytes_spilled"] = static_cast<double>(spilled);
  state.counters["runs_spilled"] = static_cast<double>(stats.runs_spilled);
  state.counters["filtered"] = static_cast<double>(stats.filtered);
  state.counters["pairs"] = static_cast<double>(stats.pairs);
  state.counters["kept"] = static_cast<double>(kept);
}

}  // namespace
}  // namespace simdex

int main(int argc, char** argv) {
  const char* dir = std::getenv("SIMDEX_CORPORA");
  for (const char* name : {"changelog", "copyright", "manpages", "web", "titles", "zh", "de"}) {
    const std::string path = dir == nullptr ? "" : std::string(dir) + "/" + name + ".jsonl";
    if (path.empty() || !std::filesystem::exists(path)) continue;
    for (const char* stage : {"shingles", "shingles_space_split", "simdex", "baseline", "simdex_text"}) {
      benchmark::RegisterBenchmark((std::string("Sign/") + name + "/" + stage).c_str(),
                                   [path, stage](benchmark::State& s) { simdex::BM_Sign(s, path, stage); })
          ->Unit(benchmark::kMillisecond)
          ->MinTime(0.5);
    }
  }
  for (const char* who : {"simdex", "baseline"}) {
    auto* b = benchmark::RegisterBenchmark((std::string("Join/") + who).c_str(),
                                           [who](benchmark::State& s) { simdex::BM_Join(s, who); });
    b->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond)->Iterations(1);
    // The baseline at 10^7 holds 10 GB of signatures: only when asked for.
    if (std::string(who) == "simdex" || std::getenv("SIMDEX_BENCH_BASELINE_1E7") != nullptr) b->Arg(10000000);
  }
  // BandJoiner in memory (4 GiB) and spilling (256 MiB at 10^7).
  benchmark::RegisterBenchmark("Join/joiner", simdex::BM_Joiner)
      ->Args({1000000, int64_t{4} << 30})
      ->Args({10000000, int64_t{4} << 30})
      ->Args({10000000, int64_t{256} << 20})
      ->Unit(benchmark::kMillisecond)
      ->Iterations(1);
  if (const char* scale = std::getenv("SIMDEX_MINHASH_SCALE")) {
    const char* memory = std::getenv("SIMDEX_MINHASH_MEMORY");
    benchmark::RegisterBenchmark("Scale", simdex::BM_Scale)
        ->Args({std::atoll(scale), memory != nullptr ? std::atoll(memory) : int64_t{4} << 30})
        ->Unit(benchmark::kSecond)
        ->Iterations(1);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
