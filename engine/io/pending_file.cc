#include "engine/io/pending_file.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

namespace simdex::io {

namespace {

// As the kernel's limit on links followed in one lookup (MAXSYMLINKS).
constexpr int kMaxLinks = 40;

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

// Follows path while it is a symbolic link (a relative target is taken from
// the link's own directory) to the first name that is not a link or does not
// exist, into *out.
Status ResolveLinks(const std::string& path, std::string* out) {
  std::string p = path;
  for (int links = 0; links <= kMaxLinks; ++links) {
    struct stat st;
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno != ENOENT) return ErrnoStatus(p, "cannot stat");
      *out = p;  // does not exist (yet): created there
      return Status::OK();
    }
    if (!S_ISLNK(st.st_mode)) {
      *out = p;
      return Status::OK();
    }
    std::vector<char> target(4096);
    for (;;) {
      const ssize_t n = ::readlink(p.c_str(), target.data(), target.size());
      if (n < 0) return ErrnoStatus(p, "cannot read the symbolic link");
      if (static_cast<size_t>(n) < target.size()) {
        target.resize(static_cast<size_t>(n));
        break;
      }
      target.resize(target.size() * 2);  // possibly cut short: read again
    }
    const std::string t(target.begin(), target.end());
    p = !t.empty() && t[0] == '/' ? t : DirOf(p) + "/" + t;
  }
  errno = ELOOP;
  return ErrnoStatus(path, "cannot resolve its symbolic links");
}

// A stream connection to the AF_UNIX socket at path, or -1 with errno set.
int ConnectSocket(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof(address.sun_path)) {
    errno = ENAMETOOLONG;
    return -1;
  }
  std::memcpy(address.sun_path, path.data(), path.size());
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    return -1;
  }
  return fd;
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

PendingFile::PendingFile(int fd, std::string temp_path, std::string final_path, std::string target_path,
                         bool block_device)
    : fd_(fd),
      temp_path_(std::move(temp_path)),
      final_path_(std::move(final_path)),
      target_path_(std::move(target_path)),
      block_device_(block_device) {}

Status PendingFile::Create(const std::string& final_path, std::unique_ptr<PendingFile>* out) {
  struct stat st;
  const bool exists = ::stat(final_path.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) return ErrnoStatus(final_path, "cannot stat");
  if (exists && S_ISDIR(st.st_mode)) return Status::IOError(final_path + ": is a directory");
  if (exists && !S_ISREG(st.st_mode)) {
    // A device, FIFO or socket: written in place (through its links, which
    // the kernel follows, /proc's included).
    int fd;
    do {
      fd = S_ISSOCK(st.st_mode) ? ConnectSocket(final_path)
                                : ::open(final_path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) return ErrnoStatus(final_path, "cannot open for writing");
    struct stat opened;
    if (::fstat(fd, &opened) != 0 || S_ISREG(opened.st_mode) || S_ISDIR(opened.st_mode)) {
      ::close(fd);
      return Status::IOError(final_path + ": changed while it was being opened");
    }
    out->reset(new PendingFile(fd, "", final_path, final_path, S_ISBLK(opened.st_mode)));
    return Status::OK();
  }
  // A regular file or nothing: replaced or created atomically where the
  // links lead, so that a link stays a link.
  std::string target;
  SIMDEX_RETURN_IF_ERROR(ResolveLinks(final_path, &target));
  struct stat resolved;
  if (exists && (::stat(target.c_str(), &resolved) != 0 || resolved.st_dev != st.st_dev ||
                 resolved.st_ino != st.st_ino)) {
    // e.g. /proc/self/fd/1 of a deleted file: the link's text names no file.
    return Status::IOError(final_path + ": links to a file that has no name to replace (" + target + ")");
  }
  const std::string pattern = target + ".tmp-XXXXXX";
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
  out->reset(new PendingFile(fd, name, final_path, target, false));
  return Status::OK();
}

PendingFile::~PendingFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !direct()) ::unlink(temp_path_.c_str());
}

Status PendingFile::Commit() {
  Status s;
  if (direct()) {
    if (block_device_ && ::fsync(fd_) != 0) s = ErrnoStatus(final_path_, "cannot fsync");
    if (::close(fd_) != 0 && s.ok()) s = ErrnoStatus(final_path_, "cannot close");
    fd_ = -1;
    committed_ = true;  // nothing to remove either way
    return s;
  }
  if (::fsync(fd_) != 0) s = ErrnoStatus(temp_path_, "cannot fsync");
  if (::close(fd_) != 0 && s.ok()) s = ErrnoStatus(temp_path_, "cannot close");
  fd_ = -1;
  if (s.ok() && std::rename(temp_path_.c_str(), target_path_.c_str()) != 0) {
    s = ErrnoStatus(target_path_, "cannot rename " + temp_path_ + " to it");
  }
  if (!s.ok()) return s;  // the destructor removes the temporary
  committed_ = true;
  const int dfd = ::open(DirOf(target_path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return Status::OK();
}

}  // namespace simdex::io
