// Opening a FileHandle's file (python/src/index_handle.h).
#include "python/src/index_handle.h"

#include <filesystem>
#include <string_view>
#include <system_error>
#include <utility>

namespace py = pybind11;

namespace simdex::python {

namespace {

// The Python openers of each kind's files, by IndexFileKind::name().
constexpr std::pair<std::string_view, const char*> kOpeners[] = {
    {"simhash", " (simdex.open_index opens either kind, simdex.Index.open this one)"},
    {"minhash-lsh", " (simdex.open_index and simdex.LshIndex.open open it)"},
};

}  // namespace

Status WithOpenerHint(Status s, const std::string& path, const IndexFileKind& wanted) {
  IndexKind kind;
  if (!s.IsInvalidArgument() || !ReadIndexKind(path, &kind).ok()) return s;
  const IndexFileKind* actual = FindIndexKind(kind);
  if (actual == nullptr || actual == &wanted) return s;
  for (const auto& [name, hint] : kOpeners) {
    if (name == actual->name()) return Status::InvalidArgument(s.message() + hint);
  }
  return s;
}

ReaderOptions OpenerOptions(bool verify_block_checksums, bool verify_heads_on_open, const std::string& access,
                            const std::string& cold_reads) {
  ReaderOptions options;
  options.verify_block_checksums = verify_block_checksums;
  options.verify_heads_on_open = verify_heads_on_open;
  ThrowIfError(ParseAccess(access, &options.access));
  ThrowIfError(ParseColdReads(cold_reads, &options.cold_reads));
  return options;
}

std::unique_ptr<ReloadingIndexFile> OpenReloading(const std::string& path, const IndexFileKind& kind,
                                                  const ReaderOptions& reader, double check_period,
                                                  const py::object& preload) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw py::value_error(path + " is a directory, not an index file (simdex.open_index opens a directory of shards)");
  }
  const bool lock = py::isinstance<py::str>(preload) && preload.cast<std::string>() == "lock";
  if (!lock && !py::isinstance<py::bool_>(preload)) throw py::value_error("preload must be False, True or 'lock'");
  ReloadOptions options;
  options.reader = reader;
  options.check_period_seconds = check_period;
  std::unique_ptr<ReloadingIndexFile> index;
  PreloadResult preloaded;
  {
    py::gil_scoped_release release;
    ThrowIfError(WithOpenerHint(ReloadingIndexFile::Open(path, kind, options, &index), path, kind));
    if (lock || preload.cast<bool>()) ThrowIfError(index->Current()->Preload(lock, &preloaded));
  }
  if (!preloaded.lock_error.empty()) {
    const std::string warning = path + ": pages read but not locked: " + preloaded.lock_error;
    if (PyErr_WarnEx(PyExc_RuntimeWarning, warning.c_str(), 1) != 0) throw py::error_already_set();
  }
  return index;
}

}  // namespace simdex::python
