// Encodes a sorted sequence made from the input into blocks and decodes it
// back: DecodeBlock must return the sequence, ScanBlock the values in a
// range (zstd tests/fuzz/huf_round_trip.c).
//
// Input: block size byte, lo/hi selector bytes, then per value a shape byte
// and up to 8 bytes of gap.
#include <algorithm>
#include <vector>

#include "format/card/card_format.h"
#include "tests/format/table_util.h"
#include "tests/fuzz/fuzz_util.h"

using namespace simdex::format;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  simdex::fuzz::Input in(data, size);
  const simdex::fuzz::RoundTripCase c = simdex::fuzz::RoundTripCaseFromInput(&in, kMinBlockSize);

  const testing::EncodedTable t = testing::EncodeTable(c.values, c.block_size, 3);
  FUZZ_CHECK(t.blocks.size() == t.heads.size() * c.block_size);
  std::vector<uint64_t> decoded;
  for (bool plain : {false, true}) {
    FUZZ_CHECK(testing::DecodeTable(t, plain, &decoded).ok());
    FUZZ_CHECK(decoded == c.values);
  }

  uint64_t lo = c.values[c.lo_pick % c.values.size()], hi = c.values[c.hi_pick % c.values.size()];
  if (hi < lo) std::swap(lo, hi);
  std::vector<uint64_t> expected, got;
  for (uint64_t x : c.values) {
    if (x >= lo && x <= hi) expected.push_back(x);
  }
  bool more = true;
  for (size_t b = 0; b < t.heads.size() && more; ++b) {
    BlockReadOptions options;
    options.force_plain = (c.lo_pick & 1) != 0;
    FUZZ_CHECK(ScanBlock(t.block(b), t.block(b) + c.block_size, c.block_size, t.heads[b], t.decoder, lo, hi, options,
                         &got, &more, nullptr)
                   .ok());
  }
  FUZZ_CHECK(got == expected);
  return 0;
}
