// ScratchFile (engine/util/scratch_file.h).
#include "engine/util/scratch_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "engine/util/pending_file.h"
#include "engine/util/temporary_names.h"

namespace simdex::util {
namespace {

std::atomic<bool> force_unlinked_name{false};

}  // namespace

bool ScratchFile::ForceUnlinkedName(bool force) { return force_unlinked_name.exchange(force); }

Status ScratchFile::Create(const std::string& dir, const std::string& tag, std::unique_ptr<ScratchFile>* out) {
  const std::string where = dir.empty() ? "." : dir;
  const std::string pattern = where + "/simdex-" + tag + "-XXXXXX";
  int fd = -1;
  if (!force_unlinked_name.load() && TmpfileAllowed()) {
    do {
      fd = ::open(where.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    } while (fd < 0 && errno == EINTR);
  }
  if (fd < 0) {
    // No O_TMPFILE here (or it failed for a reason the fallback reports
    // again, naming the pattern): a unique name, gone a moment later (and
    // registered meanwhile, so that a signal then removes it too).
    std::string name;
    int slot = -1;
    fd = CreateTemporary(pattern.substr(0, pattern.size() - 6), 0600, &name, &slot);
    if (fd < 0) return ErrnoError("cannot create a temporary file " + pattern);
    const bool unlinked = ::unlink(name.c_str()) == 0;
    const int error = errno;
    UnregisterTemporary(slot);
    if (!unlinked) {
      ::close(fd);
      return Status::IOError("cannot unlink the temporary file " + name + ": " + std::strerror(error));
    }
  }
  out->reset(new ScratchFile(fd, pattern));
  return Status::OK();
}

ScratchFile::~ScratchFile() { ::close(fd_); }

void ScratchFile::Discard(uint64_t offset, uint64_t length) {
  if (length == 0) return;
  // Best effort: where holes cannot be punched the space comes back when
  // the file is closed.
  (void)::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset),
                    static_cast<off_t>(length));
}

}  // namespace simdex::util
