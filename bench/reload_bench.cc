// simdex-reload-bench: search latency while the served index file is
// replaced (docs/library.md, "Hot reload"; docs/benchmarks.md).
//
// Builds two versions of an index of N uniform random fingerprints (t10,
// 4 KiB blocks; the same fingerprints, other ids), serves one through a
// ReloadingIndex, and runs `threads` threads that search without pause
// (queries: indexed fingerprints with 0-3 bits flipped). First a baseline
// phase without reloads; then `switches` replacements, one every `interval`
// ms: the other version is hard-linked to a temporary name and renamed over
// the served path (as `simdex build` renames its output: the page cache
// holds the file, the new mapping is cold), and Reload() is called. A search
// is "during a switch" when it starts between a Reload() call and
// `window` ms after it returns, so the first searches on the new mapping
// count. Prints one JSON line: baseline p50/p99/max, the same for the
// searches during switches, and the worst search during a switch over the
// baseline p99 (the target is at most 2), each in wall time and in the
// searching thread's CPU time (CLOCK_THREAD_CPUTIME_ID, page faults
// included): on a shared machine a wall-time maximum is the scheduler's
// doing (another process ran), the CPU-time one the search's own.
//
// Usage: simdex-reload-bench [--n 1e6] [--threads 1] [--switches 50]
//          [--interval-ms 100] [--window-ms 10] [--baseline-s 3]
//          [--preload 0|1] [--dir /tmp]
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "simdex/index.h"
#include "simdex/reloading_index.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Args {
  double n = 1e6;
  int threads = 1;
  int switches = 50;
  int interval_ms = 100;
  int window_ms = 10;
  double baseline_s = 3;
  bool preload = false;
  std::string dir = "/tmp";
};

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "simdex-reload-bench: %s\n", what.c_str());
  std::exit(1);
}

void Check(const simdex::Status& s, const char* what) {
  if (!s.ok()) Die(std::string(what) + ": " + s.ToString());
}

Args Parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--n") a.n = std::atof(v.c_str());
    else if (k == "--threads") a.threads = std::atoi(v.c_str());
    else if (k == "--switches") a.switches = std::atoi(v.c_str());
    else if (k == "--interval-ms") a.interval_ms = std::atoi(v.c_str());
    else if (k == "--window-ms") a.window_ms = std::atoi(v.c_str());
    else if (k == "--baseline-s") a.baseline_s = std::atof(v.c_str());
    else if (k == "--preload") a.preload = v == "1";
    else if (k == "--dir") a.dir = v;
    else Die("unknown option " + k);
  }
  if (argc % 2 == 0) Die("every option takes a value");
  if (a.n < 1 || a.threads < 1 || a.switches < 1 || a.interval_ms < 1) Die("bad option value");
  return a;
}

struct Sample {
  Clock::time_point start;
  double micros;      // wall
  double cpu_micros;  // the thread's CPU time
};

double ThreadCpuMicros() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

double Max(const std::vector<double>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = Parse(argc, argv);
  const uint64_t n = static_cast<uint64_t>(args.n);
  char pattern[] = "/simdex-reload-bench-XXXXXX";
  std::string dir = args.dir + pattern;
  if (mkdtemp(dir.data()) == nullptr) Die("cannot create a directory in " + args.dir);
  const std::string versions[2] = {dir + "/v1.sdx", dir + "/v2.sdx"};
  const std::string served = dir + "/served.sdx";

  std::mt19937_64 rng(7);
  std::vector<uint64_t> fps(n);
  for (uint64_t& f : fps) f = rng();
  for (int v = 0; v < 2; ++v) {
    std::unique_ptr<simdex::IndexBuilder> builder;
    Check(simdex::IndexBuilder::Create(versions[v], simdex::BuildOptions(), &builder), "create");
    for (uint64_t i = 0; i < n; ++i) Check(builder->Add((v + 1) * 10'000'000'000ULL + i, fps[i]), "add");
    Check(builder->Finish(), "finish");
  }
  auto put_in_place = [&](int v) {
    const std::string tmp = served + ".tmp";
    ::unlink(tmp.c_str());
    if (::link(versions[v].c_str(), tmp.c_str()) != 0 || std::rename(tmp.c_str(), served.c_str()) != 0) {
      Die("cannot put " + versions[v] + " in place");
    }
  };
  put_in_place(0);
  simdex::ReloadOptions options;
  options.preload_before_switch = args.preload;
  std::unique_ptr<simdex::ReloadingIndex> index;
  Check(simdex::ReloadingIndex::Open(served, options, &index), "open");
  if (args.preload) {
    simdex::PreloadResult r;
    Check(index->Current()->Preload(false, &r), "preload");
  }

  std::vector<uint64_t> queries(1 << 16);
  for (uint64_t& q : queries) {
    q = fps[rng() % n];
    for (int b = static_cast<int>(rng() % 4); b > 0; --b) q ^= 1ULL << (rng() % 64);
  }

  std::atomic<int> phase{0};  // 0: baseline, 1: switches, 2: stop
  std::vector<std::vector<Sample>> samples[2];
  samples[0].resize(args.threads);
  samples[1].resize(args.threads);
  std::vector<std::thread> threads;
  for (int t = 0; t < args.threads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<simdex::Match> matches;
      size_t i = static_cast<size_t>(t) * 7919;
      int p;
      while ((p = phase.load(std::memory_order_relaxed)) < 2) {
        const double cpu = ThreadCpuMicros();
        const Clock::time_point start = Clock::now();
        const std::shared_ptr<const simdex::IndexReader> reader = index->Current();
        Check(reader->Search(queries[i++ % queries.size()], 3, &matches), "search");
        const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
        samples[p][t].push_back({start, us, ThreadCpuMicros() - cpu});
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(args.baseline_s));
  phase.store(1);
  std::vector<std::pair<Clock::time_point, Clock::time_point>> windows;
  std::vector<double> reload_ms;
  for (int s = 0; s < args.switches; ++s) {
    std::this_thread::sleep_for(std::chrono::milliseconds(args.interval_ms));
    put_in_place((s + 1) % 2);
    const Clock::time_point begin = Clock::now();
    bool switched = false;
    Check(index->Reload(&switched), "reload");
    const Clock::time_point end = Clock::now();
    if (!switched) Die("a replacement was not switched to");
    windows.push_back({begin, end + std::chrono::milliseconds(args.window_ms)});
    reload_ms.push_back(std::chrono::duration<double, std::milli>(end - begin).count());
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(args.interval_ms));
  phase.store(2);
  for (std::thread& t : threads) t.join();

  std::vector<double> base, during, base_cpu, during_cpu;
  for (const auto& v : samples[0]) {
    for (const Sample& s : v) {
      base.push_back(s.micros);
      base_cpu.push_back(s.cpu_micros);
    }
  }
  for (const auto& v : samples[1]) {
    for (const Sample& s : v) {
      const bool in_window = std::any_of(windows.begin(), windows.end(), [&](const auto& w) {
        return s.start >= w.first && s.start <= w.second;
      });
      if (in_window) {
        during.push_back(s.micros);
        during_cpu.push_back(s.cpu_micros);
      }
    }
  }
  const double base_p99 = Percentile(base, 0.99);
  const double base_cpu_p99 = Percentile(base_cpu, 0.99);
  char load[64] = "";
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fgets(load, sizeof load, f) == nullptr) load[0] = '\0';
    std::fclose(f);
  }
  std::string loadavg(load);
  loadavg = loadavg.substr(0, loadavg.find(' '));
  std::printf(
      "{\"bench\":\"reload\",\"n\":%llu,\"scheme\":\"t10\",\"block_size\":4096,\"threads\":%d,\"switches\":%d,"
      "\"interval_ms\":%d,\"window_ms\":%d,\"preload\":%s,\"baseline_searches\":%zu,\"baseline_p50_us\":%.2f,"
      "\"baseline_p99_us\":%.2f,\"baseline_max_us\":%.2f,\"during_searches\":%zu,\"during_p50_us\":%.2f,"
      "\"during_p99_us\":%.2f,\"during_max_us\":%.2f,\"worst_during_over_baseline_p99\":%.2f,"
      "\"cpu_baseline_p50_us\":%.2f,\"cpu_baseline_p99_us\":%.2f,\"cpu_baseline_max_us\":%.2f,"
      "\"cpu_during_p99_us\":%.2f,\"cpu_during_max_us\":%.2f,\"cpu_worst_during_over_baseline_p99\":%.2f,"
      "\"reload_ms_p50\":%.2f,\"reload_ms_max\":%.2f,\"load1\":%s}\n",
      static_cast<unsigned long long>(n), args.threads, args.switches, args.interval_ms, args.window_ms,
      args.preload ? "true" : "false", base.size(), Percentile(base, 0.5), base_p99,
      Max(base), during.size(), Percentile(during, 0.5), Percentile(during, 0.99), Max(during),
      base_p99 > 0 ? Max(during) / base_p99 : 0, Percentile(base_cpu, 0.5), base_cpu_p99, Max(base_cpu),
      Percentile(during_cpu, 0.99), Max(during_cpu), base_cpu_p99 > 0 ? Max(during_cpu) / base_cpu_p99 : 0,
      Percentile(reload_ms, 0.5), *std::max_element(reload_ms.begin(), reload_ms.end()),
      loadavg.empty() ? "null" : loadavg.c_str());
  index.reset();
  for (const std::string& f : {versions[0], versions[1], served}) ::unlink(f.c_str());
  ::rmdir(dir.c_str());
  return 0;
}
