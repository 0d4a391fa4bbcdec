// IndexHandle: the object behind simdex.Index. It shares its IndexReader with
// the calls in flight (each takes a reference before releasing the GIL), so
// close() on one thread never unmaps a file another thread is searching.
#ifndef SIMDEX_PYTHON_INDEX_HANDLE_H_
#define SIMDEX_PYTHON_INDEX_HANDLE_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "python/src/errors.h"
#include "simdex/index.h"

namespace simdex::python {

class IndexHandle {
 public:
  static std::shared_ptr<IndexHandle> Open(const std::string& path, bool verify_block_checksums,
                                           bool verify_heads_on_open) {
    ReaderOptions options;
    options.verify_block_checksums = verify_block_checksums;
    options.verify_heads_on_open = verify_heads_on_open;
    std::unique_ptr<IndexReader> reader;
    {
      pybind11::gil_scoped_release release;
      ThrowIfError(IndexReader::Open(path, options, &reader));
    }
    auto h = std::make_shared<IndexHandle>();
    h->reader_ = std::shared_ptr<const IndexReader>(std::move(reader));
    h->path_ = path;
    return h;
  }

  // The open reader; ValueError after close().
  std::shared_ptr<const IndexReader> reader() const {
    if (!reader_) throw pybind11::value_error("the index " + path_ + " is closed");
    return reader_;
  }
  void Close() { reader_.reset(); }
  bool open() const { return reader_ != nullptr; }
  const std::string& path() const { return path_; }

 private:
  std::shared_ptr<const IndexReader> reader_;
  std::string path_;
};

// ids as a np.uint64 array, or as an object array of str when the index has
// string ids.
pybind11::object IdsObject(const IndexReader& reader, const std::vector<uint64_t>& numbers);

}  // namespace simdex::python

#endif  // SIMDEX_PYTHON_INDEX_HANDLE_H_
