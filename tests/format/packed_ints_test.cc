#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "format/packed_ints.h"

namespace simdex::format {
namespace {

TEST(PackedInts, BitWidthCoversTheMaximum) {
  EXPECT_EQ(BitWidth(0), 0);
  EXPECT_EQ(BitWidth(1), 1);
  EXPECT_EQ(BitWidth(255), 8);
  EXPECT_EQ(BitWidth(256), 9);
  EXPECT_EQ(BitWidth(~uint64_t{0}), 64);
}

TEST(PackedInts, PacksLittleEndianLowBitFirst) {
  std::string s;
  PackedIntsWriter w(&s, 3);
  for (uint64_t v : {1, 2, 7}) w.Add(v);  // bits 001 010 111 from the bottom
  w.Finish();
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(static_cast<uint8_t>(s[0]), 0b11'010'001);
  EXPECT_EQ(static_cast<uint8_t>(s[1]), 0b1);
}

// Every width, several counts; the array sits in a buffer of exactly its
// size so AddressSanitizer sees any read past it.
TEST(PackedInts, RoundTripsEveryWidth) {
  std::mt19937_64 rng(11);
  for (int width = 0; width <= 64; ++width) {
    for (size_t count : {0, 1, 2, 7, 8, 9, 100, 1001}) {
      std::vector<uint64_t> values(count);
      for (auto& v : values) v = width == 0 ? 0 : rng() >> (64 - width);
      std::string s;
      PackedIntsWriter w(&s, width);
      for (uint64_t v : values) w.Add(v);
      w.Finish();
      ASSERT_EQ(s.size(), PackedIntsBytes(count, width));
      const std::vector<uint8_t> exact(s.begin(), s.end());
      PackedIntsReader r;
      ASSERT_TRUE(r.Init(exact.data(), exact.data() + exact.size(), count, width).ok());
      for (size_t i = 0; i < count; ++i) ASSERT_EQ(r.Get(i), values[i]) << "width " << width << " i " << i;
    }
  }
}

TEST(PackedInts, ShortBufferIsCorruption) {
  const std::vector<uint8_t> bytes(12);
  PackedIntsReader r;
  EXPECT_TRUE(r.Init(bytes.data(), bytes.data() + 12, 8, 12).ok());
  EXPECT_EQ(r.Init(bytes.data(), bytes.data() + 12, 9, 12).message(), "truncated packed integer array");
  EXPECT_EQ(r.Init(bytes.data(), bytes.data() + 12, 1, 65).message(), "bad packed integer width 65");
  EXPECT_TRUE(r.Init(bytes.data(), bytes.data(), 1000, 0).ok());
}

}  // namespace
}  // namespace simdex::format
