// The command line reads its method defaults from the library's options
// types (issue 38, item 4): `--help` shows, and an empty command line runs
// with, the defaults of MinHashDedupOptions, SimHashDedupOptions (and its
// FingerprintOptions), LshBuildOptions, ServiceOptions and ReaderOptions,
// written once in include/simdex/.
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/batch.h"
#include "simdex/fingerprint.h"
#include "simdex/index_file.h"
#include "simdex/lsh_index.h"
#include "simdex/service.h"
#include "tests/cli/cli_harness.h"

namespace simdex {
namespace {

using namespace clitest;

// The default `help` shows for `option` ("--threshold"): the text after the
// last '=' of its "TYPE=VALUE" column; "" when it shows none.
std::string HelpDefault(const std::string& help, const std::string& option) {
  for (const std::string& line : Lines(help)) {
    const size_t at = line.find(option + " ");
    if (at == std::string::npos || line.find_first_not_of(" ,-k") < at) continue;  // "  --x" or "  -k,--k"
    const size_t end = line.find("  ", at);  // the description starts after two spaces
    const std::string column = line.substr(at, end == std::string::npos ? std::string::npos : end - at);
    const size_t eq = column.rfind('=');
    return eq == std::string::npos ? "" : column.substr(eq + 1);
  }
  ADD_FAILURE() << option << " is not in the help";
  return "";
}

std::string Help(const std::string& command) {
  ScratchDir scratch;
  const RunResult r = RunSimdex(scratch, {command, "--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

std::string J(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

TEST(DefaultsCli, DedupHelpShowsTheLibrarysDefaults) {
  const std::string help = Help("dedup");
  const MinHashDedupOptions m;
  const SimHashDedupOptions s;
  EXPECT_EQ(HelpDefault(help, "--threshold"), J(m.threshold));
  EXPECT_EQ(HelpDefault(help, "--num-perm"), std::to_string(m.num_perm));
  EXPECT_EQ(HelpDefault(help, "--signature-bits"), std::to_string(m.signature_bits));
  EXPECT_EQ(HelpDefault(help, "--keep"), KeepRuleSpec(m.keep));
  EXPECT_EQ(KeepRuleSpec(s.keep), KeepRuleSpec(m.keep));  // one --keep for both methods
  EXPECT_EQ(HelpDefault(help, "--short-length"), std::to_string(s.short_length));
  EXPECT_EQ(HelpDefault(help, "--ngram"), std::to_string(s.features.ngram));
  EXPECT_EQ(HelpDefault(help, "--seed"), std::to_string(s.features.seed));  // SimHash's; MinHash's when not given
}

TEST(DefaultsCli, QueryHelpShowsTheReadersDefaults) {
  const std::string help = Help("query");
  const ReaderOptions o;
  EXPECT_EQ(HelpDefault(help, "--access"), AccessName(o.access));
  EXPECT_EQ(HelpDefault(help, "--cold-reads"), ColdReadsName(o.cold_reads));
}

TEST(DefaultsCli, BuildAndServeHelpShowTheLibrarysDefaults) {
  const std::string build = Help("build");
  const LshBuildOptions b;
  EXPECT_EQ(HelpDefault(build, "--threshold"), J(b.threshold));
  EXPECT_EQ(HelpDefault(build, "--num-perm"), std::to_string(b.minhash.num_perm));
  EXPECT_EQ(HelpDefault(build, "--seed"), std::to_string(b.minhash.seed));
  EXPECT_EQ(HelpDefault(build, "--signature-bits"), std::to_string(b.signature_bits));
  const std::string serve = Help("serve");
  const ServiceOptions o;
  EXPECT_EQ(HelpDefault(serve, "--threshold"), J(o.threshold));
  EXPECT_EQ(HelpDefault(serve, "--num-perm"), std::to_string(o.minhash.num_perm));
  EXPECT_EQ(HelpDefault(serve, "--signature-bits"), std::to_string(o.signature_bits));
  EXPECT_EQ(HelpDefault(serve, "--k"), std::to_string(o.k));
  EXPECT_EQ(HelpDefault(serve, "--short-length"), std::to_string(o.short_length));
  EXPECT_EQ(HelpDefault(serve, "--keep"), KeepRuleSpec(KeepRule::kFirst));
  EXPECT_TRUE(o.keep_field.empty());
}

// An empty command line's run: the summary names the values it ran with,
// the library's (the exact mode's bands and filter at its threshold).
TEST(DefaultsCli, AnEmptyDedupCommandLineRunsWithTheLibrarysDefaults) {
  ScratchDir scratch;
  WriteFile(scratch.File("docs.txt"), "one two three four five six seven\none two three four five six eight\n");
  const RunResult r =
      RunSimdex(scratch, {"dedup", "--method", "minhash", "-o", scratch.File("out.jsonl"), scratch.File("docs.txt")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const MinHashDedupOptions m;
  ASSERT_TRUE(m.exact);
  const LshBands bands = ExactCandidateBands(m.threshold, m.num_perm);
  const std::string ran = "minhash " + std::to_string(m.num_perm) + " values, " + std::to_string(bands.bands) +
                          " bands x " + std::to_string(bands.rows) + " rows, threshold " + J(m.threshold) +
                          ", estimate filter " + J(ExactEstimateFilter(m.threshold, m.num_perm)) + " (" +
                          std::to_string(m.signature_bits) + "-bit signatures)";
  EXPECT_NE(r.err.find(ran), std::string::npos) << "expected '" << ran << "' in: " << r.err;
}

}  // namespace
}  // namespace simdex
