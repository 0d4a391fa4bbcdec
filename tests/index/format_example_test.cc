// The blocks encoded by hand in docs/format.md, "A block encoded by hand"
// and "The same values with the ef codec".
#include <gtest/gtest.h>

#include <string>

#include "format/card/block_builder.h"
#include "format/card/block_reader.h"
#include "format/card/huffman.h"
#include "format/ef/ef_block_builder.h"
#include "format/ef/ef_block_reader.h"

namespace simdex::format {
namespace {

// The four values of the example and the code built from them.
const uint64_t kValues[] = {0x0123456789ABCDEFull, 0x0123456789ABCDFFull, 0x0123456789ABCDFFull,
                            0x01234567FFFFFFFFull};

HuffmanCodeLengths ExampleLengths() {
  uint64_t freqs[kHuffmanSymbols] = {};
  BlockBuilder::CountPrefixSymbols(kValues, 4, freqs);
  return HuffmanCodeLengths::FromFrequencies(freqs);
}

TEST(FormatExample, EncoderWritesTheBytesOfTheSpec) {
  const uint64_t* values = kValues;
  const HuffmanCodeLengths lengths = ExampleLengths();
  std::string encoded_lengths;
  lengths.EncodeTo(&encoded_lengths);
  std::string want_lengths(33, '\0');
  want_lengths[16] = 0x02;
  want_lengths[29] = 0x02;
  want_lengths[32] = 0x10;
  EXPECT_EQ(encoded_lengths, want_lengths);

  const HuffmanEncoderTable code(lengths);
  BlockBuilder builder(64, code);
  builder.Start(values[0]);
  for (int i = 1; i < 4; ++i) ASSERT_TRUE(builder.Add(values[i]));
  const std::string block(builder.Finish(0));
  std::string want(64, '\0');
  const unsigned char head[] = {0xef, 0x18, 0x65, 0xab, 0x04, 0x00, 0xfd, 0x7f, 0xff, 0xff, 0xfe};
  for (size_t i = 0; i < sizeof(head); ++i) want[i] = static_cast<char>(head[i]);
  EXPECT_EQ(block, want);

  CardDecoder decoder;
  ASSERT_TRUE(decoder.Init(lengths).ok());
  std::vector<uint64_t> decoded;
  BlockReadOptions options;
  options.verify_checksum = true;
  options.strict = true;
  const auto* p = reinterpret_cast<const uint8_t*>(block.data());
  ASSERT_TRUE(DecodeBlock(p, p + block.size(), 64, values[0], decoder, options, &decoded).ok());
  EXPECT_EQ(decoded, std::vector<uint64_t>(values, values + 4));
}

TEST(FormatExample, RestartPointBlockHasTheBytesOfTheSpec) {
  const uint64_t* values = kValues;
  const HuffmanCodeLengths lengths = ExampleLengths();
  const HuffmanEncoderTable code(lengths);
  BlockBuilder builder(64, code, /*restarts=*/1);
  builder.Start(values[0]);
  for (int i = 1; i < 4; ++i) ASSERT_TRUE(builder.Add(values[i]));
  const std::string block(builder.Finish(0));
  std::string want(64, '\0');
  const unsigned char head[] = {0xa3, 0x81, 0xdc, 0x0c, 0x04, 0x00, 0x07, 0xfe, 0xef, 0xef, 0xff, 0xff, 0xff, 0xc0};
  for (size_t i = 0; i < sizeof(head); ++i) want[i] = static_cast<char>(head[i]);
  EXPECT_EQ(block, want);

  CardDecoder decoder;
  ASSERT_TRUE(decoder.Init(lengths, 1).ok());
  BlockReadOptions options;
  options.verify_checksum = true;
  options.strict = true;
  const auto* p = reinterpret_cast<const uint8_t*>(block.data());
  std::vector<uint64_t> decoded;
  ASSERT_TRUE(DecodeBlock(p, p + block.size(), 64, values[0], decoder, options, &decoded).ok());
  EXPECT_EQ(decoded, std::vector<uint64_t>(values, values + 4));
  // A scan above the restart point's value decodes the head, the restart
  // point and entry 3 only.
  std::vector<uint64_t> got;
  bool reached_end = false;
  BlockScanStats stats;
  ASSERT_TRUE(ScanBlock(p, p + block.size(), 64, values[0], decoder, 0x0123456789ABCE00ull, ~0ull, options, &got,
                        &reached_end, &stats)
                  .ok());
  EXPECT_EQ(got, std::vector<uint64_t>{values[3]});
  EXPECT_EQ(stats.values_decoded, 3u);
}

TEST(FormatExample, EfBlockHasTheBytesOfTheSpec) {
  EfBlockBuilder builder(64);
  builder.Start(kValues[0]);
  for (int i = 1; i < 4; ++i) ASSERT_TRUE(builder.Add(kValues[i]));
  EXPECT_EQ(builder.low_width(), 29);
  EXPECT_EQ(builder.stream_bits(), 108u);
  const std::string block(builder.Finish(0));
  std::string want(64, '\0');
  const unsigned char head[] = {0x8a, 0x0e, 0x61, 0x39, 0x04, 0x00, 0x74, 0x07, 0x88, 0x00,
                                0x00, 0x04, 0x00, 0x00, 0x00, 0x21, 0x65, 0x43, 0x21};
  for (size_t i = 0; i < sizeof(head); ++i) want[i] = static_cast<char>(head[i]);
  EXPECT_EQ(block, want);

  const EfDecoder decoder(EfTableShape{29, 64});
  BlockReadOptions options;
  options.verify_checksum = true;
  options.strict = true;
  const auto* p = reinterpret_cast<const uint8_t*>(block.data());
  std::vector<uint64_t> decoded;
  ASSERT_TRUE(decoder.DecodeBlock(p, p + block.size(), 64, kValues[0], options, &decoded).ok());
  EXPECT_EQ(decoded, std::vector<uint64_t>(kValues, kValues + 4));
  // A scan for values >= 01234567F0000000 goes to bucket 3, after the
  // upper bits' third zero: entry 3, which it decodes alone.
  std::vector<uint64_t> got;
  bool reached_end = false;
  BlockScanStats stats;
  ASSERT_TRUE(EfScanBlock(p, p + block.size(), 64, kValues[0], 0x01234567F0000000ull, ~uint64_t{0}, options, &got,
                          &reached_end, &stats)
                  .ok());
  EXPECT_EQ(got, std::vector<uint64_t>{kValues[3]});
  EXPECT_TRUE(reached_end);
  EXPECT_EQ(stats.values_decoded, 2u);  // the head (counted always) and entry 3
}

}  // namespace
}  // namespace simdex::format
