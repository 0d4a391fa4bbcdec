// Every output option of the `simdex` program end to end: a device such as
// /dev/null is written in place and stays a device, a symbolic link is
// followed and stays a link (its target replaced, as a plain output would
// be), and an output that is one of the command's inputs (or another of its
// outputs) is refused before anything is written.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

// A command line with one output, "OUT" standing for its path.
struct OutputCase {
  const char* name;
  std::vector<std::string> args;
};

void PrintTo(const OutputCase& c, std::ostream* os) { *os << c.name; }

std::string SampleDocs() {
  std::string text;
  for (int i = 0; i < 60; ++i) {
    text += "{\"id\":" + std::to_string(i + 1) + ",\"text\":\"the quick brown fox " + std::to_string(i % 7) +
            " jumps over the lazy dog and runs into the forest " + std::to_string(i % 3) + "\"}\n";
  }
  return text;
}

bool IsCharacterDevice(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

bool IsSymlink(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

// Entries of /dev whose names show a temporary of /dev/null.
std::vector<std::string> DevNullTemporaries() {
  std::vector<std::string> found;
  for (const auto& e : std::filesystem::directory_iterator("/dev")) {
    const std::string name = e.path().filename().string();
    if (name.rfind("null.", 0) == 0) found.push_back(name);
  }
  return found;
}

class OutputCli : public CliTest, public ::testing::WithParamInterface<OutputCase> {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    WriteFile(dir_.File("docs.jsonl"), SampleDocs());
    WriteFile(dir_.File("batch.fp"), ReadFile(input_));
  }

  // The case's arguments with OUT replaced by out and file names made absolute.
  std::vector<std::string> Args(const std::string& out) const {
    std::vector<std::string> args;
    for (const std::string& a : GetParam().args) {
      if (a == "OUT") args.push_back(out);
      else if (a == "docs.jsonl" || a == "batch.fp" || a == "index.sdx") args.push_back(dir_.File(a));
      else args.push_back(a);
    }
    return args;
  }
};

TEST_P(OutputCli, DevNullIsWrittenAndStaysACharacterDevice) {
  ASSERT_TRUE(IsCharacterDevice("/dev/null"));
  const RunResult r = RunSimdex(dir_, Args("/dev/null"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(IsCharacterDevice("/dev/null"))
      << "/dev/null was replaced: restore it now with: rm -f /dev/null; mknod -m 666 /dev/null c 1 3";
  EXPECT_EQ(DevNullTemporaries(), std::vector<std::string>{});
}

TEST_P(OutputCli, SymlinkStaysALinkAndItsTargetGetsTheOutput) {
  const RunResult plain = RunSimdex(dir_, Args(dir_.File("plain.out")));
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  std::filesystem::create_directories(dir_.File("real"));
  WriteFile(dir_.File("real/target.out"), "old contents");
  ASSERT_EQ(::symlink("real/target.out", dir_.File("link.out").c_str()), 0);
  const std::vector<std::string> all = dir_.List();
  const RunResult r = RunSimdex(dir_, Args(dir_.File("link.out")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(IsSymlink(dir_.File("link.out"))) << "the link was replaced by a file";
  EXPECT_TRUE(ReadFile(dir_.File("real/target.out")) == ReadFile(dir_.File("plain.out")))
      << "the target does not hold the output";
  EXPECT_EQ(dir_.List(), all) << "files left beside the link";
  std::vector<std::string> real;
  for (const auto& e : std::filesystem::directory_iterator(dir_.File("real"))) {
    real.push_back(e.path().filename().string());
  }
  EXPECT_EQ(real, std::vector<std::string>{"target.out"}) << "files left beside the target";
}

TEST_P(OutputCli, DanglingSymlinkCreatesItsTarget) {
  const RunResult plain = RunSimdex(dir_, Args(dir_.File("plain.out")));
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_EQ(::symlink("made.out", dir_.File("link.out").c_str()), 0);
  const RunResult r = RunSimdex(dir_, Args(dir_.File("link.out")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(IsSymlink(dir_.File("link.out")));
  EXPECT_TRUE(ReadFile(dir_.File("made.out")) == ReadFile(dir_.File("plain.out")));
}

TEST_P(OutputCli, DirectoryIsRefusedWithItsName) {
  std::filesystem::create_directories(dir_.File("adir"));
  const RunResult r = RunSimdex(dir_, Args(dir_.File("adir")));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find(dir_.File("adir") + ": is a directory"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::is_directory(dir_.File("adir")));
}

INSTANTIATE_TEST_SUITE_P(
    EveryOutputOption, OutputCli,
    ::testing::Values(
        OutputCase{"FingerprintOutput", {"fingerprint", "-q", "-o", "OUT", "docs.jsonl"}},
        OutputCase{"DedupOutput", {"dedup", "--method", "simhash", "-q", "-o", "OUT", "batch.fp"}},
        OutputCase{"DedupKeepList", {"dedup", "--method", "simhash", "-q", "-o", "-", "--keep-list", "OUT", "batch.fp"}},
        OutputCase{"DedupPairs", {"dedup", "--method", "simhash", "-q", "-o", "-", "--pairs", "OUT", "batch.fp"}},
        OutputCase{"DedupClusters", {"dedup", "--method", "simhash", "-q", "-o", "-", "--clusters", "OUT", "docs.jsonl"}},
        OutputCase{"BuildOut", {"build", "--quiet", "--out", "OUT", "batch.fp"}},
        // The batch is the index's own entries: --replace, or they are refused as ids it holds.
        OutputCase{"MergeOut", {"merge", "--quiet", "--replace", "index.sdx", "batch.fp", "--out", "OUT"}}),
    [](const ::testing::TestParamInfo<OutputCase>& p) { return std::string(p.param.name); });

// Output equal to an input: refused with one line naming both, exit 2, the
// input byte for byte as it was, nothing else written.
class SameFileCli : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    WriteFile(dir_.File("docs.jsonl"), SampleDocs());
    WriteFile(dir_.File("batch.fp"), ReadFile(input_));
  }

  // Runs args, expects the refusal naming `output` and `input`, and the
  // scratch directory and the input unchanged.
  void ExpectRefused(const std::vector<std::string>& args, const std::string& output, const std::string& input,
                     const std::string& stdin_text = "") {
    const std::vector<std::string> before = dir_.List();
    const std::string bytes = ReadFile(dir_.File(input));
    const RunResult r = RunSimdex(dir_, args, stdin_text);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(output), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(input == ".stdin" ? "standard input" : input), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("would destroy the input"), std::string::npos) << r.err;
    EXPECT_TRUE(ReadFile(dir_.File(input)) == bytes) << input << " was changed";
    EXPECT_EQ(dir_.List(), before);
  }
};

TEST_F(SameFileCli, DedupOutputThatIsItsInputIsRefused) {
  ExpectRefused({"dedup", "--method", "simhash", "-q", "-o", dir_.File("docs.jsonl"), dir_.File("docs.jsonl")}, "docs.jsonl", "docs.jsonl");
  for (const char* option : {"--keep-list", "--pairs", "--clusters"}) {
    ExpectRefused({"dedup", "--method", "simhash", "-q", option, dir_.File("batch.fp"), dir_.File("batch.fp")}, "batch.fp", "batch.fp");
  }
}

TEST_F(SameFileCli, SameFileThroughAHardLinkOrASymlinkIsRefused) {
  ASSERT_EQ(::link(dir_.File("docs.jsonl").c_str(), dir_.File("hard.jsonl").c_str()), 0);
  ASSERT_EQ(::symlink("docs.jsonl", dir_.File("soft.jsonl").c_str()), 0);
  ExpectRefused({"dedup", "--method", "simhash", "-q", "-o", dir_.File("hard.jsonl"), dir_.File("docs.jsonl")}, "hard.jsonl", "docs.jsonl");
  ExpectRefused({"dedup", "--method", "simhash", "-q", "-o", dir_.File("docs.jsonl"), dir_.File("soft.jsonl")}, "docs.jsonl", "soft.jsonl");
}

TEST_F(SameFileCli, OutputThatIsStandardInputIsRefused) {
  // RunSimdex redirects standard input from scratch/.stdin.
  ExpectRefused({"dedup", "--method", "simhash", "-q", "--format", "jsonl", "-o", dir_.File(".stdin"), "-"}, ".stdin", ".stdin",
                SampleDocs());
}

TEST_F(SameFileCli, DedupOutputThatIsAnIndexItReadsIsRefused) {
  ExpectRefused({"dedup", "--method", "simhash", "-q", "--against", index_, "-o", index_, dir_.File("batch.fp")}, "index.sdx", "index.sdx");
}

TEST_F(SameFileCli, TwoOutputsThatAreOneFileAreRefused) {
  const std::vector<std::string> before = dir_.List();
  const RunResult r =
      RunSimdex(dir_, {"dedup", "--method", "simhash", "-q", "-o", dir_.File("out.jsonl"), "--pairs", dir_.File("./out.jsonl"),
                       dir_.File("batch.fp")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("are the same file"), std::string::npos) << r.err;
  EXPECT_EQ(dir_.List(), before);
}

TEST_F(SameFileCli, FingerprintOutputThatIsItsInputIsRefused) {
  ExpectRefused({"fingerprint", "-q", "-o", dir_.File("docs.jsonl"), dir_.File("docs.jsonl")}, "docs.jsonl",
                "docs.jsonl");
}

TEST_F(SameFileCli, BuildOutputThatIsItsInputIsRefused) {
  ExpectRefused({"build", "--quiet", "--out", dir_.File("batch.fp"), dir_.File("batch.fp")}, "batch.fp", "batch.fp");
}

TEST_F(SameFileCli, MergeOutputThatIsABatchOrTheDeleteListIsRefused) {
  ExpectRefused({"merge", "--quiet", index_, dir_.File("batch.fp"), "--out", dir_.File("batch.fp")}, "batch.fp",
                "batch.fp");
  WriteFile(dir_.File("gone.txt"), std::to_string(entries_[0].id) + "\n");
  ExpectRefused({"merge", "--quiet", index_, "--delete", dir_.File("gone.txt"), "--out", dir_.File("gone.txt")},
                "gone.txt", "gone.txt");
}

TEST_F(SameFileCli, MergeOverItsOwnIndexStillWorks) {
  WriteFile(dir_.File("more.fp"), "999999999999\t0123456789abcdef\n");
  const RunResult r = RunSimdex(dir_, {"merge", index_, dir_.File("more.fp"), "--out", index_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(std::to_string(entries_.size() + 1) + " entries"), std::string::npos) << r.out;
  const RunResult q = RunSimdex(dir_, {"query", index_, "0123456789abcdef", "--k", "0"});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_NE(q.out.find("\"id\":999999999999"), std::string::npos) << q.out;
}

TEST_F(SameFileCli, EvalOutputThatIsItsSetIsRefused) {
  WriteFile(dir_.File("set.jsonl"), "{\"id\":\"a\",\"text\":\"one two three\",\"cluster\":\"x\"}\n");
  ExpectRefused({"eval", "-q", "--config", "words,tf,stop", "-o", dir_.File("set.jsonl"), dir_.File("set.jsonl")},
                "set.jsonl", "set.jsonl");
}

}  // namespace
}  // namespace simdex::clitest
