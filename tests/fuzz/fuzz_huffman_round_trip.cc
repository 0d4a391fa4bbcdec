// Builds a length-limited code from input frequencies, checks its shape,
// round-trips its nibble encoding, and encodes and decodes a symbol stream
// (zstd tests/fuzz/huf_round_trip.c).
//
// Input: max_len byte, 65 two-byte frequencies, then the symbols to code.
#include <array>
#include <string>
#include <vector>

#include "format/bit_reader.h"
#include "format/bit_writer.h"
#include "format/card/huffman.h"
#include "tests/fuzz/fuzz_util.h"

using namespace simdex::format;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  simdex::fuzz::Input in(data, size);
  const int max_len = 7 + in.Byte() % (kMaxCodeLength - 6);  // 7..11: 2^7 >= 65 symbols
  std::array<uint64_t, kHuffmanSymbols> freqs{};
  std::vector<int> used;
  for (int s = 0; s < kHuffmanSymbols; ++s) {
    freqs[s] = (uint64_t{in.Byte()} << 8) | in.Byte();
    if (freqs[s] > 0) used.push_back(s);
  }
  HuffmanCodeLengths lengths;
  BuildCodeLengths(freqs.data(), kHuffmanSymbols, max_len, lengths.lengths.data());

  uint64_t kraft = 0;
  for (int s = 0; s < kHuffmanSymbols; ++s) {
    FUZZ_CHECK(lengths.lengths[s] <= max_len);
    FUZZ_CHECK((lengths.lengths[s] == 0) == (freqs[s] == 0));
    if (lengths.lengths[s] > 0) kraft += uint64_t{1} << (kMaxCodeLength - lengths.lengths[s]);
  }
  HuffmanDecoder decoder;
  if (used.empty()) {
    FUZZ_CHECK(decoder.Init(lengths).IsCorruption());
    return 0;
  }
  FUZZ_CHECK(kraft == (used.size() == 1 ? 1024u : 2048u));
  FUZZ_CHECK(decoder.Init(lengths).ok());

  std::string encoded;
  lengths.EncodeTo(&encoded);
  HuffmanCodeLengths parsed;
  const auto* e = reinterpret_cast<const uint8_t*>(encoded.data());
  FUZZ_CHECK(parsed.DecodeFrom(e, e + encoded.size()).ok());
  FUZZ_CHECK(parsed.lengths == lengths.lengths);

  const HuffmanEncoderTable code(lengths);
  std::vector<int> symbols;
  std::string stream;
  BitWriter writer(&stream);
  while (in.remaining() > 0) {
    symbols.push_back(used[in.Byte() % used.size()]);
    writer.Write(code[symbols.back()].code, code[symbols.back()].length);
  }
  writer.Finish();
  for (bool plain : {false, true}) {
    const auto* p = reinterpret_cast<const uint8_t*>(stream.data());
    BitReader reader(p, p + stream.size(), plain);
    for (int s : symbols) {
      const HuffmanDecoder::Entry entry = decoder.Lookup(static_cast<uint32_t>(reader.Peek(kMaxCodeLength)));
      FUZZ_CHECK(entry.length > 0 && entry.symbol == s);
      reader.Skip(entry.length);
    }
    FUZZ_CHECK(!reader.overflowed());
  }
  return 0;
}
