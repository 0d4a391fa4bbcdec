// Wall time since a command started a stage, for the seconds its summary
// prints.
#ifndef SIMDEX_TOOLS_STOPWATCH_H_
#define SIMDEX_TOOLS_STOPWATCH_H_

#include <chrono>

namespace simdex::tools {

class Stopwatch {
 public:
  // Seconds since construction.
  double Seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_STOPWATCH_H_
