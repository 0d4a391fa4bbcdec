// Helpers shared by the libFuzzer targets: a cursor over the fuzzer's input
// and a check that aborts (so the fuzzer records a crash) when it fails.
#ifndef SIMDEX_TESTS_FUZZ_FUZZ_UTIL_H_
#define SIMDEX_TESTS_FUZZ_FUZZ_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#define FUZZ_CHECK(cond)                                                         \
  do {                                                                           \
    if (!(cond)) {                                                               \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                              \
    }                                                                            \
  } while (0)

namespace simdex::fuzz {

// For LLVMFuzzerInitialize: calls write_seeds(dir) for every corpus
// directory on the command line (a positional argument) that is empty, so
// that a fresh corpus starts from real inputs.
template <typename WriteSeeds>
void SeedEmptyCorpora(int argc, char** argv, WriteSeeds&& write_seeds) {
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    std::error_code ec;
    if (arg[0] != '-' && std::filesystem::is_directory(arg, ec) && std::filesystem::is_empty(arg, ec)) {
      write_seeds(std::string(arg));
    }
  }
}

// Takes bytes from the front of the input; yields zeros once it runs out.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}

  size_t remaining() const { return static_cast<size_t>(end_ - p_); }
  const uint8_t* data() const { return p_; }

  uint8_t Byte() { return p_ < end_ ? *p_++ : 0; }

  uint64_t U64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | Byte();
    return v;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

}  // namespace simdex::fuzz

#endif  // SIMDEX_TESTS_FUZZ_FUZZ_UTIL_H_
