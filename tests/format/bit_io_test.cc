#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "format/bit_reader.h"
#include "format/bit_writer.h"
#include "format/coding.h"

namespace simdex::format {
namespace {

const uint8_t* Bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

uint64_t RandomBits(std::mt19937_64& rng, int nbits) {
  return nbits == 0 ? 0 : rng() >> (64 - nbits);
}

TEST(Coding, FixedIntegersAreLittleEndian) {
  std::string s;
  PutFixed16(&s, 0x0102);
  PutFixed32(&s, 0x03040506);
  PutFixed64(&s, 0x0708090a0b0c0d0eULL);
  EXPECT_EQ(s, std::string("\x02\x01\x06\x05\x04\x03\x0e\x0d\x0c\x0b\x0a\x09\x08\x07", 14));
  EXPECT_EQ(DecodeFixed16(s.data()), 0x0102);
  EXPECT_EQ(DecodeFixed32(s.data() + 2), 0x03040506u);
  EXPECT_EQ(DecodeFixed64(s.data() + 6), 0x0708090a0b0c0d0eULL);
  EXPECT_EQ(LoadBigEndian64(s.data() + 6), 0x0e0d0c0b0a090807ULL);
}

TEST(BitWriter, WritesMostSignificantBitFirst) {
  std::string s;
  BitWriter w(&s);
  w.Write(0b101, 3);
  w.Write(1, 1);
  EXPECT_EQ(w.bit_position(), 4u);
  w.Finish();
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(static_cast<uint8_t>(s[0]), 0b1011'0000);
}

TEST(BitWriter, FinishPadsToAByteAndRestarts) {
  std::string s = "x";
  BitWriter w(&s);
  w.Write(0x1ff, 9);
  w.Finish();
  EXPECT_EQ(s, std::string("x\xff\x80", 3));
  EXPECT_EQ(w.bit_position(), 0u);
  w.Write(~uint64_t{0}, 64);
  w.Finish();
  EXPECT_EQ(s.size(), 11u);
}

// Writes a field of every width 0..64 at every bit alignment 0..63 and
// reads it back with both reader paths.
TEST(BitIO, RoundTripsEveryWidthAtEveryAlignment) {
  std::mt19937_64 rng(1);
  for (int align = 0; align < 64; ++align) {
    for (int width = 0; width <= 64; ++width) {
      const uint64_t prefix = RandomBits(rng, align);
      const uint64_t value = RandomBits(rng, width);
      const uint64_t after = RandomBits(rng, 13);
      std::string s;
      BitWriter w(&s);
      w.Write(prefix, align);
      w.Write(value, width);
      w.Write(after, 13);
      EXPECT_EQ(w.bit_position(), static_cast<size_t>(align + width + 13));
      w.Finish();
      for (bool plain : {false, true}) {
        BitReader r(Bytes(s), Bytes(s) + s.size(), plain);
        ASSERT_EQ(r.Read(align), prefix);
        if (width >= 1 && width <= BitReader::kMaxPeekBits) {
          ASSERT_EQ(r.Peek(width), value);
        }
        ASSERT_EQ(r.Read(width), value) << "align " << align << " width " << width;
        ASSERT_EQ(r.Read(13), after);
        EXPECT_FALSE(r.overflowed());
      }
    }
  }
}

TEST(BitIO, FastAndPlainPathsAgreeOnLongRandomStreams) {
  std::mt19937_64 rng(2);
  std::vector<std::pair<uint64_t, int>> fields;
  std::string s;
  BitWriter w(&s);
  for (int i = 0; i < 20000; ++i) {
    const int width = static_cast<int>(rng() % 65);
    fields.emplace_back(RandomBits(rng, width), width);
    w.Write(fields.back().first, width);
  }
  w.Finish();
  BitReader fast(Bytes(s), Bytes(s) + s.size(), false);
  BitReader plain(Bytes(s), Bytes(s) + s.size(), true);
  for (const auto& [value, width] : fields) {
    ASSERT_EQ(fast.Peek(11), plain.Peek(11));
    ASSERT_EQ(fast.Read(width), value);
    ASSERT_EQ(plain.Read(width), value);
  }
  EXPECT_FALSE(fast.overflowed());
  EXPECT_FALSE(plain.overflowed());
}

TEST(BitReader, PeekPastTheEndReadsZeros) {
  const uint8_t data[2] = {0xff, 0xff};
  for (bool plain : {false, true}) {
    BitReader r(data, data + 2, plain);
    r.Skip(12);
    EXPECT_EQ(r.Peek(8), 0xf0u);
    EXPECT_FALSE(r.overflowed());
  }
}

TEST(BitReader, ReadingPastTheEndOverflowsAndStaysOverflowed) {
  const uint8_t data[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  for (bool plain : {false, true}) {
    BitReader r(data, data + 9, plain);
    EXPECT_EQ(r.Read(64), 0x0102030405060708ULL);
    EXPECT_EQ(r.Read(8), 9u);
    EXPECT_FALSE(r.overflowed());
    r.Read(1);
    EXPECT_TRUE(r.overflowed());
    r.Read(0);
    EXPECT_TRUE(r.overflowed());
  }
}

TEST(BitReader, EmptyBufferOverflowsOnFirstBit) {
  const uint8_t data[1] = {0xff};
  BitReader r(data, data, false);
  EXPECT_EQ(r.Peek(5), 0u);
  EXPECT_FALSE(r.overflowed());
  r.Skip(1);
  EXPECT_TRUE(r.overflowed());
}

}  // namespace
}  // namespace simdex::format
