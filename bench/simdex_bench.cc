// simdex-bench: builds an index over generated fingerprints and measures it
// against a brute-force popcount scan of the same data in the same run.
//
// Scenarios (one run measures all of them for one N, scheme and block size):
//   build       wall time, peak RSS, spilled runs
//   space       bits per entry of each table and in total, ratio to the
//               entropy bound log2 C(2^64, N) / N
//   near        queries that are stored fingerprints with 0..k bits flipped:
//               latency p50/p90/p99/max, blocks and entries decoded per query
//   random      uniformly random queries (almost never a match)
//   checksums   the near queries again with block checksum verification on
//   batch       the near queries through the batch API at --threads
//   scan        brute-force popcount scan per query (the baseline); its
//               results are compared with the index's, and a mismatch fails
//               the run
//
// Example: build/bin/simdex-bench --n 10000000 --scheme t10 --block-size 1024
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "simdex/fingerprint.h"
#include "simdex/index.h"

namespace simdex {
namespace {

using Clock = std::chrono::steady_clock;

double Micros(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

struct Percentiles {
  double p50 = 0, p90 = 0, p99 = 0, max = 0;
};

Percentiles Summarize(std::vector<double> v) {
  Percentiles p;
  if (v.empty()) return p;
  std::sort(v.begin(), v.end());
  auto at = [&](double q) { return v[std::min(v.size() - 1, static_cast<size_t>(q * v.size()))]; };
  p.p50 = at(0.5);
  p.p90 = at(0.9);
  p.p99 = at(0.99);
  p.max = v.back();
  return p;
}

std::vector<Match> Scan(const std::vector<uint64_t>& fps, uint64_t q, int k) {
  std::vector<Match> out;
  for (size_t i = 0; i < fps.size(); ++i) {
    const int d = HammingDistance(fps[i], q);
    if (d <= k) out.push_back({i, fps[i], d});
  }
  std::sort(out.begin(), out.end(), [](const Match& a, const Match& b) {
    if (a.distance != b.distance) return a.distance < b.distance;
    if (a.id != b.id) return a.id < b.id;
    return a.fingerprint < b.fingerprint;
  });
  return out;
}

struct LatencyRun {
  Percentiles us;
  double blocks_per_query = 0;
  double entries_per_query = 0;
  double matches_per_query = 0;
};

LatencyRun MeasureLatency(const IndexReader& reader, const std::vector<uint64_t>& queries, int k) {
  LatencyRun run;
  std::vector<double> lat;
  lat.reserve(queries.size());
  std::vector<Match> out;
  SearchStats stats;
  size_t matches = 0;
  for (uint64_t q : queries) {
    const auto a = Clock::now();
    Status s = reader.Search(q, k, &out, &stats);
    const auto b = Clock::now();
    if (!s.ok()) {
      std::fprintf(stderr, "simdex-bench: search failed: %s\n", s.ToString().c_str());
      std::exit(1);
    }
    lat.push_back(Micros(a, b));
    matches += out.size();
  }
  run.us = Summarize(lat);
  const double nq = static_cast<double>(queries.size());
  run.blocks_per_query = stats.blocks_decoded / nq;
  run.entries_per_query = stats.entries_scanned / nq;
  run.matches_per_query = matches / nq;
  return run;
}

void PrintLatency(const char* name, const LatencyRun& r) {
  std::printf("%-10s p50 %8.2f us  p90 %8.2f  p99 %8.2f  max %9.2f | blocks/q %.1f entries/q %.0f matches/q %.2f\n",
              name, r.us.p50, r.us.p90, r.us.p99, r.us.max, r.blocks_per_query, r.entries_per_query,
              r.matches_per_query);
}

long PeakRssKiB() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

int Run(int argc, char** argv) {
  CLI::App app{"simdex-bench: build and measure an index against a brute-force scan"};
  uint64_t n = 1000000;
  std::string scheme_name = "t10";
  uint32_t block_size = 1024;
  int restarts = BuildOptions().restarts;
  int k = -1;
  size_t nqueries = 20000;
  size_t scan_queries = 20;
  int threads = 1;
  std::string dir = std::filesystem::temp_directory_path();
  std::string memory = "";
  uint64_t seed = 1;
  bool keep = false;
  app.add_option("--n", n, "number of fingerprints (uniform random)");
  app.add_option("--scheme", scheme_name, "t4, t10, t20 or W,W,...:K");
  app.add_option("--block-size", block_size, "block size in bytes");
  app.add_option("--restarts", restarts, "restart points per block (0..15)");
  app.add_option("--k", k, "query distance (default: the scheme's k)");
  app.add_option("--queries", nqueries, "queries per latency scenario");
  app.add_option("--scan-queries", scan_queries, "queries for the brute-force baseline");
  app.add_option("--threads", threads, "threads for the build and the batch scenario");
  app.add_option("--dir", dir, "directory for the index file");
  app.add_option("--memory-mib", memory, "builder memory budget in MiB");
  app.add_option("--seed", seed, "data seed");
  app.add_flag("--keep", keep, "keep the index file");
  CLI11_PARSE(app, argc, argv);

  BuildOptions options;
  Status s = Scheme::Parse(scheme_name, &options.scheme);
  if (!s.ok()) {
    std::fprintf(stderr, "simdex-bench: %s\n", s.message().c_str());
    return 2;
  }
  if (k < 0) k = options.scheme.k();
  options.block_size = block_size;
  options.restarts = restarts;
  options.threads = threads;
  options.tmpdir = dir;
  if (!memory.empty()) options.memory_bytes = std::stoull(memory) << 20;

  std::mt19937_64 rng(seed);
  std::vector<uint64_t> fps(n), ids(n);
  for (uint64_t i = 0; i < n; ++i) {
    fps[i] = rng();
    ids[i] = i;
  }
  const std::string path = dir + "/simdex-bench-" + std::to_string(getpid()) + ".sdx";
  const long rss_before = PeakRssKiB();
  auto t0 = Clock::now();
  std::unique_ptr<IndexBuilder> builder;
  s = IndexBuilder::Create(path, options, &builder);
  if (s.ok()) s = builder->Add(ids, fps);
  if (s.ok()) s = builder->Finish();
  const double build_s = Micros(t0, Clock::now()) / 1e6;
  if (!s.ok()) {
    std::fprintf(stderr, "simdex-bench: build failed: %s\n", s.ToString().c_str());
    return 1;
  }
  const BuildStats bstats = builder->stats();
  builder.reset();

  std::unique_ptr<IndexReader> reader;
  s = IndexReader::Open(path, ReaderOptions(), &reader);
  if (!s.ok()) {
    std::fprintf(stderr, "simdex-bench: open failed: %s\n", s.ToString().c_str());
    return 1;
  }
  const IndexInfo info = reader->Info();
  std::printf("N %llu  scheme %s  block %u B  restarts %d  k %d  threads %d\n", static_cast<unsigned long long>(n),
              info.scheme.c_str(), block_size, info.restarts, k, threads);
  std::printf("build      %.2f s (sorting %.2f, encoding %.2f)  peak RSS %ld MiB (before %ld)  spilled runs %llu\n",
              build_s, bstats.seconds_sorting, bstats.seconds_encoding, PeakRssKiB() / 1024, rss_before / 1024,
              static_cast<unsigned long long>(bstats.spilled_runs));
  const double bound = info.entropy_bound_bits_per_entry;
  double worst = 0;
  for (const auto& t : info.tables) worst = std::max(worst, t.bytes * 8.0 / n / bound);
  std::printf("space      bound %.3f bits/entry; table 0 %.3f bits/entry (%.4f x bound, payload alone %.4f x); "
              "worst table %.4f x; ids %.2f bits/entry; file %.2f bytes/entry\n",
              bound, info.tables[0].bytes * 8.0 / n, info.tables[0].bytes * 8.0 / n / bound,
              info.tables[0].payload_bits / static_cast<double>(n) / bound, worst, info.id_bytes * 8.0 / n,
              static_cast<double>(info.total_bytes) / n);

  std::vector<uint64_t> near(nqueries), random(nqueries);
  for (size_t i = 0; i < nqueries; ++i) {
    uint64_t q = fps[rng() % n];
    const int flips = static_cast<int>(rng() % (k + 1));
    for (int f = 0; f < flips; ++f) q ^= 1ULL << (rng() % 64);
    near[i] = q;
    random[i] = rng();
  }
  MeasureLatency(*reader, near, k);  // warm the page cache and CPU caches
  const LatencyRun near_run = MeasureLatency(*reader, near, k);
  PrintLatency("near", near_run);
  PrintLatency("random", MeasureLatency(*reader, random, k));

  std::unique_ptr<IndexReader> checked;
  ReaderOptions with_checksums;
  with_checksums.verify_block_checksums = true;
  s = IndexReader::Open(path, with_checksums, &checked);
  if (s.ok()) PrintLatency("checksums", MeasureLatency(*checked, near, k));

  SearchResults batch;
  auto tb = Clock::now();
  s = reader->Search(near, k, &batch, threads);
  const double batch_s = Micros(tb, Clock::now()) / 1e6;
  std::printf("batch      %.0f queries/s at %d thread(s)\n", nqueries / batch_s, threads);

  std::vector<double> scan_lat;
  size_t mismatches = 0;
  std::vector<Match> got;
  for (size_t i = 0; i < std::min(scan_queries, nqueries); ++i) {
    const auto a = Clock::now();
    const std::vector<Match> want = Scan(fps, near[i], k);
    scan_lat.push_back(Micros(a, Clock::now()));
    s = reader->Search(near[i], k, &got);
    const std::vector<Match> from_batch(batch.matches.begin() + batch.lims[i],
                                        batch.matches.begin() + batch.lims[i + 1]);
    if (!s.ok() || got != want || from_batch != want) ++mismatches;
  }
  const Percentiles scan = Summarize(scan_lat);
  std::printf("scan       p50 %.0f us per query (brute force over %llu fingerprints); index near p50 is %.0fx faster\n",
              scan.p50, static_cast<unsigned long long>(n), scan.p50 / near_run.us.p50);
  if (!keep) std::filesystem::remove(path);
  if (mismatches) {
    std::fprintf(stderr, "simdex-bench: %zu of %zu queries disagree with the brute-force scan\n", mismatches,
                 std::min(scan_queries, nqueries));
    return 1;
  }
  std::printf("results    identical to the brute-force scan on %zu queries\n", std::min(scan_queries, nqueries));
  return 0;
}

}  // namespace
}  // namespace simdex

int main(int argc, char** argv) { return simdex::Run(argc, argv); }
