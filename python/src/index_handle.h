// IndexHandle: the object behind simdex.Index, over a ReloadingIndex. Each
// call takes the serving version (a shared IndexReader) before releasing the
// GIL, so neither close() nor a reload on another thread ever unmaps a file
// a call is searching.
#ifndef SIMDEX_PYTHON_INDEX_HANDLE_H_
#define SIMDEX_PYTHON_INDEX_HANDLE_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "python/src/errors.h"
#include "simdex/index.h"
#include "simdex/reloading_index.h"

namespace simdex::python {

class IndexHandle {
 public:
  // preload: False, True (read every page) or "lock" (read and mlock; a
  // refused lock is a RuntimeWarning saying why).
  static std::shared_ptr<IndexHandle> Open(const std::string& path, bool verify_block_checksums,
                                           bool verify_heads_on_open, double check_period,
                                           const pybind11::object& preload);

  // The serving version; ValueError after close().
  std::shared_ptr<const IndexReader> reader() const { return index()->Current(); }
  // Switches to the file the path names now if it changed; raises the new
  // file's error if it is refused (the old one keeps serving).
  bool Reload();
  uint64_t version() const { return index()->version(); }
  void Close() { index_.reset(); }
  bool open() const { return index_ != nullptr; }
  const std::string& path() const { return path_; }

 private:
  std::shared_ptr<ReloadingIndex> index() const {
    if (!index_) throw pybind11::value_error("the index " + path_ + " is closed");
    return index_;
  }

  std::shared_ptr<ReloadingIndex> index_;
  std::string path_;
};

// ids as a np.uint64 array, or as an object array of str when the index has
// string ids.
pybind11::object IdsObject(const IndexReader& reader, const std::vector<uint64_t>& numbers);

}  // namespace simdex::python

#endif  // SIMDEX_PYTHON_INDEX_HANDLE_H_
