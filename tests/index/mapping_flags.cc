#include "tests/index/mapping_flags.h"

#include <fstream>
#include <string_view>

namespace simdex::testing {

std::string MappingFlags(const std::string& path) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool in_mapping = false;
  while (std::getline(smaps, line)) {
    // A mapping's first line: "<start>-<end> <perms> <offset> <dev> <inode> <path>", lower-case hex.
    const bool header = !line.empty() && std::string_view("0123456789abcdef").find(line[0]) != std::string_view::npos &&
                        line.find('-') < line.find(' ');
    if (header) in_mapping = line.size() >= path.size() && line.compare(line.size() - path.size(), path.size(), path) == 0;
    if (in_mapping && line.starts_with("VmFlags:")) return line;
  }
  return "";
}

bool AdvisedRandom(const std::string& path) { return MappingFlags(path).find(" rr") != std::string::npos; }

}  // namespace simdex::testing
