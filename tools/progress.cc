#include "tools/progress.h"

#include <unistd.h>

#include <cstdio>

#include "simdex/front_end_text.h"

namespace simdex::tools {

Progress::Progress(std::string command, bool enabled)
    : command_(std::move(command)),
      enabled_(enabled),
      terminal_(::isatty(STDERR_FILENO) == 1) {}

bool Progress::Due() {
  if (!enabled_) return false;
  const double now = Seconds();
  const double since_last = now - last_;
  bool due = terminal_ ? since_last >= 0.5 : (shown_ ? since_last >= 5.0 : now >= 2.0);
  if (due) last_ = now;
  return due;
}

void Progress::Update(uint64_t documents, uint64_t bytes) {
  if (!Due()) return;
  const double elapsed = Seconds();
  char line[160];
  std::snprintf(line, sizeof(line), "%s, %.0f docs/s, %.1f MB/s", Count(documents, "document").c_str(),
                documents / elapsed, bytes / 1e6 / elapsed);
  Print(line);
}

void Progress::Update(std::string_view status) {
  if (Due()) Print(status);
}

void Progress::Print(std::string_view status) {
  std::fprintf(stderr, terminal_ ? "\r\033[Ksimdex %s: %.*s" : "simdex %s: %.*s\n", command_.c_str(),
               static_cast<int>(status.size()), status.data());
  std::fflush(stderr);
  shown_ = true;
}

void Progress::Done() {
  if (enabled_ && terminal_ && shown_) std::fprintf(stderr, "\r\033[K");
  shown_ = false;
}

}  // namespace simdex::tools
