// build/bin/simdex-disk-read-bench end to end on a small file: one JSON line
// per depth and per burst, with the counts asked for and ordered
// percentiles; a depth or burst outside 1..1024 refused before any read.
#include <gtest/gtest.h>
#include <simdjson.h>
#include <sys/wait.h>

#include <cstdint>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "tests/index/test_data.h"

namespace simdex::bench {
namespace {

class DiskReadBenchTest : public ::testing::Test {
 protected:
  // A file of 1,024 pieces of 4 KiB (the tool's least), random bytes.
  void SetUp() override {
    std::ofstream out(File());
    std::mt19937_64 rng(7);
    std::vector<uint64_t> words(512);
    for (int piece = 0; piece < 1024; ++piece) {
      for (uint64_t& w : words) w = rng();
      out.write(reinterpret_cast<const char*>(words.data()), 4096);
    }
  }

  std::string File() const { return dir_.File("disk.bin"); }

  // Runs the tool with `args` after --file and --json; returns its exit code.
  int Run(const std::string& args) {
    const std::string command = std::string(SIMDEX_BINARY_DIR) + "/bin/simdex-disk-read-bench --file " + File() +
                                " --json " + dir_.File("out.jsonl") + " " + args + " >" + dir_.File("stdout.txt") +
                                " 2>" + dir_.File("stderr.txt");
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string Stderr() const { return testing::ReadFileOrDie(dir_.File("stderr.txt")); }

  testing::ScopedTempDir dir_;
};

TEST_F(DiskReadBenchTest, ReportsEachDepthAndEachBurstAsAJsonLine) {
  const int code = Run("--reads 200 --depth 1,3 --burst 1,4");
  if (code == 1 && Stderr().find("O_DIRECT") != std::string::npos) {
    GTEST_SKIP() << "the temporary directory's file system refuses O_DIRECT: " << Stderr();
  }
  ASSERT_EQ(code, 0) << Stderr();
  const std::string text = testing::ReadFileOrDie(dir_.File("out.jsonl"));
  simdjson::ondemand::parser parser;
  std::vector<std::string> seen;
  size_t start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    simdjson::padded_string line(text.substr(start, end - start));
    simdjson::ondemand::document doc = parser.iterate(line);
    std::string_view type;
    ASSERT_EQ(doc["type"].get(type), simdjson::SUCCESS);
    int64_t size = 0, count = 0, shape = 0;
    ASSERT_EQ(doc["size"].get(size), simdjson::SUCCESS);
    EXPECT_EQ(size, 4096);
    if (type == "disk-read") {
      ASSERT_EQ(doc["depth"].get(shape), simdjson::SUCCESS);
      ASSERT_EQ(doc["reads"].get(count), simdjson::SUCCESS);
      EXPECT_EQ(count, 200 / shape * shape) << "each of the depth's threads reads its share";
    } else {
      ASSERT_EQ(type, "disk-burst");
      ASSERT_EQ(doc["burst"].get(shape), simdjson::SUCCESS);
      ASSERT_EQ(doc["bursts"].get(count), simdjson::SUCCESS);
      EXPECT_EQ(count, 200 / shape) << "--reads is shared out in bursts";
    }
    double p50 = 0, p90 = 0, p99 = 0, rate = 0;
    ASSERT_EQ(doc["p50_micros"].get(p50), simdjson::SUCCESS);
    ASSERT_EQ(doc["p90_micros"].get(p90), simdjson::SUCCESS);
    ASSERT_EQ(doc["p99_micros"].get(p99), simdjson::SUCCESS);
    ASSERT_EQ(doc["reads_per_second"].get(rate), simdjson::SUCCESS);
    EXPECT_GT(p50, 0);
    EXPECT_LE(p50, p90);
    EXPECT_LE(p90, p99);
    EXPECT_GT(rate, 0);
    seen.push_back(std::string(type) + " " + std::to_string(shape));
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"disk-read 1", "disk-read 3", "disk-burst 1", "disk-burst 4"}));
}

TEST_F(DiskReadBenchTest, ABurstOrDepthOutsideItsRangeIsRefusedBeforeAnyRead) {
  EXPECT_EQ(Run("--burst 0"), 2);
  EXPECT_NE(Stderr().find("--burst 0: outside 1..1024"), std::string::npos) << Stderr();
  EXPECT_EQ(Run("--depth 1025"), 2);
  EXPECT_NE(Stderr().find("--depth 1025: outside 1..1024"), std::string::npos) << Stderr();
}

}  // namespace
}  // namespace simdex::bench
