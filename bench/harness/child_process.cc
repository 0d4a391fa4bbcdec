#include "bench/harness/child_process.h"

#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "bench/harness/run_info.h"

namespace simdex::bench {
namespace {

// The message is a status code, the start RSS, then the report and the
// status message, each length-prefixed.
bool WriteAll(int fd, const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

bool ReadAll(int fd, void* data, size_t n) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    const ssize_t r = read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= static_cast<size_t>(r);
  }
  return true;
}

bool WriteString(int fd, const std::string& s) {
  const uint64_t n = s.size();
  return WriteAll(fd, &n, sizeof(n)) && WriteAll(fd, s.data(), s.size());
}

bool ReadString(int fd, std::string* s) {
  uint64_t n = 0;
  if (!ReadAll(fd, &n, sizeof(n)) || n > (uint64_t{1} << 30)) return false;
  s->resize(n);
  return ReadAll(fd, s->data(), n);
}

Status FromCode(Status::Code code, const std::string& message) {
  switch (code) {
    case Status::Code::kOk: return Status::OK();
    case Status::Code::kInvalidArgument: return Status::InvalidArgument(message);
    case Status::Code::kCorruption: return Status::Corruption(message);
    case Status::Code::kNotFound: return Status::NotFound(message);
    case Status::Code::kNotSupported: return Status::NotSupported(message);
    case Status::Code::kIOError: break;
  }
  return Status::IOError(message);
}

}  // namespace

Status RunInChild(const std::string& what, const std::function<Status(std::string* report)>& work,
                  ChildResult* out) {
  int fds[2];
  if (pipe(fds) != 0) return Status::IOError(std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);  // the child must not flush the parent's buffered output again
  // Hand the heap that earlier measurements freed back to the system, so
  // that the child does not start with it resident.
  malloc_trim(0);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return Status::IOError(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    close(fds[0]);
    const uint64_t start = ResidentBytes();
    std::string report;
    const Status s = work(&report);
    const auto code = static_cast<uint8_t>(s.code());
    const bool ok = WriteAll(fds[1], &code, 1) && WriteAll(fds[1], &start, sizeof(start)) &&
                    WriteString(fds[1], report) && WriteString(fds[1], s.message());
    _exit(ok ? 0 : 1);
  }
  close(fds[1]);
  uint8_t code = 0;
  std::string message;
  const bool got = ReadAll(fds[0], &code, 1) && ReadAll(fds[0], &out->start_rss_bytes, sizeof(uint64_t)) &&
                   ReadString(fds[0], &out->report) && ReadString(fds[0], &message);
  close(fds[0]);
  int wstatus = 0;
  struct rusage ru;
  while (wait4(pid, &wstatus, 0, &ru) < 0) {
    if (errno != EINTR) return Status::IOError(std::string("wait4: ") + std::strerror(errno));
  }
  if (!got || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
    return Status::IOError(what + ": the child died without reporting (" +
                           (WIFSIGNALED(wstatus) ? "signal " + std::to_string(WTERMSIG(wstatus))
                                                 : "exit " + std::to_string(WEXITSTATUS(wstatus))) +
                           ")");
  }
  out->peak_rss_bytes = static_cast<uint64_t>(ru.ru_maxrss) * 1024;
  return FromCode(static_cast<Status::Code>(code), message);
}

}  // namespace simdex::bench
