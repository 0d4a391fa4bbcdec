#include "engine/util/pending_file.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "engine/util/temporary_names.h"

namespace simdex::util {

namespace {

// As the kernel's limit on links followed in one lookup (MAXSYMLINKS).
constexpr int kMaxLinks = 40;

std::atomic<bool> force_named{false};

// The name through which an unnamed file's descriptor can be linked in.
std::string ProcPath(int fd) { return "/proc/self/fd/" + std::to_string(fd); }


std::string DirOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// Follows path while it is a symbolic link (a relative target is taken from
// the link's own directory) to the first name that is not a link or does not
// exist, into *out.
Status ResolveLinks(const std::string& path, std::string* out) {
  std::string p = path;
  for (int links = 0; links <= kMaxLinks; ++links) {
    struct stat st;
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno != ENOENT) return ErrnoError(p + ": cannot stat");
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
      if (n < 0) return ErrnoError(p + ": cannot read the symbolic link");
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
  return ErrnoError(path + ": cannot resolve its symbolic links");
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

Status ErrnoError(const std::string& message) { return Status::IOError(message + ": " + std::strerror(errno)); }

bool WriteFully(int fd, const void* data, size_t n) {
  for (const char* p = static_cast<const char*>(data); n > 0;) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      if (w == 0) errno = ENOSPC;
      return false;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

bool TmpfileAllowed() {
  static const bool allowed = [] {
    const char* v = std::getenv("SIMDEX_NO_TMPFILE");
    return v == nullptr || *v == '\0' || std::string(v) == "0";
  }();
  return allowed;
}

PendingFile::PendingFile(int fd, Mode mode, std::string temp_path, std::string final_path, std::string target_path,
                         bool block_device)
    : fd_(fd),
      mode_(mode),
      temp_path_(std::move(temp_path)),
      final_path_(std::move(final_path)),
      target_path_(std::move(target_path)),
      block_device_(block_device) {}

bool PendingFile::ForceNamedTemporary(bool force) { return force_named.exchange(force); }

Status PendingFile::Create(const std::string& final_path, std::unique_ptr<PendingFile>* out) {
  struct stat st;
  const bool exists = ::stat(final_path.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) return ErrnoError(final_path + ": cannot stat");
  if (exists && S_ISDIR(st.st_mode)) return Status::IOError(final_path + ": is a directory");
  if (exists && !S_ISREG(st.st_mode)) {
    // A device, FIFO or socket: written in place (through its links, which
    // the kernel follows, /proc's included).
    int fd;
    do {
      fd = S_ISSOCK(st.st_mode) ? ConnectSocket(final_path)
                                : ::open(final_path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) return ErrnoError(final_path + ": cannot open for writing");
    struct stat opened;
    if (::fstat(fd, &opened) != 0 || S_ISREG(opened.st_mode) || S_ISDIR(opened.st_mode)) {
      ::close(fd);
      return Status::IOError(final_path + ": changed while it was being opened");
    }
    out->reset(new PendingFile(fd, Mode::kDirect, "", final_path, final_path, S_ISBLK(opened.st_mode)));
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
  if (!force_named.load() && TmpfileAllowed()) {
    // Unnamed until Commit(); open(2) applies the umask to 0666. Any
    // failure falls back to the named temporary, whose error is reported.
    int fd;
    do {
      fd = ::open(DirOf(target).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    } while (fd < 0 && errno == EINTR);
    struct stat linkable;
    if (fd >= 0 && ::stat(ProcPath(fd).c_str(), &linkable) == 0) {
      out->reset(new PendingFile(fd, Mode::kUnnamed, "", final_path, target, false));
      return Status::OK();
    }
    if (fd >= 0) ::close(fd);
  }
  std::string name;
  int slot = -1;
  const int fd = CreateTemporary(target + ".tmp-", 0666, &name, &slot);  // the umask applies
  if (fd < 0) return ErrnoError(target + ".tmp-XXXXXX: cannot create");
  out->reset(new PendingFile(fd, Mode::kNamed, name, final_path, target, false));
  (*out)->slot_ = slot;
  return Status::OK();
}

PendingFile::~PendingFile() {
  if (fd_ >= 0) ::close(fd_);  // an unnamed temporary goes with it
  if (!committed_ && mode_ == Mode::kNamed) {
    ::unlink(temp_path_.c_str());
    UnregisterTemporary(slot_);
  }
}

Status PendingFile::LinkIn() {
  for (int attempt = 0;; ++attempt) {
    std::string name = TemporaryName(target_path_ + ".tmp-");
    const int slot = RegisterTemporary(name);
    if (::linkat(AT_FDCWD, ProcPath(fd_).c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
      temp_path_ = std::move(name);
      slot_ = slot;
      mode_ = Mode::kNamed;
      return Status::OK();
    }
    const int error = errno;
    UnregisterTemporary(slot);
    errno = error;
    if (error != EEXIST || attempt == 100) return ErrnoError(name + ": cannot link the output in");
  }
}

Status PendingFile::Commit() {
  Status s;
  if (direct()) {
    if (block_device_ && ::fsync(fd_) != 0) s = ErrnoError(final_path_ + ": cannot fsync");
    if (::close(fd_) != 0 && s.ok()) s = ErrnoError(final_path_ + ": cannot close");
    fd_ = -1;
    committed_ = true;  // nothing to remove either way
    return s;
  }
  const std::string where = write_path();  // an unnamed output's messages name the final path
  if (::fsync(fd_) != 0) return ErrnoError(where + ": cannot fsync");  // the destructor closes it
  if (unnamed()) SIMDEX_RETURN_IF_ERROR(LinkIn());
  if (::close(fd_) != 0) s = ErrnoError(where + ": cannot close");
  fd_ = -1;
  if (s.ok() && std::rename(temp_path_.c_str(), target_path_.c_str()) != 0) {
    s = ErrnoError(target_path_ + ": cannot rename " + temp_path_ + " to it");
  }
  if (!s.ok()) return s;  // the destructor removes the temporary
  UnregisterTemporary(slot_);
  committed_ = true;
  const int dfd = ::open(DirOf(target_path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return Status::OK();
}

}  // namespace simdex::util
