// String ids end to end through the `simdex` program: JSONL with URL ids
// (quotes, backslashes, non-ASCII) fingerprinted, built and queried, the
// same entries in another order giving the same index bytes, mixed ids,
// and the ids that cannot be written.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

const char* const kDocs =
    "{\"id\": \"https://news.example/a?x=\\\"1\\\"\", \"text\": \"the quick brown fox jumps over the lazy dog\"}\n"
    "{\"id\": \"https://news.example/\\u8a08\\u7b97\", \"text\": \"a completely different sentence about tables\"}\n"
    "{\"id\": \"C:\\\\docs\\\\b.txt\", \"text\": \"the quick brown fox jumps over the lazy dog\"}\n"
    "{\"id\": 42, \"text\": \"numbers and strings share one index\"}\n";

TEST(StringIdsCli, JsonlIdsComeBackFromQueriesAndTheIndexIgnoresOrder) {
  ScratchDir dir;
  WriteFile(dir.File("docs.jsonl"), kDocs);
  RunResult r = RunSimdex(dir, {"fingerprint", "--quiet", "-o", dir.File("fp.txt"), dir.File("docs.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = Lines(ReadFile(dir.File("fp.txt")));
  ASSERT_EQ(lines.size(), 5u);
  const std::string profile_line = lines[0];
  EXPECT_EQ(profile_line.rfind("#simdex-profile\t", 0), 0u) << profile_line;
  lines.erase(lines.begin());  // the records
  EXPECT_EQ(lines[0].substr(0, lines[0].find('\t')), "https://news.example/a?x=\"1\"");
  EXPECT_EQ(lines[1].substr(0, lines[1].find('\t')), "https://news.example/計算");
  EXPECT_EQ(lines[2].substr(0, lines[2].find('\t')), "C:\\docs\\b.txt");
  r = RunSimdex(dir, {"build", "--quiet", "--out", dir.File("a.sdx"), dir.File("fp.txt")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string fp = lines[0].substr(lines[0].find('\t') + 1);
  r = RunSimdex(dir, {"query", "--k", "0", dir.File("a.sdx"), fp});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"query\":\"" + fp + "\",\"matches\":[{\"id\":\"C:\\\\docs\\\\b.txt\",\"fingerprint\":\"" + fp +
                       "\",\"distance\":0},{\"id\":\"https://news.example/a?x=\\\"1\\\"\",\"fingerprint\":\"" + fp +
                       "\",\"distance\":0}]}\n");
  // The lines in reverse: the same bytes.
  WriteFile(dir.File("rev.txt"),
            profile_line + "\n" + lines[3] + "\n" + lines[2] + "\n" + lines[1] + "\n" + lines[0] + "\n");
  r = RunSimdex(dir, {"build", "--quiet", "--out", dir.File("b.sdx"), dir.File("rev.txt")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(ReadFile(dir.File("a.sdx")) == ReadFile(dir.File("b.sdx")));
  r = RunSimdex(dir, {"inspect", dir.File("a.sdx")});
  EXPECT_NE(r.out.find("\"string_ids\": true"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"id_map_strings\": 4"), std::string::npos) << r.out;
  EXPECT_EQ(RunSimdex(dir, {"verify", dir.File("a.sdx")}).exit_code, 0);
}

TEST(StringIdsCli, IdsThatCannotBeWrittenAreOneLineErrors) {
  ScratchDir dir;
  WriteFile(dir.File("tab.jsonl"), "{\"id\": \"a\\tb\", \"text\": \"x y z\"}\n");
  RunResult r = RunSimdex(dir, {"fingerprint", "-o", dir.File("out.txt"), dir.File("tab.jsonl")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("tab.jsonl:1: field 'id': id holds control character 0x09"), std::string::npos) << r.err;
  WriteFile(dir.File("docs.jsonl"), kDocs);
  r = RunSimdex(dir, {"fingerprint", "--binary", "-o", dir.File("out.bin"), dir.File("docs.jsonl")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("binary fingerprint files hold unsigned 64-bit ids only"), std::string::npos) << r.err;
  // A string id after numeric ones: the numbers become strings.
  WriteFile(dir.File("mixed.txt"), "1\t00000000000000ff\nhttps://a.example/\t00000000000000fe\n");
  r = RunSimdex(dir, {"build", "--quiet", "--out", dir.File("m.sdx"), dir.File("mixed.txt")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(RunSimdex(dir, {"query", dir.File("m.sdx"), "ff"}).out,
            "{\"query\":\"00000000000000ff\",\"matches\":[{\"id\":\"1\",\"fingerprint\":\"00000000000000ff\","
            "\"distance\":0},{\"id\":\"https://a.example/\",\"fingerprint\":\"00000000000000fe\",\"distance\":1}]}\n");
  // --string-ids keeps even numbers as strings.
  WriteFile(dir.File("numbers.txt"), "7\t00000000000000ff\n");
  r = RunSimdex(dir, {"build", "--quiet", "--string-ids", "--out", dir.File("n.sdx"), dir.File("numbers.txt")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(RunSimdex(dir, {"query", dir.File("n.sdx"), "ff"}).out.find("\"id\":\"7\""), std::string::npos);
  EXPECT_EQ(dir.List(), (std::vector<std::string>{"docs.jsonl", "m.sdx", "mixed.txt", "n.sdx", "numbers.txt",
                                                  "tab.jsonl"}));
}

}  // namespace
}  // namespace simdex::clitest
