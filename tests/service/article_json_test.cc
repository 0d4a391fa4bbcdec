// ParseArticle and ParseArticleId: what an article and an id may be, and the
// one-line reason when they are not.
#include "engine/service/article_json.h"

#include <string>

#include <gtest/gtest.h>

namespace simdex::service {
namespace {

const std::string kFine = "\"url\":\"u\",\"title\":\"t\",\"content\":\"c\"";

Status Parse(const std::string& json, ParsedArticle* out = nullptr) {
  ParsedArticle article;
  return ParseArticle(json, "views", out != nullptr ? out : &article);
}

// "-0" was article 0: the parser reads it as the integer 0.
TEST(ArticleJson, MinusZeroIdIsRefused) {
  ParsedArticle a;
  ASSERT_TRUE(Parse("{\"id\":0," + kFine + "}", &a).ok()) << Parse("{\"id\":0," + kFine + "}").ToString();
  EXPECT_EQ(a.id_json, "0");
  for (const std::string id : {"-0", " -0 ", "-0\n"}) {
    const Status s = Parse("{\"id\":" + id + "," + kFine + "}");
    EXPECT_TRUE(s.IsInvalidArgument()) << id;
    EXPECT_EQ(s.message(), "field 'id' must be a string or an unsigned 64-bit integer (no sign, fraction or exponent)")
        << id;
  }
  ASSERT_TRUE(Parse("{\"id\":\"-0\"," + kFine + "}", &a).ok()) << "a string id";
  EXPECT_EQ(a.id_json, "\"-0\"");
  // A nested "id" is not the article's.
  ASSERT_TRUE(Parse("{\"meta\":{\"id\":-0},\"id\":0," + kFine + "}", &a).ok());
}

// simdjson keeps both fields of a repeated key and every lookup took the
// first: {"url":"a","url":"b"} was an article of url a.
TEST(ArticleJson, ARepeatedKeyIsRefusedNamingIt) {
  for (const std::string& fields : {"\"url\":\"a\"," + kFine, kFine + ",\"id\":1,\"id\":2", kFine + ",\"x\":1,\"x\":[]",
                                    kFine + ",\"a\\nb\":1,\"a\\u000ab\":2"}) {
    const Status s = Parse("{" + fields + "}");
    EXPECT_TRUE(s.IsInvalidArgument()) << fields;
    EXPECT_NE(s.message().find("' is given twice"), std::string::npos) << s.ToString();
  }
  EXPECT_EQ(Parse("{\"url\":\"a\"," + kFine + "}").message(), "field 'url' is given twice");
  EXPECT_EQ(Parse("{" + kFine + ",\"a\\nb\":1,\"a\\u000ab\":2}").message(), "field 'a\\nb' is given twice")
      << "the key as its escapes read, its control bytes escaped";
  EXPECT_TRUE(Parse("{" + kFine + ",\"meta\":{\"x\":1},\"x\":1}").ok()) << "a key of another object";
}

// An integer past 2^64 - 1 was "not valid JSON" (the parser fails on it):
// named as out of range.
TEST(ArticleJson, AnIdPastTheLargestIntegerIsOutOfRange) {
  Status s = Parse("{\"id\":18446744073709551616," + kFine + "}");
  EXPECT_EQ(s.message(),
            "field 'id' 18446744073709551616 is out of range for an unsigned 64-bit id (0 to 18446744073709551615)");
  s = Parse("{" + kFine + ",\"id\":" + std::string(500, '7') + "}");
  EXPECT_EQ(s.message(),
            "field 'id' a number of 500 digits is out of range for an unsigned 64-bit id (0 to 18446744073709551615)");
  s = Parse("{\"id\":-18446744073709551617," + kFine + "}");
  EXPECT_NE(s.message().find("must be a string or an unsigned 64-bit integer"), std::string::npos) << s.ToString();
  ParsedArticle a;
  ASSERT_TRUE(Parse("{\"id\":18446744073709551615," + kFine + "}", &a).ok());
  EXPECT_EQ(a.id_json, "18446744073709551615");
  // Another field's bad number stays "not valid JSON".
  s = Parse("{\"id\":3," + kFine + ",\"views\":" + std::string(500, '7') + "}");
  EXPECT_NE(s.message().find("not valid JSON"), std::string::npos) << s.ToString();
}

TEST(ArticleJson, AnIdGivenAsJsonTextFollowsTheSameRules) {
  std::string id;
  ASSERT_TRUE(ParseArticleId("42", "the id", &id).ok());
  EXPECT_EQ(id, "42");
  ASSERT_TRUE(ParseArticleId("\"a\\u0041\"", "the id", &id).ok());
  EXPECT_EQ(id, "\"aA\"");
  EXPECT_NE(ParseArticleId("-0", "the id", &id).message().find("the id must be a string"), std::string::npos);
  EXPECT_EQ(ParseArticleId(std::string(500, '9'), "the id", &id).message(),
            "the id a number of 500 digits is out of range for an unsigned 64-bit id (0 to 18446744073709551615)");
  EXPECT_EQ(ParseArticleId("\"x", "the id", &id).message(), "the id is not valid JSON");
}

}  // namespace
}  // namespace simdex::service
