// What a cache miss costs on this machine, in the shapes a query meets it:
// one load that depends on the last (a chain of rounds), ten independent
// loads (one per table), and ten or fifty prefetched lines (a phase of the
// search: head windows, then block lines). The lines are random 64-byte
// lines of a buffer far larger than the caches.
//
//   build/bin/memory_bench                      a 1 GiB anonymous buffer
//   SIMDEX_BENCH_FILE=INDEX build/bin/memory_bench   the lines of a mapped file
//                                               (in the page cache: read it once first)
//
// Per-iteration times are for the whole shape (e.g. ten lines), after the
// buffer was touched page by page so that no page fault is timed. On this
// project's VM the mapped 590 MB index and a 1 GiB anonymous buffer differ
// (the host's caches and page sizes): measure the file you care about.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#include "engine/index/prefetch.h"

namespace {

struct Buffer {
  const uint8_t* data = nullptr;
  size_t size = 0;
};

// The buffer: the file named by SIMDEX_BENCH_FILE, mapped read-only, or 1 GiB
// of anonymous memory; every page touched once.
const Buffer& TheBuffer() {
  static const Buffer buffer = [] {
    Buffer b;
    if (const char* path = std::getenv("SIMDEX_BENCH_FILE")) {
      const int fd = open(path, O_RDONLY);
      struct stat st;
      if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size >= (1 << 20)) {
        void* m = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
        if (m != MAP_FAILED) {
          b.data = static_cast<const uint8_t*>(m);
          b.size = static_cast<size_t>(st.st_size);
        }
      }
      if (fd >= 0) close(fd);
    }
    if (b.data == nullptr) {
      b.size = size_t{1} << 30;
      auto* p = static_cast<uint8_t*>(mmap(nullptr, b.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
      for (size_t i = 0; i < b.size; i += 4096) p[i] = static_cast<uint8_t>(i >> 12);
      b.data = p;
    }
    volatile uint64_t sink = 0;
    for (size_t i = 0; i < b.size; i += 4096) sink = sink + b.data[i];
    return b;
  }();
  return buffer;
}

// Random line offsets, `count` of them.
std::vector<size_t> RandomLines(size_t count, uint64_t seed) {
  const Buffer& b = TheBuffer();
  std::mt19937_64 rng(seed);
  std::vector<size_t> lines(count);
  for (size_t& l : lines) l = (rng() % (b.size / 64)) * 64;
  return lines;
}

constexpr size_t kSets = 1 << 16;  // random line sets cycled through (a power of two)

// Every benchmark chains its iterations: an iteration's addresses depend on
// a value the previous one loaded (carry & 1 moves the address by a byte,
// within the same line), so iterations do not overlap and the time of one
// is the latency of its shape.

// One load whose address depends on the previous load's value: one round.
void BM_DependentLoad(benchmark::State& state) {
  const Buffer& b = TheBuffer();
  const std::vector<size_t> lines = RandomLines(kSets, 1);
  size_t i = 0;
  uint64_t carry = 0;
  for (auto _ : state) {
    carry = b.data[lines[i++ & (kSets - 1)] + (carry & 1)];
  }
  benchmark::DoNotOptimize(carry);
}
BENCHMARK(BM_DependentLoad);

// `n` loads whose addresses are known together: one round of n misses in
// parallel (a phase over the tables).
void BM_IndependentLoads(benchmark::State& state) {
  const Buffer& b = TheBuffer();
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<size_t> lines = RandomLines(kSets * n, 2);
  size_t at = 0;
  uint64_t carry = 0;
  for (auto _ : state) {
    const size_t* set = &lines[at * n];
    uint64_t sum = 0;
    for (size_t j = 0; j < n; ++j) sum += b.data[set[j] + (carry & 1)];
    carry = sum;
    at = (at + 1) & (kSets - 1);
  }
  benchmark::DoNotOptimize(carry);
}
BENCHMARK(BM_IndependentLoads)->Arg(10)->Arg(50);

// The same round with the n lines prefetched first (as the search issues
// them), then read one after the other, each read waiting for the last.
void BM_PrefetchedLoads(benchmark::State& state) {
  const Buffer& b = TheBuffer();
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<size_t> lines = RandomLines(kSets * n, 3);
  size_t at = 0;
  uint64_t carry = 0;
  for (auto _ : state) {
    const size_t* set = &lines[at * n];
    for (size_t j = 0; j < n; ++j) simdex::index::PrefetchLine(b.data + set[j] + (carry & 1));
    for (size_t j = 0; j < n; ++j) carry = b.data[set[j] + (carry & 1)];
    at = (at + 1) & (kSets - 1);
  }
  benchmark::DoNotOptimize(carry);
}
BENCHMARK(BM_PrefetchedLoads)->Arg(10)->Arg(50);

// n dependent loads without prefetches: n rounds.
void BM_DependentChain(benchmark::State& state) {
  const Buffer& b = TheBuffer();
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<size_t> lines = RandomLines(kSets * n, 4);
  size_t at = 0;
  uint64_t carry = 0;
  for (auto _ : state) {
    const size_t* set = &lines[at * n];
    for (size_t j = 0; j < n; ++j) carry = b.data[set[j] + (carry & 1)];
    at = (at + 1) & (kSets - 1);
  }
  benchmark::DoNotOptimize(carry);
}
BENCHMARK(BM_DependentChain)->Arg(10);

}  // namespace

BENCHMARK_MAIN();
