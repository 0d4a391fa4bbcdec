// The `simdex` program's messages when the command line or an input is not
// what was meant: each names the problem in one line, counts read as English
// ("1 cluster"), and no raw control byte from an input reaches the terminal.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

// Every byte is printable, but for the line ends.
void ExpectNoControlBytes(const std::string& text) {
  for (char c : text) {
    const unsigned char b = static_cast<unsigned char>(c);
    if (c == '\n') continue;
    EXPECT_TRUE(b >= 0x20 && b != 0x7f) << "raw byte " << static_cast<int>(b) << " in: " << text;
  }
}

using MessagesCli = CliTest;

// Every command that opens `index` as an index, with the harness's input.
std::vector<std::vector<std::string>> IndexCommands(const ScratchDir& dir, const std::string& index,
                                                    const std::string& input) {
  return {{"query", index, "0"},
          {"inspect", index},
          {"verify", index},
          {"merge", index, input, "--out", dir.File("m.sdx")},
          {"dedup", "-q", "--against", index, input, "--format", "fingerprints"}};
}

TEST_F(MessagesCli, UnknownCommandIsNamedWithTheListOfCommands) {
  const RunResult r = RunSimdex(dir_, {"nosuch"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("'nosuch' is not a command"), std::string::npos) << r.err;
  for (const char* command : {"fingerprint", "dedup", "build", "merge", "query", "verify"}) {
    EXPECT_NE(r.err.find(command), std::string::npos) << command << " missing from: " << r.err;
  }
}

TEST_F(MessagesCli, NoCommandListsTheCommands) {
  const RunResult r = RunSimdex(dir_, {});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("a command is required: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("dedup"), std::string::npos) << r.err;
}

TEST_F(MessagesCli, BuildAndMergeAcceptQLikeTheOtherCommands) {
  RunResult r = RunSimdex(dir_, {"build", "-q", "--out", dir_.File("q.sdx"), input_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out + r.err, "");
  WriteFile(dir_.File("more.fp"), "7\t0123456789abcdef\n");
  r = RunSimdex(dir_, {"merge", "-q", dir_.File("q.sdx"), dir_.File("more.fp"), "--out", dir_.File("q2.sdx")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out + r.err, "");
}

TEST_F(MessagesCli, DirectoryGivenAsAnIndexSaysSo) {
  const std::string dir = dir_.File("adir");
  std::filesystem::create_directories(dir);
  for (const std::vector<std::string>& args : IndexCommands(dir_, dir, input_)) {
    const RunResult r = RunSimdex(dir_, args);
    EXPECT_EQ(r.exit_code, 1) << args[0] << ": " << r.err;
    EXPECT_EQ(r.err, "simdex " + args[0] + ": " + dir + ": is a directory\n");
  }
}

// Every command that opens an index said "cannot map missing.sdx: failed
// opening file: No such file or directory: iostream error" (Boost's words).
TEST_F(MessagesCli, AMissingIndexIsNamedAsNotOpened) {
  const std::string missing = dir_.File("missing.sdx");
  for (const std::vector<std::string>& args : IndexCommands(dir_, missing, input_)) {
    const RunResult r = RunSimdex(dir_, args);
    EXPECT_EQ(r.exit_code, 1) << args[0] << ": " << r.err;
    EXPECT_EQ(r.err, "simdex " + args[0] + ": cannot open " + missing + ": No such file or directory\n");
  }
  EXPECT_FALSE(FileExists(dir_.File("m.sdx")));
}

TEST_F(MessagesCli, DirectoryGivenAsAnInputSaysSo) {
  const std::string dir = dir_.File("adir");
  std::filesystem::create_directories(dir);
  const std::vector<std::vector<std::string>> commands = {
      {"dedup", "-q", dir}, {"fingerprint", "-q", dir}, {"build", "-q", "--out", dir_.File("x.sdx"), dir}};
  for (const std::vector<std::string>& args : commands) {
    const RunResult r = RunSimdex(dir_, args);
    EXPECT_EQ(r.exit_code, 1) << args[0] << ": " << r.err;
    EXPECT_EQ(r.err, "simdex " + args[0] + ": " + dir + ": is a directory\n");
  }
}

TEST_F(MessagesCli, IndexGivenAsABatchIsNamedWithoutRawBytes) {
  const std::vector<std::vector<std::string>> commands = {
      {"dedup", "-q", "--method", "simhash", index_},
      {"dedup", "-q", "--method", "minhash", index_},
      {"dedup", "-q", index_},  // the default method: MinHash-LSH for documents
      {"dedup", "-q", "--format", "fingerprints", index_},
      {"fingerprint", "-q", index_},
      {"build", "-q", "--out", dir_.File("x.sdx"), index_},
      {"merge", "-q", index_, index_, "--out", dir_.File("y.sdx")}};
  for (const std::vector<std::string>& args : commands) {
    const RunResult r = RunSimdex(dir_, args);
    EXPECT_EQ(r.exit_code, 1) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find(index_ + ": is a simdex index, not a"), std::string::npos) << r.err;
    ExpectNoControlBytes(r.err);
  }
  EXPECT_FALSE(FileExists(dir_.File("x.sdx")));
  EXPECT_FALSE(FileExists(dir_.File("y.sdx")));
}

TEST_F(MessagesCli, ControlBytesFromInputsAreEscaped) {
  WriteFile(dir_.File("bad.fp"), std::string("a\x01\x1b[31m\tzz\n"));
  RunResult r = RunSimdex(dir_, {"build", "-q", "--out", dir_.File("x.sdx"), dir_.File("bad.fp")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("'a\\x01\\x1b[31m'"), std::string::npos) << r.err;
  ExpectNoControlBytes(r.err);
  r = RunSimdex(dir_, {"distance", "ab\x07", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'ab\\x07' is not a fingerprint"), std::string::npos) << r.err;
  ExpectNoControlBytes(r.err);
  WriteFile(dir_.File("ids.txt"), std::string("12\x08x\n"));
  r = RunSimdex(dir_, {"merge", "-q", index_, "--delete", dir_.File("ids.txt"), "--out", dir_.File("y.sdx")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("'12\\x08x' is not an unsigned 64-bit id"), std::string::npos) << r.err;
  ExpectNoControlBytes(r.err);
}

TEST_F(MessagesCli, CountsOfOneAreSingular) {
  WriteFile(dir_.File("two.fp"), "1\t00000000000000ff\n2\t00000000000000fe\n");
  RunResult r = RunSimdex(dir_, {"dedup", "-o", "-", "--against", index_, dir_.File("two.fp")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("2 documents (0 empty, 0 bad records skipped), 2 distinct fingerprints"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(": 1 pair, 1 cluster of 2 documents, 1 duplicate; against 1 index ("), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("1 clusters"), std::string::npos) << r.err;
  WriteFile(dir_.File("one.fp"), "1\t00000000000000ff\n");
  r = RunSimdex(dir_, {"build", "--out", dir_.File("one.sdx"), dir_.File("one.fp")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(": 1 entry, 1 distinct, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", 0 spilled runs, 0 bad lines skipped, 0 empty documents"), std::string::npos) << r.out;
  r = RunSimdex(dir_, {"verify", dir_.File("one.sdx")});
  EXPECT_EQ(r.out, "ok: 1 entry, 10 tables\n");
}

}  // namespace
}  // namespace simdex::clitest
