// `simdex plan` and `simdex build --scheme auto` end to end: the plan's text
// and JSON, its refusals, and an index built by the plan that inspect names
// and that answers as a scan does.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "simdex/fingerprint.h"
#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

using PlanCli = CliTest;

// The value of "key" in inspect's pretty JSON (a string's or a number's text).
std::string InspectField(const std::string& json, const std::string& key) {
  const std::string head = "\"" + key + "\": ";
  const size_t at = json.find(head);
  if (at == std::string::npos) return "";
  const size_t start = at + head.size();
  const size_t end = json.find_first_of(",\n", start);
  std::string value = json.substr(start, end - start);
  if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
  return value;
}

TEST_F(PlanCli, PlanPrintsTheChoiceTheReasonsAndTheBuildCommand) {
  const RunResult r = RunSimdex(dir_, {"plan", "1e6"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out.rfind("plan for 1000000 entries, k = 3, memory 1 GiB, disk unbounded:\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("  choice:    t4 (4 tables, k = 3), codec "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  runner-up: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nwhy:\n  - k = 3: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nbuild it: simdex build --scheme t4 --block-size "), std::string::npos) << r.out;
}

TEST_F(PlanCli, PlanJsonIsOneObjectWithTheChoiceAndReasons) {
  const RunResult r = RunSimdex(dir_, {"plan", "10000000", "--k", "4", "--memory", "256M", "--disk", "4G", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(Lines(r.out).size(), 1u) << r.out;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(r.out).get(doc), simdjson::SUCCESS) << r.out;
  EXPECT_EQ(uint64_t(doc["n"]), 10000000u);
  EXPECT_EQ(int64_t(doc["k"]), 4);
  EXPECT_EQ(uint64_t(doc["memory_bytes"]), uint64_t{256} << 20);
  EXPECT_EQ(uint64_t(doc["disk_bytes"]), uint64_t{4} << 30);
  simdjson::dom::element choice = doc["choice"];
  EXPECT_GE(int64_t(choice["k"]), 4);
  EXPECT_LE(uint64_t(choice["disk_bytes"]), uint64_t{4} << 30);
  EXPECT_EQ(uint64_t(choice["disk_bytes"]), uint64_t(choice["index_bytes"]) + uint64_t(choice["scratch_bytes"]));
  EXPECT_TRUE(bool(choice["spills"]));  // 32 bytes per entry do not fit 256 MiB
  EXPECT_GT(double(choice["p50_us"]), 0);
  EXPECT_GT(simdjson::dom::array(doc["reasons"]).size(), 2u);
}

TEST_F(PlanCli, ImpossibleDiskBudgetFailsWithOneLineNamingTheNeed) {
  const RunResult r = RunSimdex(dir_, {"plan", "1e8", "--disk", "1G"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  ASSERT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("simdex plan: no index of 100000000 entries fits a disk budget of 1 GiB: the smallest (t4, ", 0),
            0u)
      << r.err;
  EXPECT_NE(r.err.find("needs at least"), std::string::npos) << r.err;
}

TEST_F(PlanCli, UsageErrorsExitTwo) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"plan"},
           {"plan", "many"},
           {"plan", "0"},
           {"plan", "1.5"},
           {"plan", "1e6", "--k", "16"},
           {"plan", "1e6", "--memory", "12Q"},
           {"plan", "1e6", "--disk", "0"},
       }) {
    const RunResult r = RunSimdex(dir_, args);
    EXPECT_EQ(r.exit_code, 2) << args.back() << ": " << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  }
  EXPECT_EQ(RunSimdex(dir_, {"plan", "1e6", "--memory", "1K"}).exit_code, 1);  // below the build's minimum
}

// The plan for the test set's few hundred entries is t4; the index built by
// it says so and answers every query as the scan does.
TEST_F(PlanCli, BuildSchemeAutoBuildsThePlannedIndexWhichAnswersAsTheScan) {
  const std::string out = dir_.File("auto.sdx");
  RunResult r = RunSimdex(dir_, {"build", "--scheme", "auto", "--out", out, input_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(Lines(r.out).size(), 2u) << r.out;
  EXPECT_EQ(r.out.rfind(out + ": planned for " + std::to_string(entries_.size()) + " entries and k = 3: t4, codec ", 0), 0u)
      << r.out;
  r = RunSimdex(dir_, {"inspect", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(InspectField(r.out, "scheme"), "t4");
  const std::string plan = RunSimdex(dir_, {"plan", std::to_string(entries_.size()), "--json"}).out;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(plan).get(doc), simdjson::SUCCESS) << plan;
  EXPECT_EQ(InspectField(r.out, "block_size"), std::to_string(uint64_t(doc["choice"]["block_size"])));
  EXPECT_EQ(InspectField(r.out, "codec"), std::string(std::string_view(doc["choice"]["codec"])));
  std::string queries, expected;
  for (size_t i = 0; i < entries_.size(); i += 5) {
    const uint64_t q = entries_[i].fingerprint ^ (uint64_t{5} << (i % 62));
    queries += FormatHexFingerprint(q) + "\n";
    expected += ExpectedQueryLine(entries_, q, 3);
  }
  r = RunSimdex(dir_, {"query", out}, queries);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected);
  EXPECT_EQ(RunSimdex(dir_, {"verify", out}).out, "ok: " + std::to_string(entries_.size()) + " entries, 4 tables\n");
}

TEST_F(PlanCli, BuildSchemeAutoKeepsAnExplicitBlockSizeAndCodec) {
  const std::string out = dir_.File("kept.sdx");
  RunResult r = RunSimdex(dir_, {"build", "--scheme", "auto", "--block-size", "256", "--codec", "card", "--quiet",
                                 "--out", out, input_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunSimdex(dir_, {"inspect", out});
  EXPECT_EQ(InspectField(r.out, "scheme"), "t4");
  EXPECT_EQ(InspectField(r.out, "block_size"), "256");
  EXPECT_EQ(InspectField(r.out, "codec"), "card");
}

TEST_F(PlanCli, BuildSchemeAutoPlansForAGreaterK) {
  const std::string out = dir_.File("k5.sdx");
  RunResult r = RunSimdex(dir_, {"build", "--scheme", "auto", "--k", "5", "--quiet", "--out", out, input_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunSimdex(dir_, {"inspect", out});
  EXPECT_GE(std::stoi(InspectField(r.out, "k")), 5) << r.out;
  std::string queries, expected;
  for (size_t i = 0; i < entries_.size(); i += 9) {
    const uint64_t q = entries_[i].fingerprint ^ (uint64_t{0x1f} << (i % 59));
    queries += FormatHexFingerprint(q) + "\n";
    expected += ExpectedQueryLine(entries_, q, 5);
  }
  r = RunSimdex(dir_, {"query", "--k", "5", out}, queries);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected);
}

}  // namespace
}  // namespace simdex::clitest
