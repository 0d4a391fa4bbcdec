#include "bench/harness/grid.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <utility>

#include "bench/harness/baselines.h"
#include "bench/harness/datasets.h"
#include "bench/harness/faiss_searchers.h"
#include "bench/harness/measure.h"
#include "bench/harness/run_info.h"
#include "bench/harness/simdex_point.h"
#include "bench/harness/workload.h"
#include "simdex/scheme.h"

namespace simdex::bench {
namespace {

// Baselines over more fingerprints than this are sized before they are
// built: by one probe build over the first kProbeEntries fingerprints scaled
// linearly, or, past 10 x kProbeEntries, by probes over kProbeEntries and
// 10 x kProbeEntries continued at their bytes per added entry (scaling the
// small probe alone counts a hash map's fixed buckets N / kProbeEntries
// times: faiss-multihash at 10^8 came out at ~20 GiB for ~7).
constexpr uint64_t kProbeEntries = 100000;

std::string GiB(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
  return buf;
}

SearchFn SearchOf(const Searcher& s) {
  return [&s](uint64_t q, int k, std::vector<Match>* out, SearchStats*) { return s.Search(q, k, out); };
}

Status WriteSkip(const Workload& w, const PointId& id, const std::string& reason, JsonLinesWriter* out) {
  JsonObject o;
  o.AddString("type", "skip").AddString("dataset", w.dataset).AddUint("n", w.n());
  o.AddUint("n_requested", w.n_requested).AddString("searcher", id.searcher);
  if (id.scheme.empty()) {
    o.AddNull("scheme");
  } else {
    o.AddString("scheme", id.scheme);
  }
  if (id.block_size) {
    o.AddUint("block_size", id.block_size);
  } else {
    o.AddNull("block_size");
  }
  o.AddString("reason", reason);
  return out->Write(o);
}

// The tables a baseline keeps (the "tables" field).
int BaselineTables(const Searcher& s, const Scheme& scheme) {
  if (const auto* m = dynamic_cast<const FaissMultiHashSearcher*>(&s)) return m->nhash();
  if (dynamic_cast<const FaissHashSearcher*>(&s)) return 1;
  if (s.Name() == "permuted") return scheme.num_tables();
  return 0;
}

// What a baseline's structure depends on besides the k it is built for (the
// "config" field): two schemes that give the same config measure the same
// thing, so it is measured once per workload.
std::string BaselineConfig(const Searcher& s, const Scheme& scheme) {
  if (const auto* m = dynamic_cast<const FaissMultiHashSearcher*>(&s)) {
    return std::to_string(m->nhash()) + " x " + std::to_string(m->bits()) + " bits";
  }
  if (const auto* h = dynamic_cast<const FaissHashSearcher*>(&s)) return std::to_string(h->bits()) + " bits";
  return scheme.Name();
}

// The setting that changes with the k a baseline is built for (faiss's
// nflip; -1 for none).
int NFlip(const Searcher& s) {
  const auto* f = dynamic_cast<const FaissSearcher*>(&s);
  return f ? f->nflip() : -1;
}

// The scan as a searcher measured beside the others: its warm single-query
// runs per (k, threads) and the fields of its records.
struct ScanPoint {
  std::unique_ptr<Searcher> scan;
  JsonObject extra;
  std::map<std::pair<int, int>, WarmSingleRuns> runs;  // (k, threads)
};

// Answers the first w->checked queries of every set with the scan and keeps
// the answers as the reference. With config.repeat == 1 these runs are the
// scan's records (its other thread counts measured and written after them);
// with repeat > 1 the scan's recorded runs are taken later, in turn with
// simdex's indexes (RunScanRound), and this pass only makes the reference.
Status ScanReference(Workload* w, const GridConfig& config, const std::vector<int>& ks, ScanPoint* point,
                     JsonLinesWriter* out, const ProgressFn& progress) {
  const PointId id{"scan", "", 0};
  progress(Describe(*w, id) + ": answering " + std::to_string(w->checked) + " queries per set");
  point->scan = MakeBaseline("scan", Scheme::Default());
  const auto t0 = std::chrono::steady_clock::now();
  SIMDEX_RETURN_IF_ERROR(point->scan->Build(w->fps));
  const double build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  point->extra.AddUint("bytes", point->scan->Bytes()).AddNumber("bytes_per_entry", 0.0);
  point->extra.AddNumber("build_seconds", build_s);
  const SearchFn search = SearchOf(*point->scan);
  QueryRun warmup;
  const std::vector<uint64_t>& some = w->near.at(ks.back());
  SIMDEX_RETURN_IF_ERROR(RunSingle(search, std::span(some.data(), std::min<size_t>(3, some.size())), ks.back(),
                                   1, 0, &warmup));
  std::vector<int> more_threads;
  for (const int t : config.threads) {
    if (t != 1) more_threads.push_back(t);
  }
  for (const int k : ks) {
    WarmSingleRuns runs;
    QueryRun near_run, random_run;
    const std::vector<uint64_t>& near = w->near.at(k);
    SIMDEX_RETURN_IF_ERROR(RunSingle(search, std::span(near.data(), w->checked), k, 1, w->checked, &near_run));
    SIMDEX_RETURN_IF_ERROR(
        RunSingle(search, std::span(w->random.data(), w->checked), k, 1, w->checked, &random_run));
    w->near_ref[k] = std::exchange(near_run.kept, {});
    w->random_ref[k] = std::exchange(random_run.kept, {});
    if (config.repeat > 1) continue;
    runs.near.push_back(std::move(near_run));
    runs.random.push_back(std::move(random_run));
    SIMDEX_RETURN_IF_ERROR(WriteWarmSingle(*w, id, 0, k, 1, false, point->extra, runs, out));
    SIMDEX_RETURN_IF_ERROR(MeasureWarmSingle(*w, id, search, 0, k, more_threads, w->checked, 1, false,
                                             point->extra, out));
  }
  return Status::OK();
}

// One round of the scan's warm runs under --repeat: for each k and thread
// count, the checked queries (near, then random), checked against the
// reference.
Status RunScanRound(const Workload& w, const GridConfig& config, const std::vector<int>& ks, int round,
                    ScanPoint* point, const ProgressFn& progress) {
  const PointId id{"scan", "", 0};
  progress(Describe(w, id) + ": warm queries, round " + std::to_string(round + 1) + " of " +
           std::to_string(config.repeat));
  const SearchFn search = SearchOf(*point->scan);
  for (const int k : ks) {
    for (const int t : config.threads) {
      SIMDEX_RETURN_IF_ERROR(RunWarmSingle(w, id, search, k, t, w.checked, &point->runs[{k, t}]));
    }
  }
  return Status::OK();
}

// The scan's records of the rounds RunScanRound took.
Status WriteScan(const Workload& w, const GridConfig& config, const std::vector<int>& ks, const ScanPoint& point,
                 JsonLinesWriter* out) {
  for (const int k : ks) {
    for (const int t : config.threads) {
      SIMDEX_RETURN_IF_ERROR(
          WriteWarmSingle(w, PointId{"scan", "", 0}, 0, k, t, false, point.extra, point.runs.at({k, t}), out));
    }
  }
  return Status::OK();
}

// Estimated bytes of baseline `name` over all of w's fingerprints.
Status EstimateBytes(const Workload& w, const std::string& name, const Scheme& scheme,
                     const BaselineOptions& options, double* bytes, std::string* how) {
  *bytes = 0;
  if (w.n() <= kProbeEntries) return Status::OK();
  auto probe_bytes = [&](uint64_t entries, double* out) {
    std::unique_ptr<Searcher> probe = MakeBaseline(name, scheme, options);
    SIMDEX_RETURN_IF_ERROR(probe->Build(w.fps.first(entries)));
    *out = static_cast<double>(probe->Bytes());
    return Status::OK();
  };
  const double n = static_cast<double>(w.n());
  double small = 0;
  SIMDEX_RETURN_IF_ERROR(probe_bytes(kProbeEntries, &small));
  constexpr uint64_t kLargeProbe = 10 * kProbeEntries;
  if (w.n() <= kLargeProbe) {
    *bytes = small * n / kProbeEntries;
    *how = "scaled from " + std::to_string(kProbeEntries) + " entries";
    return Status::OK();
  }
  double large = 0;
  SIMDEX_RETURN_IF_ERROR(probe_bytes(kLargeProbe, &large));
  const double per_entry = std::max(0.0, (large - small) / static_cast<double>(kLargeProbe - kProbeEntries));
  *bytes = large + per_entry * (n - static_cast<double>(kLargeProbe));
  *how = "from builds over " + std::to_string(kProbeEntries) + " and " + std::to_string(kLargeProbe) +
         " entries, at their bytes per added entry";
  return Status::OK();
}

// Measures one baseline for one scheme, at the k in `ks` that no earlier
// scheme measured with the same config (*measured: config -> k done): one
// instance per distinct setting over those k (faiss's nflip depends on the k
// it must be exact for).
Status MeasureBaseline(const Workload& w, const GridConfig& config, const std::string& name, const Scheme& scheme,
                       const std::vector<int>& ks, std::map<std::string, std::set<int>>* measured,
                       JsonLinesWriter* out, const ProgressFn& progress) {
  const PointId id{name, scheme.Name(), 0};
  const std::string what = Describe(w, id);
  const std::string config_name = BaselineConfig(*MakeBaseline(name, scheme), scheme);
  std::set<int>& done = (*measured)[name + " " + config_name];
  std::vector<int> todo;
  for (const int k : ks) {
    if (!done.count(k)) todo.push_back(k);
  }
  if (todo.empty()) {
    return WriteSkip(w, id, "same config (" + config_name + ") already measured with another scheme", out);
  }
  BaselineOptions widest;
  widest.max_k = todo.back();
  double estimate = 0;
  std::string how;
  SIMDEX_RETURN_IF_ERROR(EstimateBytes(w, name, scheme, widest, &estimate, &how).WithContext(what));
  const double resident = static_cast<double>(ResidentBytes());
  if (resident + 1.25 * estimate > static_cast<double>(config.memory_limit_bytes)) {
    progress(what + ": skipped (memory)");
    return WriteSkip(w, id,
                     "needs about " + GiB(estimate) + " (" + how + "); with the harness's " + GiB(resident) +
                         " resident and 25% margin that passes the " +
                         GiB(static_cast<double>(config.memory_limit_bytes)) + " limit",
                     out);
  }
  std::map<int, std::vector<int>> ks_by_setting;
  for (const int k : todo) {
    BaselineOptions options;
    options.max_k = k;
    ks_by_setting[NFlip(*MakeBaseline(name, scheme, options))].push_back(k);
  }
  for (const auto& [setting, setting_ks] : ks_by_setting) {
    BaselineOptions options;
    options.max_k = setting_ks.back();
    std::unique_ptr<Searcher> searcher = MakeBaseline(name, scheme, options);
    progress(what + ": building" + (setting >= 0 ? " (nflip " + std::to_string(setting) + ")" : ""));
    const auto t0 = std::chrono::steady_clock::now();
    SIMDEX_RETURN_IF_ERROR(searcher->Build(w.fps).WithContext(what));
    const double build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    JsonObject extra;
    extra.AddString("config", config_name).AddUint("bytes", searcher->Bytes());
    extra.AddNumber("bytes_per_entry", static_cast<double>(searcher->Bytes()) / static_cast<double>(w.n()));
    extra.AddNumber("build_seconds", build_s);
    if (setting >= 0) extra.AddInt("nflip", setting);
    const SearchFn search = SearchOf(*searcher);
    progress(what + ": warm queries");
    double mean_micros = 0;
    SIMDEX_RETURN_IF_ERROR(
        WarmUp(search, w.near.at(setting_ks.back()), setting_ks.back(), config.seconds_per_set, &mean_micros)
            .WithContext(what));
    const size_t queries = QueriesPerSet(w, config.queries, mean_micros, config.seconds_per_set);
    for (const int k : setting_ks) {
      SIMDEX_RETURN_IF_ERROR(MeasureWarmSingle(w, id, search, BaselineTables(*searcher, scheme), k, config.threads,
                                               queries, config.repeat, false, extra, out));
      done.insert(k);
    }
  }
  return Status::OK();
}

Status CheckConfig(const GridConfig& config, std::vector<Scheme>* schemes) {
  for (const std::string& d : config.datasets) {
    if (std::find(DatasetNames().begin(), DatasetNames().end(), d) == DatasetNames().end()) {
      return Status::InvalidArgument("unknown data set '" + d + "' (uniform, clusters, skewed or text)");
    }
    if (d == "text" && config.text_fingerprints.empty()) {
      return Status::InvalidArgument(
          "the text data set needs --text-fingerprints FILE (scripts/bench_text_data.sh makes it)");
    }
  }
  for (const std::string& b : config.baselines) {
    if (std::find(BaselineNames().begin(), BaselineNames().end(), b) == BaselineNames().end()) {
      return Status::InvalidArgument("unknown baseline '" + b + "' (scan, permuted, faiss-hash or faiss-multihash)");
    }
  }
  for (const std::string& spec : config.schemes) {
    Scheme s;
    SIMDEX_RETURN_IF_ERROR(Scheme::Parse(spec, &s).WithContext("scheme '" + spec + "'"));
    schemes->push_back(s);
  }
  if (config.ns.empty() || config.ks.empty() || config.threads.empty() || schemes->empty() ||
      config.block_sizes.empty() || config.codecs.empty() || config.datasets.empty()) {
    return Status::InvalidArgument(
        "every grid list (data sets, N, schemes, block sizes, codecs, k, threads) needs a value");
  }
  for (const uint64_t n : config.ns) {
    if (n == 0) return Status::InvalidArgument("N must be at least 1");
  }
  for (const int k : config.ks) {
    if (k < 0 || k > 64) return Status::InvalidArgument("k must be in 0..64, not " + std::to_string(k));
  }
  for (const int t : config.threads) {
    if (t < 1) return Status::InvalidArgument("threads must be at least 1");
  }
  if (config.queries == 0) return Status::InvalidArgument("--queries must be at least 1");
  if (config.repeat < 1) return Status::InvalidArgument("--repeat must be at least 1");
  return Status::OK();
}

}  // namespace

size_t ScanQueries(const GridConfig& config, uint64_t n) {
  if (config.scan_queries) return std::min(config.scan_queries, config.queries);
  const size_t budget = static_cast<size_t>(5e8 / static_cast<double>(std::max<uint64_t>(n, 1)));
  return std::min(config.queries, std::max<size_t>(50, budget));
}

Status RunGrid(const GridConfig& config, JsonLinesWriter* out, const ProgressFn& progress) {
  std::vector<Scheme> schemes;
  SIMDEX_RETURN_IF_ERROR(CheckConfig(config, &schemes));
  std::vector<int> ks = config.ks;
  std::sort(ks.begin(), ks.end());
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());

  for (const std::string& name : config.datasets) {
    uint64_t last_n = 0;
    for (const uint64_t n : config.ns) {
      Dataset data;
      SIMDEX_RETURN_IF_ERROR(MakeDataset(name, n, config.seed, config.text_fingerprints, &data));
      Workload w;
      w.dataset = name;
      w.n_requested = n;
      w.seed = config.seed;
      w.fps = data.fps;
      if (w.n() < n && w.n() == last_n) {
        SIMDEX_RETURN_IF_ERROR(WriteSkip(w, PointId{"all", "", 0},
                                         "the corpus holds " + std::to_string(w.n()) +
                                             " fingerprints, already measured at a smaller N",
                                         out));
        continue;
      }
      last_n = w.n();
      for (const int k : ks) w.near[k] = NearQueries(w.fps, k, config.queries, config.seed);
      w.random = RandomQueries(config.queries, config.seed);
      w.checked = ScanQueries(config, w.n());
      ScanPoint scan;
      SIMDEX_RETURN_IF_ERROR(ScanReference(&w, config, ks, &scan, out, progress));
      std::map<std::string, std::set<int>> measured;  // baseline config -> k measured

      // With repeats, simdex's indexes of every scheme and the scan are
      // measured together after the baselines, round by round
      // (MeasureSimdex); without, each scheme's indexes after its baselines.
      std::vector<Scheme> simdex_schemes;
      for (const Scheme& scheme : schemes) {
        std::vector<int> scheme_ks;
        for (const int k : ks) {
          if (k <= scheme.k()) scheme_ks.push_back(k);
        }
        if (scheme_ks.empty()) {
          SIMDEX_RETURN_IF_ERROR(WriteSkip(w, PointId{"all", scheme.Name(), 0},
                                           "no requested k is within the scheme's k", out));
          continue;
        }
        for (const std::string& b : config.baselines) {
          if (b == "scan") continue;
          SIMDEX_RETURN_IF_ERROR(MeasureBaseline(w, config, b, scheme, scheme_ks, &measured, out, progress));
        }
        if (config.repeat > 1) {
          simdex_schemes.push_back(scheme);
        } else {
          SIMDEX_RETURN_IF_ERROR(MeasureSimdex(w, config, std::span(&scheme, 1), nullptr, out, progress));
        }
      }
      if (config.repeat > 1) {
        const RoundFn scan_round = [&](int round) { return RunScanRound(w, config, ks, round, &scan, progress); };
        if (simdex_schemes.empty()) {
          for (int round = 0; round < config.repeat; ++round) SIMDEX_RETURN_IF_ERROR(scan_round(round));
        } else {
          SIMDEX_RETURN_IF_ERROR(MeasureSimdex(w, config, simdex_schemes, scan_round, out, progress));
        }
        SIMDEX_RETURN_IF_ERROR(WriteScan(w, config, ks, scan, out));
      }
    }
  }
  return Status::OK();
}

JsonObject ConfigJson(const GridConfig& config) {
  auto numbers = [](const auto& values) {
    std::vector<double> v(values.begin(), values.end());
    return v;
  };
  JsonObject o;
  o.AddStrings("datasets", config.datasets).AddNumbers("n", numbers(config.ns));
  o.AddStrings("schemes", config.schemes).AddNumbers("block_sizes", numbers(config.block_sizes));
  o.AddStrings("codecs", config.codecs);
  o.AddNumbers("k", numbers(config.ks)).AddNumbers("threads", numbers(config.threads));
  o.AddStrings("baselines", config.baselines).AddUint("queries", config.queries).AddBool("cold", config.cold).AddBool("checksums", config.checksums);
  o.AddNumber("seconds_per_set", config.seconds_per_set).AddUint("cold_queries", config.cold_queries).AddUint("scan_queries", config.scan_queries);
  o.AddInt("repeat", config.repeat).AddUint("seed", config.seed).AddUint("memory_mib", config.memory_mib);
  o.AddInt("build_threads", config.build_threads).AddUint("memory_limit_bytes", config.memory_limit_bytes);
  o.AddString("dir", config.dir).AddString("text_fingerprints", config.text_fingerprints);
  return o;
}

}  // namespace simdex::bench
