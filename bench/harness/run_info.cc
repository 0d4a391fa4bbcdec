#include "bench/harness/run_info.h"

#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>

namespace simdex::bench {
namespace {

// The first line of `command`'s standard output, without the newline ("" on
// failure).
std::string FirstLineOf(const std::string& command) {
  std::FILE* p = popen(command.c_str(), "r");
  if (!p) return "";
  char buf[512] = {0};
  const bool got = std::fgets(buf, sizeof(buf), p) != nullptr;
  const int status = pclose(p);
  if (!got || status != 0) return "";
  std::string line(buf);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line;
}

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "";
}

}  // namespace

uint64_t ResidentBytes() {
  unsigned long long size = 0, resident = 0;
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  const int got = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  return got == 2 ? resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) : 0;
}

uint64_t MemTotalBytes() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  uint64_t kib = 0;
  while (in >> key >> kib >> unit) {
    if (key == "MemTotal:") return kib * 1024;
  }
  return 0;
}

std::vector<double> LoadAverage() {
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) != 3) return {0, 0, 0};
  return {load[0], load[1], load[2]};
}

JsonObject HeaderRecord(const std::vector<std::string>& command, const JsonObject& config) {
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::tm utc;
  gmtime_r(&now, &utc);
  std::strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &utc);
  const std::string git = "git -C '" SIMDEX_SOURCE_DIR "' ";
  const std::string commit = FirstLineOf(git + "rev-parse HEAD 2>/dev/null");
  JsonObject o;
  o.AddString("type", "header").AddString("tool", "simdex-bench").AddString("date", date);
  if (commit.empty()) {
    o.AddNull("git_commit").AddNull("git_dirty");
  } else {
    o.AddString("git_commit", commit);
    o.AddBool("git_dirty", !FirstLineOf(git + "status --porcelain --untracked-files=no 2>/dev/null").empty());
  }
  o.AddString("cpu_model", CpuModel()).AddUint("cores", std::thread::hardware_concurrency());
  o.AddUint("mem_total_bytes", MemTotalBytes()).AddNumbers("load_average_start", LoadAverage());
  o.AddString("compiler", "g++ " __VERSION__).AddString("build_type", SIMDEX_BUILD_TYPE);
  o.AddString("cxx_flags", SIMDEX_CXX_FLAGS).AddStrings("command", command);
  o.AddObject("config", config);
  return o;
}

JsonObject FooterRecord(double wall_seconds) {
  JsonObject o;
  o.AddString("type", "footer").AddNumbers("load_average_end", LoadAverage()).AddNumber("wall_seconds", wall_seconds);
  return o;
}

}  // namespace simdex::bench
