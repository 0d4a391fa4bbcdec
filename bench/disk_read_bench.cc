// simdex-disk-read-bench: the disk's own random-read latency and IOPS, the
// baseline that cold queries are measured against (docs/benchmarks.md,
// issue 39 item 4).
//
// Reads --reads random, aligned --size-byte pieces of --file with pread
// through O_DIRECT (the page cache is bypassed, so a page the cache holds is
// read from the disk all the same), for each --depth D: D threads each
// issue one read after another, so that D reads are in flight. Prints, per
// depth, the latency of one read (p50, p90, p99, mean, in microseconds) and
// the reads per second of all threads together. Then, for each --burst B,
// one thread asks for B random pieces at once (Linux native AIO, one
// io_submit) and waits until the last is back, round after round: the
// time a query that needs B pages at once cannot beat on this disk, however
// it asks. --json appends one JSON line per depth and per burst. Where
// O_DIRECT is refused (tmpfs) it says so and exits non-zero rather than
// measure the page cache.
//
// Usage: simdex-disk-read-bench --file PATH [--reads 20000] [--size 4096]
//          [--depth 1,10,32] [--burst 1,10] [--seed 1] [--json FILE]
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

namespace {

using Clock = std::chrono::steady_clock;

struct Config {
  std::string file;
  uint64_t reads = 20000;
  uint32_t size = 4096;
  std::vector<int> depths = {1, 10, 32};
  std::vector<int> bursts = {1, 10};
  uint64_t seed = 1;
  std::string json;
};

// The latencies of one run, in microseconds.
struct Latency {
  double p50 = 0, p90 = 0, p99 = 0, mean = 0;
};

double Percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  return sorted[std::min(sorted.size() - 1, static_cast<size_t>(q * static_cast<double>(sorted.size())))];
}

// Sorts *micros and summarizes them.
Latency Summarize(std::vector<double>* micros) {
  std::sort(micros->begin(), micros->end());
  Latency l;
  double sum = 0;
  for (const double m : *micros) sum += m;
  l.mean = micros->empty() ? 0 : sum / static_cast<double>(micros->size());
  l.p50 = Percentile(*micros, 0.50);
  l.p90 = Percentile(*micros, 0.90);
  l.p99 = Percentile(*micros, 0.99);
  return l;
}

// Appends one JSON line: {"type":TYPE, file bytes, read size, SHAPE_KEY:
// shape, COUNT_KEY: count, the latencies, reads per second}.
void WriteJson(FILE* json, const char* type, long long file_bytes, uint32_t size, const char* shape_key, int shape,
               const char* count_key, uint64_t count, const Latency& l, double reads_per_second) {
  if (json == nullptr) return;
  std::fprintf(json,
               "{\"type\":\"%s\",\"file_bytes\":%lld,\"size\":%u,\"%s\":%d,\"%s\":%llu,\"p50_micros\":%.2f,"
               "\"p90_micros\":%.2f,\"p99_micros\":%.2f,\"mean_micros\":%.2f,\"reads_per_second\":%.1f}\n",
               type, file_bytes, size, shape_key, shape, count_key, static_cast<unsigned long long>(count), l.p50,
               l.p90, l.p99, l.mean, reads_per_second);
}

// One thread's share: `n` reads at random aligned offsets below `pieces`
// pieces, each latency appended to *micros. Returns errno of a failed read.
int ReadRandom(int fd, const Config& c, uint64_t pieces, uint64_t n, uint64_t seed, std::vector<double>* micros) {
  void* buffer = nullptr;
  if (posix_memalign(&buffer, 4096, c.size) != 0) return ENOMEM;
  std::mt19937_64 rng(seed);
  int err = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const off_t offset = static_cast<off_t>((rng() % pieces) * c.size);
    const auto start = Clock::now();
    const ssize_t got = ::pread(fd, buffer, c.size, offset);
    const auto stop = Clock::now();
    if (got != static_cast<ssize_t>(c.size)) {
      err = got < 0 ? errno : EIO;
      break;
    }
    micros->push_back(std::chrono::duration<double, std::micro>(stop - start).count());
  }
  std::free(buffer);
  return err;
}

// Bursts of `burst` reads, each burst submitted at once through native AIO
// (O_DIRECT reads of a regular file on a block device run asynchronously)
// and waited for whole; `rounds` of them. Each burst's time from the submit
// to the last completion is appended to *micros. Returns an errno.
int ReadBursts(int fd, const Config& c, uint64_t pieces, int burst, uint64_t rounds, std::vector<double>* micros) {
  aio_context_t ctx = 0;
  if (syscall(SYS_io_setup, burst, &ctx) != 0) return errno;
  void* buffers = nullptr;
  if (posix_memalign(&buffers, 4096, static_cast<size_t>(c.size) * static_cast<size_t>(burst)) != 0) {
    syscall(SYS_io_destroy, ctx);
    return ENOMEM;
  }
  std::vector<iocb> cbs(static_cast<size_t>(burst));
  std::vector<iocb*> list(static_cast<size_t>(burst));
  std::vector<io_event> events(static_cast<size_t>(burst));
  std::mt19937_64 rng(c.seed * 7919 + static_cast<uint64_t>(burst));
  int err = 0;
  for (uint64_t r = 0; r < rounds && err == 0; ++r) {
    for (int i = 0; i < burst; ++i) {
      iocb& cb = cbs[static_cast<size_t>(i)];
      std::memset(&cb, 0, sizeof cb);
      cb.aio_fildes = static_cast<uint32_t>(fd);
      cb.aio_lio_opcode = IOCB_CMD_PREAD;
      cb.aio_buf = reinterpret_cast<uint64_t>(static_cast<char*>(buffers) + static_cast<size_t>(i) * c.size);
      cb.aio_nbytes = c.size;
      cb.aio_offset = static_cast<int64_t>((rng() % pieces) * c.size);
      list[static_cast<size_t>(i)] = &cb;
    }
    const auto start = Clock::now();
    if (syscall(SYS_io_submit, ctx, static_cast<long>(burst), list.data()) != burst) {
      err = errno != 0 ? errno : EIO;
      break;
    }
    for (int done = 0; done < burst;) {
      const long got = syscall(SYS_io_getevents, ctx, 1L, static_cast<long>(burst - done), events.data(), nullptr);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        err = errno;
        break;
      }
      for (long e = 0; e < got; ++e) {
        if (events[static_cast<size_t>(e)].res != static_cast<int64_t>(c.size)) err = EIO;
      }
      done += static_cast<int>(got);
    }
    micros->push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  std::free(buffers);
  syscall(SYS_io_destroy, ctx);
  return err;
}

int Run(const Config& c) {
  const int fd = ::open(c.file.c_str(), O_RDONLY | O_DIRECT);
  if (fd < 0) {
    std::fprintf(stderr, "%s: cannot open with O_DIRECT: %s\n", c.file.c_str(), std::strerror(errno));
    return 1;
  }
  const off_t bytes = ::lseek(fd, 0, SEEK_END);
  const uint64_t pieces = bytes > 0 ? static_cast<uint64_t>(bytes) / c.size : 0;
  if (pieces < 1024) {
    std::fprintf(stderr, "%s: %lld bytes is too small for random reads of %u bytes (want >= 1024 of them)\n",
                 c.file.c_str(), static_cast<long long>(bytes), c.size);
    ::close(fd);
    return 1;
  }
  FILE* json = c.json.empty() ? nullptr : std::fopen(c.json.c_str(), "a");
  if (!c.json.empty() && json == nullptr) {
    std::fprintf(stderr, "%s: cannot open for appending: %s\n", c.json.c_str(), std::strerror(errno));
    ::close(fd);
    return 1;
  }
  int status = 0;
  for (const int depth : c.depths) {
    std::vector<std::vector<double>> micros(static_cast<size_t>(depth));
    std::vector<int> errs(static_cast<size_t>(depth), 0);
    std::vector<std::thread> threads;
    const uint64_t per_thread = std::max<uint64_t>(1, c.reads / static_cast<uint64_t>(depth));
    const auto start = Clock::now();
    for (int t = 0; t < depth; ++t) {
      micros[t].reserve(per_thread);
      threads.emplace_back([&, t] {
        errs[t] = ReadRandom(fd, c, pieces, per_thread, c.seed * 1000003 + static_cast<uint64_t>(t), &micros[t]);
      });
    }
    for (std::thread& th : threads) th.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::vector<double> all;
    for (const auto& m : micros) all.insert(all.end(), m.begin(), m.end());
    for (const int e : errs) {
      if (e != 0) {
        std::fprintf(stderr, "%s: pread at depth %d: %s\n", c.file.c_str(), depth, std::strerror(e));
        status = 1;
      }
    }
    if (status != 0) break;
    const Latency l = Summarize(&all);
    const double iops = static_cast<double>(all.size()) / seconds;
    std::printf("pread %u B, O_DIRECT, depth %2d: %zu reads, p50 %.1f us, p90 %.1f, p99 %.1f, mean %.1f; "
                "%.0f reads/s (%.1f MB/s)\n",
                c.size, depth, all.size(), l.p50, l.p90, l.p99, l.mean, iops, iops * c.size / 1e6);
    std::fflush(stdout);
    WriteJson(json, "disk-read", static_cast<long long>(bytes), c.size, "depth", depth, "reads", all.size(), l, iops);
  }
  for (const int burst : c.bursts) {
    if (status != 0) break;
    std::vector<double> micros;
    const uint64_t rounds = std::max<uint64_t>(1, c.reads / static_cast<uint64_t>(burst));
    micros.reserve(rounds);
    const auto start = Clock::now();
    const int err = ReadBursts(fd, c, pieces, burst, rounds, &micros);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (err != 0) {
      std::fprintf(stderr, "%s: AIO bursts of %d: %s\n", c.file.c_str(), burst, std::strerror(err));
      status = 1;
      break;
    }
    const Latency l = Summarize(&micros);
    const double iops = static_cast<double>(micros.size()) * burst / seconds;
    std::printf("AIO %u B, O_DIRECT, bursts of %2d: %zu bursts, until the last read: p50 %.1f us, p90 %.1f, "
                "p99 %.1f, mean %.1f; %.0f reads/s\n",
                c.size, burst, micros.size(), l.p50, l.p90, l.p99, l.mean, iops);
    std::fflush(stdout);
    WriteJson(json, "disk-burst", static_cast<long long>(bytes), c.size, "burst", burst, "bursts", micros.size(), l,
              iops);
  }
  if (json) std::fclose(json);
  ::close(fd);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  Config c;
  CLI::App app{"simdex-disk-read-bench: random O_DIRECT reads of a file: latency and IOPS per depth"};
  app.add_option("--file", c.file, "a large file on the disk to measure (e.g. an index file)")->required();
  app.add_option("--reads", c.reads, "reads per depth")->capture_default_str();
  app.add_option("--size", c.size, "bytes per read, a multiple of 4096")->capture_default_str()
      ->check(CLI::Range(4096u, 1u << 24));
  app.add_option("--depth", c.depths, "reads in flight (threads), one run each")->delimiter(',')
      ->capture_default_str();
  app.add_option("--burst", c.bursts, "reads asked for at once and waited for whole (AIO), one run each")
      ->delimiter(',')->capture_default_str();
  app.add_option("--seed", c.seed, "random offsets' seed")->capture_default_str();
  app.add_option("--json", c.json, "append one JSON line per depth and per burst to this file");
  CLI11_PARSE(app, argc, argv);
  if (c.size % 4096 != 0) {
    std::fprintf(stderr, "--size %u: not a multiple of 4096 (O_DIRECT)\n", c.size);
    return 2;
  }
  for (const int d : c.depths) {
    if (d < 1 || d > 1024) {
      std::fprintf(stderr, "--depth %d: outside 1..1024\n", d);
      return 2;
    }
  }
  for (const int b : c.bursts) {
    if (b < 1 || b > 1024) {
      std::fprintf(stderr, "--burst %d: outside 1..1024\n", b);
      return 2;
    }
  }
  return Run(c);
}
