// The names of the temporary files this process has in a directory at the
// moment, so that a signal handler can remove them before the process
// dies (include/simdex/output_writer.h, RemoveNamedTemporaries). Only
// outputs have a name for more than a moment before they are complete: the
// named fallback of util::PendingFile, where the file system has no
// O_TMPFILE, for the whole write; an unnamed output from its link to its
// rename; a scratch file on such a file system from its creation to its
// unlink (engine/util/scratch_file.h).
//
// Up to kMaxTemporaryNames names of up to PATH_MAX bytes are held at once;
// beyond that a name is not registered (and a signal would leave it).
//
// Thread safety: every function may be called from any thread;
// RemoveRegisteredTemporaries() is async-signal-safe.
#ifndef SIMDEX_ENGINE_UTIL_TEMPORARY_NAMES_H_
#define SIMDEX_ENGINE_UTIL_TEMPORARY_NAMES_H_

#include <sys/types.h>

#include <cstddef>
#include <string>

namespace simdex::util {

inline constexpr size_t kMaxTemporaryNames = 128;

// Remembers path; returns its slot for UnregisterTemporary, or -1 when
// every slot is taken or the path is too long.
int RegisterTemporary(const std::string& path);
// Forgets the name in slot (-1: nothing). The caller has renamed or removed
// the file first.
void UnregisterTemporary(int slot);
// unlink(2)s every name registered. Async-signal-safe: only atomics,
// memcpy and unlink.
void RemoveRegisteredTemporaries() noexcept;

// prefix + 6 random letters and digits, as mkstemp(3) would choose them.
std::string TemporaryName(const std::string& prefix);

// Creates a new file TemporaryName(prefix) (O_CREAT |
// O_EXCL, close-on-exec, `mode` less the umask), registered before it
// exists, so that no moment passes in which it has a name a signal handler
// does not know (a name taken already is given up before it is tried
// again). Returns the descriptor (opened O_RDWR), with its name in *path
// and its slot in *slot (-1 when the registry is full); or -1 with errno
// set. Every named temporary simdex makes is made here.
int CreateTemporary(const std::string& prefix, mode_t mode, std::string* path, int* slot);

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_TEMPORARY_NAMES_H_
