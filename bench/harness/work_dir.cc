#include "bench/harness/work_dir.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace simdex::bench {

Status PrepareWorkDirectory(const std::string& dir) {
  namespace fs = std::filesystem;
  if (dir.empty()) return Status::InvalidArgument("'': not a directory");
  std::error_code ec;
  if (fs::exists(fs::status(dir, ec))) {
    if (!fs::is_directory(dir, ec)) return Status::InvalidArgument(dir + ": not a directory");
  } else if (fs::create_directories(dir, ec); ec) {
    return Status::InvalidArgument(dir + ": cannot be created: " + ec.message());
  }
  // Permission bits do not say it (root ignores them; a read-only mount
  // has any): only creating a file does.
  std::string probe = (fs::path(dir) / ".simdex-bench-probe-XXXXXX").string();
  const int fd = mkstemp(probe.data());
  if (fd < 0) return Status::InvalidArgument(dir + ": not writable: " + std::strerror(errno));
  close(fd);
  unlink(probe.c_str());
  return Status::OK();
}

}  // namespace simdex::bench
