// What simdex-bench records about the machine and the run: the header and
// footer records (json_writer.h) and the process's memory.
#ifndef SIMDEX_BENCH_HARNESS_RUN_INFO_H_
#define SIMDEX_BENCH_HARNESS_RUN_INFO_H_

#include <cstdint>
#include <string>
#include <vector>

#include "bench/harness/json_writer.h"

namespace simdex::bench {

// The calling process's resident set in bytes (/proc/self/statm; 0 if
// unreadable).
uint64_t ResidentBytes();

// MemTotal from /proc/meminfo in bytes (0 if unreadable).
uint64_t MemTotalBytes();

// The 1, 5 and 15 minute load averages (zeros if unreadable).
std::vector<double> LoadAverage();

// The header record: date, git commit of the source tree, CPU model, cores,
// memory, load average, compiler and flags, the command line, and `config`.
JsonObject HeaderRecord(const std::vector<std::string>& command, const JsonObject& config);

// The footer record: load average at the end and the run's wall time.
JsonObject FooterRecord(double wall_seconds);

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_HARNESS_RUN_INFO_H_
