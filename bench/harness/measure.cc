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

namespace {

// One number of a "near"/"random" object; NaN is written as null.
struct Figure {
  const char* key;
  double value;
  bool timed;  // reported with its spread over the runs
};

std::vector<Figure> FiguresOf(const QueryRun& run, bool index_counters) {
  const double nq = run.queries ? static_cast<double>(run.queries) : 1.0;
  const double none = std::nan("");
  const bool single = !run.micros.empty();
  const Percentiles p = Summarize(run.micros);
  std::vector<Figure> f = {
      {"seconds", run.seconds, true},
      {"qps", run.seconds > 0 ? static_cast<double>(run.queries) / run.seconds : 0.0, true},
      {"p50_us", single ? p.p50 : none, true},
      {"p90_us", single ? p.p90 : none, true},
      {"p99_us", single ? p.p99 : none, true},
      {"max_us", single ? p.max : none, true},
      {"mean_us", single ? p.mean : none, true},
      {"matches_per_query", static_cast<double>(run.matches) / nq, false},
      {"major_faults_per_query", static_cast<double>(run.major_faults) / nq, false},
      {"read_bytes_per_query", static_cast<double>(run.read_bytes) / nq, false},
  };
  if (index_counters) {
    f.push_back({"blocks_per_query", static_cast<double>(run.stats.blocks_decoded) / nq, false});
    f.push_back({"entries_per_query", static_cast<double>(run.stats.entries_scanned) / nq, false});
    f.push_back({"tables_probed_per_query", static_cast<double>(run.stats.tables_probed) / nq, false});
    f.push_back({"id_lookups_per_query", static_cast<double>(run.stats.id_lookups) / nq, false});
  }
  return f;
}

}  // namespace

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  if (values.size() % 2) return values[mid];
  const double upper = values[mid];
  return (*std::max_element(values.begin(), values.begin() + mid) + upper) / 2;
}

JsonObject QueryRunsJson(std::span<const QueryRun> runs, size_t checked, bool index_counters) {
  std::vector<std::vector<Figure>> figures;
  for (const QueryRun& run : runs) figures.push_back(FiguresOf(run, index_counters));
  JsonObject o, spread;
  o.AddUint("queries", runs.front().queries).AddUint("checked", checked);
  for (size_t i = 0; i < figures.front().size(); ++i) {
    const Figure& first = figures.front()[i];
    if (std::isnan(first.value)) {  // a batch's percentiles
      o.AddNull(first.key);
      continue;
    }
    std::vector<double> values;
    for (const std::vector<Figure>& f : figures) values.push_back(f[i].value);
    o.AddNumber(first.key, Median(values));
    if (first.timed) {
      const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
      const double range[] = {*lo, *hi};
      spread.AddNumbers(first.key, range);
    }
  }
  o.AddUint("runs", runs.size()).AddObject("spread", spread);
  return o;
}

JsonObject QueryRunJson(const QueryRun& run, size_t checked, bool index_counters) {
  return QueryRunsJson(std::span(&run, 1), checked, index_counters);
}

}  // namespace simdex::bench
