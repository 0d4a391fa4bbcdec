// Fingerprint throughput per tokenizer and language, the plain ICU path as a
// baseline for the fast paths, and the combine step alone.
//
// Scenarios (MB/s of UTF-8 input, one document per iteration, cycling):
//   Fingerprint/{words,char3,word2}/{en,zh}  Fingerprinter::Fingerprint, defaults
//                                            (NFKC_Casefold, tf weights)
//   ExtractIcuOnly/words/{en,zh}             features with the fast paths off
//   CombineWeightedHashes/N, IntegerBitSums/N  the combine alone (items = features)
//
// Corpora: SIMDEX_BENCH_CORPUS_EN and SIMDEX_BENCH_CORPUS_ZH name files, by
// default tests/data/sample/docs.jsonl. A file whose first byte is '{' is read
// as JSON lines {"id":..,"lang":"en"|"zh","text":..} (documents of the other
// language skipped); any other file is plain text cut into ~4 KiB documents at
// line ends.
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "engine/text/bit_sums.h"
#include "engine/text/feature_extractor.h"
#include "simdex/fingerprint.h"

namespace simdex {
namespace {

std::string CorpusPath(const std::string& lang) {
  const char* env = std::getenv(lang == "en" ? "SIMDEX_BENCH_CORPUS_EN" : "SIMDEX_BENCH_CORPUS_ZH");
  if (env != nullptr && *env != '\0') return env;
  return std::string(SIMDEX_SOURCE_DIR) + "/tests/data/sample/docs.jsonl";
}

std::vector<std::string> ReadCorpus(const std::string& path, const std::string& lang) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buf;
  buf << in.rdbuf();
  const std::string data = buf.str();
  std::vector<std::string> docs;
  if (!data.empty() && data[0] == '{') {
    simdjson::dom::parser parser;
    std::istringstream lines(data);
    for (std::string line; std::getline(lines, line);) {
      simdjson::dom::element doc;
      if (line.empty() || parser.parse(line).get(doc)) continue;
      std::string_view doc_lang, text;
      if (!doc["lang"].get(doc_lang) && doc_lang != lang) continue;
      if (!doc["text"].get(text)) docs.emplace_back(text);
    }
    return docs;
  }
  for (size_t start = 0; start < data.size();) {
    size_t end = data.find('\n', std::min(data.size(), start + 4096));
    end = end == std::string::npos ? data.size() : end + 1;
    docs.push_back(data.substr(start, end - start));
    start = end;
  }
  return docs;
}

const std::vector<std::string>& Corpus(const std::string& lang) {
  static std::map<std::string, std::vector<std::string>> cache;
  auto it = cache.find(lang);
  if (it == cache.end()) it = cache.emplace(lang, ReadCorpus(CorpusPath(lang), lang)).first;
  return it->second;
}

FingerprintOptions OptionsFor(const std::string& tokenizer) {
  FingerprintOptions o;
  if (tokenizer == "char3") {
    o.tokenizer = Tokenizer::kCharNgrams;
    o.ngram = 3;
  } else if (tokenizer == "word2") {
    o.tokenizer = Tokenizer::kWordNgrams;
    o.ngram = 2;
  }
  return o;
}

void BM_Fingerprint(benchmark::State& state, std::string tokenizer, std::string lang) {
  const auto& docs = Corpus(lang);
  if (docs.empty()) {
    state.SkipWithError(("no " + lang + " documents in " + CorpusPath(lang)).c_str());
    return;
  }
  std::unique_ptr<Fingerprinter> fp;
  if (!Fingerprinter::Create(OptionsFor(tokenizer), &fp).ok()) {
    state.SkipWithError("Fingerprinter::Create failed");
    return;
  }
  size_t i = 0, bytes = 0;
  for (auto _ : state) {
    const std::string& doc = docs[i];
    benchmark::DoNotOptimize(fp->Fingerprint(doc));
    bytes += doc.size();
    if (++i == docs.size()) i = 0;
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}

void BM_ExtractIcuOnly(benchmark::State& state, std::string lang) {
  const auto& docs = Corpus(lang);
  if (docs.empty()) {
    state.SkipWithError(("no " + lang + " documents in " + CorpusPath(lang)).c_str());
    return;
  }
  text::ExtractorConfig config;
  config.plain = true;
  std::unique_ptr<text::FeatureExtractor> extractor;
  if (!text::FeatureExtractor::Create(config, &extractor).ok()) {
    state.SkipWithError("FeatureExtractor::Create failed");
    return;
  }
  text::FeatureTable table;
  text::ExtractStats stats;
  size_t i = 0, bytes = 0;
  for (auto _ : state) {
    extractor->Extract(docs[i], &table, &stats);
    benchmark::DoNotOptimize(table.entries().data());
    bytes += docs[i].size();
    if (++i == docs.size()) i = 0;
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}

std::vector<WeightedHash> RandomHashes(size_t n) {
  std::mt19937_64 rng(3);
  std::vector<WeightedHash> hashes(n);
  for (auto& h : hashes) h = {rng(), static_cast<double>(1 + rng() % 4)};
  return hashes;
}

void BM_CombineWeightedHashes(benchmark::State& state) {
  auto hashes = RandomHashes(static_cast<size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(CombineWeightedHashes(hashes));
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() * state.range(0) *
                          static_cast<int64_t>(sizeof(WeightedHash)));
}

void BM_IntegerBitSums(benchmark::State& state) {
  auto hashes = RandomHashes(static_cast<size_t>(state.range(0)));
  text::IntegerBitSums sums;
  for (auto _ : state) {
    sums.Clear();
    for (const auto& h : hashes) sums.Add(h.hash, static_cast<uint64_t>(h.weight));
    benchmark::DoNotOptimize(sums.Fingerprint(64));
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() * state.range(0) *
                          static_cast<int64_t>(sizeof(WeightedHash)));
}

void RegisterAll() {
  for (const char* tokenizer : {"words", "char3", "word2"}) {
    for (const char* lang : {"en", "zh"}) {
      benchmark::RegisterBenchmark(
          (std::string("Fingerprint/") + tokenizer + "/" + lang).c_str(), BM_Fingerprint,
          std::string(tokenizer), std::string(lang));
    }
  }
  for (const char* lang : {"en", "zh"}) {
    benchmark::RegisterBenchmark((std::string("ExtractIcuOnly/words/") + lang).c_str(),
                                 BM_ExtractIcuOnly, std::string(lang));
  }
  benchmark::RegisterBenchmark("CombineWeightedHashes", BM_CombineWeightedHashes)->Arg(1000);
  benchmark::RegisterBenchmark("IntegerBitSums", BM_IntegerBitSums)->Arg(1000);
}

}  // namespace
}  // namespace simdex

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  simdex::RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
