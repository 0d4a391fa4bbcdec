// Printable (include/simdex/front_end_text.h): input quoted in a message carries no raw control byte.
#include "simdex/front_end_text.h"

#include <gtest/gtest.h>

namespace simdex {
namespace {

TEST(Printable, ControlBytesBecomeEscapes) {
  EXPECT_EQ(Printable(std::string("a\tb\nc\rd\x01" "e\x1b[0m\x7f", 14)), "a\\tb\\nc\\rd\\x01e\\x1b[0m\\x7f");
  EXPECT_EQ(Printable(std::string("\0", 1)), "\\x00");
}

TEST(Printable, Utf8AndOtherBytesStayAsTheyAre) {
  EXPECT_EQ(Printable("\u6625\u7720 caf\u00e9 \\x01"), "\u6625\u7720 caf\u00e9 \\x01");
}

TEST(Printable, LongTextIsCutAtACharacterBoundary) {
  EXPECT_EQ(Printable("abcdef", 4), "abcd...");
  EXPECT_EQ(Printable("abcd", 4), "abcd");
  // "\u00e9" is two bytes: a cut after 2 bytes would split it.
  EXPECT_EQ(Printable("a\u00e9b", 2), "a...");
}

TEST(Printable, QuotedKeepsFortyBytes) {
  EXPECT_EQ(Quoted("xyz"), "'xyz'");
  EXPECT_EQ(Quoted(std::string(50, 'x')), "'" + std::string(40, 'x') + "...'");
}

}  // namespace
}  // namespace simdex
