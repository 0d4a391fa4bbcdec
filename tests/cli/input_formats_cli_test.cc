// What the `simdex` program reads an input as when its name does not say:
// JSON Lines on standard input, fingerprint lines in a ".txt" file, and the
// fingerprint files `simdex query` reads besides bare fingerprints.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/fingerprint.h"
#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

const std::string kSample = SIMDEX_SOURCE_DIR "/tests/data/sample/docs.jsonl";

// The output of `dedup` without its summary's timings.
std::string Summary(const std::string& err) {
  const size_t at = err.find("simdex dedup: 3183 documents");
  return at == std::string::npos ? err : err.substr(at, err.find("; ", err.find("duplicates", at)) - at);
}

using InputFormatsCli = CliTest;

TEST_F(InputFormatsCli, JsonLinesOnStandardInputAreReadAsJsonLines) {
  // `cat docs.jsonl | simdex dedup` once read each JSON line as a text: 71
  // pairs instead of the file's 429 (431 under fingerprint profile 3, 426
  // since profile 4).
  const RunResult file = RunSimdex(dir_, {"dedup", "--method", "simhash", "-o", dir_.File("file.jsonl"), kSample});
  const RunResult piped = RunSimdex(dir_, {"dedup", "--method", "simhash", "-o", dir_.File("piped.jsonl")}, ReadFile(kSample));
  ASSERT_EQ(file.exit_code, 0) << file.err;
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_NE(file.err.find(": 426 pairs, "), std::string::npos) << file.err;
  EXPECT_EQ(Summary(piped.err), Summary(file.err));
  EXPECT_TRUE(ReadFile(dir_.File("piped.jsonl")) == ReadFile(dir_.File("file.jsonl")));
  EXPECT_NE(piped.err.find("simdex dedup: <stdin>: read as JSON Lines (judged by its content; --format chooses)\n"),
            std::string::npos)
      << piped.err;
  // --format still decides, and -q silences the note.
  const RunResult lines = RunSimdex(dir_, {"dedup", "--method", "simhash", "-q", "--format", "lines", "-o", "-"}, ReadFile(kSample).substr(0, 4000));
  ASSERT_EQ(lines.exit_code, 0) << lines.err;
  EXPECT_EQ(lines.err, "");
  EXPECT_NE(lines.out.find("{\"id\":1,"), std::string::npos) << "line numbers as ids";
}

TEST_F(InputFormatsCli, TxtFileOfFingerprintLinesIsReadAsFingerprints) {
  WriteFile(dir_.File("batch.fp"), ReadFile(input_));
  WriteFile(dir_.File("batch.txt"), ReadFile(input_));
  const RunResult fp = RunSimdex(dir_, {"dedup", "--method", "simhash", "-q", "-o", "-", dir_.File("batch.fp")});
  const RunResult txt = RunSimdex(dir_, {"dedup", "--method", "simhash", "-o", "-", dir_.File("batch.txt")});
  const RunResult piped = RunSimdex(dir_, {"dedup", "--method", "simhash", "-q", "-o", "-"}, ReadFile(input_));
  ASSERT_EQ(fp.exit_code, 0) << fp.err;
  ASSERT_EQ(txt.exit_code, 0) << txt.err;
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(txt.out, fp.out);
  EXPECT_EQ(piped.out, fp.out);
  EXPECT_NE(txt.err.find(dir_.File("batch.txt") + ": read as a fingerprint file (judged by its content"),
            std::string::npos)
      << txt.err;
}

TEST_F(InputFormatsCli, FingerprintRefusesAFileOfFingerprintsUnlessToldToReadLines) {
  WriteFile(dir_.File("batch.txt"), ReadFile(input_));
  for (const std::string& path : {dir_.File("batch.txt"), input_}) {
    const RunResult r = RunSimdex(dir_, {"fingerprint", "-q", "-o", dir_.File("out.fp"), path});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(path + " holds fingerprints"), std::string::npos) << r.err;
    EXPECT_FALSE(FileExists(dir_.File("out.fp")));
  }
  const RunResult r = RunSimdex(dir_, {"fingerprint", "-q", "--format", "lines", dir_.File("batch.txt")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out).size(), 1 + entries_.size());  // the profile line, then a line per line read
}

TEST_F(InputFormatsCli, QueryReadsFingerprintFilesAndStandardInput) {
  const std::vector<Entry> some(entries_.begin(), entries_.begin() + 5);
  const std::string text = TextFingerprints(some) + "77\t-\tno-text\n";
  WriteFile(dir_.File("some.fp"), text);
  std::string expected;
  for (const Entry& e : some) expected += "{\"id\":" + std::to_string(e.id) + "," + ExpectedQueryLine(entries_, e.fingerprint, 3).substr(1);
  expected += "{\"id\":77,\"query\":null,\"empty\":\"no-text\",\"matches\":[]}\n";
  RunResult r = RunSimdex(dir_, {"query", index_, dir_.File("some.fp")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected);
  r = RunSimdex(dir_, {"query", index_, "-"}, text);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected);
  r = RunSimdex(dir_, {"query", index_}, text);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected);
  // Arguments mix: a fingerprint, a file, then bare fingerprints on stdin.
  const std::string hex = FormatHexFingerprint(some[0].fingerprint);
  r = RunSimdex(dir_, {"query", index_, hex, dir_.File("some.fp"), "-"}, hex + "\n\n" + hex + "\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string bare = ExpectedQueryLine(entries_, some[0].fingerprint, 3);
  EXPECT_EQ(r.out, bare + expected + bare + bare);
}

TEST_F(InputFormatsCli, QueryReadsTheBinaryForm) {
  WriteFile(dir_.File("docs.jsonl"), "{\"id\":5,\"text\":\"alpha beta gamma delta\"}\n{\"id\":6,\"text\":\"\"}\n");
  ASSERT_EQ(RunSimdex(dir_, {"fingerprint", "-q", "--binary", "-o", dir_.File("b.fp"), dir_.File("docs.jsonl")})
                .exit_code,
            0);
  const RunResult text = RunSimdex(dir_, {"fingerprint", "-q", dir_.File("docs.jsonl")});
  const std::string record = Lines(text.out).at(1);  // after the profile line
  const uint64_t fp = std::stoull(record.substr(record.find('\t') + 1, 16), nullptr, 16);
  const RunResult r = RunSimdex(dir_, {"query", index_, dir_.File("b.fp")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"id\":5," + ExpectedQueryLine(entries_, fp, 3).substr(1));
}

TEST_F(InputFormatsCli, QueryNamesWhatItCannotRead) {
  RunResult r = RunSimdex(dir_, {"query", index_, "zz"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'zz' is not a fingerprint (1 to 16 hex digits) nor a file of them"), std::string::npos)
      << r.err;
  r = RunSimdex(dir_, {"query", index_, kSample});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("holds JSON documents, not fingerprints"), std::string::npos) << r.err;
  r = RunSimdex(dir_, {"query", index_}, "0123\nxyz\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("<stdin>:2: 'xyz' is not a fingerprint"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace simdex::clitest
