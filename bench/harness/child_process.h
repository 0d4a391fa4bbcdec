// Runs a piece of work in a forked child process, so that its peak memory is
// measured on its own (the child's ru_maxrss, taken by wait4) and its heap
// does not linger in the harness to colour the next measurement.
#ifndef SIMDEX_BENCH_HARNESS_CHILD_PROCESS_H_
#define SIMDEX_BENCH_HARNESS_CHILD_PROCESS_H_

#include <cstdint>
#include <functional>
#include <string>

#include "simdex/status.h"

namespace simdex::bench {

struct ChildResult {
  std::string report;            // what the work wrote to *report
  uint64_t peak_rss_bytes = 0;   // the child's ru_maxrss
  // The child's resident set when it started: pages it shares with the
  // harness (input arrays) count in both, so peak - start is what the work
  // itself added.
  uint64_t start_rss_bytes = 0;
};

// Forks; the child runs work(&report) and sends the report and its status
// back through a pipe. Returns the work's status, or IOError when the child
// could not be started or died without reporting (`what` names it).
// REQUIRES: no other thread of the caller is inside the simdex library (the
// child inherits only the calling thread).
Status RunInChild(const std::string& what, const std::function<Status(std::string* report)>& work,
                  ChildResult* out);

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_HARNESS_CHILD_PROCESS_H_
