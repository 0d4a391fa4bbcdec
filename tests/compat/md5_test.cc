#include "engine/compat/md5.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace simdex::compat {
namespace {

std::string Hex(const Md5Digest& d) {
  std::string out;
  char buf[3];
  for (uint8_t b : d) {
    std::snprintf(buf, sizeof(buf), "%02x", b);
    out += buf;
  }
  return out;
}

// Bytes (7 * i + 3) mod 256: no repeats within a block, so a wrongly ordered
// word or a misplaced tail shows up in the digest.
std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((7 * i + 3) % 256);
  return s;
}

TEST(Md5, MatchesRfc1321TestSuite) {
  // RFC 1321 appendix A.5.
  EXPECT_EQ(Hex(Md5("")), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(Hex(Md5("a")), "0cc175b9c0f1b6a831c399e269772661");
  EXPECT_EQ(Hex(Md5("abc")), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(Hex(Md5("message digest")), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(Hex(Md5("abcdefghijklmnopqrstuvwxyz")), "c3fcd3d76192e4007dfb496cca67e13b");
  EXPECT_EQ(Hex(Md5("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")),
            "d174ab98d277d9f5a5611c2c9f419d9f");
  EXPECT_EQ(Hex(Md5("1234567890123456789012345678901234567890"
                    "1234567890123456789012345678901234567890")),
            "57edf4a22be3c955ac49da2e2107b67a");
}

TEST(Md5, HandlesEveryPaddingBoundary) {
  // Expected values from Python's hashlib.md5 on the same bytes. Lengths 55,
  // 56 and 57 straddle the one-block/two-block tail; 63..65 and 119..129 the
  // block boundaries.
  const struct {
    size_t n;
    const char* hex;
  } kCases[] = {
      {55, "52c0e574e1198de5fe3f8f11440dcb1b"},   {56, "46c9907fc908ee68b1e7b8e71286a518"},
      {57, "1c805dd236c35cab25fcb1bc73802c51"},   {63, "a62f6d59e837867693f042f5b8f5a236"},
      {64, "7160b8fb5e9e4023d549c3971fbaeead"},   {65, "70bd662e7aefbda85a0f7244167b7897"},
      {119, "e84905d4214f4d1ca56c2cdcc152b143"},  {120, "e3eb5a6c8669ea01a8c185b8abc8a5dc"},
      {127, "acce2474d6cc8302120d09c818d17ef7"},  {128, "10b2da1a82f16d99a81a7203fe9f02cb"},
      {129, "03fefbbcebe2959cf2270241aafe0250"},  {1000, "10046f077f2082ac19676b8079f1cb1a"},
      {4099, "3fb87017f1390b035d52d6903f8b427a"},
  };
  for (const auto& c : kCases) EXPECT_EQ(Hex(Md5(Pattern(c.n))), c.hex) << "length " << c.n;
}

TEST(Md5, ReadsUnalignedInput) {
  const std::string expected = Hex(Md5(Pattern(129)));
  for (size_t shift = 1; shift < 8; ++shift) {
    const std::string buf = std::string(shift, 'x') + Pattern(129);
    EXPECT_EQ(Hex(Md5(std::string_view(buf).substr(shift))), expected) << "shift " << shift;
  }
}

TEST(Md5, HashesMillionByteMessageAndUtf8) {
  EXPECT_EQ(Hex(Md5(std::string(1000000, 'a'))), "7707d6ae4e027c70eea2a935c2296f21");
  EXPECT_EQ(Hex(Md5("na\xc3\xafve \xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x98\x80")),
            "aa141dc0648e55e28890f3d2fb36430e");
}

}  // namespace
}  // namespace simdex::compat
