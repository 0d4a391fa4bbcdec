#include "engine/io/pending_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

namespace simdex::io {

namespace {

// "<path>: <what>: <the system's reason>", the project's error style.
Status ErrnoStatus(const std::string& path, const std::string& what) {
  return Status::IOError(path + ": " + what + ": " + std::strerror(errno));
}

std::string DirOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// The process's umask, read without changing it (umask(2) can only be read
// by setting it, which would race with other threads creating files).
mode_t CurrentUmask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  }
  return 022;  // the usual default, where /proc is not mounted
}

}  // namespace

int CreateUniqueFile(std::string* path) {
  std::vector<char> name(path->begin(), path->end());
  name.push_back('\0');
  int fd;
  do {
    fd = ::mkostemp(name.data(), O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd >= 0) path->assign(name.data());
  return fd;
}

PendingFile::PendingFile(int fd, std::string temp_path, std::string final_path)
    : fd_(fd), temp_path_(std::move(temp_path)), final_path_(std::move(final_path)) {}

Status PendingFile::Create(const std::string& final_path, std::unique_ptr<PendingFile>* out) {
  const std::string pattern = final_path + ".tmp-XXXXXX";
  std::string name = pattern;
  const int fd = CreateUniqueFile(&name);
  if (fd < 0) return ErrnoStatus(pattern, "cannot create");
  // mkostemp creates the file 0600; give it what open(2) with 0666 would.
  if (::fchmod(fd, 0666 & ~CurrentUmask()) != 0) {
    const Status s = ErrnoStatus(name, "cannot set permissions");
    ::close(fd);
    ::unlink(name.c_str());
    return s;
  }
  out->reset(new PendingFile(fd, name, final_path));
  return Status::OK();
}

PendingFile::~PendingFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(temp_path_.c_str());
}

Status PendingFile::Commit() {
  Status s;
  if (::fsync(fd_) != 0) s = ErrnoStatus(temp_path_, "cannot fsync");
  if (::close(fd_) != 0 && s.ok()) s = ErrnoStatus(temp_path_, "cannot close");
  fd_ = -1;
  if (s.ok() && std::rename(temp_path_.c_str(), final_path_.c_str()) != 0) {
    s = ErrnoStatus(final_path_, "cannot rename " + temp_path_ + " to it");
  }
  if (!s.ok()) return s;  // the destructor removes the temporary
  committed_ = true;
  const int dfd = ::open(DirOf(final_path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return Status::OK();
}

}  // namespace simdex::io
