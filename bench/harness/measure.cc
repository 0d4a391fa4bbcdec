#include "bench/harness/measure.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <string>
#include <latch>
#include <mutex>
#include <numeric>
#include <thread>

namespace simdex::bench {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

uint64_t MajorFaults() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<uint64_t>(ru.ru_majflt);
}

// Bytes this process caused to be read from storage (/proc/self/io
// read_bytes; 0 if unavailable). With the page cache's read-ahead one major
// fault may fetch many pages, so this shows what a cold query really reads.
uint64_t StorageReadBytes() {
  std::ifstream in("/proc/self/io");
  std::string key;
  uint64_t value = 0;
  while (in >> key >> value) {
    if (key == "read_bytes:") return value;
  }
  return 0;
}

}  // namespace

Percentiles Summarize(std::vector<double> values) {
  Percentiles p;
  if (values.empty()) return p;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  auto rank = [&](double q) {
    const size_t r = static_cast<size_t>(std::ceil(q * static_cast<double>(n)));
    return values[std::clamp<size_t>(r, 1, n) - 1];
  };
  p.p50 = rank(0.50);
  p.p90 = rank(0.90);
  p.p99 = rank(0.99);
  p.max = values.back();
  p.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(n);
  return p;
}

Status RunSingle(const SearchFn& search, std::span<const uint64_t> queries, int k, int threads,
                 size_t keep, QueryRun* out) {
  *out = QueryRun();
  out->queries = queries.size();
  out->micros.assign(queries.size(), 0.0);
  out->kept.resize(std::min(keep, queries.size()));
  std::vector<SearchStats> stats(threads);
  std::vector<uint64_t> matches(threads, 0);
  // Each thread notes when it started and finished: the run's wall time is
  // from the first start to the last finish (the main thread may be
  // descheduled while the workers run).
  std::vector<Clock::time_point> began(threads), ended(threads);
  Status first_error;
  std::mutex error_mu;
  std::latch start(threads);

  auto work = [&](int j) {
    std::vector<Match> result;
    start.arrive_and_wait();
    began[j] = Clock::now();
    for (size_t i = j; i < queries.size(); i += threads) {
      const auto a = Clock::now();
      Status s = search(queries[i], k, &result, &stats[j]);
      out->micros[i] = std::chrono::duration<double, std::micro>(Clock::now() - a).count();
      if (!s.ok()) {
        std::lock_guard<std::mutex> lock(error_mu);
        if (first_error.ok()) first_error = s.WithContext("query " + std::to_string(i));
        break;
      }
      matches[j] += result.size();
      if (i < out->kept.size()) out->kept[i] = result;
    }
    ended[j] = Clock::now();
  };
  const uint64_t faults_before = MajorFaults();
  const uint64_t read_before = StorageReadBytes();
  std::vector<std::thread> pool;
  for (int j = 0; j < threads; ++j) pool.emplace_back(work, j);
  for (std::thread& t : pool) t.join();
  out->seconds = Seconds(*std::min_element(began.begin(), began.end()), *std::max_element(ended.begin(), ended.end()));
  out->major_faults = MajorFaults() - faults_before;
  out->read_bytes = StorageReadBytes() - read_before;
  for (int j = 0; j < threads; ++j) {
    out->stats.Add(stats[j]);
    out->matches += matches[j];
  }
  return first_error;
}

Status WarmUp(const SearchFn& search, std::span<const uint64_t> queries, int k, double seconds,
              double* mean_micros) {
  std::vector<Match> result;
  SearchStats stats;
  const auto t0 = Clock::now();
  size_t sent = 0;
  while (sent < queries.size()) {
    SIMDEX_RETURN_IF_ERROR(search(queries[sent], k, &result, &stats).WithContext("warm-up"));
    ++sent;
    if (seconds > 0 && sent % 16 == 0 && Seconds(t0, Clock::now()) > seconds) break;  // 0: the whole pass
  }
  *mean_micros = sent ? Seconds(t0, Clock::now()) * 1e6 / static_cast<double>(sent) : 0.0;
  return Status::OK();
}

Status RunBatch(const IndexReader& reader, std::span<const uint64_t> queries, int k, int threads,
                size_t keep, QueryRun* out) {
  *out = QueryRun();
  out->queries = queries.size();
  SearchResults results;
  const uint64_t faults_before = MajorFaults();
  const uint64_t read_before = StorageReadBytes();
  const auto t0 = Clock::now();
  Status s = reader.Search(queries, k, &results, threads, &out->stats);
  out->seconds = Seconds(t0, Clock::now());
  out->major_faults = MajorFaults() - faults_before;
  out->read_bytes = StorageReadBytes() - read_before;
  if (!s.ok()) return s.WithContext("batch search");
  out->matches = results.matches.size();
  out->kept.resize(std::min(keep, queries.size()));
  for (size_t i = 0; i < out->kept.size(); ++i) {
    out->kept[i].assign(results.matches.begin() + results.lims[i], results.matches.begin() + results.lims[i + 1]);
  }
  return Status::OK();
}

std::optional<size_t> FirstDisagreement(const QueryRun& run, std::span<const std::vector<Match>> reference) {
  for (size_t i = 0; i < reference.size(); ++i) {
    if (run.kept[i] != reference[i]) return i;
  }
  return std::nullopt;
}

JsonObject QueryRunJson(const QueryRun& run, size_t checked, bool index_counters) {
  const double nq = run.queries ? static_cast<double>(run.queries) : 1.0;
  JsonObject o;
  o.AddUint("queries", run.queries).AddUint("checked", checked).AddNumber("seconds", run.seconds);
  o.AddNumber("qps", run.seconds > 0 ? static_cast<double>(run.queries) / run.seconds : 0.0);
  if (run.micros.empty()) {
    for (const char* key : {"p50_us", "p90_us", "p99_us", "max_us", "mean_us"}) o.AddNull(key);
  } else {
    const Percentiles p = Summarize(run.micros);
    o.AddNumber("p50_us", p.p50).AddNumber("p90_us", p.p90).AddNumber("p99_us", p.p99);
    o.AddNumber("max_us", p.max).AddNumber("mean_us", p.mean);
  }
  o.AddNumber("matches_per_query", static_cast<double>(run.matches) / nq);
  o.AddNumber("major_faults_per_query", static_cast<double>(run.major_faults) / nq);
  o.AddNumber("read_bytes_per_query", static_cast<double>(run.read_bytes) / nq);
  if (index_counters) {
    o.AddNumber("blocks_per_query", static_cast<double>(run.stats.blocks_decoded) / nq);
    o.AddNumber("entries_per_query", static_cast<double>(run.stats.entries_scanned) / nq);
    o.AddNumber("tables_probed_per_query", static_cast<double>(run.stats.tables_probed) / nq);
    o.AddNumber("id_lookups_per_query", static_cast<double>(run.stats.id_lookups) / nq);
  }
  return o;
}

}  // namespace simdex::bench
