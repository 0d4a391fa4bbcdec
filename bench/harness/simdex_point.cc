#include "bench/harness/simdex_point.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "bench/harness/build_child.h"
#include "bench/harness/measure.h"

namespace simdex::bench {
namespace {

std::string IndexPath(const GridConfig& config, const Scheme& scheme, uint32_t block_size, const std::string& codec) {
  std::string name = scheme.Name();
  std::replace_if(name.begin(), name.end(), [](char c) { return c == ',' || c == ':'; }, '_');
  return (std::filesystem::path(config.dir) / ("simdex-bench-" + std::to_string(getpid()) + "-" + name + "-" +
                                               std::to_string(block_size) + "-" + codec + ".sdx"))
      .string();
}

// The space and build fields of every record of the point.
JsonObject SpaceAndBuild(const IndexInfo& info, const std::string& codec, const ChildBuildResult& built) {
  const double n = info.entries ? static_cast<double>(info.entries) : 1.0;
  const double bound = info.entropy_bound_bits_per_entry;
  std::vector<double> per_table, ratios;
  double tables_total = 0, worst = 0;
  for (const IndexInfo::Table& t : info.tables) {
    const double bytes = static_cast<double>(t.bytes) / n;
    per_table.push_back(bytes);
    tables_total += bytes;
    const double ratio = bound > 0 ? bytes * 8 / bound : 0.0;
    ratios.push_back(ratio);
    worst = std::max(worst, ratio);
  }
  std::vector<std::string> codecs;
  for (const IndexInfo::Table& t : info.tables) codecs.push_back(t.codec);
  JsonObject o;
  o.AddString("codec", codec).AddStrings("table_codecs", codecs);
  o.AddUint("restarts", static_cast<uint64_t>(info.restarts));
  o.AddUint("bytes", info.total_bytes).AddNumber("bytes_per_entry", static_cast<double>(info.total_bytes) / n);
  o.AddNumbers("table_bytes_per_entry", per_table).AddNumber("tables_bytes_per_entry", tables_total);
  o.AddNumber("id_bytes_per_entry", static_cast<double>(info.id_bytes) / n);
  o.AddNumber("rank_bytes_per_entry", static_cast<double>(info.rank_bytes) / n);
  o.AddNumber("entropy_bound_bits_per_entry", bound).AddNumbers("ratio_to_bound", ratios);
  o.AddNumber("worst_ratio_to_bound", worst);
  o.AddNumber("build_seconds", built.seconds).AddUint("build_peak_rss_bytes", built.peak_rss_bytes);
  o.AddUint("build_start_rss_bytes", built.start_rss_bytes);
  o.AddNumber("build_sort_seconds", built.stats.seconds_sorting);
  o.AddNumber("build_encode_seconds", built.stats.seconds_encoding);
  o.AddUint("spilled_runs", built.stats.spilled_runs);
  return o;
}

}  // namespace

Status AdviseMapping(const std::string& path, int advice) {
  std::error_code ec;
  const std::string target = std::filesystem::canonical(path, ec).string();
  if (ec) return Status::IOError(path + ": " + ec.message());
  std::ifstream maps("/proc/self/maps");
  std::string line;
  int found = 0;
  while (std::getline(maps, line)) {
    // "start-end perms offset dev inode   pathname"
    const size_t slash = line.find('/');
    if (slash == std::string::npos || line.compare(slash, std::string::npos, target) != 0) continue;
    uintptr_t start = 0, end = 0;
    if (std::sscanf(line.c_str(), "%" SCNxPTR "-%" SCNxPTR, &start, &end) != 2) continue;
    if (madvise(reinterpret_cast<void*>(start), end - start, advice) != 0) {
      return Status::IOError(path + ": madvise: " + std::strerror(errno));
    }
    ++found;
  }
  if (!found) return Status::NotFound(path + ": not mapped by this process");
  return Status::OK();
}

Status EvictFromPageCache(const std::string& path, double* resident_fraction) {
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return Status::IOError(path + ": cannot open: " + std::strerror(errno));
  const int err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  if (err != 0) {
    close(fd);
    return Status::IOError(path + ": posix_fadvise: " + std::strerror(err));
  }
  const off_t size = lseek(fd, 0, SEEK_END);
  *resident_fraction = 0;
  if (size > 0) {
    void* map = mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
      close(fd);
      return Status::IOError(path + ": mmap: " + std::strerror(errno));
    }
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> pages((static_cast<size_t>(size) + page - 1) / page);
    if (mincore(map, static_cast<size_t>(size), pages.data()) == 0) {
      const size_t resident = std::count_if(pages.begin(), pages.end(), [](unsigned char c) { return c & 1; });
      *resident_fraction = static_cast<double>(resident) / static_cast<double>(pages.size());
    }
    munmap(map, static_cast<size_t>(size));
  }
  close(fd);
  return Status::OK();
}

namespace {

using Clock = std::chrono::steady_clock;

double MicrosSince(Clock::time_point t) { return std::chrono::duration<double, std::micro>(Clock::now() - t).count(); }

// One index of the grid, from its build to its removal (however the
// measurement ends).
class SimdexPoint {
 public:
  SimdexPoint(const Workload& w, const GridConfig& config, const Scheme& scheme, uint32_t block_size,
              const std::string& codec)
      : w_(w),
        config_(config),
        scheme_(scheme),
        block_size_(block_size),
        codec_(codec),
        id_{codec == "card" ? "simdex" : "simdex-" + codec, scheme.Name(), block_size},
        what_(Describe(w, id_)),
        path_(IndexPath(config, scheme, block_size, codec)) {
    for (const auto& [k, queries] : w.near) {
      if (k <= scheme.k()) ks_.push_back(k);
    }
  }
  ~SimdexPoint() {
    reader_.reset();
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  SimdexPoint(const SimdexPoint&) = delete;
  SimdexPoint& operator=(const SimdexPoint&) = delete;

  // Builds the index in a forked child and opens it.
  Status Build(const ProgressFn& progress);
  // Reads and maps every page of the index (as `simdex serve --preload read`
  // does: a server's steady state, so that no timed query pays for the
  // first touch of a page by this process) and sends one warm-up pass,
  // whose mean latency sets how many queries of each set are timed.
  Status Prepare(const ProgressFn& progress);
  // One round of the warm runs: for each k, the single-query runs of every
  // thread count (near, then random), then the batch runs. A round after
  // the first starts with a short warm-up: other indexes' rounds may have
  // run since this one's last.
  Status RunWarmRound(int round, const ProgressFn& progress);
  // Writes the warm records of the rounds run, then measures and writes the
  // first-use records (config.checksums) and the cold ones (config.cold),
  // each of their runs repeated config.repeat times back to back.
  Status Finish(JsonLinesWriter* out, const ProgressFn& progress);

 private:
  Status MeasureFirstUse(JsonLinesWriter* out);
  Status MeasureCold(JsonLinesWriter* out);
  // The "near" object of the runs of a batch record, checked on the first
  // w_.checked queries.
  JsonObject BatchJson(const std::vector<QueryRun>& runs) const {
    return QueryRunsJson(runs, std::min(w_.checked, runs.front().queries), true);
  }

  const Workload& w_;
  const GridConfig& config_;
  const Scheme& scheme_;
  const uint32_t block_size_;
  const std::string codec_;
  const PointId id_;
  const std::string what_;
  const std::string path_;
  std::vector<int> ks_;  // the workload's k within the scheme's
  JsonObject extra_;     // space and build fields
  std::unique_ptr<IndexReader> reader_;
  SearchFn search_;
  size_t queries_ = 0;  // timed per set
  std::map<std::pair<int, int>, WarmSingleRuns> single_;          // (k, threads)
  std::map<std::pair<int, int>, std::vector<QueryRun>> batch_;    // (k, threads)
};

Status SimdexPoint::Build(const ProgressFn& progress) {
  BuildOptions options;
  options.scheme = scheme_;
  options.block_size = block_size_;
  options.restarts = config_.restarts;
  options.codec = codec_;
  options.memory_bytes = config_.memory_mib << 20;
  options.tmpdir = config_.dir;
  options.threads = config_.build_threads;
  progress(what_ + ": building");
  ChildBuildResult built;
  SIMDEX_RETURN_IF_ERROR(BuildIndexInChild(path_, options, w_.fps, &built).WithContext(what_));
  SIMDEX_RETURN_IF_ERROR(IndexReader::Open(path_, ReaderOptions(), &reader_).WithContext(what_));
  extra_ = SpaceAndBuild(reader_->Info(), codec_, built);
  return Status::OK();
}

Status SimdexPoint::Prepare(const ProgressFn& progress) {
  search_ = [this](uint64_t q, int k, std::vector<Match>* matches, SearchStats* stats) {
    return reader_->Search(q, k, matches, stats);
  };
  if (ks_.empty()) return Status::OK();
  progress(what_ + ": warm queries");
  PreloadResult preloaded;
  SIMDEX_RETURN_IF_ERROR(reader_->Preload(/*lock=*/false, &preloaded).WithContext(what_));
  double mean_micros = 0;
  SIMDEX_RETURN_IF_ERROR(
      WarmUp(search_, w_.near.at(ks_.back()), ks_.back(), config_.seconds_per_set, &mean_micros).WithContext(what_));
  queries_ = QueriesPerSet(w_, config_.queries, mean_micros, config_.seconds_per_set);
  return Status::OK();
}

Status SimdexPoint::RunWarmRound(int round, const ProgressFn& progress) {
  if (ks_.empty()) return Status::OK();
  if (round > 0) {
    progress(what_ + ": warm queries, round " + std::to_string(round + 1) + " of " + std::to_string(config_.repeat));
    constexpr size_t kRewarmQueries = 1000;
    const std::vector<uint64_t>& near = w_.near.at(ks_.back());
    double ignored = 0;
    SIMDEX_RETURN_IF_ERROR(WarmUp(search_, std::span(near.data(), std::min(kRewarmQueries, near.size())),
                                  ks_.back(), config_.seconds_per_set, &ignored)
                               .WithContext(what_));
  }
  for (const int k : ks_) {
    for (const int t : config_.threads) {
      SIMDEX_RETURN_IF_ERROR(RunWarmSingle(w_, id_, search_, k, t, queries_, &single_[{k, t}]));
    }
    for (const int t : config_.threads) {
      QueryRun run;
      const std::span<const uint64_t> near(w_.near.at(k).data(), queries_);
      SIMDEX_RETURN_IF_ERROR(RunBatch(*reader_, near, k, t, w_.checked, &run).WithContext(what_));
      SIMDEX_RETURN_IF_ERROR(CheckAgainstScan(w_, id_, "near", k, t, run));
      run.kept = {};
      batch_[{k, t}].push_back(std::move(run));
    }
  }
  return Status::OK();
}

Status SimdexPoint::Finish(JsonLinesWriter* out, const ProgressFn& progress) {
  if (ks_.empty()) return Status::OK();
  const int tables = scheme_.num_tables();
  for (const int k : ks_) {
    for (const int t : config_.threads) {
      SIMDEX_RETURN_IF_ERROR(WriteWarmSingle(w_, id_, tables, k, t, true, extra_, single_.at({k, t}), out));
    }
    for (const int t : config_.threads) {
      JsonObject record = PointFields(w_, id_, tables, k, t, "warm", "batch");
      record.AddFields(extra_).AddObject("near", BatchJson(batch_.at({k, t})));
      SIMDEX_RETURN_IF_ERROR(out->Write(record));
    }
  }
  if (config_.checksums) {
    progress(what_ + ": first queries on a freshly opened reader");
    SIMDEX_RETURN_IF_ERROR(MeasureFirstUse(out).WithContext(what_));
  }
  if (!config_.cold) return Status::OK();
  progress(what_ + ": cold queries");
  return MeasureCold(out);
}

// The first queries of a freshly opened reader, the file in the page cache:
// what a reader pays to check each block and section the first time it
// reads them (docs/format.md, "What a reader checks, and when"). Opens the
// file with the default options (timed), sends the first
// kFirstUseQueries near queries of the largest k one at a time (the first
// one timed on its own: it also checks the id section), and times an Open()
// that checks everything (ReaderOptions::verify_block_checksums); each
// time figure is the median of config.repeat such rounds.
Status SimdexPoint::MeasureFirstUse(JsonLinesWriter* out) {
  constexpr size_t kFirstUseQueries = 1000;
  const int k = ks_.back();
  const std::vector<uint64_t>& near = w_.near.at(k);
  const std::span<const uint64_t> used(near.data(), std::min(kFirstUseQueries, near.size()));
  std::vector<QueryRun> runs;
  std::vector<double> open_micros, first_query_micros, open_all_micros;
  for (int round = 0; round < config_.repeat; ++round) {
    std::unique_ptr<IndexReader> fresh;
    auto start = Clock::now();
    SIMDEX_RETURN_IF_ERROR(IndexReader::Open(path_, ReaderOptions(), &fresh));
    open_micros.push_back(MicrosSince(start));
    const SearchFn search = [&fresh](uint64_t q, int kk, std::vector<Match>* matches, SearchStats* stats) {
      return fresh->Search(q, kk, matches, stats);
    };
    QueryRun run;
    SIMDEX_RETURN_IF_ERROR(RunSingle(search, used, k, 1, w_.checked, &run));
    SIMDEX_RETURN_IF_ERROR(CheckAgainstScan(w_, id_, "near", k, 1, run));
    first_query_micros.push_back(run.micros.empty() ? 0 : run.micros[0]);
    run.kept = {};
    runs.push_back(std::move(run));
    fresh.reset();
    ReaderOptions everything;
    everything.verify_block_checksums = true;
    start = Clock::now();
    SIMDEX_RETURN_IF_ERROR(IndexReader::Open(path_, everything, &fresh));
    open_all_micros.push_back(MicrosSince(start));
  }
  JsonObject record = PointFields(w_, id_, scheme_.num_tables(), k, 1, "first-use", "single");
  record.AddFields(extra_).AddObject("near", QueryRunsJson(runs, std::min(w_.checked, used.size()), true));
  record.AddNumber("open_micros", Median(open_micros)).AddNumber("first_query_micros", Median(first_query_micros));
  record.AddNumber("open_verify_all_micros", Median(open_all_micros));
  return out->Write(record);
}

// Cold batches: for each k, thread count and read-ahead setting,
// config.repeat times: close the reader, evict the file, reopen it, advise
// the mapping, evict again, send the first cold_queries near queries once.
Status SimdexPoint::MeasureCold(JsonLinesWriter* out) {
  // Verifying the head checksums would read every head index at Open().
  ReaderOptions cold_options;
  cold_options.verify_heads_on_open = false;
  for (const int k : ks_) {
    const std::vector<uint64_t>& near = w_.near.at(k);
    const std::span<const uint64_t> cold_queries(near.data(), std::min(config_.cold_queries, near.size()));
    for (const int t : config_.threads) {
      for (const bool random_access : {true, false}) {
        std::vector<QueryRun> runs;
        double resident = 0;  // the largest fraction left after an eviction
        for (int round = 0; round < config_.repeat; ++round) {
          reader_.reset();
          double left = 0;
          SIMDEX_RETURN_IF_ERROR(EvictFromPageCache(path_, &left).WithContext(what_));
          SIMDEX_RETURN_IF_ERROR(IndexReader::Open(path_, cold_options, &reader_).WithContext(what_));
          SIMDEX_RETURN_IF_ERROR(
              AdviseMapping(path_, random_access ? MADV_RANDOM : MADV_NORMAL).WithContext(what_));
          // Open() read the header, footer and metadata, and the read-around
          // of those faults more: evict again so that the batch starts with
          // only the pages Open() still has mapped.
          SIMDEX_RETURN_IF_ERROR(EvictFromPageCache(path_, &left).WithContext(what_));
          resident = std::max(resident, left);
          QueryRun run;
          SIMDEX_RETURN_IF_ERROR(RunBatch(*reader_, cold_queries, k, t, w_.checked, &run).WithContext(what_));
          SIMDEX_RETURN_IF_ERROR(CheckAgainstScan(w_, id_, "near", k, t, run));
          run.kept = {};
          runs.push_back(std::move(run));
        }
        JsonObject record = PointFields(w_, id_, scheme_.num_tables(), k, t, "cold", "batch");
        record.AddFields(extra_).AddString("readahead", random_access ? "none" : "default");
        record.AddNumber("resident_after_evict", resident);
        record.AddObject("near", BatchJson(runs));
        SIMDEX_RETURN_IF_ERROR(out->Write(record));
      }
    }
  }
  return Status::OK();
}

}  // namespace

Status MeasureSimdex(const Workload& w, const GridConfig& config, std::span<const Scheme> schemes,
                     const RoundFn& each_round, JsonLinesWriter* out, const ProgressFn& progress) {
  struct Setting {
    const Scheme* scheme;
    uint32_t block_size;
    std::string codec;
  };
  std::vector<Setting> settings;
  for (const Scheme& scheme : schemes) {
    for (const uint32_t block_size : config.block_sizes) {
      for (const std::string& codec : config.codecs) settings.push_back({&scheme, block_size, codec});
    }
  }
  // With repeats, the indexes are measured together, round by round;
  // without, one after another (one index on disk at a time).
  const size_t group = config.repeat > 1 ? settings.size() : 1;
  for (size_t first = 0; first < settings.size(); first += group) {
    std::vector<std::unique_ptr<SimdexPoint>> points;
    for (size_t i = first; i < std::min(first + group, settings.size()); ++i) {
      points.push_back(
          std::make_unique<SimdexPoint>(w, config, *settings[i].scheme, settings[i].block_size, settings[i].codec));
    }
    // Every build before any index is preloaded, so that a build's page
    // cache pressure never evicts a preloaded index.
    for (auto& p : points) SIMDEX_RETURN_IF_ERROR(p->Build(progress));
    for (auto& p : points) SIMDEX_RETURN_IF_ERROR(p->Prepare(progress));
    for (int round = 0; round < config.repeat; ++round) {
      if (each_round) SIMDEX_RETURN_IF_ERROR(each_round(round));
      for (auto& p : points) SIMDEX_RETURN_IF_ERROR(p->RunWarmRound(round, progress));
    }
    for (auto& p : points) {
      SIMDEX_RETURN_IF_ERROR(p->Finish(out, progress));
      p.reset();  // removes its file
    }
  }
  return Status::OK();
}

}  // namespace simdex::bench
