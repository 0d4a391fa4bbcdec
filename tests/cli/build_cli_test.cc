// `simdex build` end to end: inputs of both forms, bad lines, schemes,
// codecs, determinism and the external sort.
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/fingerprint.h"
#include "simdex/fingerprint_file.h"
#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

using BuildCli = CliTest;

std::vector<std::string> BuildArgs(const std::string& out, std::vector<std::string> inputs,
                                   std::vector<std::string> options = {}) {
  std::vector<std::string> args = {"build", "--block-size", std::to_string(CliTest::kBlockSize),
                                   "--out", out};
  args.insert(args.end(), options.begin(), options.end());
  args.insert(args.end(), inputs.begin(), inputs.end());
  return args;
}

// The number before `label` in a build summary line ("..., 3 spilled runs").
uint64_t SummaryCount(const std::string& summary, const std::string& label) {
  const size_t at = summary.find(" " + label);
  if (at == std::string::npos) return ~uint64_t{0};
  const size_t start = summary.rfind(' ', at - 1) + 1;
  return std::stoull(summary.substr(start, at - start));
}

TEST_F(BuildCli, SameInputTwiceGivesByteIdenticalFiles) {
  const std::string again = dir_.File("again.sdx");
  const RunResult r = RunSimdex(dir_, BuildArgs(again, {input_}, {"--quiet"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(ReadFile(again), ReadFile(index_));
}

TEST_F(BuildCli, SummaryLineCountsEntries) {
  const std::string out = dir_.File("summary.sdx");
  const RunResult r = RunSimdex(dir_, BuildArgs(out, {input_}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(Lines(r.out).size(), 1u) << r.out;
  EXPECT_EQ(r.out.rfind(out + ": ", 0), 0u) << r.out;
  EXPECT_EQ(SummaryCount(r.out, "entries"), entries_.size()) << r.out;
  EXPECT_EQ(SummaryCount(r.out, "bytes"), ReadFile(out).size()) << r.out;
  EXPECT_NE(r.out.find(" bits/entry"), std::string::npos) << r.out;
  EXPECT_EQ(SummaryCount(r.out, "spilled runs"), 0u) << r.out;
}

TEST_F(BuildCli, TinyMemoryForcesExternalSortWithIdenticalBytes) {
  // 10000 entries need 160 KB to sort: several runs under the sorter's
  // smallest budget, 64 KB.
  std::mt19937_64 rng(7);
  std::vector<Entry> many;
  for (uint64_t i = 0; i < 10000; ++i) many.push_back({i * 3 + 1, rng()});
  ScratchDir dir;
  const std::string input = dir.File("many.txt");
  WriteFile(input, TextFingerprints(many));
  RunResult r = RunSimdex(dir, BuildArgs(dir.File("default.sdx"), {input}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(SummaryCount(r.out, "spilled runs"), 0u) << r.out;
  ScratchDir tmp;
  r = RunSimdex(dir, BuildArgs(dir.File("spilled.sdx"), {input},
                               {"--memory", "64K", "--tmpdir", tmp.path()}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(SummaryCount(r.out, "spilled runs"), 1u) << r.out;
  EXPECT_EQ(ReadFile(dir.File("spilled.sdx")), ReadFile(dir.File("default.sdx")));
  EXPECT_EQ(dir.List(), (std::vector<std::string>{"default.sdx", "many.txt", "spilled.sdx"}));
  EXPECT_TRUE(tmp.List().empty());
}

// String ids past the budget are spilled as sorted runs of ids and merged
// back: the summary counts them, the file is the in-memory build's.
TEST_F(BuildCli, TinyMemorySpillsStringIdsWithIdenticalBytes) {
  std::mt19937_64 rng(8);
  std::string text;
  for (uint64_t i = 0; i < 6000; ++i) {
    char fp[17];
    std::snprintf(fp, sizeof fp, "%016llx", static_cast<unsigned long long>(rng()));
    text += "https://example.org/page/" + std::to_string(rng() % 5000) + "\t" + fp + "\n";
  }
  ScratchDir dir;
  const std::string input = dir.File("urls.txt");
  WriteFile(input, text);
  RunResult r = RunSimdex(dir, BuildArgs(dir.File("default.sdx"), {input}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("of string ids"), std::string::npos) << r.out;
  ScratchDir tmp;
  r = RunSimdex(dir, BuildArgs(dir.File("spilled.sdx"), {input}, {"--memory", "64K", "--tmpdir", tmp.path()}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(SummaryCount(r.out, "runs of string ids"), 4u) << r.out;
  EXPECT_EQ(ReadFile(dir.File("spilled.sdx")), ReadFile(dir.File("default.sdx")));
  EXPECT_TRUE(tmp.List().empty());
}

TEST_F(BuildCli, MissingTmpdirIsErrorAndLeavesNoIndex) {
  const std::string out = dir_.File("never.sdx");
  const RunResult r = RunSimdex(dir_, BuildArgs(out, {input_}, {"--tmpdir", dir_.File("absent")}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(dir_.File("absent")), std::string::npos) << r.err;
  EXPECT_FALSE(FileExists(out));
}

TEST_F(BuildCli, TextBinaryAndStdinInputsInAnyOrderGiveTheSameIndex) {
  const size_t third = entries_.size() / 3;
  std::unique_ptr<FingerprintFileWriter> writer;
  const std::string binary = dir_.File("part.bin");
  ASSERT_TRUE(FingerprintFileWriter::Open(binary, FingerprintFileForm::kBinary, &writer).ok());
  for (size_t i = third; i < 2 * third; ++i) {
    ASSERT_TRUE(writer->Add(entries_[i].id, entries_[i].fingerprint).ok());
  }
  ASSERT_TRUE(writer->Finish().ok());
  const std::vector<Entry> first(entries_.begin(), entries_.begin() + third);
  const std::vector<Entry> last(entries_.begin() + 2 * third, entries_.end());
  const std::string text = dir_.File("part.txt");
  WriteFile(text, TextFingerprints(last) + "77\t-\tno-text\n");

  const std::string out = dir_.File("mixed.sdx");
  const RunResult r =
      RunSimdex(dir_, BuildArgs(out, {text, "-", binary}, {"--threads", "2"}), TextFingerprints(first));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(SummaryCount(r.out, "empty document"), 1u) << r.out;
  EXPECT_EQ(ReadFile(out), ReadFile(index_));
}

TEST_F(BuildCli, BadLineIsErrorNamingFileAndLineAndLeavesNoIndex) {
  ScratchDir dir;
  const std::string bad = dir.File("bad.txt");
  WriteFile(bad, "1\t00000000000000ff\n2\t00000000000000fe\n3\tnot-a-fingerprint\n4\t0000000000000001\n");
  const RunResult r = RunSimdex(dir, BuildArgs(dir.File("out.sdx"), {bad}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("simdex build: " + bad + ":3: ", 0), 0u) << r.err;
  EXPECT_EQ(dir.List(), std::vector<std::string>{"bad.txt"});
}

TEST_F(BuildCli, SkipBadSkipsAndCountsBadLines) {
  ScratchDir dir;
  const std::string bad = dir.File("bad.txt");
  WriteFile(bad, "1\t00000000000000ff\nxyz\n3\t00000000000000fe\n4\t12g\n");
  const std::string out = dir.File("out.sdx");
  const RunResult r = RunSimdex(dir, BuildArgs(out, {bad}, {"--skip-bad"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(SummaryCount(r.out, "entries"), 2u) << r.out;
  EXPECT_EQ(SummaryCount(r.out, "bad lines skipped"), 2u) << r.out;
  EXPECT_NE(r.err.find(bad + ":2"), std::string::npos) << r.err;
  EXPECT_EQ(RunSimdex(dir, {"query", out, "ff"}).out,
            "{\"query\":\"00000000000000ff\",\"matches\":["
            "{\"id\":1,\"fingerprint\":\"00000000000000ff\",\"distance\":0},"
            "{\"id\":3,\"fingerprint\":\"00000000000000fe\",\"distance\":1}]}\n");
}

TEST_F(BuildCli, MissingInputIsErrorAndLeavesNoIndex) {
  ScratchDir dir;
  const RunResult r = RunSimdex(dir, BuildArgs(dir.File("out.sdx"), {dir.File("absent.txt")}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_TRUE(dir.List().empty());
}

TEST_F(BuildCli, CustomBlocksBuildASearchableIndex) {
  const std::string out = dir_.File("custom.sdx");
  RunResult r = RunSimdex(dir_, BuildArgs(out, {input_}, {"--blocks", "32,32", "--k", "1"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunSimdex(dir_, {"inspect", out});
  EXPECT_NE(r.out.find("\"scheme\": \"32,32:1\""), std::string::npos) << r.out;
  std::string input, expected;
  for (size_t i = 0; i < entries_.size(); i += 5) {
    const uint64_t q = entries_[i].fingerprint ^ (uint64_t{1} << (i % 64));
    input += FormatHexFingerprint(q) + "\n";
    expected += ExpectedQueryLine(entries_, q, 1);
  }
  r = RunSimdex(dir_, {"query", out}, input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected);
  EXPECT_EQ(RunSimdex(dir_, {"query", "--k", "2", out, "0"}).exit_code, 2);
}

TEST_F(BuildCli, PresetSchemeByName) {
  const std::string out = dir_.File("t4.sdx");
  ASSERT_EQ(RunSimdex(dir_, BuildArgs(out, {input_}, {"--scheme", "t4"})).exit_code, 0);
  EXPECT_EQ(RunSimdex(dir_, {"verify", out}).out,
            "ok: " + std::to_string(entries_.size()) + " entries, 4 tables\n");
}

// Each codec gives an index that answers as the card codec's does, that
// inspect names per table and verify accepts.
TEST_F(BuildCli, EveryCodecBuildsAnIndexThatAnswersTheSame) {
  std::string input, expected;
  for (size_t i = 0; i < entries_.size(); i += 7) {
    const uint64_t q = entries_[i].fingerprint ^ (uint64_t{3} << (i % 63));
    input += FormatHexFingerprint(q) + "\n";
    expected += ExpectedQueryLine(entries_, q, 3);
  }
  std::map<std::string, size_t> bytes;
  for (const std::string codec : {"card", "ef", "auto"}) {
    SCOPED_TRACE(codec);
    const std::string out = dir_.File(codec + ".sdx");
    RunResult r = RunSimdex(dir_, BuildArgs(out, {input_}, {"--quiet", "--codec", codec}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    bytes[codec] = ReadFile(out).size();
    if (codec == "auto") {
      EXPECT_EQ(ReadFile(out), ReadFile(index_));  // the default
      // Per table the codec of fewer blocks: never more bytes than either.
      EXPECT_LE(bytes[codec], bytes["card"]);
      EXPECT_LE(bytes[codec], bytes["ef"]);
    }
    r = RunSimdex(dir_, {"inspect", out});
    const std::string named = "\"codec\": \"" + std::string(codec == "auto" ? "" : codec);
    EXPECT_NE(r.out.find(named), std::string::npos) << r.out;
    EXPECT_EQ(RunSimdex(dir_, {"verify", out}).out, "ok: " + std::to_string(entries_.size()) + " entries, 10 tables\n");
    r = RunSimdex(dir_, {"query", out}, input);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, expected);
  }
}

TEST_F(BuildCli, UsageErrorsExitTwo) {
  const std::string out = dir_.File("never.sdx");
  for (const std::vector<std::string>& options : std::vector<std::vector<std::string>>{
           {"--blocks", "32,32"},                       // no --k
           {"--k", "2"},                                // no --blocks
           {"--scheme", "t4", "--blocks", "32,32", "--k", "1"},
           {"--scheme", "t7"},
           {"--blocks", "32,31", "--k", "1"},           // widths do not sum to 64
           {"--memory", "12Q"},
           {"--block-size", "100"},
           {"--restarts", "16"},                        // at most 15
           {"--codec", "zip"},                          // card, ef or auto
       }) {
    const RunResult r = RunSimdex(dir_, BuildArgs(out, {input_}, options));
    EXPECT_EQ(r.exit_code, 2) << options[0] << " " << options[1] << ": " << r.err;
    EXPECT_FALSE(FileExists(out));
  }
  EXPECT_EQ(RunSimdex(dir_, BuildArgs(out, {"-", "-"})).exit_code, 2);
}

}  // namespace
}  // namespace simdex::clitest
