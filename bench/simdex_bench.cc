// simdex-bench: measures simdex indexes over a grid of data sets, sizes,
// schemes, block sizes, k and thread counts, side by side with a brute-force
// scan, an uncompressed permuted-table index and Faiss's binary hash indexes,
// all on the same fingerprints and queries, with every answer compared to the
// scan's. Writes JSON Lines (bench/harness/json_writer.h lists the fields);
// progress goes to standard error. scripts/bench_report.py turns the JSON into
// docs/benchmarks.md's tables and plots; scripts/bench_all.sh runs the study.
//
// Examples:
//   build/bin/simdex-bench --quick > quick.jsonl
//   build/bin/simdex-bench --n 1e5 --codec card,ef --block-sizes 1K,4K --repeat 3 --json ab.jsonl
//   build/bin/simdex-bench --datasets uniform,skewed --n 1e6,1e7 --scheme t10
//       --scheme 16,16,16,16:2 --block-sizes 1K,4K --threads 1,2 --cold --json out.jsonl
//   (one command line)
//
// --dir is created (with its parents) if missing; one that is not a
// directory or not writable is refused before anything is generated,
// measured or written.
//
// Exit status: 0 done; 1 a build or search failed or a searcher disagreed
// with the scan (the point and query are printed); 2 bad options (an unusable
// --dir among them).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench/harness/grid.h"
#include "bench/harness/json_writer.h"
#include "bench/harness/run_info.h"
#include "bench/harness/work_dir.h"

namespace simdex::bench {
namespace {

// "100000", "1e5", "2.5e6" -> the integer; false for anything else.
bool ParseCount(const std::string& text, uint64_t* out) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !(v >= 1) || v > 1e15 || v != static_cast<double>(static_cast<uint64_t>(v))) {
    return false;
  }
  *out = static_cast<uint64_t>(v);
  return true;
}

// "512", "1K", "64k" -> bytes; false for anything else.
bool ParseBlockSize(std::string text, uint32_t* out) {
  uint32_t scale = 1;
  if (!text.empty() && (text.back() == 'K' || text.back() == 'k')) {
    scale = 1024;
    text.pop_back();
  }
  uint64_t v = 0;
  if (!ParseCount(text, &v) || v * scale > (1u << 30)) return false;
  *out = static_cast<uint32_t>(v * scale);
  return true;
}

// Parses every text of an option's list into *out; prints the first one
// that does not parse and returns false.
template <typename T, typename ParseFn>
bool ParseAll(const std::vector<std::string>& texts, const char* option, const char* what, ParseFn parse,
              std::vector<T>* out) {
  out->clear();
  for (const std::string& t : texts) {
    T value{};
    if (!parse(t, &value)) {
      std::fprintf(stderr, "simdex-bench: %s: '%s' is not %s\n", option, t.c_str(), what);
      return false;
    }
    out->push_back(value);
  }
  return true;
}

int Run(int argc, char** argv) {
  CLI::App app{"simdex-bench: simdex indexes and the alternatives, measured side by side (JSON Lines out)"};
  GridConfig config;
  std::vector<std::string> n_texts, block_texts;
  std::string json = "-";
  bool quick = false;
  double memory_limit_gib = 0;
  config.dir = std::filesystem::temp_directory_path().string();

  auto* datasets = app.add_option("--datasets", config.datasets, "uniform, clusters, skewed, text")->delimiter(',');
  auto* ns = app.add_option("--n", n_texts, "fingerprints per data set, e.g. 1e5,1e6 (text: capped at the corpus)")
                 ->delimiter(',');
  auto* schemes = app.add_option("--scheme", config.schemes, "a scheme (t4, t10, t20, W,W,...:K); repeat for more");
  auto* blocks = app.add_option("--block-sizes", block_texts, "block sizes in bytes, e.g. 512,1K,64K")->delimiter(',');
  app.add_option("--restarts", config.restarts, "restart points per block, 0..15 (default: the library's)")
      ->capture_default_str();
  app.add_option("--codec", config.codecs, "block codecs, each measured at every block size: card (the default here), ef, auto (simdex build's default)")
      ->delimiter(',')
      ->capture_default_str();
  auto* ks = app.add_option("--k", config.ks, "query distances, e.g. 0,1,2,3 (each scheme: those <= its k)")
                 ->delimiter(',');
  auto* threads = app.add_option("--threads", config.threads, "query threads, e.g. 1,2")->delimiter(',');
  auto* baselines = app.add_option("--baselines", config.baselines,
                                   "scan, permuted, faiss-hash, faiss-multihash ('scan' always runs; 'none' for no other)")
                        ->delimiter(',');
  app.add_flag("--cold", config.cold, "also measure cold batches (file evicted from the page cache)");
  app.add_flag("--checksums", config.checksums,
               "also measure the first queries of a freshly opened simdex reader (each block and section "
               "checked on first use) and an Open() that checks every checksum");
  auto* queries = app.add_option("--queries", config.queries, "queries per set (near per k, random)");
  app.add_option("--cold-queries", config.cold_queries, "queries per cold batch");
  app.add_option("--scan-queries", config.scan_queries,
                 "queries the scan answers and every searcher is checked on (default: all up to 5e8/N, >= 50)");
  app.add_option("--seconds-per-set", config.seconds_per_set,
                 "answer at most the queries of a set that fit in about this many seconds (0: all)");
  app.add_option("--repeat", config.repeat,
                 "measure every point this many times: its records hold the medians and the spread (min, max); "
                 "simdex's indexes (every scheme, block size and codec) are then all built first and measured "
                 "round by round")
      ->capture_default_str();
  app.add_option("--dir", config.dir, "directory for index files (created if missing)")->capture_default_str();
  app.add_option("--memory-mib", config.memory_mib, "index builder memory budget in MiB");
  app.add_option("--build-threads", config.build_threads, "index builder threads");
  app.add_option("--memory-limit-gib", memory_limit_gib,
                 "skip baselines that would take the harness past this (default: MemTotal - 2 GiB)");
  app.add_option("--json", json, "output file ('-': standard output)");
  app.add_flag("--quick", quick,
               "small grid (N 1e5,1e6; uniform, clusters; t4, t10; 1K, 4K blocks; k 0..3; 1 thread; all baselines)");
  app.add_option("--text-fingerprints", config.text_fingerprints,
                 "fingerprint file of the text data set (scripts/bench_text_data.sh)");
  app.add_option("--seed", config.seed, "seed of the generated data and queries");
  CLI11_PARSE(app, argc, argv);

  if (quick) {
    if (!datasets->count()) config.datasets = {"uniform", "clusters"};
    if (!ns->count()) n_texts = {"1e5", "1e6"};
    if (!schemes->count()) config.schemes = {"t4", "t10"};
    if (!blocks->count()) block_texts = {"1024", "4096"};
    if (!ks->count()) config.ks = {0, 1, 2, 3};
    if (!threads->count()) config.threads = {1};
    if (!baselines->count()) config.baselines = {"scan", "permuted", "faiss-hash", "faiss-multihash"};
    if (!queries->count()) config.queries = 2000;
  }
  if (n_texts.empty()) n_texts = {"1e6"};
  if (block_texts.empty()) block_texts = {"1024"};
  if (config.schemes.empty()) config.schemes = {"t10"};
  config.baselines.erase(std::remove(config.baselines.begin(), config.baselines.end(), "none"),
                         config.baselines.end());
  if (!ParseAll(n_texts, "--n", "a whole number >= 1", ParseCount, &config.ns) ||
      !ParseAll(block_texts, "--block-sizes", "a size (512, 1K, ...)", ParseBlockSize, &config.block_sizes)) {
    return 2;
  }
  const uint64_t total = MemTotalBytes();
  config.memory_limit_bytes = memory_limit_gib > 0 ? static_cast<uint64_t>(memory_limit_gib * (1 << 30))
                              : total > (uint64_t{4} << 30) ? total - (uint64_t{2} << 30)
                                                            : total / 2;

  Status s = PrepareWorkDirectory(config.dir);
  if (!s.ok()) {
    std::fprintf(stderr, "simdex-bench: --dir %s\n", s.message().c_str());
    return 2;
  }
  JsonLinesWriter out;
  s = out.Open(json);
  if (!s.ok()) {
    std::fprintf(stderr, "simdex-bench: %s\n", s.message().c_str());
    return 1;
  }
  const std::vector<std::string> command(argv, argv + argc);
  s = out.Write(HeaderRecord(command, ConfigJson(config)));
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  if (s.ok()) {
    s = RunGrid(config, &out, [&](const std::string& line) {
      std::fprintf(stderr, "[%7.1f s] %s\n", elapsed(), line.c_str());
    });
  }
  if (s.ok()) s = out.Write(FooterRecord(elapsed()));
  if (!s.ok()) {
    std::fprintf(stderr, "simdex-bench: %s\n", s.message().c_str());
    return s.IsInvalidArgument() ? 2 : 1;
  }
  std::fprintf(stderr, "simdex-bench: done in %.1f s\n", elapsed());
  return 0;
}

}  // namespace
}  // namespace simdex::bench

int main(int argc, char** argv) { return simdex::bench::Run(argc, argv); }
