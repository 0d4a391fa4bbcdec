// The registry of temporary names (engine/util/temporary_names.h).
#include "engine/util/temporary_names.h"

#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <random>

namespace simdex::util {
namespace {

// A slot is free (state 0), being filled (1) or holds a name (2). Its
// sequence number is odd while the name is written, so that a handler on
// another thread that copies a name being replaced notices and skips it
// (a seqlock): it never unlinks a torn name.
struct Slot {
  std::atomic<int> state{0};
  std::atomic<unsigned> sequence{0};
  char path[PATH_MAX];
};

Slot slots[kMaxTemporaryNames];

}  // namespace

int RegisterTemporary(const std::string& path) {
  if (path.empty() || path.size() >= PATH_MAX) return -1;
  for (size_t i = 0; i < kMaxTemporaryNames; ++i) {
    int free = 0;
    if (!slots[i].state.compare_exchange_strong(free, 1)) continue;
    slots[i].sequence.fetch_add(1);
    std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
    slots[i].sequence.fetch_add(1);
    slots[i].state.store(2);
    return static_cast<int>(i);
  }
  return -1;
}

void UnregisterTemporary(int slot) {
  if (slot >= 0 && static_cast<size_t>(slot) < kMaxTemporaryNames) slots[slot].state.store(0);
}

std::string TemporaryName(const std::string& prefix) {
  static constexpr char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  thread_local std::mt19937_64 rng(std::random_device{}() ^ static_cast<uint64_t>(::getpid()));
  std::string name = prefix;
  for (int i = 0; i < 6; ++i) name.push_back(kChars[rng() % (sizeof(kChars) - 1)]);
  return name;
}

int CreateTemporary(const std::string& prefix, mode_t mode, std::string* path, int* slot) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    std::string name = TemporaryName(prefix);
    const int registered = RegisterTemporary(name);
    int fd;
    do {
      fd = ::open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    } while (fd < 0 && errno == EINTR);
    if (fd >= 0) {
      *path = std::move(name);
      *slot = registered;
      return fd;
    }
    const int error = errno;
    UnregisterTemporary(registered);
    errno = error;
    if (error != EEXIST) return -1;
  }
  errno = EEXIST;
  return -1;
}

void RemoveRegisteredTemporaries() noexcept {
  char copy[PATH_MAX];
  for (Slot& slot : slots) {
    if (slot.state.load() != 2) continue;
    const unsigned before = slot.sequence.load();
    if (before % 2 != 0) continue;
    std::memcpy(copy, slot.path, sizeof copy);
    if (slot.sequence.load() != before || slot.state.load() != 2) continue;
    copy[PATH_MAX - 1] = '\0';
    ::unlink(copy);
  }
}

}  // namespace simdex::util
