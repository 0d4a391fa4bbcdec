// A progress line on stderr for long-running commands: rewritten in place at
// most twice a second when stderr is a terminal; otherwise a first line once
// the run has lasted 2 seconds, then a new line every 5 seconds.
#ifndef SIMDEX_TOOLS_PROGRESS_H_
#define SIMDEX_TOOLS_PROGRESS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "simdex/batch.h"
#include "tools/stopwatch.h"

namespace simdex::tools {

class Progress : public BatchProgress {
 public:
  // enabled = false: never prints (--quiet).
  Progress(std::string command, bool enabled);

  // Reports the counts so far; prints only when a line is due.
  void Update(uint64_t documents, uint64_t bytes) override;
  // Reports a line of the caller's own ("sorting  40%, 2.1M entries/s"),
  // printed as "simdex <command>: <status>" when a line is due.
  void Update(std::string_view status) override;

  // Erases the line on a terminal, so the summary takes its place.
  void Done();

  // Seconds since construction.
  double Seconds() const { return stopwatch_.Seconds(); }

 private:
  // True when a line is due under the rules above; starts the next interval.
  bool Due();
  void Print(std::string_view status);

  std::string command_;
  bool enabled_;
  bool terminal_;
  bool shown_ = false;
  Stopwatch stopwatch_;
  double last_ = 0;  // Seconds() when the last line was due
};

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_PROGRESS_H_
