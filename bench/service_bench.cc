// Where a docId request's time goes, in process (no sockets): parsing the
// article JSON, fingerprinting a ~2 KB article, a whole Submit() of a new
// article and of a duplicate, Check(), and the answer's JSON. The load test
// over HTTP is bench/service/load.sh.
//
//   build/bin/service_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// Submit runs against a fresh state in a temporary directory with
// background compaction on (as `simdex serve` runs), so the delta grows
// and compactions happen during the timing, as in service.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/service/article_json.h"
#include "simdex/service.h"

namespace {

using simdex::Article;
using simdex::DocIdAnswer;
using simdex::DocIdService;

// ~2 KB of text: 8 paragraphs of 40 pronounceable words from a pool, as
// bench/service/docid.lua sends.
class Articles {
 public:
  Articles() : rng_(7) {
    const char* consonants = "bdfgklmnprstvz";
    const char* vowels = "aeiou";
    for (int i = 0; i < 4000; ++i) {
      std::string w;
      for (int s = 0; s < 3; ++s) {
        w.push_back(consonants[rng_() % 14]);
        w.push_back(vowels[rng_() % 5]);
      }
      words_.push_back(w);
    }
    for (int p = 0; p < 2000; ++p) {
      std::string para;
      for (int i = 0; i < 40; ++i) para += (i ? " " : "") + words_[rng_() % words_.size()];
      paragraphs_.push_back(para + ".");
    }
  }
  std::string Content() {
    std::string c;
    for (int i = 0; i < 8; ++i) c += (i ? " " : "") + paragraphs_[rng_() % paragraphs_.size()];
    return c;
  }
  std::string Title() {
    std::string t;
    for (int i = 0; i < 6; ++i) t += (i ? " " : "") + words_[rng_() % words_.size()];
    return t;
  }
  std::string Json(uint64_t n, const std::string& content) {
    return "{\"url\":\"http://bench.example/" + std::to_string(n) + "\",\"title\":\"" + Title() +
           "\",\"content\":\"" + content + "\",\"media\":\"bench\"}";
  }

 private:
  std::mt19937_64 rng_;
  std::vector<std::string> words_, paragraphs_;
};

struct State {
  std::string dir;
  std::unique_ptr<DocIdService> service;
  explicit State(bool sync, simdex::ContentMethod method = simdex::ContentMethod::kSimHash) {
    dir = (std::filesystem::temp_directory_path() / ("simdex-service-bench-" + std::to_string(::getpid()))).string();
    std::filesystem::remove_all(dir);
    simdex::ServiceOptions o;
    o.data_dir = dir;
    o.sync = sync;
    o.content_method = method;
    simdex::Status s = DocIdService::Open(o, &service);
    if (!s.ok()) std::abort();
  }
  ~State() {
    service.reset();
    std::filesystem::remove_all(dir);
  }
};

void BM_ParseArticle(benchmark::State& state) {
  Articles a;
  const std::string json = a.Json(1, a.Content());
  simdex::service::ParsedArticle parsed;
  for (auto _ : state) {
    simdex::Status s = simdex::service::ParseArticle(json, "", &parsed);
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * json.size()));
}
BENCHMARK(BM_ParseArticle);

void BM_FingerprintArticle(benchmark::State& state) {
  Articles a;
  State st(false);
  std::vector<std::string> contents;
  for (int i = 0; i < 64; ++i) contents.push_back(a.Content());
  size_t i = 0, bytes = 0;
  for (auto _ : state) {
    const std::string& c = contents[i++ % contents.size()];
    benchmark::DoNotOptimize(st.service->FingerprintText(c));
    bytes += c.size();
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_FingerprintArticle);

// Submit() of articles: dup% of them repeat the content of one of the last
// 1,000 new ones, the others are new (made in the loop from the paragraph
// pool: about 1 us of each iteration); urls never repeat. sync: 1 fsyncs
// the log before each answer.
// The stream of BM_Submit into a service whose contents match by `method`.
void SubmitStream(benchmark::State& state, int64_t dup_percent, bool sync, simdex::ContentMethod method) {
  Articles a;
  State st(sync, method);
  std::mt19937_64 rng(3);
  std::vector<std::string> recent;
  simdex::service::ParsedArticle p;
  uint64_t n = 0, duplicates = 0;
  DocIdAnswer answer;
  for (auto _ : state) {
    if (!recent.empty() && static_cast<int64_t>(rng() % 100) < dup_percent) {
      p.content = recent[rng() % recent.size()];
    } else {
      p.content = a.Content();
      if (recent.size() < 1000) recent.push_back(p.content);
      else recent[rng() % recent.size()] = p.content;
    }
    p.url = "http://bench.example/" + std::to_string(n++);
    p.title = a.Title();
    p.json = p.content;
    simdex::Status s = st.service->Submit(p.view(), &answer);
    if (!s.ok()) state.SkipWithError(s.ToString().c_str());
    duplicates += answer.duplicate;
  }
  state.counters["duplicate_share"] = static_cast<double>(duplicates) / static_cast<double>(std::max<uint64_t>(n, 1));
  const simdex::ServiceStats stats = st.service->stats();
  state.counters["delta_entries"] = static_cast<double>(stats.delta_entries);
  state.counters["delta_memory_bytes"] = static_cast<double>(stats.delta_memory_bytes);
}

// Submit() of articles: dup% of them repeat the content of one of the last
// 1,000 new ones, the others are new (made in the loop from the paragraph
// pool: about 1 us of each iteration); urls never repeat. sync: 1 fsyncs
// the log before each answer.
void BM_Submit(benchmark::State& state) {
  SubmitStream(state, state.range(0), state.range(1) != 0, simdex::ContentMethod::kSimHash);
}
BENCHMARK(BM_Submit)->Args({0, 0})->Args({30, 0})->Args({30, 1})->ArgNames({"dup%", "sync"})->UseRealTime();

// The same stream (30% repeats, no sync) with SimHash (method 0) and
// MinHash-LSH (method 1) contents, 20,000 articles a run into a fresh state
// (docs/benchmarks.md, "The docId service").
void BM_SubmitByContentMethod(benchmark::State& state) {
  SubmitStream(state, 30, false, static_cast<simdex::ContentMethod>(state.range(0)));
}
BENCHMARK(BM_SubmitByContentMethod)->Arg(0)->Arg(1)->ArgName("method")->Iterations(20000)->UseRealTime();

void BM_Check(benchmark::State& state) {
  Articles a;
  State st(false);
  simdex::service::ParsedArticle p;
  for (int i = 0; i < 20000; ++i) {
    if (!simdex::service::ParseArticle(a.Json(i, a.Content()), "", &p).ok()) std::abort();
    DocIdAnswer answer;
    if (!st.service->Submit(p.view(), &answer).ok()) std::abort();
  }
  std::vector<simdex::service::ParsedArticle> queries(256);
  for (size_t i = 0; i < queries.size(); ++i) {
    if (!simdex::service::ParseArticle(a.Json(1000000 + i, a.Content()), "", &queries[i]).ok()) std::abort();
  }
  size_t i = 0;
  DocIdAnswer answer;
  for (auto _ : state) {
    simdex::Status s = st.service->Check(queries[i++ % queries.size()].view(), &answer);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_Check)->UseRealTime();

void BM_AnswerJson(benchmark::State& state) {
  DocIdAnswer answer;
  answer.doc_id = 0x1234567890abcdefull;
  answer.duplicate = true;
  answer.reason = simdex::FilterReason::kContent;
  answer.matched_id_json = "\"a-17\"";
  answer.distance = 2;
  std::string out;
  for (auto _ : state) {
    out.clear();
    simdex::service::AppendAnswer(&out, answer);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_AnswerJson);

}  // namespace

BENCHMARK_MAIN();
