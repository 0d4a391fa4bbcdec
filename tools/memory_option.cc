// --memory (tools/memory_option.h).
#include "tools/memory_option.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "simdex/plan.h"
#include "tools/commands.h"
#include "tools/size_argument.h"

namespace simdex::tools {
namespace {

// The number in a cgroup limit file; 0 for "max", a missing file or
// anything else.
uint64_t ReadLimit(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return 0;
  try {
    return std::stoull(text);
  } catch (const std::exception&) {
    return 0;  // beyond 64 bits: no limit
  }
}

// The lowest memory limit of this process's cgroup (v2, and v1's memory
// controller), looked for under the cgroup's own path and, as containers
// mount it, at the root; 0 when there is none.
uint64_t CgroupLimit() {
  std::ifstream cgroups("/proc/self/cgroup");
  std::vector<std::string> files = {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"};
  for (std::string line; std::getline(cgroups, line);) {
    const size_t first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1), path = line.substr(second + 1);
    if (controllers.empty()) files.push_back("/sys/fs/cgroup" + path + "/memory.max");
    if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      files.push_back("/sys/fs/cgroup/memory" + path + "/memory.limit_in_bytes");
    }
  }
  uint64_t lowest = 0;
  for (const std::string& file : files) {
    const uint64_t limit = ReadLimit(file);
    if (limit > 0 && (lowest == 0 || limit < lowest)) lowest = limit;
  }
  return lowest;
}

// The bytes of memory this process can have: the physical memory
// (sysconf(_SC_PHYS_PAGES) pages), or its cgroup's limit when that is lower
// (cgroup v2 memory.max, v1 memory.limit_in_bytes). 0 when unknown.
uint64_t MachineMemoryBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  uint64_t bytes = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
  const uint64_t cgroup = CgroupLimit();
  if (cgroup > 0 && (bytes == 0 || cgroup < bytes)) bytes = cgroup;
  return bytes;
}

}  // namespace

Status ParseMemoryOption(const char* command, const std::string& text, size_t* bytes) {
  if (text.empty()) return Status::OK();
  size_t parsed = 0;
  if (!ParseSize(text, &parsed)) {
    return Status::InvalidArgument("--memory '" + text + "' is not a size (e.g. 4096, 64K, 512M, 2G)");
  }
  const uint64_t machine = MachineMemoryBytes();
  if (machine > 0 && parsed > machine) {
    // More than there is: buffers sized to it would fail to allocate or be
    // killed, and sorts would plan not to spill when they must.
    parsed = static_cast<size_t>(machine);
    std::fprintf(stderr, "simdex %s: --memory %s is more than the %s of memory this process can have; using %s\n",
                 command, text.c_str(), SizeText(machine).c_str(), SizeText(machine).c_str());
  }
  *bytes = parsed;
  return Status::OK();
}

int ParseMemoryOrReport(const char* command, const std::string& text, size_t* bytes) {
  const Status s = ParseMemoryOption(command, text, bytes);
  return s.ok() ? 0 : ReportError(command, s, /*usage=*/true);
}

}  // namespace simdex::tools
