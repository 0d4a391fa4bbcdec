// Decodes garbage blocks: DecodeBlock and ScanBlock must return a status
// (never crash or read outside the block) and the fast and plain reader
// paths must agree on every outcome (zstd tests/fuzz/huf_decompress.c).
//
// Input: block size byte, 65 bytes of symbol frequencies (the code), head,
// lo, hi, then the block bytes.
#include <algorithm>
#include <array>
#include <vector>

#include "format/card/card_format.h"
#include "format/card/block_reader.h"
#include "format/card/huffman.h"
#include "tests/fuzz/fuzz_util.h"

using namespace simdex::format;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  simdex::fuzz::Input in(data, size);
  const size_t block_size = kMinBlockSize << (in.Byte() % 5);  // 64..1024
  std::array<uint64_t, kHuffmanSymbols> freqs{};
  for (auto& f : freqs) f = in.Byte();
  HuffmanCodeLengths lengths = HuffmanCodeLengths::FromFrequencies(freqs.data());
  if (std::all_of(freqs.begin(), freqs.end(), [](uint64_t f) { return f == 0; })) lengths.lengths[64] = 1;
  CardDecoder decoder;
  FUZZ_CHECK(decoder.Init(lengths).ok());
  // A short input is zero-padded (stream bits decode further), or, when the
  // lowest bit of lo says so, left truncated.
  const simdex::fuzz::GarbageBlock block = simdex::fuzz::GarbageBlockFromInput(&in, block_size);
  const uint64_t head = block.head, lo = block.lo, hi = block.hi;
  const uint8_t* ptr = block.bytes.data();
  const uint8_t* limit = ptr + block.bytes.size();

  std::vector<uint64_t> fast_values, plain_values;
  for (bool strict : {false, true}) {
    BlockReadOptions options;
    options.strict = strict;
    const simdex::Status fast = DecodeBlock(ptr, limit, block_size, head, decoder, options, &fast_values);
    options.force_plain = true;
    const simdex::Status plain = DecodeBlock(ptr, limit, block_size, head, decoder, options, &plain_values);
    FUZZ_CHECK(fast.ToString() == plain.ToString());
    if (fast.ok()) {
      FUZZ_CHECK(fast_values == plain_values);
      FUZZ_CHECK(std::is_sorted(fast_values.begin(), fast_values.end()));
      FUZZ_CHECK(!fast_values.empty() && fast_values[0] == head);
    }
  }

  fast_values.clear();
  plain_values.clear();
  bool fast_end = false, plain_end = false;
  BlockReadOptions options;
  const simdex::Status fast =
      ScanBlock(ptr, limit, block_size, head, decoder, lo, hi, options, &fast_values, &fast_end, nullptr);
  options.force_plain = true;
  const simdex::Status plain =
      ScanBlock(ptr, limit, block_size, head, decoder, lo, hi, options, &plain_values, &plain_end, nullptr);
  FUZZ_CHECK(fast.ToString() == plain.ToString());
  FUZZ_CHECK(fast_values == plain_values);
  if (fast.ok()) {
    FUZZ_CHECK(fast_end == plain_end);
    for (uint64_t v : fast_values) FUZZ_CHECK(v >= lo && v <= hi);
  }
  return 0;
}
