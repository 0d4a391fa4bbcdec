#include <gtest/gtest.h>

#include "simdex/fingerprint.h"

namespace simdex {
namespace {

TEST(HexFingerprint, RoundTripsSixteenDigits) {
  uint64_t v = 0;
  ASSERT_TRUE(ParseHexFingerprint("00ff00ff12345678", &v));
  EXPECT_EQ(v, 0x00ff00ff12345678ULL);
  EXPECT_EQ(FormatHexFingerprint(v), "00ff00ff12345678");
}

TEST(HexFingerprint, AcceptsShortAndUpperCase) {
  uint64_t v = 0;
  ASSERT_TRUE(ParseHexFingerprint("ABC", &v));
  EXPECT_EQ(v, 0xabcULL);
}

TEST(HexFingerprint, RejectsEmptyTooLongAndNonHex) {
  uint64_t v = 7;
  EXPECT_FALSE(ParseHexFingerprint("", &v));
  EXPECT_FALSE(ParseHexFingerprint("00000000000000000", &v));
  EXPECT_FALSE(ParseHexFingerprint("0x12", &v));
  EXPECT_FALSE(ParseHexFingerprint("12 3", &v));
  EXPECT_EQ(v, 7u);
}

TEST(HammingDistance, CountsDifferingBits) {
  EXPECT_EQ(HammingDistance(0, 0), 0);
  EXPECT_EQ(HammingDistance(0, ~0ULL), 64);
  EXPECT_EQ(HammingDistance(0b1011, 0b0001), 2);
}

}  // namespace
}  // namespace simdex
