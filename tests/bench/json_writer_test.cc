// simdex-bench's JSON writer (bench/harness/json_writer.h): escaping, field
// order, numbers, and output that a JSON parser reads back.
#include "bench/harness/json_writer.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>
#include <limits>
#include <vector>

#include "tests/index/test_data.h"

namespace simdex::bench {
namespace {

TEST(JsonWriterTest, QuoteEscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(JsonQuote("plain"), "\"plain\"");
  EXPECT_EQ(JsonQuote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(JsonQuote("\n\r\t\b\f"), "\"\\n\\r\\t\\b\\f\"");
  EXPECT_EQ(JsonQuote(std::string("\x01\x1f\0", 3)), "\"\\u0001\\u001f\\u0000\"");
  EXPECT_EQ(JsonQuote("/"), "\"/\"");
}

TEST(JsonWriterTest, QuoteCopiesUtf8Unchanged) { EXPECT_EQ(JsonQuote("床前明月光 é"), "\"床前明月光 é\""); }

TEST(JsonWriterTest, FieldsKeepTheirOrderAndTypes) {
  JsonObject inner;
  inner.AddInt("k", -3);
  JsonObject o;
  o.AddString("s", "x").AddNumber("d", 0.5).AddUint("u", 18446744073709551615ull).AddBool("b", false);
  o.AddNull("z").AddObject("o", inner);
  const std::vector<double> v = {1, 2.25};
  const std::vector<std::string> names = {"a", "b\"c"};
  o.AddNumbers("v", v).AddStrings("names", names);
  EXPECT_EQ(o.str(),
            "{\"s\": \"x\", \"d\": 0.5, \"u\": 18446744073709551615, \"b\": false, \"z\": null, "
            "\"o\": {\"k\": -3}, \"v\": [1, 2.25], \"names\": [\"a\", \"b\\\"c\"]}");
  JsonObject more;
  more.AddInt("m", 1);
  JsonObject empty;
  EXPECT_EQ(JsonObject().AddFields(more).AddFields(empty).str(), "{\"m\": 1}");
}

TEST(JsonWriterTest, NumbersAreShortestRoundTripAndNonFiniteIsNull) {
  JsonObject o;
  o.AddNumber("a", 0.1).AddNumber("b", 1e-7).AddNumber("c", std::nan(""));
  o.AddNumber("d", std::numeric_limits<double>::infinity());
  EXPECT_EQ(o.str(), "{\"a\": 0.1, \"b\": 1e-07, \"c\": null, \"d\": null}");
}

TEST(JsonWriterTest, WrittenLinesParseBackWithSimdjson) {
  testing::ScopedTempDir dir;
  const std::string path = dir.File("out.jsonl");
  const std::string nasty = std::string("quote\" back\\ nl\n tab\t ctl\x02 zh 詩 end");
  {
    JsonLinesWriter writer;
    ASSERT_TRUE(writer.Open(path).ok());
    for (int i = 0; i < 3; ++i) {
      JsonObject o;
      o.AddInt("i", i).AddString("text", nasty).AddNumber("x", 1.0 / 3);
      ASSERT_TRUE(writer.Write(o).ok());
    }
  }
  const std::string text = testing::ReadFileOrDie(path);
  simdjson::ondemand::parser parser;
  size_t start = 0;
  int lines = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1, ++lines) {
    simdjson::padded_string line(text.substr(start, end - start));
    simdjson::ondemand::document doc = parser.iterate(line);
    int64_t i = 0;
    ASSERT_EQ(doc["i"].get(i), simdjson::SUCCESS);
    EXPECT_EQ(i, lines);
    std::string_view got;
    ASSERT_EQ(doc["text"].get(got), simdjson::SUCCESS);
    EXPECT_EQ(got, nasty);
    double x = 0;
    ASSERT_EQ(doc["x"].get(x), simdjson::SUCCESS);
    EXPECT_EQ(x, 1.0 / 3);
  }
  EXPECT_EQ(lines, 3);
  EXPECT_EQ(start, text.size());
}

TEST(JsonWriterTest, OpeningAnUnwritablePathNamesIt) {
  JsonLinesWriter writer;
  Status s = writer.Open("/nonexistent/dir/out.jsonl");
  EXPECT_TRUE(s.IsIOError());
  EXPECT_NE(s.message().find("/nonexistent/dir/out.jsonl"), std::string::npos);
}

}  // namespace
}  // namespace simdex::bench
