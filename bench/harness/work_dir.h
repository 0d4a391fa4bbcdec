// The directory simdex-bench builds its index files in (--dir), made ready
// before any work: a directory that cannot be used is refused at once, not
// after the data sets were generated and the baselines built.
#ifndef SIMDEX_BENCH_HARNESS_WORK_DIR_H_
#define SIMDEX_BENCH_HARNESS_WORK_DIR_H_

#include <string>

#include "simdex/status.h"

namespace simdex::bench {

// Creates `dir` and any missing parents, then checks that this process can
// create files in it (by creating one and removing it). Returns
// InvalidArgument with a message that starts with `dir`: "<dir>: not a
// directory", "<dir>: cannot be created: <reason>" or "<dir>: not writable:
// <reason>". A directory that existed is left as it was.
Status PrepareWorkDirectory(const std::string& dir);

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_HARNESS_WORK_DIR_H_
