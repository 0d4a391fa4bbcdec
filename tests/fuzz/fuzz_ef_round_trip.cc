// Encodes a sorted sequence made from the input with the ef codec
// (format/ef/) and decodes it back: every block must decode, with every
// check, to its part of the sequence, and ScanBlocks and CountInBlock must
// give the values and counts of a range (zstd tests/fuzz/huf_round_trip.c).
//
// Input: block size byte, lo/hi selector bytes, then per value a shape byte
// and up to 8 bytes of gap.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "format/codec.h"
#include "tests/fuzz/fuzz_util.h"

using namespace simdex::format;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  simdex::fuzz::Input in(data, size);
  const simdex::fuzz::RoundTripCase c = simdex::fuzz::RoundTripCaseFromInput(&in, kMinBlockSize);

  const Codec& codec = *FindCodec("ef");
  TableEncoding encoding;
  encoding.block_size = static_cast<uint32_t>(c.block_size);
  encoding.table = 3;
  EncodedTable table;
  std::string blocks;
  FUZZ_CHECK(codec.EncodeTable(c.values, encoding, [&](std::string_view b) {
    FUZZ_CHECK(b.size() == c.block_size);
    blocks.append(b);
    return simdex::Status::OK();
  }, &table).ok());
  std::unique_ptr<TableDecoder> decoder;
  FUZZ_CHECK(codec.NewDecoder(table.params, 0, &decoder).ok());
  const size_t nblocks = table.heads.size();
  FUZZ_CHECK(blocks.size() == nblocks * c.block_size);
  const auto* base = reinterpret_cast<const uint8_t*>(blocks.data());

  uint64_t lo = c.values[c.lo_pick % c.values.size()] - (c.lo_pick & 1), hi = c.values[c.hi_pick % c.values.size()];
  if (hi < lo) std::swap(lo, hi);
  std::vector<uint64_t> all, block, got;
  std::vector<BlockScan> scans(nblocks);
  for (size_t b = 0; b < nblocks; ++b) {
    BlockReadOptions options;
    options.verify_checksum = true;
    options.seed = BlockSeed(3, b);
    options.strict = true;
    FUZZ_CHECK(table.ranks[b] == all.size());
    FUZZ_CHECK(decoder->DecodeBlock(base + b * c.block_size, base + blocks.size(), c.block_size, table.heads[b],
                                    options, &block).ok());
    all.insert(all.end(), block.begin(), block.end());
    BlockScan& s = scans[b];
    s.ptr = base + b * c.block_size;
    s.limit = base + blocks.size();
    s.head = table.heads[b];
    s.decoder = decoder.get();
    s.lo = lo;
    s.hi = hi;
    s.seed = BlockSeed(3, b);
    s.out = &got;
  }
  FUZZ_CHECK(all == c.values);

  // Every block scanned for [lo, hi] in one batch: the values in range.
  BlockReadOptions verify;
  verify.verify_checksum = true;
  ScanBlocks(scans.data(), nblocks, c.block_size, verify, nullptr);
  std::vector<uint64_t> want;
  for (uint64_t x : c.values) {
    if (x >= lo && x <= hi) want.push_back(x);
  }
  for (const BlockScan& s : scans) FUZZ_CHECK(s.status.ok());
  FUZZ_CHECK(got == want);

  // lo's rank and run, block by block.
  uint64_t below_all = 0, equal_all = 0;
  for (size_t b = 0; b < nblocks; ++b) {
    uint64_t below = 0, equal = 0;
    bool reached_end = false;
    FUZZ_CHECK(decoder->CountInBlock(base + b * c.block_size, base + blocks.size(), c.block_size, table.heads[b], lo, 0,
                                     BlockReadOptions(), &below, &equal, &reached_end, nullptr).ok());
    below_all += below;
    equal_all += equal;
  }
  const auto first_at_lo = std::lower_bound(c.values.begin(), c.values.end(), lo);
  FUZZ_CHECK(below_all == static_cast<uint64_t>(first_at_lo - c.values.begin()));
  FUZZ_CHECK(equal_all == static_cast<uint64_t>(std::count(c.values.begin(), c.values.end(), lo)));
  return 0;
}
