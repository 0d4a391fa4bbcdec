// End-to-end tests of the simdex program: run build/bin/simdex on files in a
// temporary directory and check output, messages and exit codes.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/fingerprint.h"
#include "tests/io/io_test_util.h"

namespace simdex {
namespace {

using testing::Compress;
using testing::ReadFile;
using testing::TempDir;

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> lines;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// n JSONL documents with ids 10, 20, ...: sentences that repeat with small
// changes (near-duplicates), some Chinese, and an empty text every 50th.
std::string SampleJsonl(int n) {
  std::string s;
  for (int i = 1; i <= n; ++i) {
    std::string text;
    if (i % 50 == 0) {
      text = "";
    } else if (i % 3 == 0) {
      text = "\u6625\u7720\u4e0d\u89ba\u66c9\uff0c\u8655\u8655\u805e\u557c\u9ce5 " + std::to_string(i % 7);
    } else {
      text = "The quick brown fox jumps over the lazy dog number " + std::to_string(i % 11) +
             " while the cat sleeps in the sun " + std::to_string(i % 5);
    }
    s += "{\"id\": " + std::to_string(i * 10) + ", \"title\": \"doc " + std::to_string(i) + "\", \"text\": \"" +
         text + "\"}\n";
  }
  return s;
}

class CliTest : public ::testing::Test {
 protected:
  // Runs "simdex <args>" through the shell (args are shell words).
  RunResult Run(const std::string& args, const std::string& stdin_path = "/dev/null") {
    const std::string out = dir_.Path("stdout"), err = dir_.Path("stderr");
    std::string cmd = std::string(SIMDEX_BINARY_DIR) + "/bin/simdex " + args + " <" + stdin_path + " >" + out +
                      " 2>" + err;
    int status = std::system(cmd.c_str());
    RunResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = ReadFile(out);
    r.err = ReadFile(err);
    // `simdex fingerprint` starts its output with the profile line
    // (docs/fingerprint-files.md); the tests below look at the records.
    if (args.rfind("fingerprint", 0) == 0 && r.exit_code == 0 && !r.out.empty()) {
      const size_t end = r.out.find('\n');
      EXPECT_EQ(r.out.rfind("#simdex-profile\tsimdex-fp/", 0), 0u) << r.out.substr(0, end);
      r.out.erase(0, end == std::string::npos ? r.out.size() : end + 1);
    }
    return r;
  }
  std::string Write(const std::string& name, const std::string& bytes) { return dir_.Write(name, bytes); }
  TempDir dir_;
};

TEST_F(CliTest, FingerprintWritesOneLinePerDocumentInInputOrder) {
  std::string docs = Write("docs.jsonl", SampleJsonl(200));
  RunResult r = Run("fingerprint --threads 1 " + docs);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 200u);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string id = std::to_string((i + 1) * 10) + "\t";
    ASSERT_EQ(lines[i].substr(0, id.size()), id);
    std::string rest = lines[i].substr(id.size());
    if ((i + 1) % 50 == 0) {
      EXPECT_EQ(rest, "-\tno-text");
    } else {
      EXPECT_EQ(rest.size(), 16u) << lines[i];
      EXPECT_EQ(rest.find_first_not_of("0123456789abcdef"), std::string::npos) << lines[i];
    }
  }
  EXPECT_NE(r.err.find("simdex fingerprint: 200 documents, 196 fingerprinted, 4 empty (no-text 4)"),
            std::string::npos)
      << r.err;
}

TEST_F(CliTest, FingerprintMatchesTheLibraryWithDefaultOptions) {
  const std::string text = "The quick brown fox jumps over the lazy dog";
  std::string docs = Write("docs.txt", text + "\n");
  RunResult r = Run("fingerprint -q " + docs);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::unique_ptr<Fingerprinter> fp;
  ASSERT_TRUE(Fingerprinter::Create(FingerprintOptions(), &fp).ok());
  EXPECT_EQ(r.out, "1\t" + FormatHexFingerprint(fp->Fingerprint(text).fingerprint) + "\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(CliTest, OneAndFourThreadsGiveTheSameOutput) {
  std::string docs = Write("docs.jsonl", SampleJsonl(3000));
  RunResult one = Run("fingerprint -q --threads 1 " + docs);
  RunResult four = Run("fingerprint -q --threads 4 " + docs);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ASSERT_EQ(four.exit_code, 0) << four.err;
  EXPECT_EQ(Lines(one.out).size(), 3000u);
  EXPECT_EQ(one.out, four.out);
}

TEST_F(CliTest, CompressedInputGivesTheSameFingerprints) {
  const std::string jsonl = SampleJsonl(500);
  std::string plain = Run("fingerprint -q " + Write("docs.jsonl", jsonl)).out;
  ASSERT_FALSE(plain.empty());
  for (std::string suffix : {".gz", ".zst", ".bz2"}) {
    RunResult r = Run("fingerprint -q " + Write("docs.jsonl" + suffix, Compress(jsonl, suffix)));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, plain) << suffix;
  }
}

TEST_F(CliTest, TextFieldsAreJoinedAndChangeTheFingerprint) {
  std::string docs = Write("docs.jsonl", SampleJsonl(20));
  std::string text_only = Run("fingerprint -q --text-field text " + docs).out;
  std::string both = Run("fingerprint -q --text-field title --text-field text " + docs).out;
  EXPECT_EQ(text_only, Run("fingerprint -q " + docs).out);
  EXPECT_NE(text_only, both);
  EXPECT_EQ(Lines(both).size(), 20u);
}

TEST_F(CliTest, LineInputsNumberLinesAcrossFiles) {
  std::string a = Write("a.txt", "first document\nsecond document\n");
  std::string b = Write("b.txt", "third document\n\n");
  RunResult r = Run("fingerprint -q " + a + " " + b);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].substr(0, 2), "1\t");
  EXPECT_EQ(lines[2].substr(0, 2), "3\t");
  EXPECT_EQ(lines[3], "4\t-\tno-text");
}

TEST_F(CliTest, StandardInputIsJudgedByItsContentUnlessToldOtherwise) {
  std::string lines = Write("in", "alpha beta gamma\n");
  std::string jsonl = Write("in.jsonl", "\n{\"id\": 9, \"text\": \"alpha beta gamma\"}\n");
  RunResult a = Run("fingerprint -q", lines);
  RunResult b = Run("fingerprint -", jsonl);
  RunResult c = Run("fingerprint -q --format jsonl -", jsonl);
  RunResult d = Run("fingerprint -q --format lines -", jsonl);
  for (const RunResult* r : {&a, &b, &c, &d}) ASSERT_EQ(r->exit_code, 0) << r->err;
  EXPECT_EQ(a.out.substr(0, 2), "1\t");
  EXPECT_EQ(b.out, "9" + a.out.substr(1));
  EXPECT_NE(b.err.find("simdex fingerprint: <stdin>: read as JSON Lines (judged by its content; --format chooses)"),
            std::string::npos) << b.err;
  EXPECT_EQ(c.out, b.out);
  EXPECT_EQ(Lines(d.out).size(), 2u) << "a blank line and a JSON line, read as two documents";
}

TEST_F(CliTest, OrdinalIdsReplaceTheIdField) {
  std::string docs = Write("docs.jsonl", "{\"text\": \"alpha\"}\n{\"text\": \"beta\"}\n");
  RunResult r = Run("fingerprint -q --id ordinal " + docs);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1].substr(0, 2), "2\t");
}

TEST_F(CliTest, BadRecordExitsWithOneNamingFileAndLine) {
  std::string docs = Write("docs.jsonl", SampleJsonl(5) + "{\"id\": -4, \"text\": \"x\"}\n" + SampleJsonl(5));
  std::string out = dir_.Path("fp.txt");
  RunResult r = Run("fingerprint -o " + out + " " + docs);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "simdex fingerprint: " + docs + ":6: field 'id' is not an unsigned 64-bit integer: -4\n");
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(out + ".tmp"));
}

TEST_F(CliTest, SkipBadExitsZeroAndCountsInTheSummary) {
  std::string docs = Write("docs.jsonl", SampleJsonl(5) + "not json\n" + SampleJsonl(5));
  RunResult r = Run("fingerprint --skip-bad " + docs);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out).size(), 10u);
  EXPECT_NE(r.err.find("10 documents"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(", 1 skipped bad record,"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("simdex fingerprint: skipped " + docs + ":6: invalid JSON"), std::string::npos) << r.err;
}

TEST_F(CliTest, TruncatedCompressedInputFails) {
  std::string full = Compress(SampleJsonl(2000), ".gz");
  std::string docs = Write("docs.jsonl.gz", full.substr(0, full.size() / 2));
  RunResult r = Run("fingerprint --skip-bad " + docs);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "simdex fingerprint: " + docs + ": truncated gzip stream\n");
}

TEST_F(CliTest, FingerprintUsageErrorsExitWithTwo) {
  std::string docs = Write("docs.jsonl", SampleJsonl(3));
  EXPECT_EQ(Run("fingerprint --format xml " + docs).exit_code, 2);
  EXPECT_EQ(Run("fingerprint --ngram 0 " + docs).exit_code, 2);
  EXPECT_EQ(Run("fingerprint --threads 0 " + docs).exit_code, 2);
  EXPECT_EQ(Run("fingerprint --no-such-option " + docs).exit_code, 2);
  RunResult r = Run("fingerprint --weighting tf-idf " + docs);
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

TEST_F(CliTest, MissingInputExitsWithOne) {
  RunResult r = Run("fingerprint " + dir_.Path("absent.jsonl"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "simdex fingerprint: " + dir_.Path("absent.jsonl") + ": No such file or directory\n");
}

TEST_F(CliTest, BinaryOutputGivesTheSamePairsAsText) {
  std::string docs = Write("docs.jsonl", SampleJsonl(300));
  std::string text = dir_.Path("fp.txt"), binary = dir_.Path("fp.bin");
  ASSERT_EQ(Run("fingerprint -q -o " + text + " " + docs).exit_code, 0);
  ASSERT_EQ(Run("fingerprint -q --binary -o " + binary + " " + docs).exit_code, 0);
  EXPECT_EQ(ReadFile(binary).substr(0, 7), "SDXFPv1");
  RunResult from_text = Run("pairs -k 3 " + text);
  RunResult from_binary = Run("pairs -k 3 " + binary);
  EXPECT_EQ(from_text.exit_code, 0);
  EXPECT_FALSE(from_text.out.empty());
  EXPECT_EQ(from_text.out, from_binary.out);
}

TEST_F(CliTest, DistanceCountsDifferingBits) {
  RunResult r = Run("distance 00ff00ff00ff00ff 00ff00ff00ff00fe");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "1\n");
  EXPECT_EQ(Run("distance 0 ffffffffffffffff").out, "64\n");
}

TEST_F(CliTest, DistanceRejectsNonHexAsUsage) {
  RunResult r = Run("distance 0 xyz");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'xyz' is not a fingerprint"), std::string::npos) << r.err;
}

TEST_F(CliTest, PairsListsPairsWithinKClosestFirst) {
  std::string fp = Write("fp.txt",
                         "1\t00000000000000ff\n2\t00000000000000fe\n3\t-\tno-text\n"
                         "4\tff00000000000000\n5\t00000000000000f0\n6\t00000000000000ff\n");
  RunResult r = Run("pairs -k 4 " + fp);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "0\t1\t6\n1\t1\t2\n1\t2\t6\n3\t2\t5\n4\t1\t5\n4\t5\t6\n");
  EXPECT_EQ(Run("pairs " + fp).out, "0\t1\t6\n1\t1\t2\n1\t2\t6\n3\t2\t5\n");
}

TEST_F(CliTest, PairsPrintsNamesFromAJsonlFile) {
  std::string fp = Write("fp.txt", "1\t00000000000000ff\n2\t00000000000000fe\n");
  std::string names =
      Write("docs.jsonl", "{\"id\": 1, \"title\": \"One\\tA\"}\n{\"id\": 2, \"title\": \"Two\\u001b[2J\"}\n");
  RunResult r = Run("pairs --names " + names + " " + fp);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "1\t1\t2\tOne A\tTwo\\x1b[2J\n") << "a name's control characters do not reach the terminal";
}

TEST_F(CliTest, PairsReadsStandardInput) {
  std::string fp = Write("fp.txt", "1\t00000000000000ff\n2\t00000000000000fe\n");
  EXPECT_EQ(Run("pairs -", fp).out, "1\t1\t2\n");
}

TEST_F(CliTest, PairsOnAMalformedFileNamesFileAndLine) {
  std::string fp = Write("fp.txt", "1\t00000000000000ff\n2\tnope\n");
  RunResult r = Run("pairs " + fp);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "simdex pairs: " + fp + ":2: fingerprint is not 1 to 16 hex digits: 'nope'\n");
}

TEST_F(CliTest, UsageErrorsExitWithTwo) {
  EXPECT_EQ(Run("pairs").exit_code, 2);
  EXPECT_EQ(Run("pairs --max-distance 65 x").exit_code, 2);
  EXPECT_EQ(Run("no-such-command").exit_code, 2);
  EXPECT_EQ(Run("").exit_code, 2);
}

}  // namespace
}  // namespace simdex
