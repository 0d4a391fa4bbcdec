// Address space that reads as zeros and takes no memory (an anonymous
// mapping, MAP_NORESERVE, never touched): for spans as long as the 2^32
// limits of the de-duplication's joins, given to a function whose check
// refuses them before it reads anything.
#ifndef SIMDEX_TESTS_INDEX_VIRTUAL_ZEROS_H_
#define SIMDEX_TESTS_INDEX_VIRTUAL_ZEROS_H_

#include <sys/mman.h>

#include <cstddef>
#include <span>

namespace simdex::testing {

template <class T>
class VirtualZeros {
 public:
  explicit VirtualZeros(size_t count) : bytes_(count * sizeof(T)) {
    void* p = ::mmap(nullptr, bytes_, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) data_ = static_cast<const T*>(p);
  }
  ~VirtualZeros() {
    if (data_ != nullptr) ::munmap(const_cast<T*>(data_), bytes_);
  }
  VirtualZeros(const VirtualZeros&) = delete;
  VirtualZeros& operator=(const VirtualZeros&) = delete;

  bool ok() const { return data_ != nullptr; }
  std::span<const T> span() const { return {data_, bytes_ / sizeof(T)}; }

 private:
  size_t bytes_;
  const T* data_ = nullptr;
};

}  // namespace simdex::testing

#endif  // SIMDEX_TESTS_INDEX_VIRTUAL_ZEROS_H_
