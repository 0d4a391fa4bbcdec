#include "bench/harness/build_child.h"

#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "bench/harness/run_info.h"

namespace simdex::bench {
namespace {

// What the child sends back through the pipe, in one write.
struct Report {
  BuildStats stats;
  double seconds;
  uint64_t start_rss_bytes;
  Status::Code code;
  char message[1024];
};
static_assert(std::is_trivially_copyable_v<BuildStats>);

Status Build(const std::string& path, const BuildOptions& options, std::span<const uint64_t> fps,
             BuildStats* stats) {
  std::unique_ptr<IndexBuilder> builder;
  SIMDEX_RETURN_IF_ERROR(IndexBuilder::Create(path, options, &builder));
  // Ids in slices, so the child does not allocate an id array as large as
  // the input just to hand it over.
  constexpr size_t kSlice = size_t{1} << 16;
  std::vector<uint64_t> ids(kSlice);
  for (size_t begin = 0; begin < fps.size(); begin += kSlice) {
    const size_t len = std::min(kSlice, fps.size() - begin);
    for (size_t i = 0; i < len; ++i) ids[i] = begin + i;
    SIMDEX_RETURN_IF_ERROR(builder->Add(std::span(ids.data(), len), fps.subspan(begin, len)));
  }
  SIMDEX_RETURN_IF_ERROR(builder->Finish());
  *stats = builder->stats();
  return Status::OK();
}

[[noreturn]] void RunChild(int fd, const std::string& path, const BuildOptions& options,
                           std::span<const uint64_t> fps) {
  Report report{};
  report.start_rss_bytes = ResidentBytes();
  const auto t0 = std::chrono::steady_clock::now();
  Status s = Build(path, options, fps, &report.stats);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  report.code = s.code();
  std::snprintf(report.message, sizeof(report.message), "%s", s.message().c_str());
  const ssize_t n = write(fd, &report, sizeof(report));
  _exit(n == static_cast<ssize_t>(sizeof(report)) ? 0 : 1);
}

}  // namespace

Status BuildIndexInChild(const std::string& path, const BuildOptions& options,
                         std::span<const uint64_t> fps, ChildBuildResult* out) {
  int fds[2];
  if (pipe(fds) != 0) return Status::IOError(std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);  // the child must not flush the parent's buffered output again
  // Hand the heap that earlier baselines freed back to the system, so that
  // the child does not start with it resident.
  malloc_trim(0);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return Status::IOError(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    close(fds[0]);
    RunChild(fds[1], path, options, fps);
  }
  close(fds[1]);
  Report report{};
  size_t got = 0;
  while (got < sizeof(report)) {
    const ssize_t n = read(fds[0], reinterpret_cast<char*>(&report) + got, sizeof(report) - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  close(fds[0]);
  int wstatus = 0;
  struct rusage ru;
  while (wait4(pid, &wstatus, 0, &ru) < 0) {
    if (errno != EINTR) return Status::IOError(std::string("wait4: ") + std::strerror(errno));
  }
  if (got != sizeof(report) || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
    return Status::IOError(path + ": the build child died without reporting (" +
                           (WIFSIGNALED(wstatus) ? "signal " + std::to_string(WTERMSIG(wstatus))
                                                 : "exit " + std::to_string(WEXITSTATUS(wstatus))) +
                           ")");
  }
  out->stats = report.stats;
  out->seconds = report.seconds;
  out->start_rss_bytes = report.start_rss_bytes;
  out->peak_rss_bytes = static_cast<uint64_t>(ru.ru_maxrss) * 1024;
  switch (report.code) {
    case Status::Code::kOk: return Status::OK();
    case Status::Code::kInvalidArgument: return Status::InvalidArgument(report.message);
    case Status::Code::kCorruption: return Status::Corruption(report.message);
    case Status::Code::kNotFound: return Status::NotFound(report.message);
    case Status::Code::kNotSupported: return Status::NotSupported(report.message);
    case Status::Code::kIOError: break;
  }
  return Status::IOError(report.message);
}

}  // namespace simdex::bench
