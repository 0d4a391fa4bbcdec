#include "tools/progress.h"

#include <unistd.h>

#include <cstdio>

namespace simdex::tools {

Progress::Progress(std::string command, bool enabled)
    : command_(std::move(command)),
      enabled_(enabled),
      terminal_(::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

double Progress::Seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::Update(uint64_t documents, uint64_t bytes) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  double since_last = std::chrono::duration<double>(now - last_).count();
  double elapsed = std::chrono::duration<double>(now - start_).count();
  bool due = terminal_ ? since_last >= 0.5 : (shown_ ? since_last >= 5.0 : elapsed >= 2.0);
  if (!due) return;
  last_ = now;
  char line[160];
  std::snprintf(line, sizeof(line), "simdex %s: %llu documents, %.0f docs/s, %.1f MB/s", command_.c_str(),
                static_cast<unsigned long long>(documents), documents / elapsed, bytes / 1e6 / elapsed);
  if (terminal_) {
    std::fprintf(stderr, "\r\033[K%s", line);
  } else {
    std::fprintf(stderr, "%s\n", line);
  }
  std::fflush(stderr);
  shown_ = true;
}

void Progress::Done() {
  if (enabled_ && terminal_ && shown_) std::fprintf(stderr, "\r\033[K");
  shown_ = false;
}

}  // namespace simdex::tools
