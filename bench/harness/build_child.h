// Builds a simdex index in a forked child process, so that the build's peak
// memory is measured on its own (the child's ru_maxrss, taken by wait4) and
// one build's heap does not linger in the harness to colour the next point.
#ifndef SIMDEX_BENCH_HARNESS_BUILD_CHILD_H_
#define SIMDEX_BENCH_HARNESS_BUILD_CHILD_H_

#include <cstdint>
#include <span>
#include <string>

#include "simdex/index.h"
#include "simdex/status.h"

namespace simdex::bench {

struct ChildBuildResult {
  BuildStats stats;
  double seconds = 0;            // IndexBuilder::Create to Finish, wall, in the child
  uint64_t peak_rss_bytes = 0;   // the child's ru_maxrss
  // The child's resident set when it started. A forked child's RSS starts
  // with the harness's resident pages it shares (its input arrays, any
  // baseline still in memory), so peak_rss_bytes - start_rss_bytes is what
  // the build itself added.
  uint64_t start_rss_bytes = 0;
};

// Writes the index of the entries (i, fps[i]) to `path` with `options` in a
// child process and waits for it. Returns the child's build error, or
// IOError if the child could not be started or died without reporting.
// REQUIRES: no other thread of the caller is inside the simdex library (the
// child inherits only the calling thread).
Status BuildIndexInChild(const std::string& path, const BuildOptions& options,
                         std::span<const uint64_t> fps, ChildBuildResult* out);

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_HARNESS_BUILD_CHILD_H_
