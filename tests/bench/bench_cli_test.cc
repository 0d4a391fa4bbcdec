// build/bin/simdex-bench end to end on tiny grids: every searcher measured
// and checked against the scan, JSON Lines that parse, skips recorded with a
// reason, the text set capped at its corpus, --dir made or refused, the
// medians and spread of --repeat over alternating runs, bad options refused.
#include <gtest/gtest.h>
#include <simdjson.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "simdex/fingerprint_file.h"
#include "simdex/index.h"
#include "tests/index/test_data.h"

namespace simdex::bench {
namespace {

class BenchCliTest : public ::testing::Test {
 protected:
  // Runs simdex-bench with `args` (JSON to out.jsonl), returns its exit code.
  int Run(const std::string& args) { return RunIn(dir_.path(), args); }
  // The same with index files in `index_dir`.
  int RunIn(const std::string& index_dir, const std::string& args) {
    const std::string command = std::string(SIMDEX_BINARY_DIR) + "/bin/simdex-bench --dir " + index_dir +
                                " --json " + Json() + " " + args + " 2>" + dir_.File("stderr.txt");
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string Json() const { return dir_.File("out.jsonl"); }
  std::string Stderr() const { return testing::ReadFileOrDie(dir_.File("stderr.txt")); }

  // Every line of the JSON output, each checked to parse as an object with
  // a "type", as (type, the line).
  std::vector<std::pair<std::string, std::string>> Records() {
    std::vector<std::pair<std::string, std::string>> out;
    const std::string text = testing::ReadFileOrDie(Json());
    simdjson::ondemand::parser parser;
    size_t start = 0;
    for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
      const std::string line = text.substr(start, end - start);
      simdjson::padded_string padded(line);
      simdjson::ondemand::document doc = parser.iterate(padded);
      std::string_view type;
      EXPECT_EQ(doc["type"].get(type), simdjson::SUCCESS) << line;
      out.emplace_back(std::string(type), line);
    }
    EXPECT_EQ(start, text.size()) << "the output ends with a complete line";
    return out;
  }

  testing::ScopedTempDir dir_;
};

// A field of a record (simdjson's ondemand reads fields in any order only
// from a fresh document, so each lookup parses the line again).
std::string Text(const std::string& line, const char* key) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string padded(line);
  simdjson::ondemand::document doc = parser.iterate(padded);
  std::string_view value;
  EXPECT_EQ(doc[key].get(value), simdjson::SUCCESS) << key << " in " << line;
  return std::string(value);
}

uint64_t Number(const std::string& line, const char* key) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string padded(line);
  simdjson::ondemand::document doc = parser.iterate(padded);
  uint64_t value = 0;
  EXPECT_EQ(doc[key].get(value), simdjson::SUCCESS) << key << " in " << line;
  return value;
}

uint64_t Checked(const std::string& line, const char* kind) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string padded(line);
  simdjson::ondemand::document doc = parser.iterate(padded);
  uint64_t checked = 0;
  EXPECT_EQ(doc[kind]["checked"].get(checked), simdjson::SUCCESS) << line;
  return checked;
}

TEST_F(BenchCliTest, TinyGridMeasuresEverySearcherAgainstTheScan) {
  ASSERT_EQ(Run("--n 2000 --datasets uniform,clusters --scheme t4 --block-sizes 512 --threads 1,2 "
                "--cold --queries 150 --cold-queries 100"),
            0)
      << Stderr();
  const auto records = Records();
  ASSERT_GE(records.size(), 3u);
  EXPECT_EQ(records.front().first, "header");
  EXPECT_EQ(records.back().first, "footer");
  std::set<std::string> searchers;
  std::map<std::string, int> cache_api;
  for (const auto& [type, line] : records) {
    EXPECT_NE(type, "skip") << line;
    if (type != "point") continue;
    searchers.insert(Text(line, "searcher"));
    const std::string cache = Text(line, "cache");
    const std::string api = Text(line, "api");
    ++cache_api[cache + "/" + api];
    EXPECT_EQ(Checked(line, "near"), cache == "cold" ? 100u : 150u) << line;
    // Without --restarts the bench builds as the library does by default.
    if (Text(line, "searcher") == "simdex") {
      EXPECT_EQ(Number(line, "restarts"), static_cast<uint64_t>(BuildOptions().restarts)) << line;
    }
  }
  EXPECT_EQ(searchers, (std::set<std::string>{"scan", "permuted", "faiss-hash", "faiss-multihash", "simdex"}));
  // simdex: 2 data sets x 4 k x 2 thread counts (x 2 read-ahead settings cold).
  EXPECT_EQ(cache_api["warm/batch"], 16);
  EXPECT_EQ(cache_api["cold/batch"], 32);
}

TEST_F(BenchCliTest, BaselinesPastTheMemoryLimitAreSkippedWithAReason) {
  ASSERT_EQ(Run("--n 1000 --scheme t10 --k 3 --queries 50 --baselines permuted --memory-limit-gib 0.001"), 0)
      << Stderr();
  int skips = 0;
  for (const auto& [type, line] : Records()) {
    if (type != "skip") continue;
    ++skips;
    EXPECT_EQ(Text(line, "searcher"), "permuted");
    EXPECT_NE(Text(line, "reason").find("limit"), std::string::npos) << line;
  }
  EXPECT_EQ(skips, 1);
}

TEST_F(BenchCliTest, TextSetIsCappedAtTheCorpusAndMeasuredOnce) {
  const std::string fp = dir_.File("text.fp");
  std::unique_ptr<FingerprintFileWriter> writer;
  ASSERT_TRUE(FingerprintFileWriter::Open(fp, FingerprintFileForm::kText, &writer).ok());
  for (uint64_t i = 0; i < 300; ++i) ASSERT_TRUE(writer->Add(i, (i * 0x9e3779b97f4a7c15ull) >> (i % 3)).ok());
  ASSERT_TRUE(writer->Finish().ok());
  ASSERT_EQ(Run("--datasets text --text-fingerprints " + fp +
                " --n 100,1000,5000 --k 3 --queries 40 --baselines none"),
            0)
      << Stderr();
  std::map<uint64_t, std::set<uint64_t>> measured;  // n_requested -> n
  int skips = 0;
  for (const auto& [type, line] : Records()) {
    if (type == "point") measured[Number(line, "n_requested")].insert(Number(line, "n"));
    if (type == "skip") {
      ++skips;
      EXPECT_EQ(Number(line, "n_requested"), 5000u);
    }
  }
  EXPECT_EQ(measured, (std::map<uint64_t, std::set<uint64_t>>{{100, {100}}, {1000, {300}}}));
  EXPECT_EQ(skips, 1);
}

constexpr char kTinyGrid[] = "--n 500 --scheme t4 --block-sizes 512 --k 3 --queries 20 --baselines none";

TEST_F(BenchCliTest, MissingDirIsCreatedWithItsParents) {
  const std::string index_dir = dir_.File("a/b/c");
  ASSERT_EQ(RunIn(index_dir, kTinyGrid), 0) << Stderr();
  EXPECT_TRUE(std::filesystem::is_directory(index_dir));
  EXPECT_TRUE(std::filesystem::is_empty(index_dir)) << "index files and the probe are removed";
  int points = 0;
  for (const auto& [type, line] : Records()) points += type == "point";
  EXPECT_GT(points, 0);
}

// Refused in one line naming it, before anything is generated, measured or
// written: the JSON file is never created.
TEST_F(BenchCliTest, UnusableDirIsRefusedBeforeAnyWork) {
  const std::string file = dir_.File("a-file");
  testing::WriteFileOrDie(file, "x");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {file, file + ": not a directory"},
      {file + "/sub", file + "/sub: cannot be created"},
      {"/proc", "/proc: not writable"},  // creating a file fails there, even for root
  };
  for (const auto& [index_dir, message] : cases) {
    EXPECT_EQ(RunIn(index_dir, kTinyGrid), 2) << index_dir;
    const std::string err = Stderr();
    EXPECT_EQ(err.rfind("simdex-bench: --dir " + message, 0), 0u) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_FALSE(std::filesystem::exists(Json())) << index_dir;
  }
}

// A point's figure and its spread [min, max] over the runs.
struct Spread {
  double value = 0, min = 0, max = 0;
  uint64_t runs = 0;
};

Spread SpreadOf(const std::string& line, const char* kind, const char* key) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string padded(line);
  simdjson::ondemand::document doc = parser.iterate(padded);
  simdjson::ondemand::object object;
  Spread s;
  EXPECT_EQ(doc[kind].get(object), simdjson::SUCCESS) << line;
  EXPECT_EQ(object[key].get(s.value), simdjson::SUCCESS) << key << " in " << line;
  EXPECT_EQ(object["runs"].get(s.runs), simdjson::SUCCESS) << line;
  simdjson::ondemand::array range;
  if (object["spread"][key].get(range) != simdjson::SUCCESS) {
    ADD_FAILURE() << "no spread of " << key << " in " << line;
    return s;
  }
  std::vector<double> bounds;
  for (auto v : range) {
    double bound = 0;
    EXPECT_EQ(v.get(bound), simdjson::SUCCESS) << line;
    bounds.push_back(bound);
  }
  EXPECT_EQ(bounds.size(), 2u) << line;
  if (bounds.size() == 2) s.min = bounds[0], s.max = bounds[1];
  return s;
}

// Every record of every searcher (baselines, both codecs; warm, first-use
// and cold) holds the median of --repeat runs within their spread.
TEST_F(BenchCliTest, RepeatRecordsTheMedianAndSpreadOfEveryPoint) {
  ASSERT_EQ(Run("--n 1500 --scheme t4 --block-sizes 512,1K --codec card,ef --k 0,3 --threads 1,2 --cold --checksums "
                "--queries 40 --cold-queries 20 --repeat 3"),
            0)
      << Stderr();
  std::set<std::string> searchers, caches;
  for (const auto& [type, line] : Records()) {
    if (type == "header") {
      EXPECT_NE(line.find("\"repeat\": 3"), std::string::npos) << line;
    }
    if (type != "point") continue;
    searchers.insert(Text(line, "searcher"));
    const std::string cache = Text(line, "cache");
    caches.insert(cache);
    const bool single = Text(line, "api") == "single";
    std::vector<const char*> kinds = {"near"};
    if (cache == "warm" && single) kinds.push_back("random");
    for (const char* kind : kinds) {
      for (const char* key : {"qps", "p50_us", "p99_us"}) {
        if (!single && key != std::string("qps")) continue;
        const Spread s = SpreadOf(line, kind, key);
        EXPECT_EQ(s.runs, 3u) << line;
        EXPECT_LE(s.min, s.value) << kind << " " << key << " " << line;
        EXPECT_LE(s.value, s.max) << kind << " " << key << " " << line;
      }
    }
  }
  EXPECT_EQ(searchers, (std::set<std::string>{"scan", "permuted", "faiss-hash", "faiss-multihash", "simdex",
                                              "simdex-ef"}));
  EXPECT_EQ(caches, (std::set<std::string>{"warm", "first-use", "cold"}));
  // simdex's indexes of the scheme are measured round by round.
  const std::string err = Stderr();
  EXPECT_LT(err.find("simdex-ef t4 block 1024: warm queries, round 2 of 3"),
            err.find("simdex t4 block 512: warm queries, round 3 of 3"))
      << err;
}

// With --repeat, schemes are compared as block sizes and codecs are: every
// index of every scheme is built before the first round, and each round
// measures the scan and then every index in turn.
TEST_F(BenchCliTest, RepeatAlternatesTheIndexesOfEverySchemeRoundByRound) {
  ASSERT_EQ(Run("--n 500 --scheme t4 --scheme t10 --block-sizes 512 --codec card,ef --k 3 --queries 20 "
                "--baselines permuted --repeat 2"),
            0)
      << Stderr();
  std::set<std::string> measured;
  for (const auto& [type, line] : Records()) {
    if (type != "point") continue;
    EXPECT_EQ(SpreadOf(line, "near", "qps").runs, 2u) << line;
    if (Text(line, "searcher") != "scan") measured.insert(Text(line, "searcher") + " " + Text(line, "scheme"));
  }
  EXPECT_EQ(measured, (std::set<std::string>{"permuted t4", "permuted t10", "simdex t4", "simdex t10",
                                             "simdex-ef t4", "simdex-ef t10"}));
  const std::string err = Stderr();
  const size_t last_build = err.find("n=500 simdex-ef t10 block 512: building");
  const size_t first_round_two = err.find("n=500 simdex t4 block 512: warm queries, round 2 of 2");
  ASSERT_NE(last_build, std::string::npos) << err;
  ASSERT_NE(first_round_two, std::string::npos) << err;
  EXPECT_LT(last_build, first_round_two) << err;
  EXPECT_LT(err.find("n=500 permuted t10"), err.find("n=500 simdex t4 block 512: building")) << err;
  EXPECT_LT(first_round_two, err.find("n=500 simdex-ef t10 block 512: warm queries, round 2 of 2")) << err;
  // The scan's recorded runs, the denominator of every speed-up, alternate with them.
  const size_t scan_round_one = err.find("n=500 scan: warm queries, round 1 of 2");
  const size_t scan_round_two = err.find("n=500 scan: warm queries, round 2 of 2");
  ASSERT_NE(scan_round_one, std::string::npos) << err;
  ASSERT_NE(scan_round_two, std::string::npos) << err;
  EXPECT_LT(err.find("n=500 simdex-ef t10 block 512: warm queries"), scan_round_one) << err;
  EXPECT_LT(scan_round_one, scan_round_two) << err;
  EXPECT_LT(scan_round_two, first_round_two) << err;
}

TEST_F(BenchCliTest, WithoutRepeatEachPointIsOneRun) {
  ASSERT_EQ(Run(kTinyGrid), 0) << Stderr();
  for (const auto& [type, line] : Records()) {
    if (type != "point" || Text(line, "api") != "single") continue;
    const Spread s = SpreadOf(line, "near", "p50_us");
    EXPECT_EQ(s.runs, 1u);
    EXPECT_EQ(s.min, s.value);
    EXPECT_EQ(s.max, s.value);
  }
}

TEST_F(BenchCliTest, BadOptionsExitWithStatus2) {
  EXPECT_EQ(Run("--n 1000 --scheme 17,17:1"), 2);
  EXPECT_NE(Stderr().find("17,17:1"), std::string::npos) << Stderr();
  EXPECT_EQ(Run("--n 1000 --datasets text"), 2);
  EXPECT_NE(Stderr().find("--text-fingerprints"), std::string::npos) << Stderr();
  EXPECT_EQ(Run("--n ten"), 2);
  EXPECT_EQ(Run("--n 1000 --baselines faiss-flat"), 2);
  EXPECT_EQ(Run("--n 1000 --block-sizes 2X"), 2);
  EXPECT_EQ(Run("--n 1000 --repeat 0"), 2);
  EXPECT_NE(Stderr().find("--repeat"), std::string::npos) << Stderr();
}

// scripts/bench_report.py over two tiny runs that differ only in --restarts:
// it rewrites the generated section of a document (and keeps the rest),
// with the side-by-side tables, the block size x R section naming a
// setting, the price of checksum verification, the extrapolation to 10^9
// from the two N measured, and every plot it links.
TEST_F(BenchCliTest, ReportRewritesTheGeneratedSectionWithEveryTableAndPlot) {
  const std::string grid = "--n 2000,3000 --datasets uniform --scheme t4 --block-sizes 512,1K,4K --k 0,3 --queries 60 ";
  ASSERT_EQ(Run(grid + "--restarts 0"), 0) << Stderr();
  const std::string r0 = dir_.File("r0.jsonl");
  ASSERT_EQ(std::rename(Json().c_str(), r0.c_str()), 0);
  ASSERT_EQ(Run(grid + "--restarts 3 --checksums"), 0) << Stderr();
  const std::string doc = dir_.File("benchmarks.md");
  testing::WriteFileOrDie(doc, "# kept above\n<!-- BEGIN GENERATED: simdex-bench -->\nold\n"
                               "<!-- END GENERATED: simdex-bench -->\nkept below\n");
  const std::string command = "/usr/bin/python3 " + std::string(SIMDEX_SOURCE_DIR) + "/scripts/bench_report.py --doc " +
                              doc + " --plots " + dir_.File("plots") + " --restart-study " + r0 +
                              " --restart-study " + Json() + " " + Json() + " 2>" + dir_.File("report.txt");
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << testing::ReadFileOrDie(dir_.File("report.txt"));
  const std::string text = testing::ReadFileOrDie(doc);
  EXPECT_EQ(text.rfind("# kept above\n", 0), 0u) << text;
  EXPECT_NE(text.find("kept below"), std::string::npos);
  EXPECT_EQ(text.find("\nold\n"), std::string::npos);
  for (const char* heading : {"### Targets (issue 4), as measured here", "#### uniform, N = 3,000",
                              "### Median latency (us) by k", "### Block size and restart points",
                              "### N = 10^9, extrapolated (not measured by this grid)",
                              "### First queries of a freshly opened reader"}) {
    EXPECT_NE(text.find(heading), std::string::npos) << heading << "\n" << text;
  }
  // Both restart counts appear for both block sizes, and a setting is named.
  for (const char* row : {"| 512 B | 0 |", "| 512 B | 3 |", "| 1 KiB | 0 |", "| 1 KiB | 3 |"}) {
    EXPECT_NE(text.find(row), std::string::npos) << row << "\n" << text;
  }
  EXPECT_NE(text.find("- uniform, N = 3,000, t4: "), std::string::npos) << text;
  // Every image the section links exists.
  size_t images = 0;
  for (size_t at = 0; (at = text.find("](", at)) != std::string::npos; ++at) {
    const size_t end = text.find(')', at);
    const std::string link = text.substr(at + 2, end - at - 2);
    if (link.size() < 4 || link.substr(link.size() - 4) != ".png") continue;
    ++images;
    EXPECT_TRUE(std::ifstream(dir_.File("plots/" + link.substr(link.rfind('/') + 1))).good()) << link;
  }
  EXPECT_GE(images, 3u);
}

}  // namespace
}  // namespace simdex::bench
