#include "engine/util/json_text.h"

#include <limits>
#include <string>

#include <gtest/gtest.h>

namespace simdex::util {
namespace {

std::string Json(std::string_view text) {
  std::string out;
  AppendJsonString(&out, text);
  return out;
}

TEST(JsonTextTest, PlainTextIsQuotedAsItIs) { EXPECT_EQ(Json("http://a.example/x?y=1"), "\"http://a.example/x?y=1\""); }

TEST(JsonTextTest, QuotesBackslashesAndControlCharactersAreEscaped) {
  EXPECT_EQ(Json("a\"b\\c\nd\te\r\b\f"), "\"a\\\"b\\\\c\\nd\\te\\r\\b\\f\"");
  EXPECT_EQ(Json(std::string("\x01\x1f", 2)), "\"\\u0001\\u001f\"");
  EXPECT_EQ(Json(std::string("a\0b", 3)), "\"a\\u0000b\"");
}

TEST(JsonTextTest, ValidUtf8IsKept) { EXPECT_EQ(Json("計算機 é 😀"), "\"計算機 é 😀\""); }

TEST(JsonTextTest, InvalidUtf8BecomesReplacementCharacters) {
  EXPECT_EQ(Json("a\xff" "b"), "\"a\xEF\xBF\xBD" "b\"");
  EXPECT_EQ(Json("\xC0\xAF"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");      // overlong '/'
  EXPECT_EQ(Json("\xED\xA0\x80"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");  // a surrogate
  EXPECT_EQ(Json("\xE8\xA8"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");       // truncated at the end
}

TEST(JsonTextTest, IdsAreNumbersUnlessGivenAsStrings) {
  std::string out;
  AppendJsonId(&out, 42, "");
  out.push_back(',');
  AppendJsonId(&out, 0, "doc-7");
  EXPECT_EQ(out, "42,\"doc-7\"");
}

TEST(JsonTextTest, DecimalsAreWrittenAsToStringWritesThem) {
  for (uint64_t v : {uint64_t{0}, uint64_t{9}, uint64_t{10}, uint64_t{4294967296}, ~uint64_t{0}}) {
    std::string out = "x";
    AppendDecimal(&out, v);
    EXPECT_EQ(out, "x" + std::to_string(v));
  }
  for (int v : {0, 3, -1, 64, std::numeric_limits<int>::min()}) {
    std::string out;
    AppendDecimal(&out, v);
    EXPECT_EQ(out, std::to_string(v));
  }
}

}  // namespace
}  // namespace simdex::util
