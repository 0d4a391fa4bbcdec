// The files a process holds open in a directory, named or not: scratch
// files and unnamed outputs have no name in the directory
// (engine/util/scratch_file.h, engine/util/pending_file.h), but /proc/<pid>/fd
// still shows where they are ("<dir>/#<inode> (deleted)" for O_TMPFILE,
// "<dir>/<name> (deleted)" for a name unlinked at once).
#ifndef SIMDEX_TESTS_OPEN_FILES_H_
#define SIMDEX_TESTS_OPEN_FILES_H_

#include <filesystem>
#include <string>
#include <vector>

namespace simdex::testing {

// The descriptors of process `pid` ("self": this one) whose file is in dir.
inline std::vector<int> OpenFilesIn(const std::string& dir, const std::string& pid = "self") {
  std::vector<int> fds;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc/" + pid + "/fd", ec)) {
    std::error_code gone;  // a descriptor closed meanwhile
    const std::string target = std::filesystem::read_symlink(e.path(), gone).string();
    if (!gone && target.rfind(dir + "/", 0) == 0) fds.push_back(std::stoi(e.path().filename().string()));
  }
  return fds;
}

}  // namespace simdex::testing

#endif  // SIMDEX_TESTS_OPEN_FILES_H_
