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
#include <memory>
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

// Removes the index file however MeasureSimdex returns.
struct RemoveOnExit {
  std::string path;
  ~RemoveOnExit() {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  }
};

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

// The first queries of a freshly opened reader, the file in the page cache:
// what a reader pays to check each block and section the first time it
// reads them (docs/format.md, "What a reader checks, and when"). Opens the
// file with the default options (timed), sends the first
// kFirstUseQueries near queries of k one at a time (the first one timed on
// its own: it also checks the id section), and times an Open() that checks
// everything (ReaderOptions::verify_block_checksums).
Status MeasureFirstUse(const Workload& w, const PointId& id, const std::string& path, int tables, int k,
                       const JsonObject& extra, JsonLinesWriter* out) {
  constexpr size_t kFirstUseQueries = 1000;
  using Clock = std::chrono::steady_clock;
  auto micros_since = [](Clock::time_point t) {
    return std::chrono::duration<double, std::micro>(Clock::now() - t).count();
  };
  std::unique_ptr<IndexReader> fresh;
  auto start = Clock::now();
  SIMDEX_RETURN_IF_ERROR(IndexReader::Open(path, ReaderOptions(), &fresh));
  const double open_micros = micros_since(start);
  const SearchFn search = [&fresh](uint64_t q, int kk, std::vector<Match>* matches, SearchStats* stats) {
    return fresh->Search(q, kk, matches, stats);
  };
  const std::vector<uint64_t>& near = w.near.at(k);
  QueryRun run;
  SIMDEX_RETURN_IF_ERROR(
      RunSingle(search, std::span<const uint64_t>(near.data(), std::min(kFirstUseQueries, near.size())), k, 1,
                w.checked, &run));
  SIMDEX_RETURN_IF_ERROR(CheckAgainstScan(w, id, "near", k, 1, run));
  fresh.reset();
  ReaderOptions everything;
  everything.verify_block_checksums = true;
  start = Clock::now();
  SIMDEX_RETURN_IF_ERROR(IndexReader::Open(path, everything, &fresh));
  const double open_all_micros = micros_since(start);
  JsonObject record = PointFields(w, id, tables, k, 1, "first-use", "single");
  record.AddFields(extra).AddObject("near", QueryRunJson(run, run.kept.size(), true));
  record.AddNumber("open_micros", open_micros).AddNumber("first_query_micros", run.micros.empty() ? 0 : run.micros[0]);
  record.AddNumber("open_verify_all_micros", open_all_micros);
  return out->Write(record);
}

}  // namespace

Status MeasureSimdex(const Workload& w, const GridConfig& config, const Scheme& scheme, uint32_t block_size,
                     const std::string& codec, JsonLinesWriter* out, const ProgressFn& progress) {
  const PointId id{codec == "card" ? "simdex" : "simdex-" + codec, scheme.Name(), block_size};
  const std::string what = Describe(w, id);
  const int tables = scheme.num_tables();
  BuildOptions options;
  options.scheme = scheme;
  options.block_size = block_size;
  options.restarts = config.restarts;
  options.codec = codec;
  options.memory_bytes = config.memory_mib << 20;
  options.tmpdir = config.dir;
  options.threads = config.build_threads;
  RemoveOnExit cleanup{IndexPath(config, scheme, block_size, codec)};
  const std::string& path = cleanup.path;

  progress(what + ": building");
  ChildBuildResult built;
  SIMDEX_RETURN_IF_ERROR(BuildIndexInChild(path, options, w.fps, &built).WithContext(what));
  std::unique_ptr<IndexReader> reader;
  SIMDEX_RETURN_IF_ERROR(IndexReader::Open(path, ReaderOptions(), &reader).WithContext(what));
  const JsonObject extra = SpaceAndBuild(reader->Info(), codec, built);
  const SearchFn search = [&reader](uint64_t q, int k, std::vector<Match>* matches, SearchStats* stats) {
    return reader->Search(q, k, matches, stats);
  };

  std::vector<int> ks;
  for (const auto& [k, queries] : w.near) {
    if (k <= scheme.k()) ks.push_back(k);
  }
  if (ks.empty()) return Status::OK();
  progress(what + ": warm queries");
  // Warm is a server's steady state: every page of the file read and mapped
  // (as `simdex serve --preload read` does), so that no timed query pays for
  // the first touch of a page by this process; then a warm-up pass.
  PreloadResult preloaded;
  SIMDEX_RETURN_IF_ERROR(reader->Preload(/*lock=*/false, &preloaded).WithContext(what));
  double mean_micros = 0;
  SIMDEX_RETURN_IF_ERROR(
      WarmUp(search, w.near.at(ks.back()), ks.back(), config.seconds_per_set, &mean_micros).WithContext(what));
  const size_t queries = QueriesPerSet(w, config.queries, mean_micros, config.seconds_per_set);
  for (const int k : ks) {
    SIMDEX_RETURN_IF_ERROR(MeasureWarmSingle(w, id, search, tables, k, config.threads, queries, true, extra, out));
    for (const int t : config.threads) {
      QueryRun run;
      const std::span<const uint64_t> near(w.near.at(k).data(), queries);
      SIMDEX_RETURN_IF_ERROR(RunBatch(*reader, near, k, t, w.checked, &run).WithContext(what));
      SIMDEX_RETURN_IF_ERROR(CheckAgainstScan(w, id, "near", k, t, run));
      JsonObject record = PointFields(w, id, tables, k, t, "warm", "batch");
      record.AddFields(extra).AddObject("near", QueryRunJson(run, run.kept.size(), true));
      SIMDEX_RETURN_IF_ERROR(out->Write(record));
    }
  }
  if (config.checksums) {
    progress(what + ": first queries on a freshly opened reader");
    SIMDEX_RETURN_IF_ERROR(MeasureFirstUse(w, id, path, tables, ks.back(), extra, out).WithContext(what));
  }
  if (!config.cold) return Status::OK();

  progress(what + ": cold queries");
  // Verifying the head checksums would read every head index at Open().
  ReaderOptions cold_options;
  cold_options.verify_heads_on_open = false;
  for (const int k : ks) {
    const std::vector<uint64_t>& near = w.near.at(k);
    const std::span<const uint64_t> cold_queries(near.data(), std::min(config.cold_queries, near.size()));
    for (const int t : config.threads) {
      for (const bool random_access : {true, false}) {
        reader.reset();
        double resident = 0;
        SIMDEX_RETURN_IF_ERROR(EvictFromPageCache(path, &resident).WithContext(what));
        SIMDEX_RETURN_IF_ERROR(IndexReader::Open(path, cold_options, &reader).WithContext(what));
        SIMDEX_RETURN_IF_ERROR(
            AdviseMapping(path, random_access ? MADV_RANDOM : MADV_NORMAL).WithContext(what));
        // Open() read the header, footer and metadata, and the read-around
        // of those faults more: evict again so that the batch starts with
        // only the pages Open() still has mapped.
        SIMDEX_RETURN_IF_ERROR(EvictFromPageCache(path, &resident).WithContext(what));
        QueryRun run;
        SIMDEX_RETURN_IF_ERROR(RunBatch(*reader, cold_queries, k, t, w.checked, &run).WithContext(what));
        SIMDEX_RETURN_IF_ERROR(CheckAgainstScan(w, id, "near", k, t, run));
        JsonObject record = PointFields(w, id, tables, k, t, "cold", "batch");
        record.AddFields(extra).AddString("readahead", random_access ? "none" : "default");
        record.AddNumber("resident_after_evict", resident);
        record.AddObject("near", QueryRunJson(run, run.kept.size(), true));
        SIMDEX_RETURN_IF_ERROR(out->Write(record));
      }
    }
  }
  return Status::OK();
}

}  // namespace simdex::bench
