// Decodes garbage blocks of the ef codec (format/ef/): every entry point
// must return a status, never crash or read outside the block; and a block
// that DecodeBlock accepts with every check is sound, so that a scan and a
// count of it must agree with its decoded values (zstd
// tests/fuzz/huf_decompress.c).
//
// Input: block size byte, the two parameter bytes, head, lo, hi, then the
// block bytes.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "format/codec.h"
#include "tests/fuzz/fuzz_util.h"

using namespace simdex::format;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  simdex::fuzz::Input in(data, size);
  const size_t block_size = kMinBlockSize << (in.Byte() % 7);  // 64..4096
  const char params[2] = {static_cast<char>(in.Byte() % 64), static_cast<char>(in.Byte())};
  std::unique_ptr<TableDecoder> decoder;
  FUZZ_CHECK(FindCodec("ef")->NewDecoder(std::string_view(params, 2), 0, &decoder).ok());
  // A short input is zero-padded, or, when the lowest bit of lo says so,
  // left truncated.
  const simdex::fuzz::GarbageBlock block = simdex::fuzz::GarbageBlockFromInput(&in, block_size);
  const uint64_t head = block.head, lo = block.lo, hi = block.hi;
  const uint8_t* ptr = block.bytes.data();
  const uint8_t* limit = ptr + block.bytes.size();

  std::vector<uint64_t> values;
  BlockReadOptions options;
  options.strict = (hi & 1) != 0;
  const simdex::Status decoded = decoder->DecodeBlock(ptr, limit, block_size, head, options, &values);
  if (decoded.ok()) {
    FUZZ_CHECK(!values.empty() && values[0] == head);
    FUZZ_CHECK(std::is_sorted(values.begin(), values.end()));
  } else {
    FUZZ_CHECK(decoded.IsCorruption());
  }

  std::vector<uint64_t> got;
  BlockScan scan;
  scan.ptr = ptr;
  scan.limit = limit;
  scan.head = head;
  scan.decoder = decoder.get();
  scan.lo = lo;
  scan.hi = hi;
  // PrefetchScan reads nothing, but (as the engine does) it is given a
  // pointer to block_size bytes: the addresses it forms lie in the block.
  if (block.bytes.size() == block_size) {
    scan.restart_guess = decoder->PrefetchScan(ptr, block_size, static_cast<double>(lo & 0xff) / 255);
  }
  scan.out = &got;
  ScanBlocks(&scan, 1, block_size, BlockReadOptions(), nullptr);
  FUZZ_CHECK(scan.status.ok() || scan.status.IsCorruption());
  uint64_t below = 0, equal = 0;
  bool reached_end = false;
  const simdex::Status counted =
      decoder->CountInBlock(ptr, limit, block_size, head, lo, 0, BlockReadOptions(), &below, &equal, &reached_end,
                            nullptr);
  FUZZ_CHECK(counted.ok() || counted.IsCorruption());
  if (!decoded.ok()) return 0;

  // A sound block: the scan and the count are those of its values.
  std::vector<uint64_t> want;
  size_t end = 0;
  while (end < values.size() && values[end] <= hi) {
    if (values[end] >= lo) want.push_back(values[end]);
    ++end;
  }
  FUZZ_CHECK(scan.status.ok() && got == want);
  FUZZ_CHECK(scan.reached_end == (end == values.size()));
  if (!want.empty()) FUZZ_CHECK(scan.end_index == end);
  FUZZ_CHECK(counted.ok());
  FUZZ_CHECK(below == static_cast<uint64_t>(std::lower_bound(values.begin(), values.end(), lo) - values.begin()));
  FUZZ_CHECK(equal == static_cast<uint64_t>(std::count(values.begin(), values.end(), lo)));
  FUZZ_CHECK(reached_end == (values.back() <= lo));
  return 0;
}
