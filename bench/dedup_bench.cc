// simdex-dedup-bench: measures batch de-duplication (include/simdex/dedup.h)
// beside the Python simhash package's find_all algorithm
// (bench/harness/find_all.h), each point in a forked child so that its peak
// memory is its own. Figures and commands: docs/benchmarks.md.
//
// Scenarios (each optional):
//   self-join  N planted-cluster fingerprints (a uniform centre and 0..15
//              members 0..3 bits from it, as simdex-bench's clusters set),
//              streamed into a Deduplicator: wall time (adding and
//              Finish), peak RSS, pairs, pairs per second; find_all on the
//              same fingerprints for N up to --baseline-max-n, with its
//              pair count checked against simdex's distinct pairs.
//   against    a batch (half near copies of stored fingerprints, half new)
//              against an index of --index-n planted-cluster fingerprints,
//              by probes and by the merge join, for every --batch-n: the
//              crossover; both strategies' matches are checked equal.
//   merge      every --merge-batch-n batch (the same kind) merged into that
//              index by IndexMerger beside a fresh IndexBuilder run over the
//              union: time and peak RSS of each; the files must be equal.
//   queries    --query-n single queries against that index on one thread,
//              near copies of stored fingerprints and random ones, warm
//              (after a pass over the same queries) and cold (the file
//              evicted from the page cache, opened again without reading
//              its heads, MADV_RANDOM): p50, p99, queries per second, the
//              page cache's size; then each set once more cold as one batch
//              Search() (queries per second). --cold-reads sets both
//              readers' ReaderOptions::cold_reads, --access the warm one's
//              access. The first answers of each set are checked against a
//              scan of the stored fingerprints.
//
// The stored index holds --data fingerprints (planted clusters, or uniform)
// in --scheme, --codec and --block-size; it is built once into --dir
// (build time, peak RSS and bytes reported) and kept there for the next run.
//
// Output: a line per point on stdout, and JSON Lines with --json.
#include <sys/mman.h>
#include <sys/stat.h>

#include <algorithm>
#include <bit>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench/harness/build_child.h"
#include "bench/harness/child_process.h"
#include "bench/harness/find_all.h"
#include "bench/harness/json_writer.h"
#include "bench/harness/measure.h"
#include "bench/harness/run_info.h"
#include "bench/harness/simdex_point.h"
#include "engine/simhash/dedup/against.h"
#include "simdex/dedup.h"
#include "simdex/index.h"
#include "simdex/merge.h"

namespace simdex::bench {
namespace {

using Clock = std::chrono::steady_clock;
// The page cache's size now: "Cached" of /proc/meminfo (0 where unread).
uint64_t PageCacheBytes() {
  FILE* f = std::fopen("/proc/meminfo", "r");
  if (f == nullptr) return 0;
  char line[256];
  unsigned long long kib = 0;
  while (std::fgets(line, sizeof line, f)) {
    if (std::sscanf(line, "Cached: %llu kB", &kib) == 1) break;
  }
  std::fclose(f);
  return static_cast<uint64_t>(kib) * 1024;
}

double Seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

// Planted clusters as a stream: no input array, so a child's peak memory
// is the de-duplicator's own.
class PlantedClusters {
 public:
  // clusters = false: uniform random fingerprints instead.
  explicit PlantedClusters(uint64_t seed, bool clusters = true) : rng_(seed), clusters_(clusters) {}
  uint64_t Next() {
    if (!clusters_) return rng_();
    if (left_ == 0) {
      centre_ = rng_();
      left_ = static_cast<int>(rng_() % 16);  // members after the centre
      return centre_;
    }
    --left_;
    uint64_t v = centre_;
    for (int d = static_cast<int>(rng_() % 4); d > 0;) {
      const uint64_t bit = uint64_t{1} << (rng_() % 64);
      if ((v ^ centre_) & bit) continue;
      v ^= bit;
      --d;
    }
    return v;
  }

 private:
  std::mt19937_64 rng_;
  const bool clusters_;
  uint64_t centre_ = 0;
  int left_ = 0;
};

struct Config {
  std::vector<double> selfjoin_n;
  std::string data = "clusters";
  std::vector<int> threads = {1};
  std::string scheme = "t10";
  std::string codec = "card";
  uint32_t block_size = 4096;
  int k = 3;
  double memory_gib = 4;
  double baseline_max_n = 1e7;
  double index_n = 0;
  std::vector<double> batch_n;
  std::vector<double> merge_batch_n;
  double query_n = 0;
  size_t cold_queries = 1000;
  std::string access = "auto";             // the warm reader's ReaderOptions::access (cold: random)
  std::string cold_reads = "when-missing";  // both readers' ReaderOptions::cold_reads
  std::string dir = std::filesystem::temp_directory_path().string();
  std::string json;
  uint64_t seed = 1;
};

DedupOptions Options(const Config& c, int threads) {
  DedupOptions o;
  Status s = Scheme::Parse(c.scheme, &o.scheme);
  if (!s.ok()) std::fprintf(stderr, "%s\n", s.ToString().c_str());
  o.k = c.k;
  o.memory_bytes = static_cast<size_t>(c.memory_gib * (1 << 30));
  o.tmpdir = c.dir;
  o.threads = threads;
  return o;
}

// The counters of DedupStats a child sends back, as text.
std::string Serialize(double adding, double total, const DedupStats& s) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.17g %.17g %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %.17g %.17g %.17g %.17g",
                adding, total, static_cast<unsigned long long>(s.documents),
                static_cast<unsigned long long>(s.distinct_fingerprints), static_cast<unsigned long long>(s.pairs),
                static_cast<unsigned long long>(s.distinct_pairs), static_cast<unsigned long long>(s.clusters),
                static_cast<unsigned long long>(s.duplicates), static_cast<unsigned long long>(s.comparisons),
                static_cast<unsigned long long>(s.spilled_runs), static_cast<unsigned long long>(s.against_matches),
                static_cast<unsigned long long>(s.against_blocks_decoded), s.seconds_distinct, s.seconds_self_join,
                s.seconds_against, s.seconds_clusters);
  return buf;
}

void Deserialize(const std::string& text, double* adding, double* total, DedupStats* s) {
  unsigned long long v[10] = {};
  std::sscanf(text.c_str(), "%lg %lg %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %lg %lg %lg %lg", adding, total,
              &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &s->seconds_distinct,
              &s->seconds_self_join, &s->seconds_against, &s->seconds_clusters);
  s->documents = v[0];
  s->distinct_fingerprints = v[1];
  s->pairs = v[2];
  s->distinct_pairs = v[3];
  s->clusters = v[4];
  s->duplicates = v[5];
  s->comparisons = v[6];
  s->spilled_runs = v[7];
  s->against_matches = v[8];
  s->against_blocks_decoded = v[9];
}

void AddStats(const DedupStats& s, JsonObject* o) {
  o->AddUint("documents", s.documents);
  o->AddUint("distinct", s.distinct_fingerprints);
  o->AddUint("pairs", s.pairs);
  o->AddUint("distinct_pairs", s.distinct_pairs);
  o->AddUint("clusters", s.clusters);
  o->AddUint("duplicates", s.duplicates);
  o->AddUint("comparisons", s.comparisons);
  o->AddUint("spilled_runs", s.spilled_runs);
  o->AddUint("against_matches", s.against_matches);
  o->AddUint("against_blocks_decoded", s.against_blocks_decoded);
  o->AddNumber("seconds_distinct", s.seconds_distinct);
  o->AddNumber("seconds_self_join", s.seconds_self_join);
  o->AddNumber("seconds_against", s.seconds_against);
  o->AddNumber("seconds_clusters", s.seconds_clusters);
}

class Bench {
 public:
  Bench(const Config& c, const std::vector<std::string>& command) : c_(c) {
    if (!c.json.empty()) json_ = std::fopen(c.json.c_str(), "a");
    JsonObject config;
    config.AddString("scheme", c.scheme);
    config.AddUint("k", static_cast<uint64_t>(c.k));
    config.AddNumber("memory_gib", c.memory_gib);
    Emit(HeaderRecord(command, config));
  }
  ~Bench() {
    if (json_) std::fclose(json_);
  }

  Status SelfJoin(uint64_t n, int threads) {
    ChildResult child;
    struct Report {
      double adding, total;
      DedupStats stats;  // its strings are left empty: the trivially copyable part is what is read
    };
    Status s = RunInChild("self-join", [&](std::string* report) {
      const auto t0 = Clock::now();
      std::unique_ptr<Deduplicator> dedup;
      SIMDEX_RETURN_IF_ERROR(Deduplicator::Create(Options(c_, threads), &dedup));
      PlantedClusters gen(c_.seed, c_.data == "clusters");
      for (uint64_t i = 0; i < n; ++i) SIMDEX_RETURN_IF_ERROR(dedup->Add(gen.Next()));
      const double adding = Seconds(t0);
      SIMDEX_RETURN_IF_ERROR(dedup->Finish());
      *report = Serialize(adding, Seconds(t0), dedup->stats());
      return Status::OK();
    }, &child);
    if (!s.ok()) return s;
    double add = 0, total = 0;
    DedupStats stats;
    Deserialize(child.report, &add, &total, &stats);
    JsonObject o;
    o.AddString("type", "self-join");
    o.AddString("searcher", "simdex");
    o.AddString("data", c_.data);
    o.AddUint("n", n);
    o.AddUint("threads", static_cast<uint64_t>(threads));
    o.AddNumber("seconds", total);
    o.AddNumber("seconds_adding", add);
    o.AddNumber("seconds_finish", total - add);
    o.AddNumber("ns_per_fingerprint", total * 1e9 / static_cast<double>(n));
    o.AddNumber("pairs_per_second", static_cast<double>(stats.pairs) / total);
    o.AddUint("peak_rss_bytes", child.peak_rss_bytes);
    AddStats(stats, &o);
    Emit(o);
    std::printf("self-join simdex   %s n %.0e threads %d: %.3f s (adding %.3f, distinct %.3f, join %.3f, clusters %.3f), "
                "%.1f ns/fp, peak %.0f MiB, %llu pairs (%llu distinct), %.2fM pairs/s, %llu spilled runs\n",
                c_.data.c_str(), static_cast<double>(n), threads, total, add, stats.seconds_distinct, stats.seconds_self_join,
                stats.seconds_clusters, total * 1e9 / static_cast<double>(n), child.peak_rss_bytes / 1048576.0,
                static_cast<unsigned long long>(stats.pairs), static_cast<unsigned long long>(stats.distinct_pairs),
                static_cast<double>(stats.pairs) / total / 1e6, static_cast<unsigned long long>(stats.spilled_runs));
    std::fflush(stdout);
    if (static_cast<double>(n) <= c_.baseline_max_n && threads == 1) {
      SIMDEX_RETURN_IF_ERROR(FindAll(n, stats.distinct_pairs));
    }
    return Status::OK();
  }

  // find_all on the same fingerprints, one thread (it has no threads).
  Status FindAll(uint64_t n, uint64_t want_pairs) {
    ChildResult child;
    Status s = RunInChild("find_all", [&](std::string* report) {
      std::vector<uint64_t> fps(n);
      PlantedClusters gen(c_.seed, c_.data == "clusters");
      for (uint64_t& x : fps) x = gen.Next();
      const auto t0 = Clock::now();
      const uint64_t pairs = FindAllPairs(fps, 5, c_.k);
      const double seconds = Seconds(t0);
      report->assign(reinterpret_cast<const char*>(&seconds), 8);
      report->append(reinterpret_cast<const char*>(&pairs), 8);
      return Status::OK();
    }, &child);
    if (!s.ok()) return s;
    double seconds;
    uint64_t pairs;
    std::memcpy(&seconds, child.report.data(), 8);
    std::memcpy(&pairs, child.report.data() + 8, 8);
    JsonObject o;
    o.AddString("type", "self-join");
    o.AddString("searcher", "find_all");
    o.AddString("data", c_.data);
    o.AddUint("n", n);
    o.AddUint("threads", 1);
    o.AddNumber("seconds", seconds);
    o.AddNumber("ns_per_fingerprint", seconds * 1e9 / static_cast<double>(n));
    o.AddUint("peak_rss_bytes", child.peak_rss_bytes);
    o.AddUint("start_rss_bytes", child.start_rss_bytes);
    o.AddUint("distinct_pairs", pairs);
    o.AddBool("pairs_equal_simdex", pairs == want_pairs);
    Emit(o);
    std::printf("self-join find_all %s n %.0e threads 1: %.3f s, %.1f ns/fp, peak %.0f MiB (input array %.0f MiB "
                "included), %llu pairs of distinct hashes (%s simdex's)\n",
                c_.data.c_str(), static_cast<double>(n), seconds, seconds * 1e9 / static_cast<double>(n),
                child.peak_rss_bytes / 1048576.0, n * 8 / 1048576.0, static_cast<unsigned long long>(pairs),
                pairs == want_pairs ? "equal to" : "DIFFERENT FROM");
    std::fflush(stdout);
    return pairs == want_pairs ? Status::OK() : Status::Corruption("find_all and simdex found different pairs");
  }

  // The stored index of --index-n --data fingerprints (entry i has id i),
  // built into --dir unless it is there already.
  Status StoredIndex(std::vector<uint64_t>* stored, std::string* path) {
    const uint64_t index_n = static_cast<uint64_t>(c_.index_n);
    stored->resize(index_n);
    PlantedClusters gen(c_.seed + 1000, c_.data == "clusters");
    for (uint64_t& x : *stored) x = gen.Next();
    *path = c_.dir + "/dedup-bench-" + std::to_string(index_n) + "-" + c_.scheme + "-" + c_.data + "-" + c_.codec +
            "-" + std::to_string(c_.block_size) + ".sdx";
    struct stat st;
    if (::stat(path->c_str(), &st) == 0) return Status::OK();
    ChildBuildResult built;
    SIMDEX_RETURN_IF_ERROR(BuildIndexInChild(*path, StoredBuildOptions(), *stored, &built));
    const double n = static_cast<double>(index_n);
    JsonObject o;
    o.AddString("type", "stored-index");
    o.AddString("data", c_.data).AddString("codec", c_.codec).AddUint("block_size", c_.block_size);
    o.AddUint("index_n", index_n);
    o.AddNumber("build_seconds", built.seconds);
    o.AddNumber("build_sort_seconds", built.stats.seconds_sorting);
    o.AddNumber("build_encode_seconds", built.stats.seconds_encoding);
    o.AddUint("build_peak_rss_bytes", built.peak_rss_bytes).AddUint("build_start_rss_bytes", built.start_rss_bytes);
    o.AddUint("spilled_runs", built.stats.spilled_runs);
    o.AddUint("bytes", built.stats.file_bytes);
    o.AddNumber("bytes_per_entry", static_cast<double>(built.stats.file_bytes) / n);
    Emit(o);
    std::printf("built %s: %.1f s (sorting %.1f, encoding %.1f), peak RSS %.0f MiB (%.0f MiB shared at the start), "
                "%llu spilled runs, %llu bytes (%.2f per entry)\n",
                path->c_str(), built.seconds, built.stats.seconds_sorting, built.stats.seconds_encoding,
                built.peak_rss_bytes / 1048576.0, built.start_rss_bytes / 1048576.0,
                static_cast<unsigned long long>(built.stats.spilled_runs),
                static_cast<unsigned long long>(built.stats.file_bytes), static_cast<double>(built.stats.file_bytes) / n);
    std::fflush(stdout);
    return Status::OK();
  }

  BuildOptions StoredBuildOptions() const {
    BuildOptions options;
    Scheme::Parse(c_.scheme, &options.scheme);  // already checked by Options()
    options.codec = c_.codec;
    options.block_size = c_.block_size;
    options.memory_bytes = static_cast<size_t>(c_.memory_gib * (1 << 30));
    options.tmpdir = c_.dir;
    options.threads = 2;
    return options;
  }

  // A batch of nb: half near copies (0..3 bits) of stored fingerprints (the
  // even positions), half new random ones.
  std::vector<uint64_t> Batch(const std::vector<uint64_t>& stored, uint64_t nb, uint64_t seed) const {
    std::vector<uint64_t> batch(nb);
    std::mt19937_64 rng(seed);
    for (uint64_t i = 0; i < nb; ++i) {
      if (i % 2 == 1) {
        batch[i] = rng();
        continue;
      }
      uint64_t v = stored[rng() % stored.size()];
      for (int d = static_cast<int>(rng() % 4); d > 0; --d) v ^= uint64_t{1} << (rng() % 64);
      batch[i] = v;
    }
    return batch;
  }

  Status Against() {
    const uint64_t index_n = static_cast<uint64_t>(c_.index_n);
    std::vector<uint64_t> stored;
    std::string path;
    SIMDEX_RETURN_IF_ERROR(StoredIndex(&stored, &path));
    for (double batch_n : c_.batch_n) {
      const uint64_t nb = static_cast<uint64_t>(batch_n);
      const std::vector<uint64_t> batch = Batch(stored, nb, c_.seed + 7);
      uint64_t matches[2] = {0, 0};
      for (int strategy = 0; strategy < 2; ++strategy) {
        for (int threads : c_.threads) {
          ChildResult child;
          Status s = RunInChild("against", [&](std::string* report) {
            std::unique_ptr<IndexReader> reader;
            SIMDEX_RETURN_IF_ERROR(IndexReader::Open(path, ReaderOptions(), &reader));
            DedupOptions o = Options(c_, threads);
            o.against_strategy = strategy == 0 ? AgainstStrategy::kProbe : AgainstStrategy::kMergeJoin;
            std::unique_ptr<Deduplicator> dedup;
            SIMDEX_RETURN_IF_ERROR(Deduplicator::Create(o, &dedup));
            SIMDEX_RETURN_IF_ERROR(dedup->AddIndex(reader.get()));
            for (uint64_t x : batch) SIMDEX_RETURN_IF_ERROR(dedup->Add(x));
            SIMDEX_RETURN_IF_ERROR(dedup->Finish());
            *report = Serialize(0, 0, dedup->stats());
            return Status::OK();
          }, &child);
          SIMDEX_RETURN_IF_ERROR(s);
          double unused;
          DedupStats ds;
          Deserialize(child.report, &unused, &unused, &ds);
          const double seconds = ds.seconds_against;
          const uint64_t m = ds.against_matches, blocks = ds.against_blocks_decoded;
          matches[strategy] = m;
          const char* name = strategy == 0 ? "probe" : "merge-join";
          JsonObject o;
          o.AddString("type", "against");
          o.AddString("strategy", name);
          o.AddUint("index_n", index_n);
          o.AddUint("batch_n", nb);
          o.AddUint("threads", static_cast<uint64_t>(threads));
          o.AddNumber("seconds", seconds);
          o.AddNumber("us_per_fingerprint", seconds * 1e6 / static_cast<double>(nb));
          o.AddUint("matches", m);
          o.AddUint("blocks_decoded", blocks);
          o.AddUint("peak_rss_bytes", child.peak_rss_bytes);
          Emit(o);
          std::printf("against %-10s index %.0e batch %.0e threads %d: %.3f s (%.2f us/fp), %llu matches, %llu blocks "
                      "decoded\n",
                      name, static_cast<double>(index_n), static_cast<double>(nb), threads, seconds,
                      seconds * 1e6 / static_cast<double>(nb), static_cast<unsigned long long>(m),
                      static_cast<unsigned long long>(blocks));
          std::fflush(stdout);
        }
      }
      if (matches[0] != matches[1]) return Status::Corruption("probe and merge join found different matches");
      std::unique_ptr<IndexReader> reader;
      SIMDEX_RETURN_IF_ERROR(IndexReader::Open(path, ReaderOptions(), &reader));
      const char* chosen = AgainstStrategyName(simhash::ChooseStrategy(nb, *reader, c_.k));
      std::printf("against: auto chooses %s for a batch of %.0e\n", chosen, static_cast<double>(nb));
      JsonObject o;
      o.AddString("type", "against-auto");
      o.AddString("strategy", chosen);
      o.AddUint("index_n", index_n);
      o.AddUint("batch_n", nb);
      Emit(o);
    }
    return Status::OK();
  }

  // Single queries against the stored index, one thread: --query-n near
  // copies of stored fingerprints and --query-n random ones, warm then cold.
  Status Queries() {
    std::vector<uint64_t> stored;
    std::string path;
    SIMDEX_RETURN_IF_ERROR(StoredIndex(&stored, &path));
    const uint64_t nq = static_cast<uint64_t>(c_.query_n);
    const std::vector<uint64_t> mixed = Batch(stored, 2 * nq, c_.seed + 11);
    std::vector<uint64_t> sets[2];  // near, random
    for (uint64_t i = 0; i < mixed.size(); ++i) sets[i % 2].push_back(mixed[i]);
    // The first `checks` queries of each set, answered by a scan: the ids
    // within k bits, in one pass over the stored fingerprints.
    const size_t checks = std::min<size_t>(10, nq);
    std::vector<uint64_t> checked;
    for (const std::vector<uint64_t>& set : sets) checked.insert(checked.end(), set.begin(), set.begin() + checks);
    std::vector<std::vector<uint64_t>> want(checked.size());
    const auto scan_start = Clock::now();
    for (uint64_t id = 0; id < stored.size(); ++id) {
      for (size_t q = 0; q < checked.size(); ++q) {
        if (std::popcount(stored[id] ^ checked[q]) <= c_.k) want[q].push_back(id);
      }
    }
    std::printf("scan of %zu queries over %zu stored fingerprints: %.1f s\n", checked.size(), stored.size(),
                Seconds(scan_start));
    std::vector<uint64_t>().swap(stored);  // the harness keeps only the index from here on

    std::unique_ptr<IndexReader> reader;
    ReaderOptions warm_options;
    warm_options.access = c_.access == "random" ? ReaderOptions::Access::kRandom : ReaderOptions::Access::kAuto;
    warm_options.cold_reads = c_.cold_reads == "always"  ? ReaderOptions::ColdReads::kAlways
                              : c_.cold_reads == "never" ? ReaderOptions::ColdReads::kNever
                                                         : ReaderOptions::ColdReads::kWhenMissing;
    SIMDEX_RETURN_IF_ERROR(IndexReader::Open(path, warm_options, &reader));
    const SearchFn search = [&reader](uint64_t q, int k, std::vector<Match>* matches, SearchStats* stats) {
      return reader->Search(q, k, matches, stats);
    };
    const char* kSetNames[2] = {"near", "random"};
    const char* kStateNames[3] = {"warm", "cold", "cold-batch"};
    for (const int state : {0, 1, 2}) {
      const bool cold = state > 0;
      for (int set = 0; set < 2; ++set) {
        std::span<const uint64_t> queries(sets[set]);
        double resident = 0;        // of the index file, after the eviction
        uint64_t cached_bytes = 0;  // the page cache, then (/proc/meminfo Cached)
        if (cold) {
          // Open() reads the header, footer and metadata; evicting again
          // leaves only the pages the reader still has mapped.
          reader.reset();
          SIMDEX_RETURN_IF_ERROR(EvictFromPageCache(path, &resident));
          ReaderOptions cold_options = warm_options;
          cold_options.verify_heads_on_open = false;
          cold_options.access = ReaderOptions::Access::kRandom;  // as AdviseMapping below
          SIMDEX_RETURN_IF_ERROR(IndexReader::Open(path, cold_options, &reader));
          SIMDEX_RETURN_IF_ERROR(AdviseMapping(path, MADV_RANDOM));
          if (state == 2) {
            // The reader's first checks (head indexes, id section: reads
            // of whole sections) by a near query outside the timed ones, so
            // that the batch's time is its queries'.
            std::vector<Match> ignored;
            SIMDEX_RETURN_IF_ERROR(reader->Search(sets[0].back(), c_.k, &ignored));
          }
          SIMDEX_RETURN_IF_ERROR(EvictFromPageCache(path, &resident));
          cached_bytes = PageCacheBytes();
          queries = queries.first(std::min(queries.size(), std::max(c_.cold_queries, checks)));
        } else {
          double mean_micros = 0;
          SIMDEX_RETURN_IF_ERROR(WarmUp(search, queries, c_.k, 1e9, &mean_micros));
        }
        QueryRun run;
        if (state == 2) {
          SIMDEX_RETURN_IF_ERROR(RunBatch(*reader, queries, c_.k, 1, checks, &run));
        } else {
          SIMDEX_RETURN_IF_ERROR(RunSingle(search, queries, c_.k, 1, checks, &run));
        }
        for (size_t q = 0; q < checks; ++q) {
          std::vector<uint64_t> got;
          for (const Match& m : run.kept[q]) got.push_back(m.id);
          std::sort(got.begin(), got.end());
          if (got != want[set * checks + q]) {
            return Status::Corruption(std::string(kSetNames[set]) + " query " + std::to_string(q) +
                                      " differs from the scan");
          }
        }
        const double qps = static_cast<double>(run.queries) / run.seconds;
        if (state == 2) {
          JsonObject o;
          o.AddString("type", "query-batch");
          o.AddString("data", c_.data).AddString("codec", c_.codec).AddUint("block_size", c_.block_size);
          o.AddUint("index_n", static_cast<uint64_t>(c_.index_n));
          o.AddString("set", kSetNames[set]).AddString("state", "cold").AddString("cold_reads", c_.cold_reads);
          o.AddUint("queries", run.queries).AddUint("threads", 1).AddNumber("seconds", run.seconds);
          o.AddNumber("queries_per_second", qps).AddUint("matches", run.matches);
          o.AddUint("major_faults", run.major_faults).AddUint("read_bytes", run.read_bytes);
          o.AddUint("blocks_asked", run.stats.blocks_asked).AddNumber("resident_after_evict", resident);
          o.AddUint("page_cache_bytes", cached_bytes);
          Emit(o);
          std::printf("query %-6s cold batch index %.0e k %d, %zu queries, one thread: %.3f s, %.0f queries/s, "
                      "%llu matches, %llu major faults, %llu blocks asked ahead (cold_reads %s; page cache %.0f MiB, "
                      "%.4f of the index resident after eviction)\n",
                      kSetNames[set], c_.index_n, c_.k, run.queries, run.seconds, qps,
                      static_cast<unsigned long long>(run.matches), static_cast<unsigned long long>(run.major_faults),
                      static_cast<unsigned long long>(run.stats.blocks_asked), c_.cold_reads.c_str(),
                      static_cast<double>(cached_bytes) / (1 << 20), resident);
          std::fflush(stdout);
          continue;
        }
        const Percentiles p = Summarize(run.micros);
        JsonObject o;
        o.AddString("type", "query");
        o.AddString("data", c_.data).AddString("codec", c_.codec).AddUint("block_size", c_.block_size);
        o.AddUint("index_n", static_cast<uint64_t>(c_.index_n));
        o.AddString("set", kSetNames[set]).AddString("state", kStateNames[state]);
        o.AddUint("queries", run.queries).AddUint("threads", 1);
        o.AddNumber("p50_micros", p.p50).AddNumber("p90_micros", p.p90).AddNumber("p99_micros", p.p99);
        o.AddNumber("max_micros", p.max).AddNumber("mean_micros", p.mean);
        o.AddUint("matches", run.matches).AddUint("major_faults", run.major_faults);
        o.AddUint("read_bytes", run.read_bytes);
        o.AddString("access", cold ? "random" : c_.access).AddString("cold_reads", c_.cold_reads);
        o.AddNumber("queries_per_second", qps).AddUint("blocks_asked", run.stats.blocks_asked);
        o.AddNumber("resident_after_evict", resident).AddUint("page_cache_bytes", cached_bytes);
        Emit(o);
        std::printf("query %-6s %-4s index %.0e k %d, %zu queries, one thread: p50 %.2f us, p90 %.2f, p99 %.2f, "
                    "mean %.2f, %.0f queries/s, %llu matches, %llu major faults, %llu blocks asked ahead "
                    "(cold_reads %s; first %zu checked against the scan; page cache %.0f MiB)\n",
                    kSetNames[set], cold ? "cold" : "warm", c_.index_n, c_.k, run.queries, p.p50, p.p90, p.p99,
                    p.mean, qps,
                    static_cast<unsigned long long>(run.matches), static_cast<unsigned long long>(run.major_faults),
                    static_cast<unsigned long long>(run.stats.blocks_asked), c_.cold_reads.c_str(), checks,
                    static_cast<double>(cached_bytes) / (1 << 20));
        std::fflush(stdout);
      }
    }
    return Status::OK();
  }

  // Grows the stored index by a batch with IndexMerger (ids index_n + i),
  // then builds the union afresh with IndexBuilder, each in its own child;
  // the two files must be equal byte for byte.
  Status Merge() {
    const uint64_t index_n = static_cast<uint64_t>(c_.index_n);
    std::vector<uint64_t> stored;
    std::string path;
    SIMDEX_RETURN_IF_ERROR(StoredIndex(&stored, &path));
    for (double batch_n : c_.merge_batch_n) {
      const uint64_t nb = static_cast<uint64_t>(batch_n);
      const std::vector<uint64_t> batch = Batch(stored, nb, c_.seed + 7);
      for (int threads : c_.threads) {
        const std::string merged = c_.dir + "/dedup-bench-merged.sdx", fresh = c_.dir + "/dedup-bench-fresh.sdx";
        ChildResult merge_child;
        const Status run = RunInChild("merge", [&](std::string* report) {
          std::unique_ptr<IndexReader> old;
          SIMDEX_RETURN_IF_ERROR(IndexReader::Open(path, ReaderOptions(), &old));
          MergeOptions o;
          o.memory_bytes = static_cast<size_t>(c_.memory_gib * (1 << 30));
          o.tmpdir = c_.dir;
          o.threads = threads;
          const auto t0 = Clock::now();
          std::unique_ptr<IndexMerger> merger;
          SIMDEX_RETURN_IF_ERROR(IndexMerger::Create(old.get(), merged, o, &merger));
          for (uint64_t i = 0; i < nb; ++i) SIMDEX_RETURN_IF_ERROR(merger->Add(index_n + i, batch[i]));
          SIMDEX_RETURN_IF_ERROR(merger->Finish());
          const double seconds = Seconds(t0);
          report->assign(reinterpret_cast<const char*>(&seconds), sizeof seconds);
          return Status::OK();
        }, &merge_child);
        SIMDEX_RETURN_IF_ERROR(run);
        double merge_seconds;
        std::memcpy(&merge_seconds, merge_child.report.data(), sizeof merge_seconds);

        std::vector<uint64_t> all(stored);
        all.insert(all.end(), batch.begin(), batch.end());
        BuildOptions options = StoredBuildOptions();
        options.threads = threads;
        ChildBuildResult built;
        SIMDEX_RETURN_IF_ERROR(BuildIndexInChild(fresh, options, all, &built));
        all = {};
        bool equal = false;
        SIMDEX_RETURN_IF_ERROR(SameBytes(merged, fresh, &equal));
        std::filesystem::remove(merged);
        std::filesystem::remove(fresh);

        JsonObject o;
        o.AddString("type", "merge");
        o.AddUint("index_n", index_n);
        o.AddUint("batch_n", nb);
        o.AddUint("threads", static_cast<uint64_t>(threads));
        o.AddNumber("merge_seconds", merge_seconds);
        o.AddUint("merge_peak_rss_bytes", merge_child.peak_rss_bytes);
        o.AddNumber("fresh_build_seconds", built.seconds);
        o.AddUint("fresh_build_peak_rss_bytes", built.peak_rss_bytes);
        o.AddUint("fresh_build_start_rss_bytes", built.start_rss_bytes);
        o.AddBool("bytes_equal", equal);
        Emit(o);
        std::printf("merge index %.0e + batch %.0e threads %d: merge %.1f s (peak %.0f MiB), fresh build %.1f s "
                    "(peak %.0f MiB, %.0f MiB of it the input array), %.2fx; files %s\n",
                    static_cast<double>(index_n), static_cast<double>(nb), threads, merge_seconds,
                    merge_child.peak_rss_bytes / 1048576.0, built.seconds, built.peak_rss_bytes / 1048576.0,
                    built.start_rss_bytes / 1048576.0, built.seconds / merge_seconds,
                    equal ? "byte-identical" : "DIFFERENT");
        std::fflush(stdout);
        if (!equal) return Status::Corruption("the merged index differs from a fresh build over the union");
      }
    }
    return Status::OK();
  }

  void Finish(double seconds) { Emit(FooterRecord(seconds)); }

 private:
  static Status SameBytes(const std::string& a, const std::string& b, bool* equal) {
    std::unique_ptr<RandomAccessFile> fa, fb;
    SIMDEX_RETURN_IF_ERROR(MapFile(a, &fa));
    SIMDEX_RETURN_IF_ERROR(MapFile(b, &fb));
    *equal = fa->size() == fb->size() && std::memcmp(fa->data(), fb->data(), fa->size()) == 0;
    return Status::OK();
  }

  void Emit(const JsonObject& o) {
    if (json_) std::fprintf(json_, "%s\n", o.str().c_str());
  }

  const Config& c_;
  std::FILE* json_ = nullptr;
};

}  // namespace
}  // namespace simdex::bench

int main(int argc, char** argv) {
  using namespace simdex::bench;
  CLI::App app{"simdex-dedup-bench: batch de-duplication beside find_all (docs/benchmarks.md)"};
  Config c;
  app.add_option("--selfjoin-n", c.selfjoin_n, "self-join sizes, e.g. 1e6,1e7,1e8")->delimiter(',');
  app.add_option("--data", c.data, "data of the self-join and the stored index: clusters (planted) or uniform")
      ->check(CLI::IsMember({"clusters", "uniform"}))
      ->capture_default_str();
  app.add_option("--threads", c.threads, "thread counts, e.g. 1,2")->delimiter(',');
  app.add_option("--scheme", c.scheme, "scheme of the self-join and the index")->capture_default_str();
  app.add_option("--k", c.k, "distance")->capture_default_str();
  app.add_option("--memory-gib", c.memory_gib, "the de-duplicator's memory bound, GiB")->capture_default_str();
  app.add_option("--baseline-max-n", c.baseline_max_n, "largest N find_all runs on")->capture_default_str();
  app.add_option("--index-n", c.index_n, "against: entries of the index (0: no against scenario)");
  app.add_option("--batch-n", c.batch_n, "against: batch sizes, e.g. 1e3,1e4,1e5,1e6")->delimiter(',');
  app.add_option("--merge-batch-n", c.merge_batch_n,
                 "merge: batch sizes merged into the --index-n index, each beside a fresh build of the union")
      ->delimiter(',');
  app.add_option("--codec", c.codec, "block codec of the stored index: card, ef, auto")->capture_default_str();
  app.add_option("--block-size", c.block_size, "block size of the stored index, bytes")->capture_default_str();
  app.add_option("--query-n", c.query_n, "queries: near and random single queries against the --index-n index");
  app.add_option("--cold-queries", c.cold_queries, "queries: how many of each set run cold")->capture_default_str();
  app.add_option("--access", c.access, "queries: the warm reader's access advice (cold ones: random)")
      ->check(CLI::IsMember({"auto", "random"}))
      ->capture_default_str();
  app.add_option("--cold-reads", c.cold_reads, "queries: ReaderOptions::cold_reads of both readers")
      ->check(CLI::IsMember({"when-missing", "always", "never"}))
      ->capture_default_str();
  app.add_option("--dir", c.dir, "directory for spills and index files")->capture_default_str();
  app.add_option("--json", c.json, "append JSON Lines records to this file");
  app.add_option("--seed", c.seed, "seed")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  const std::vector<std::string> command(argv, argv + argc);
  const auto t0 = std::chrono::steady_clock::now();
  Bench bench(c, command);
  for (double n : c.selfjoin_n) {
    for (int threads : c.threads) {
      simdex::Status s = bench.SelfJoin(static_cast<uint64_t>(n), threads);
      if (!s.ok()) {
        std::fprintf(stderr, "simdex-dedup-bench: %s\n", s.ToString().c_str());
        return 1;
      }
    }
  }
  if (c.index_n > 0) {
    simdex::Status s = c.query_n > 0 ? bench.Queries() : simdex::Status::OK();
    if (s.ok() && !c.batch_n.empty()) s = bench.Against();
    if (s.ok() && !c.merge_batch_n.empty()) s = bench.Merge();
    if (!s.ok()) {
      std::fprintf(stderr, "simdex-dedup-bench: %s\n", s.ToString().c_str());
      return 1;
    }
  }
  bench.Finish(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return 0;
}
