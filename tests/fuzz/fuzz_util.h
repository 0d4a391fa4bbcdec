// Helpers shared by the libFuzzer targets: a cursor over the fuzzer's input
// and a check that aborts (so the fuzzer records a crash) when it fails.
#ifndef SIMDEX_TESTS_FUZZ_FUZZ_UTIL_H_
#define SIMDEX_TESTS_FUZZ_FUZZ_UTIL_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

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

// The block-decoding targets' block: the input's next block_size bytes
// in a buffer of exactly the block's size, so that AddressSanitizer sees
// any read past it. A short input is zero-padded, or, when `truncate`,
// left short (the decoders must then report a truncated block).
inline std::vector<uint8_t> BlockFromInput(const Input& in, size_t block_size, bool truncate) {
  std::vector<uint8_t> block(in.data(), in.data() + std::min(in.remaining(), block_size));
  if (!truncate) block.resize(block_size, 0);
  return block;
}

// The block-decoding targets' case: the block's head, a scan range
// [lo, hi], then the block (BlockFromInput, left truncated when lo is odd).
struct GarbageBlock {
  uint64_t head = 0, lo = 0, hi = 0;
  std::vector<uint8_t> bytes;
};
inline GarbageBlock GarbageBlockFromInput(Input* in, size_t block_size) {
  GarbageBlock b;
  b.head = in->U64();
  b.lo = in->U64();
  b.hi = in->U64();
  if (b.hi < b.lo) std::swap(b.lo, b.hi);
  b.bytes = BlockFromInput(*in, block_size, (b.lo & 1) != 0);
  return b;
}

// The round-trip targets' sorted values: a first value, then per shape
// byte up to 8 bytes of gap (gap bytes = shape % 9) added 1 + shape / 16
// times, stopping short of 2^64. Gaps of every magnitude, zero
// (duplicates) included.
inline std::vector<uint64_t> SortedValuesFromInput(Input* in) {
  std::vector<uint64_t> values;
  uint64_t v = in->U64();
  values.push_back(v);
  while (in->remaining() > 0) {
    const uint8_t shape = in->Byte();
    const int gap_bytes = shape % 9;
    uint64_t gap = 0;
    for (int i = 0; i < gap_bytes; ++i) gap = (gap << 8) | in->Byte();
    const int repeat = 1 + (shape >> 4);
    for (int r = 0; r < repeat; ++r) {
      if (gap > ~uint64_t{0} - v) break;
      v += gap;
      values.push_back(v);
    }
  }
  return values;
}

// The round-trip targets' case: a block size (64 to 65536 bytes), two
// bytes that pick a scan range's ends among the values, then the values
// (SortedValuesFromInput).
struct RoundTripCase {
  size_t block_size = 0;
  uint8_t lo_pick = 0, hi_pick = 0;
  std::vector<uint64_t> values;
};
inline RoundTripCase RoundTripCaseFromInput(Input* in, size_t min_block_size) {
  RoundTripCase c;
  c.block_size = min_block_size << (in->Byte() % 11);
  c.lo_pick = in->Byte();
  c.hi_pick = in->Byte();
  c.values = SortedValuesFromInput(in);
  return c;
}

}  // namespace simdex::fuzz

#endif  // SIMDEX_TESTS_FUZZ_FUZZ_UTIL_H_
