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

#include "format/prefetch.h"

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

// Runs rounds of `n` random lines: round(data, lines, n, carry) reads the
// round's lines at an offset of carry & 1 and returns the next carry.
template <typename Round>
void RunRounds(benchmark::State& state, size_t n, uint64_t seed, Round round) {
  const Buffer& b = TheBuffer();
  const std::vector<size_t> lines = RandomLines(kSets * n, seed);
  size_t at = 0;
  uint64_t carry = 0;
  for (auto _ : state) {
    carry = round(b.data, &lines[at * n], n, carry);
    at = (at + 1) & (kSets - 1);
  }
  benchmark::DoNotOptimize(carry);
}

// n loads one after the other, each address depending on the last value:
// n rounds (n = 1: one load's latency).
void BM_DependentLoads(benchmark::State& state) {
  RunRounds(state, static_cast<size_t>(state.range(0)), 1,
            [](const uint8_t* data, const size_t* set, size_t n, uint64_t carry) {
              for (size_t j = 0; j < n; ++j) carry = data[set[j] + (carry & 1)];
              return carry;
            });
}
BENCHMARK(BM_DependentLoads)->Arg(1)->Arg(10);

// n loads whose addresses are known together: one round of n misses in
// parallel (a phase over the tables).
void BM_IndependentLoads(benchmark::State& state) {
  RunRounds(state, static_cast<size_t>(state.range(0)), 2,
            [](const uint8_t* data, const size_t* set, size_t n, uint64_t carry) {
              uint64_t sum = 0;
              for (size_t j = 0; j < n; ++j) sum += data[set[j] + (carry & 1)];
              return sum;
            });
}
BENCHMARK(BM_IndependentLoads)->Arg(10)->Arg(50);

// The same round with the n lines prefetched first (as the search issues
// them), then read one after the other, each read waiting for the last.
void BM_PrefetchedLoads(benchmark::State& state) {
  RunRounds(state, static_cast<size_t>(state.range(0)), 3,
            [](const uint8_t* data, const size_t* set, size_t n, uint64_t carry) {
              for (size_t j = 0; j < n; ++j) simdex::format::PrefetchLine(data + set[j] + (carry & 1));
              for (size_t j = 0; j < n; ++j) carry = data[set[j] + (carry & 1)];
              return carry;
            });
}
BENCHMARK(BM_PrefetchedLoads)->Arg(10)->Arg(50);

}  // namespace

BENCHMARK_MAIN();
