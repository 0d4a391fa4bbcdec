// `simdex dedup` and the ids of a batch: an id given to two documents is
// refused with both places (or kept with --allow-duplicate-ids), and a JSON
// id is an unsigned integer or a string, never a float.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

using BatchIdsCli = CliTest;

std::string Doc(const std::string& id, const std::string& text) {
  return "{\"id\":" + id + ",\"text\":\"" + text + "\"}\n";
}

TEST_F(BatchIdsCli, DuplicateJsonIdIsRefusedNamingBothPlaces) {
  WriteFile(dir_.File("a.jsonl"), Doc("1", "alpha beta") + Doc("2", "gamma delta") + "\n" + Doc("3", "epsilon"));
  WriteFile(dir_.File("b.jsonl"), Doc("4", "zeta") + Doc("\"2\"", "eta theta") + Doc("\"u\"", "iota") +
                                      Doc("\"u\"", "kappa") + Doc("4", "lambda"));
  const std::vector<std::string> before = dir_.List();
  const RunResult r = RunSimdex(dir_, {"dedup", "--method", "simhash", "-q", "-o", dir_.File("out.jsonl"), "--keep-list",
                                       dir_.File("keep.txt"), dir_.File("a.jsonl"), dir_.File("b.jsonl")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "simdex dedup: " + dir_.File("b.jsonl") + ":2: duplicate id '2' (first at " + dir_.File("a.jsonl") +
                       ":2); 2 more ids are given to several documents; ids must be unique (--allow-duplicate-ids "
                       "keeps every document)\n");
  EXPECT_EQ(dir_.List(), before) << "no output written";
}

TEST_F(BatchIdsCli, DuplicateIdOnStandardInputAndInFingerprintFiles) {
  RunResult r = RunSimdex(dir_, {"dedup", "--method", "simhash", "-q"}, Doc("5", "a b") + Doc("6", "c d") + Doc("5", "e f"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("<stdin>:3: duplicate id '5' (first at <stdin>:1)"), std::string::npos) << r.err;
  WriteFile(dir_.File("b.fp"), "9\t0000000000000001\nhttps://x\t0000000000000002\n\nhttps://x\t00000000000000ff\n");
  r = RunSimdex(dir_, {"dedup", "--method", "simhash", "-q", input_, dir_.File("b.fp")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(dir_.File("b.fp") + ":4: duplicate id 'https://x' (first at " + dir_.File("b.fp") + ":2)"),
            std::string::npos)
      << r.err;
}

TEST_F(BatchIdsCli, AllowDuplicateIdsKeepsEveryDocumentInInputOrder) {
  const std::string docs = Doc("5", "the quick brown fox jumps") + Doc("6", "over the lazy dog today") +
                           Doc("5", "the quick brown fox jumps");
  const RunResult r = RunSimdex(dir_, {"dedup", "--method", "simhash", "-q", "--allow-duplicate-ids", "--keep-list", dir_.File("keep.txt")},
                                docs);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "{\"id\":5,\"cluster\":5,\"duplicate\":false,\"distance\":0}\n"
            "{\"id\":6,\"cluster\":6,\"duplicate\":false,\"distance\":0}\n"
            "{\"id\":5,\"cluster\":5,\"duplicate\":true,\"distance\":0}\n");
  EXPECT_EQ(ReadFile(dir_.File("keep.txt")), "5\n6\n");
}

TEST_F(BatchIdsCli, RecordNumbersAsIdsAreNeverDuplicates) {
  const RunResult r = RunSimdex(dir_, {"dedup", "--method", "simhash", "-q", "--id", "ordinal", "-o", "-"},
                                Doc("5", "a b") + Doc("5", "c d"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out).size(), 2u);
}

TEST_F(BatchIdsCli, FloatIdIsAnErrorNamingFileAndLine) {
  for (const std::string id : {"1.0", "1e0", "1.5", "-1", "1E2", "true", "18446744073709551616"}) {
    WriteFile(dir_.File("f.jsonl"), Doc("1", "alpha") + Doc(id, "beta"));
    const RunResult r = RunSimdex(dir_, {"dedup", "--method", "simhash", "-q", dir_.File("f.jsonl")});
    EXPECT_EQ(r.exit_code, 1) << id;
    EXPECT_NE(r.err.find(dir_.File("f.jsonl") + ":2: "), std::string::npos) << id << ": " << r.err;
    EXPECT_EQ(r.out, "") << id;
  }
}

}  // namespace
}  // namespace simdex::clitest
