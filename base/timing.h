// Elapsed wall time, for the seconds that simdex's statistics report (sorting,
// encoding, de-duplication stages, confirmation).
#ifndef SIMDEX_BASE_TIMING_H_
#define SIMDEX_BASE_TIMING_H_

#include <chrono>

// In a lower-case namespace: libsimdex.so exports simdex::[A-Z]* (the public
// API, packaging/simdex.map), and this is not part of it.
namespace simdex::base {

using Clock = std::chrono::steady_clock;

// Seconds from `since` to now.
inline double Seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

}  // namespace simdex::base

#endif  // SIMDEX_BASE_TIMING_H_
