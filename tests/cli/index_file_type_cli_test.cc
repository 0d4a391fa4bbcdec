// An index path that names a FIFO or a device is refused, naming the path,
// by every command that reads an index, before the file is opened: opening
// a FIFO for reading blocks until a writer comes, so each of these commands
// used to hang forever (issue 36, item 9). Each run is killed after 20 s,
// so that a hang fails the test instead of stopping the suite.
#include <sys/stat.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

constexpr int kTimeoutSeconds = 20;

class IndexFileTypeCli : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    ASSERT_EQ(::mkfifo(fifo_.c_str(), 0600), 0);
    std::string docs;
    for (int i = 1; i <= 20; ++i) {
      docs += "{\"id\":" + std::to_string(i) + ",\"text\":\"document " + std::to_string(i % 5) +
              " with some words of its own to shingle\"}\n";
    }
    WriteFile(docs_, docs);
  }

  // The commands that read an index at `path`, each with what else it needs.
  std::vector<std::vector<std::string>> CommandsReading(const std::string& path) const {
    return {
        {"verify", path},
        {"inspect", path},
        {"query", path, "0123456789abcdef"},
        {"merge", "-q", path, input_, "--out", dir_.File("merged.sdx")},
        {"dedup", "-q", "--method", "simhash", "--against", path, input_},
        {"dedup", "-q", "--method", "minhash", "--against", path, docs_},
        {"dedup", "-q", "--against", path, docs_},  // --method auto reads the index's kind first
    };
  }

  // Every command fails within the timeout with one line naming the path
  // and `what` it is, and writes nothing.
  void ExpectRefused(const std::string& path, const std::string& what) {
    for (const std::vector<std::string>& args : CommandsReading(path)) {
      std::string command = "simdex";
      for (const std::string& a : args) command += " " + a;
      SCOPED_TRACE(command);
      const RunResult r = RunSimdex(dir_, args, "", {.timeout_seconds = kTimeoutSeconds});
      EXPECT_EQ(r.exit_code, 1) << "137 is a hang, killed after " << kTimeoutSeconds << " s: " << r.err;
      ASSERT_EQ(Lines(r.err).size(), 1u) << r.err;
      EXPECT_NE(r.err.find(path + ": is " + what + ", not an index file"), std::string::npos) << r.err;
      EXPECT_EQ(r.out, "");
      EXPECT_FALSE(FileExists(dir_.File("merged.sdx")));
    }
  }

  std::string fifo_ = dir_.File("pipe.sdx");
  std::string docs_ = dir_.File("docs.jsonl");
};

TEST_F(IndexFileTypeCli, FifoGivenAsAnIndexIsRefusedByEveryCommand) { ExpectRefused(fifo_, "a FIFO"); }

TEST_F(IndexFileTypeCli, CharacterDeviceGivenAsAnIndexIsRefusedByEveryCommand) {
  ExpectRefused("/dev/null", "a character device");
}

}  // namespace
}  // namespace simdex::clitest
