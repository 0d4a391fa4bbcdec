// `simdex query` end to end: every JSON line against a brute-force scan.
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/fingerprint.h"
#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

// Stored fingerprints with 0 to 4 bits flipped, and random values.
std::vector<uint64_t> NearQueries(const std::vector<Entry>& entries, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> queries;
  for (size_t i = 0; i < n; ++i) {
    if (i % 7 == 6) {
      queries.push_back(rng());
      continue;
    }
    uint64_t q = entries[rng() % entries.size()].fingerprint;
    for (int flips = static_cast<int>(i % 5); flips > 0; --flips) q ^= uint64_t{1} << (rng() % 64);
    queries.push_back(q);
  }
  return queries;
}

std::string Expected(const std::vector<Entry>& entries, const std::vector<uint64_t>& queries, int k) {
  std::string out;
  for (uint64_t q : queries) out += ExpectedQueryLine(entries, q, k);
  return out;
}

// The queries as stdin: one hex fingerprint a line.
std::string InputLines(const std::vector<uint64_t>& queries) {
  std::string input;
  for (uint64_t q : queries) input += FormatHexFingerprint(q) + "\n";
  return input;
}

using QueryCli = CliTest;

TEST_F(QueryCli, ArgumentsGiveOneLinePerQueryMatchingBruteForce) {
  const std::vector<uint64_t> queries = NearQueries(entries_, 40, 1);
  std::vector<std::string> args = {"query", index_};
  for (uint64_t q : queries) args.push_back(FormatHexFingerprint(q));
  const RunResult r = RunSimdex(dir_, args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, Expected(entries_, queries, 3));
  EXPECT_EQ(r.err, "");
}

TEST_F(QueryCli, ShortAndUpperCaseHexAreAccepted) {
  const RunResult r = RunSimdex(dir_, {"query", index_, "0", "ABCDEF"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, Expected(entries_, {0, 0xabcdef}, 3));
}

TEST_F(QueryCli, StdinAcrossSeveralBatchesKeepsInputOrder) {
  // More than one 4096-query batch, with blank lines, spaces and CRLF.
  const std::vector<uint64_t> queries = NearQueries(entries_, 5000, 2);
  std::string input;
  for (size_t i = 0; i < queries.size(); ++i) {
    input += FormatHexFingerprint(queries[i]) + (i % 3 == 0 ? "\r\n" : "\n");
    if (i % 1000 == 0) input += "\n  \n";
  }
  const RunResult r = RunSimdex(dir_, {"query", "--threads", "2", index_}, input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, Expected(entries_, queries, 3));
}

TEST_F(QueryCli, SmallerKFindsOnlyCloserEntries) {
  const std::vector<uint64_t> queries = NearQueries(entries_, 200, 3);
  const std::string input = InputLines(queries);
  for (int k = 0; k <= 2; ++k) {
    const RunResult r = RunSimdex(dir_, {"query", "--k", std::to_string(k), index_}, input);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, Expected(entries_, queries, k)) << "k = " << k;
  }
}

TEST_F(QueryCli, VerifyChecksumsGivesTheSameAnswers) {
  const std::vector<uint64_t> queries = NearQueries(entries_, 100, 4);
  const std::string input = InputLines(queries);
  const RunResult r = RunSimdex(dir_, {"query", "--verify-checksums", index_}, input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, Expected(entries_, queries, 3));
}

TEST_F(QueryCli, EveryAccessAndColdReadsChoiceGivesTheSameAnswers) {
  const std::vector<uint64_t> queries = NearQueries(entries_, 100, 5);
  const std::string input = InputLines(queries);
  for (const char* access : {"auto", "read-around", "random"}) {
    for (const char* cold_reads : {"when-missing", "always", "never"}) {
      const RunResult r = RunSimdex(dir_, {"query", "--access", access, "--cold-reads", cold_reads, index_}, input);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.out, Expected(entries_, queries, 3)) << access << " " << cold_reads;
    }
  }
}

TEST_F(QueryCli, UnknownAccessOrColdReadsIsUsageErrorNamingTheChoices) {
  const std::pair<const char*, const char*> cases[] = {
      {"--access", "simdex query: --access: access 'sideways' is not one of auto, read-around, random"},
      {"--cold-reads", "simdex query: --cold-reads: cold_reads 'sideways' is not one of when-missing, always, never"}};
  for (const auto& [option, message] : cases) {
    const RunResult r = RunSimdex(dir_, {"query", option, "sideways", index_, "0"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.err.rfind(message, 0), 0u) << r.err;
  }
}

TEST_F(QueryCli, KAboveTheSchemesKIsUsageError) {
  const RunResult r = RunSimdex(dir_, {"query", "--k", "4", index_, "0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("simdex query: --k 4 ", 0), 0u) << r.err;
}

TEST_F(QueryCli, BadArgumentIsUsageError) {
  const RunResult r = RunSimdex(dir_, {"query", index_, "12345678901234567"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'12345678901234567' is not a fingerprint"), std::string::npos) << r.err;
}

TEST_F(QueryCli, BadStdinLineIsErrorNamingTheLine) {
  const RunResult r = RunSimdex(dir_, {"query", index_}, "0123\n\nnot-hex\n42\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("simdex query: <stdin>:3: 'not-hex' is not a fingerprint", 0), 0u) << r.err;
}

TEST_F(QueryCli, TruncatedIndexFailsWithOneCleanLine) {
  const std::string bytes = ReadFile(index_);
  for (size_t size : {size_t{0}, size_t{100}, bytes.size() / 2, bytes.size() - 1}) {
    const std::string truncated = dir_.File("truncated.sdx");
    WriteFile(truncated, bytes.substr(0, size));
    const RunResult r = RunSimdex(dir_, {"query", truncated, "0"});
    EXPECT_EQ(r.exit_code, 1) << "size " << size;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("simdex query: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(truncated), std::string::npos) << r.err;
  }
}

TEST_F(QueryCli, MissingIndexFails) {
  const RunResult r = RunSimdex(dir_, {"query", dir_.File("absent.sdx"), "0"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("simdex query: ", 0), 0u) << r.err;
}

}  // namespace
}  // namespace simdex::clitest
