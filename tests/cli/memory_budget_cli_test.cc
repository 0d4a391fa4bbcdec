// --memory is a bound, not an amount to take (issue 36, item 4): buffers
// are sized to the input and capped by the budget; a budget above what the
// machine has is clamped to it with a note; running out of memory is one
// line and exit 1, never an abort.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

class MemoryBudgetCli : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    std::string docs, same;
    for (int i = 1; i <= 300; ++i) {
      docs += "{\"id\":" + std::to_string(i) + ",\"text\":\"document " + std::to_string(i % 40) +
              " says something of its own, word " + std::to_string(i * 7919 % 1000) + " and more words\"}\n";
    }
    WriteFile(docs_, docs);
    ASSERT_EQ(RunSimdex(dir_, {"build", "-q", "--method", "minhash", "--out", lsh_, docs_}).exit_code, 0);
  }

  // Every command that takes --memory, on small inputs, with `memory`.
  std::vector<std::vector<std::string>> Commands(const std::string& memory) const {
    return {
        {"dedup", "-q", "--memory", memory, "-o", dir_.File("out.jsonl"), docs_},
        {"dedup", "-q", "--method", "simhash", "--memory", memory, "-o", dir_.File("out.jsonl"), docs_},
        {"dedup", "-q", "--memory", memory, "-o", dir_.File("out.jsonl"), input_},
        {"build", "-q", "--memory", memory, "--out", dir_.File("out.sdx"), input_},
        {"build", "-q", "--method", "minhash", "--memory", memory, "--out", dir_.File("out.sdx"), docs_},
        {"merge", "-q", "--replace", "--memory", memory, index_, input_, "--out", dir_.File("out.sdx")},
        {"merge", "-q", "--replace", "--memory", memory, lsh_, docs_, "--out", dir_.File("out.sdx")},
        {"fingerprint", "-q", "--idf", "auto", "--memory", memory, "-o", dir_.File("out.fp"), docs_},
        {"idf", "-q", "--memory", memory, "-o", dir_.File("out.idf"), docs_},
    };
  }

  static std::string Joined(const std::vector<std::string>& args) {
    std::string command = "simdex";
    for (const std::string& a : args) command += " " + a;
    return command;
  }

  std::string docs_ = dir_.File("docs.jsonl");
  std::string lsh_ = dir_.File("lsh.sdx");
};

// 1000 TiB is more than any machine this runs on has.
TEST_F(MemoryBudgetCli, BudgetAboveTheMachineIsClampedWithANote) {
  for (const std::vector<std::string>& args : Commands("1000T")) {
    SCOPED_TRACE(Joined(args));
    const RunResult r = RunSimdex(dir_, args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    ASSERT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find("simdex " + args[0] + ": --memory 1000T is more than the "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(" of memory this process can have; using "), std::string::npos) << r.err;
  }
}

// 16 GiB of budget on inputs of a few KB, in an address space of 2 GiB:
// buffers of half or a quarter of the budget, allocated up front, did not
// fit (dedup --method minhash aborted with std::bad_alloc, the others said
// "cannot allocate 8589932544 bytes for the run buffer").
TEST_F(MemoryBudgetCli, BudgetFarAboveTheInputTakesOnlyWhatTheInputNeeds) {
  if (SIMDEX_SANITIZED_BUILD) {
    GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space for its shadow memory: an address-space "
                    "cap (RLIMIT_AS) aborts it before main; the Release suite runs this";
  }
  for (const std::vector<std::string>& args : Commands("16G")) {
    SCOPED_TRACE(Joined(args));
    const RunResult r = RunSimdex(dir_, args, "", {.address_space_kib = 2 << 20});
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
}

// 8,000 identical documents make 32 million pairs; in 400 MB of address
// space the run cannot finish, and says so in one line.
TEST_F(MemoryBudgetCli, RunningOutOfMemoryIsOneLineAndExitOneNotAnAbort) {
  if (SIMDEX_SANITIZED_BUILD) {
    GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space for its shadow memory: an address-space "
                    "cap (RLIMIT_AS) aborts it before main; the Release suite runs this";
  }
  std::string docs;
  for (int i = 1; i <= 8000; ++i) {
    docs += "{\"id\":" + std::to_string(i) + ",\"text\":\"the same text in every document of this batch\"}\n";
  }
  WriteFile(dir_.File("same.jsonl"), docs);
  const RunResult r = RunSimdex(dir_,
                                {"dedup", "-q", "--memory", "1G", "-o", dir_.File("out.jsonl"), "--pairs",
                                 dir_.File("pairs.jsonl"), dir_.File("same.jsonl")},
                                "", {.address_space_kib = 400000});
  EXPECT_EQ(r.exit_code, 1) << "134 is an abort: " << r.err;
  ASSERT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("simdex dedup: ", 0), 0u) << r.err;
  EXPECT_FALSE(FileExists(dir_.File("out.jsonl")));
  EXPECT_FALSE(FileExists(dir_.File("pairs.jsonl")));
}

}  // namespace
}  // namespace simdex::clitest
