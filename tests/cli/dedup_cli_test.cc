// `simdex dedup` end to end: every output line, pair and kept id against the
// brute-force oracle (tests/dedup/dedup_oracle.h), in memory and spilled,
// against an index by both strategies, on documents with empty texts and
// --keep longest, and bad input.
#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/fingerprint.h"
#include "tests/cli/cli_harness.h"
#include "tests/dedup/dedup_oracle.h"

namespace simdex::clitest {
namespace {

using testing::Doc;
using testing::Oracle;

// The lines `simdex dedup` must print for a batch of numbered documents.
std::string ExpectedResults(const std::vector<uint64_t>& ids, const Oracle& o, const std::vector<std::string>& against,
                            const std::vector<std::vector<uint64_t>>& index_ids = {}) {
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i) {
    const DedupResult& r = o.results[i];
    out += "{\"id\":" + std::to_string(ids[i]) + ",\"cluster\":" + std::to_string(ids[r.representative]) +
           ",\"duplicate\":" + (r.duplicate ? "true" : "false") + ",\"distance\":" + std::to_string(r.distance);
    if (r.against_index >= 0) {
      out += ",\"against\":{\"index\":\"" + against[r.against_index] + "\",\"id\":" + std::to_string(r.against_id) +
             ",\"distance\":" + std::to_string(r.against_distance) + "}";
    }
    if (r.empty) out += ",\"empty\":\"no-text\"";
    out += "}\n";
  }
  return out;
}

std::string ExpectedPairs(const std::vector<uint64_t>& ids, const Oracle& o) {
  std::string out;
  for (const testing::OraclePair& p : o.pairs) {
    out += "{\"a\":" + std::to_string(ids[p.a]) + ",\"b\":" + std::to_string(ids[p.b]) +
           ",\"distance\":" + std::to_string(p.distance) + "}\n";
  }
  return out;
}

std::string ExpectedKeepList(const std::vector<uint64_t>& ids, const Oracle& o) {
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!o.results[i].duplicate) out += std::to_string(ids[i]) + "\n";
  }
  return out;
}

class DedupCli : public CliTest {
 protected:
  // The batch: the test entries' fingerprints near-copied and mixed with
  // copies of themselves, under new ids.
  void SetUp() override {
    CliTest::SetUp();
    std::mt19937_64 rng(9);
    uint64_t id = 1;
    for (size_t i = 0; i < entries_.size(); i += 2) {
      uint64_t fp = entries_[i].fingerprint;
      for (int flips = static_cast<int>(rng() % 5); flips > 0; --flips) fp ^= uint64_t{1} << (rng() % 64);
      batch_.push_back({id += 1 + rng() % 3, fp});
      if (i % 10 == 0) batch_.push_back({id += 1, fp});
    }
    WriteFile(batch_file_, TextFingerprints(batch_));
    for (const Entry& e : batch_) {
      ids_.push_back(e.id);
      docs_.push_back(Doc{false, e.fingerprint, 0});
    }
    for (const Entry& e : entries_) stored_.push_back({e.id, e.fingerprint});
  }

  std::vector<Entry> batch_;
  std::string batch_file_ = dir_.File("batch.fp");
  std::vector<uint64_t> ids_;
  std::vector<Doc> docs_;
  std::vector<testing::Entry> stored_;
};

TEST_F(DedupCli, FingerprintFileResultsPairsAndKeepListEqualTheOracle) {
  for (const char* scheme : {"t10", "t4", "t20"}) {
    for (int k : {0, 2, 3}) {
      const RunResult r = RunSimdex(dir_, {"dedup", "--method", "simhash", "--quiet", "--scheme", scheme, "--k", std::to_string(k), "--pairs",
                                           dir_.File("pairs.jsonl"), "--keep-list", dir_.File("keep.txt"),
                                           batch_file_});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const Oracle o = testing::ExpectedDedup(docs_, k, {});
      EXPECT_EQ(r.out, ExpectedResults(ids_, o, {})) << scheme << " k=" << k;
      EXPECT_EQ(ReadFile(dir_.File("pairs.jsonl")), ExpectedPairs(ids_, o)) << scheme << " k=" << k;
      EXPECT_EQ(ReadFile(dir_.File("keep.txt")), ExpectedKeepList(ids_, o)) << scheme << " k=" << k;
      EXPECT_TRUE(r.err.empty()) << r.err;
    }
  }
}

// 12,000 documents (planted clusters with exact copies) under --memory 64K:
// the sorts spill (the summary counts the runs) and the results, pairs and
// keep list are still the oracle's, on one and two threads.
TEST_F(DedupCli, SpilledAndThreadedRunsEqualTheOracle) {
  std::mt19937_64 rng(12);
  std::vector<Entry> big;
  std::vector<uint64_t> ids;
  std::vector<Doc> docs;
  while (big.size() < 12000) {
    const uint64_t centre = rng();
    for (int m = static_cast<int>(rng() % 6); m >= 0; --m) {
      uint64_t fp = centre;
      for (int flips = static_cast<int>(rng() % 3); flips > 0; --flips) fp ^= uint64_t{1} << (rng() % 64);
      big.push_back({big.size() + 1, fp});
    }
  }
  for (const Entry& e : big) {
    ids.push_back(e.id);
    docs.push_back(Doc{false, e.fingerprint, 0});
  }
  WriteFile(dir_.File("big.fp"), TextFingerprints(big));
  const Oracle o = testing::ExpectedDedup(docs, 3, {});
  for (const char* threads : {"1", "2"}) {
    const RunResult r = RunSimdex(dir_, {"dedup", "--method", "simhash", "--memory", "64K", "--threads", threads, "--tmpdir", dir_.path(),
                                         "--pairs", dir_.File("pairs.jsonl"), "-o", dir_.File("out.jsonl"),
                                         dir_.File("big.fp")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(ReadFile(dir_.File("out.jsonl")) == ExpectedResults(ids, o, {})) << threads;
    EXPECT_TRUE(ReadFile(dir_.File("pairs.jsonl")) == ExpectedPairs(ids, o)) << threads;
    EXPECT_NE(r.err.find("simdex dedup: " + std::to_string(big.size()) + " documents"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find(", 0 spilled runs"), std::string::npos) << "nothing spilled: " << r.err;
    EXPECT_NE(r.err.find(" spilled runs"), std::string::npos) << r.err;
  }
}

TEST_F(DedupCli, AgainstAnIndexEqualsTheOracleInBothStrategies) {
  const Oracle o = testing::ExpectedDedup(docs_, 3, {&stored_});
  const std::string want = ExpectedResults(ids_, o, {index_});
  for (const char* strategy : {"probe", "merge-join", "auto"}) {
    const RunResult r =
        RunSimdex(dir_, {"dedup", "--method", "simhash", "--against", index_, "--against-strategy", strategy, "-o", dir_.File("out.jsonl"),
                         batch_file_});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(ReadFile(dir_.File("out.jsonl")), want) << strategy;
    EXPECT_NE(r.err.find("against 1 index ("), std::string::npos) << r.err;
  }
}

TEST_F(DedupCli, DocumentsWithEmptyTextsClustersAndKeepLongest) {
  // 1 and 3 differ by a word and an added sentence (3 bits apart at the
  // defaults); 2 and 4 have no text.
  const std::string licence =
      "Everyone is permitted to copy and distribute verbatim copies of this license document, but changing it is "
      "not allowed. The licenses for most software and other practical works are designed to take away your "
      "freedom to share and change the works. By contrast, the General Public License is intended to guarantee "
      "your freedom to share and change all versions of a program.";
  std::string edited = licence;
  edited.replace(edited.find("guarantee"), 9, "protect");
  edited += " This sentence was added.";
  const std::string docs = "{\"id\": 1, \"text\": \"" + licence + "\"}\n{\"id\": 2, \"text\": \"\"}\n{\"id\": 3, \"text\": \"" +
                           edited + "\"}\n{\"id\": 4, \"text\": \"   \"}\n" +
                           "{\"id\": 5, \"text\": \"An entirely different paragraph about databases, their indexes, the "
                           "write-ahead log and compaction.\"}\n";
  WriteFile(dir_.File("docs.jsonl"), docs);
  // Without stop words, as this example was measured before they became the
  // default (with them the short edited text moves by more than 3 bits).
  const RunResult r = RunSimdex(dir_, {"dedup", "--method", "simhash", "--quiet", "--no-stop-words", "--keep", "longest", "--clusters",
                                       dir_.File("c.jsonl"), dir_.File("docs.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 5u) << r.out;
  EXPECT_EQ(lines[1], "{\"id\":2,\"cluster\":2,\"duplicate\":false,\"distance\":0,\"empty\":\"no-text\"}");
  EXPECT_EQ(lines[3], "{\"id\":4,\"cluster\":4,\"duplicate\":false,\"distance\":0,\"empty\":\"no-text\"}");
  EXPECT_EQ(lines[4], "{\"id\":5,\"cluster\":5,\"duplicate\":false,\"distance\":0}");
  // 1 and 3 are near-duplicates; the longer text, 3, represents them.
  EXPECT_EQ(lines[2], "{\"id\":3,\"cluster\":3,\"duplicate\":false,\"distance\":0}");
  EXPECT_EQ(lines[0], "{\"id\":1,\"cluster\":3,\"duplicate\":true,\"distance\":3}");
  const std::string clusters = ReadFile(dir_.File("c.jsonl"));
  EXPECT_EQ(Lines(clusters).size(), 1u) << clusters;
  // Their first words are the same: the snippets start where they differ.
  EXPECT_NE(clusters.find("{\"cluster\":3,\"size\":2,\"skipped_chars\":" + std::to_string(licence.find("guarantee")) +
                          ",\"members\":[{\"id\":1,"),
            std::string::npos)
      << clusters;
  EXPECT_NE(clusters.find("\"text\":\"\u2026 guarantee your freedom to share and change all\""), std::string::npos) << clusters;
  EXPECT_NE(clusters.find("\"text\":\"\u2026 protect your freedom to share and change all\""), std::string::npos) << clusters;
  // The same documents compressed, and on standard input.
  ASSERT_EQ(std::system(("gzip -k " + dir_.File("docs.jsonl")).c_str()), 0);
  const RunResult gz = RunSimdex(dir_, {"dedup", "--method", "simhash", "--quiet", "--no-stop-words", "--keep", "longest", dir_.File("docs.jsonl.gz")});
  EXPECT_EQ(gz.out, r.out) << gz.err;
  const RunResult in = RunSimdex(dir_, {"dedup", "--method", "simhash", "--quiet", "--no-stop-words", "--keep", "longest", "--format", "jsonl"}, docs);
  EXPECT_EQ(in.out, r.out) << in.err;
}

// --title-field names each document of --pairs ("a_title", "b_title") and
// --clusters ("title") by a JSONL field, read again with the texts: white
// space collapsed, escaped, cut to 160 bytes at a character boundary with
// "…" after the cut; "" for a document without it; any JSON value shown
// as its text. Refused where it cannot be read or shown.
TEST_F(DedupCli, TitleFieldNamesTheDocumentsOfPairsAndClusters) {
  const std::string text =
      "Everyone is permitted to copy and distribute verbatim copies of this license document, but changing it is "
      "not allowed.";
  std::string cjk;
  for (int i = 0; i < 60; ++i) cjk += "\u6a19";  // 3 bytes each: 2 + 180 bytes with the "Ü" before
  const std::string docs =
      "{\"id\": 1, \"title\": \"A\\t\\\"quoted\\\"\\n  title \", \"text\": \"" + text + "\"}\n" +
      "{\"id\": 2, \"title\": \"\u00dc" + cjk + "\", \"text\": \"" + text + "\"}\n" +
      "{\"id\": 3, \"title\": \"Other\", \"text\": \"An entirely different paragraph about databases and "
      "their indexes.\"}\n" +
      "{\"id\": 4, \"text\": \"" + text + "\"}\n" +
      "{\"id\": 5, \"title\": 42, \"text\": \"" + text + "\"}\n";
  WriteFile(dir_.File("docs.jsonl"), docs);
  const RunResult r = RunSimdex(dir_, {"dedup", "--method", "simhash", "-q", "--title-field", "title", "--pairs",
                                       dir_.File("p.jsonl"), "--clusters", dir_.File("c.jsonl"), "-o", "/dev/null",
                                       dir_.File("docs.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string cut = "\u00dc";
  for (int i = 0; i < 52; ++i) cut += "\u6a19";  // 158 bytes: the 53rd character would end at byte 161
  const std::string a = "\"A \\\"quoted\\\" title\"", b = "\"" + cut + "\u2026\"";
  EXPECT_EQ(ReadFile(dir_.File("p.jsonl")),
            "{\"a\":1,\"b\":2,\"distance\":0,\"a_title\":" + a + ",\"b_title\":" + b + "}\n" +
                "{\"a\":1,\"b\":4,\"distance\":0,\"a_title\":" + a + ",\"b_title\":\"\"}\n" +
                "{\"a\":1,\"b\":5,\"distance\":0,\"a_title\":" + a + ",\"b_title\":\"42\"}\n" +
                "{\"a\":2,\"b\":4,\"distance\":0,\"a_title\":" + b + ",\"b_title\":\"\"}\n" +
                "{\"a\":2,\"b\":5,\"distance\":0,\"a_title\":" + b + ",\"b_title\":\"42\"}\n" +
                "{\"a\":4,\"b\":5,\"distance\":0,\"a_title\":\"\",\"b_title\":\"42\"}\n");
  const std::string clusters = ReadFile(dir_.File("c.jsonl"));
  EXPECT_TRUE(clusters.starts_with("{\"cluster\":1,\"size\":4,\"members\":[{\"id\":1,\"distance\":0,"
                                   "\"representative\":true,\"title\":" + a + ",\"text\":\"Everyone is"))
      << clusters;
  EXPECT_NE(clusters.find("{\"id\":2,\"distance\":0,\"title\":" + b + ",\"text\":"), std::string::npos) << clusters;
  EXPECT_NE(clusters.find("{\"id\":4,\"distance\":0,\"title\":\"\",\"text\":"), std::string::npos) << clusters;
  EXPECT_EQ(clusters.find("Other"), std::string::npos) << clusters;
  // Without --title-field, no titles.
  ASSERT_EQ(RunSimdex(dir_, {"dedup", "--method", "simhash", "-q", "--pairs", dir_.File("p.jsonl"), "-o", "/dev/null",
                             dir_.File("docs.jsonl")})
                .exit_code,
            0);
  EXPECT_EQ(ReadFile(dir_.File("p.jsonl")).find("title"), std::string::npos);

  // Refused: nothing to name, inputs without fields, standard input (read
  // once), fingerprint files.
  WriteFile(dir_.File("docs.txt"), text + "\n" + text + "\n");
  struct Case {
    std::vector<std::string> args;
    std::string stdin_text, message;
  };
  const std::vector<Case> cases = {
      {{"-o", "/dev/null", dir_.File("docs.jsonl")}, "",
       "--title-field names the documents of --pairs and --clusters: give one of them"},
      {{"--pairs", dir_.File("p.jsonl"), dir_.File("docs.txt")}, "",
       "--title-field title reads a JSONL field, but " + dir_.File("docs.txt") + " is read as one document per line"},
      {{"--clusters", dir_.File("c.jsonl"), "--format", "jsonl", "-"}, docs,
       "--title-field reads the titles again from the inputs: give files, not standard input"},
      {{"--pairs", dir_.File("p.jsonl"), batch_file_}, "", "--title-field needs documents, not fingerprint files"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"dedup", "--method", "simhash", "--title-field", "title"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const RunResult bad = RunSimdex(dir_, args, c.stdin_text);
    EXPECT_EQ(bad.exit_code, 2) << c.message;
    EXPECT_EQ(bad.err, "simdex dedup: " + c.message + (c.message.ends_with("line") ? " (use --format jsonl)\n" : "\n"));
  }
}

// The members of a templated cluster share their first words: the
// snippets of --clusters start where the texts differ ("…" before them,
// the cluster's "skipped_chars" counting what is left out), for SimHash
// and MinHash alike, while texts whose first words differ show them.
TEST_F(DedupCli, ClusterSnippetsStartWhereTheMembersTextsDiffer) {
  const std::string head =
      "Dear customer, thank you for your order at our shop. We are happy to tell you that your parcel has been "
      "sent today and will arrive within three days. Your order number is ";
  const std::vector<std::string> ends = {"12345 and the tracking code is AB99. Kind regards, the team",
                                         "67890 and the tracking code is CD42. Kind regards, the team",
                                         "12399 and the tracking code is EF17. Kind regards, the team"};
  std::string docs;
  for (size_t i = 0; i < ends.size(); ++i) {
    docs += "{\"id\": " + std::to_string(i + 1) + ", \"text\": \"" + (i == 1 ? "  " : "") + head + ends[i] + "\"}\n";
  }
  docs += "{\"id\": 4, \"text\": \"An entirely different paragraph about databases and their indexes.\"}\n";
  WriteFile(dir_.File("docs.jsonl"), docs);
  const std::vector<std::vector<std::string>> methods = {{"--method", "simhash", "--k", "15"},
                                                         {"--method", "minhash", "--threshold", "0.6"}};
  for (const auto& method : methods) {
    std::vector<std::string> args = {"dedup", "-q", "--clusters", dir_.File("c.jsonl"), "-o", "/dev/null"};
    args.insert(args.end(), method.begin(), method.end());
    args.push_back(dir_.File("docs.jsonl"));
    const RunResult r = RunSimdex(dir_, args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string clusters = ReadFile(dir_.File("c.jsonl"));
    ASSERT_EQ(Lines(clusters).size(), 1u) << method[1] << "\n" << clusters;
    EXPECT_TRUE(clusters.starts_with("{\"cluster\":1,\"size\":3,\"skipped_chars\":" + std::to_string(head.size()) +
                                     ",\"members\":["))
        << method[1] << "\n" << clusters;
    for (const std::string& end : ends) {
      const std::string snippet = "\"text\":\"\u2026 " + end.substr(0, end.find(" Kind") + 5) + "\"}";
      EXPECT_NE(clusters.find(snippet), std::string::npos) << method[1] << ": no " << snippet << " in\n" << clusters;
    }
  }
  // First words that differ already show it: nothing skipped.
  WriteFile(dir_.File("docs.jsonl"), "{\"id\": 1, \"text\": \"Dear John, " + head + ends[0] + "\"}\n" +
                                         "{\"id\": 2, \"text\": \"Dear Mary, " + head + ends[0] + "\"}\n");
  ASSERT_EQ(RunSimdex(dir_, {"dedup", "-q", "--method", "simhash", "--k", "15", "--clusters", dir_.File("c.jsonl"),
                             "-o", "/dev/null", dir_.File("docs.jsonl")})
                .exit_code,
            0);
  const std::string clusters = ReadFile(dir_.File("c.jsonl"));
  EXPECT_TRUE(clusters.starts_with("{\"cluster\":1,\"size\":2,\"members\":[")) << clusters;
  EXPECT_NE(clusters.find("\"text\":\"Dear John, Dear customer, thank you for your\"}"), std::string::npos) << clusters;
  EXPECT_NE(clusters.find("\"text\":\"Dear Mary, Dear customer, thank you for your\"}"), std::string::npos) << clusters;
}

// The first document's score counts: it was dropped (the scores stayed
// empty until a later non-zero one), so of two identical texts the second
// represented them under --keep longest, against "ties go to the first seen"
// and here against the longer first text. With --confirm the second stage
// keeps its own scores: both paths are checked.
TEST_F(DedupCli, KeepLongestCountsTheFirstDocumentsScore) {
  const std::string text =
      "Everyone is permitted to copy and distribute verbatim copies of this license document, but changing it is "
      "not allowed.";
  WriteFile(dir_.File("docs.jsonl"), "{\"id\": 1, \"text\": \"" + text + "  \"}\n{\"id\": 2, \"text\": \"" + text + "\"}\n");
  for (bool confirm : {false, true}) {
    std::vector<std::string> args = {"dedup", "--method", "simhash", "--quiet", "--keep", "longest"};
    if (confirm) args.insert(args.end(), {"--confirm", "jaccard:0.9"});
    args.push_back(dir_.File("docs.jsonl"));
    const RunResult r = RunSimdex(dir_, args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::vector<std::string> lines = Lines(r.out);
    ASSERT_EQ(lines.size(), 2u) << r.out;
    EXPECT_TRUE(lines[0].starts_with("{\"id\":1,\"cluster\":1,\"duplicate\":false,")) << confirm << " " << lines[0];
    EXPECT_TRUE(lines[1].starts_with("{\"id\":2,\"cluster\":1,\"duplicate\":true,")) << confirm << " " << lines[1];
  }
}

// String ids from JSONL and from fingerprint files, --keep max:FIELD, and
// matches in an index of string ids reported by their strings.
TEST_F(DedupCli, StringIdsMaxFieldAndAStringIdIndex) {
  const std::string base =
      "Everyone is permitted to copy and distribute verbatim copies of this license document, but changing it is "
      "not allowed. The licenses for most software and other practical works are designed to take away your "
      "freedom to share and change the works.";
  const std::string docs =
      "{\"id\": \"https://a.example/1\", \"views\": 5, \"text\": \"" + base + "\"}\n" +
      "{\"id\": \"https://b.example/\\\"2\\\"\", \"views\": 9.5, \"text\": \"" + base + "\"}\n" +
      "{\"id\": 3, \"text\": \"" + base + "\"}\n" +
      "{\"id\": \"https://c.example/4\", \"views\": null, \"text\": \"\"}\n";
  WriteFile(dir_.File("docs.jsonl"), docs);
  RunResult r = RunSimdex(dir_, {"dedup", "--method", "simhash", "--quiet", "--keep", "max:views", dir_.File("docs.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "{\"id\":\"https://a.example/1\",\"cluster\":\"https://b.example/\\\"2\\\"\",\"duplicate\":true,"
            "\"distance\":0}\n"
            "{\"id\":\"https://b.example/\\\"2\\\"\",\"cluster\":\"https://b.example/\\\"2\\\"\","
            "\"duplicate\":false,\"distance\":0}\n"
            "{\"id\":3,\"cluster\":\"https://b.example/\\\"2\\\"\",\"duplicate\":true,\"distance\":0}\n"
            "{\"id\":\"https://c.example/4\",\"cluster\":\"https://c.example/4\",\"duplicate\":false,\"distance\":0,"
            "\"empty\":\"no-text\"}\n");
  // The same documents as a fingerprint file (empty one included) give the
  // same lines with the first document as representative.
  ASSERT_EQ(RunSimdex(dir_, {"fingerprint", "--quiet", "-o", dir_.File("docs.fp"), dir_.File("docs.jsonl")}).exit_code,
            0);
  const RunResult first = RunSimdex(dir_, {"dedup", "--method", "simhash", "--quiet", dir_.File("docs.jsonl")});
  const RunResult fp = RunSimdex(dir_, {"dedup", "--method", "simhash", "--quiet", dir_.File("docs.fp")});
  ASSERT_EQ(fp.exit_code, 0) << fp.err;
  EXPECT_EQ(fp.out, first.out);
  EXPECT_NE(fp.out.find("{\"id\":3,\"cluster\":\"https://a.example/1\""), std::string::npos) << fp.out;
  // Against an index built from those fingerprints: matches by string id.
  ASSERT_EQ(RunSimdex(dir_, {"build", "--quiet", "--out", dir_.File("s.sdx"), dir_.File("docs.fp")}).exit_code, 0);
  r = RunSimdex(dir_, {"dedup", "--method", "simhash", "--quiet", "--against", dir_.File("s.sdx"), dir_.File("docs.fp")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The nearest entry: distance 0, then the smallest number, i.e. the
  // bytewise-smallest string ("3" < "https://...").
  EXPECT_NE(r.out.find("\"against\":{\"index\":\"" + dir_.File("s.sdx") + "\",\"id\":\"3\",\"distance\":0}"),
            std::string::npos)
      << r.out;
  r = RunSimdex(dir_, {"dedup", "--method", "simhash", "--keep", "max:views", dir_.File("docs.fp")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  // One document per line has no fields: max:FIELD is refused, not ignored.
  WriteFile(dir_.File("docs.txt"), "a b c\nd e f\n");
  r = RunSimdex(dir_, {"dedup", "--method", "simhash", "--keep", "max:views", dir_.File("docs.txt")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("docs.txt is read as one document per line"), std::string::npos) << r.err;
}

TEST_F(DedupCli, BadInputIsOneLineErrorAndLeavesNoOutput) {
  WriteFile(dir_.File("bad.jsonl"), "{\"id\": 1, \"text\": \"a b c\"}\n{\"id\": 2, \"text\": \"d e f\"}\n{\"id\": 3, \"te\n");
  const std::string out = dir_.File("out.jsonl");
  RunResult r = RunSimdex(dir_, {"dedup", "--method", "simhash", "-o", out, dir_.File("bad.jsonl")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("bad.jsonl:3:"), std::string::npos) << r.err;
  EXPECT_FALSE(FileExists(out));

  // A file that is not an index, and a damaged one.
  WriteFile(dir_.File("foreign.sdx"), std::string(4096, 'x'));
  r = RunSimdex(dir_, {"dedup", "--method", "simhash", "-o", out, "--against", dir_.File("foreign.sdx"), batch_file_});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("foreign.sdx"), std::string::npos) << r.err;
  std::string bytes = ReadFile(index_);
  bytes[bytes.size() - 60] ^= 0x55;  // inside the metadata: its checksum fails
  WriteFile(dir_.File("damaged.sdx"), bytes);
  r = RunSimdex(dir_, {"dedup", "--method", "simhash", "-o", out, "--against", dir_.File("damaged.sdx"), batch_file_});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("damaged.sdx"), std::string::npos) << r.err;
  EXPECT_FALSE(FileExists(out));

  // A missing input, a k the scheme cannot guarantee, mixed inputs.
  r = RunSimdex(dir_, {"dedup", "--method", "simhash", "-o", out, dir_.File("missing.fp")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("missing.fp"), std::string::npos) << r.err;
  r = RunSimdex(dir_, {"dedup", "--method", "simhash", "--k", "4", "--scheme", "t10", batch_file_});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  r = RunSimdex(dir_, {"dedup", "--method", "simhash", batch_file_, dir_.File("bad.jsonl")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_FALSE(FileExists(out));
  EXPECT_EQ(dir_.List(), (std::vector<std::string>{"bad.jsonl", "batch.fp", "damaged.sdx", "foreign.sdx", "fp.txt",
                                                  "index.sdx"}));
}

}  // namespace
}  // namespace simdex::clitest
