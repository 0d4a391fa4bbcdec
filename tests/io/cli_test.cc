// End-to-end tests of the simdex program: run build/bin/simdex on files in a
// temporary directory and check output, messages and exit codes.
#include <sys/wait.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/io/io_test_util.h"

namespace simdex {
namespace {

using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

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
    return r;
  }
  std::string Write(const std::string& name, const std::string& bytes) {
    std::string path = dir_.Path(name);
    WriteFile(path, bytes);
    return path;
  }
  TempDir dir_;
};

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
  std::string names = Write("docs.jsonl", "{\"id\": 1, \"title\": \"One\\tA\"}\n{\"id\": 2, \"title\": \"Two\"}\n");
  RunResult r = Run("pairs --names " + names + " " + fp);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "1\t1\t2\tOne A\tTwo\n");
}

TEST_F(CliTest, PairsReadsStandardInput) {
  std::string fp = Write("fp.txt", "1\t00000000000000ff\n2\t00000000000000fe\n");
  EXPECT_EQ(Run("pairs -", fp).out, "1\t1\t2\n");
}

TEST_F(CliTest, PairsOnAMalformedFileNamesFileAndLine) {
  std::string fp = Write("fp.txt", "1\t00000000000000ff\n2\tnope\n");
  RunResult r = Run("pairs " + fp);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "simdex pairs: " + fp + ":2: fingerprint is not 16 hex digits: 'nope'\n");
}

TEST_F(CliTest, UsageErrorsExitWithTwo) {
  EXPECT_EQ(Run("pairs").exit_code, 2);
  EXPECT_EQ(Run("pairs --max-distance 65 x").exit_code, 2);
  EXPECT_EQ(Run("no-such-command").exit_code, 2);
  EXPECT_EQ(Run("").exit_code, 2);
}

}  // namespace
}  // namespace simdex
