// `simdex dedup --confirm/--k-short` and `simdex eval` end to end on the
// bundled labelled set tests/data/eval/edits.jsonl: the accepted pairs and
// clusters against a brute-force oracle over every pair, the eval counts
// (labelled and against the Jaccard truth) against the library, and bad
// input.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/confirm.h"
#include "simdex/eval.h"
#include "simdex/fingerprint.h"
#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

const std::string kEdits = std::string(SIMDEX_SOURCE_DIR) + "/tests/data/eval/edits.jsonl";

uint32_t CodePoints(const std::string& text) {
  uint32_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

class QualityCli : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(ReadLabelledSet(kEdits, &docs_).ok());
    std::unique_ptr<Fingerprinter> f;
    ASSERT_TRUE(Fingerprinter::Create(FingerprintOptions(), &f).ok());
    for (const LabelledDocument& d : docs_) fps_.push_back(f->Fingerprint(d.text));
  }

  // The pairs `dedup --pairs` must write: within k (k_short when either text
  // is shorter than 140 code points) and, with a spec, confirmed; and each
  // document's representative (the first of its component).
  void Oracle(int k, int k_short, const std::string& spec, std::string* pairs, std::vector<size_t>* rep) {
    std::unique_ptr<Confirmer> confirmer;
    if (!spec.empty()) {
      ConfirmOptions o;
      ASSERT_TRUE(ParseConfirmSpec(spec, &o).ok());
      ASSERT_TRUE(Confirmer::Create(o, &confirmer).ok());
    }
    const size_t n = docs_.size();
    rep->resize(n);
    for (size_t i = 0; i < n; ++i) (*rep)[i] = i;
    std::vector<std::pair<size_t, size_t>> accepted;
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = i + 1; j < n; ++j) {
        if (fps_[i].empty() || fps_[j].empty()) continue;
        const int d = HammingDistance(fps_[i].fingerprint, fps_[j].fingerprint);
        const bool is_short = CodePoints(docs_[i].text) < 140 || CodePoints(docs_[j].text) < 140;
        if (d > (is_short ? k_short : k)) continue;
        if (confirmer && !confirmer->Confirms(docs_[i].text, docs_[j].text)) continue;
        accepted.emplace_back(i, j);
        *pairs += "{\"a\":\"" + docs_[i].id + "\",\"b\":\"" + docs_[j].id + "\",\"distance\":" + std::to_string(d) +
                  "}\n";
      }
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (auto [a, b] : accepted) {
        const size_t m = std::min((*rep)[a], (*rep)[b]);
        if ((*rep)[a] != m || (*rep)[b] != m) (*rep)[a] = (*rep)[b] = m, changed = true;
      }
    }
  }

  ScratchDir dir_;
  std::vector<LabelledDocument> docs_;
  std::vector<FingerprintResult> fps_;
};

TEST_F(QualityCli, ConfirmedPairsAndClustersEqualTheOracle) {
  const struct {
    int k, k_short;
    const char* spec;
  } cases[] = {{3, 10, "jaccard:0.5"}, {3, 8, "edit:0.7"}, {4, 12, "jaccard-words:0.4"}, {3, 10, ""}, {3, 3, "jaccard:0.6"}};
  for (const auto& c : cases) {
    std::vector<std::string> args = {"dedup", "--quiet", "--text-field", "text", "--k", std::to_string(c.k),
                                     "--k-short", std::to_string(c.k_short), "--pairs", dir_.File("pairs.jsonl"),
                                     "-o", dir_.File("out.jsonl"), kEdits};
    if (*c.spec) args.insert(args.end() - 1, {"--confirm", c.spec});
    const RunResult r = RunSimdex(dir_, args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string want_pairs;
    std::vector<size_t> rep;
    Oracle(c.k, c.k_short, c.spec, &want_pairs, &rep);
    EXPECT_EQ(ReadFile(dir_.File("pairs.jsonl")), want_pairs) << c.spec << " k_short " << c.k_short;
    const std::vector<std::string> lines = Lines(ReadFile(dir_.File("out.jsonl")));
    ASSERT_EQ(lines.size(), docs_.size());
    for (size_t i = 0; i < docs_.size(); ++i) {
      const size_t to = rep[i];
      const std::string want = "{\"id\":\"" + docs_[i].id + "\",\"cluster\":\"" + docs_[to].id + "\",\"duplicate\":" +
                               (to != i ? "true" : "false") + ",\"distance\":" +
                               std::to_string(HammingDistance(fps_[i].fingerprint, fps_[to].fingerprint)) + "}";
      EXPECT_EQ(lines[i], want) << c.spec;
    }
  }
}

TEST_F(QualityCli, SecondStageBadInputIsAUsageErrorWithNoOutput) {
  WriteFile(dir_.File("b.fp"), "1\t00000000000000ff\n");
  const std::vector<std::vector<std::string>> cases = {
      {"dedup", "--confirm", "cosine:0.5", "-o", dir_.File("out.jsonl"), kEdits},
      {"dedup", "--confirm", "jaccard:2", "-o", dir_.File("out.jsonl"), kEdits},
      {"dedup", "--confirm", "jaccard:0.5", "-o", dir_.File("out.jsonl"), "-"},
      {"dedup", "--k-short", "8", "-o", dir_.File("out.jsonl"), dir_.File("b.fp")},
      {"dedup", "--k-short", "8", "--scheme", "t10", "-o", dir_.File("out.jsonl"), kEdits},
  };
  for (const auto& args : cases) {
    const RunResult r = RunSimdex(dir_, args);
    EXPECT_EQ(r.exit_code, 2) << args[2] << " " << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_FALSE(FileExists(dir_.File("out.jsonl")));
  }
}

TEST_F(QualityCli, EvalCountsEqualTheLibrarys) {
  const RunResult r = RunSimdex(dir_, {"eval", "--quiet", "--config", "words,tf,no-stop", "--config", "chars3,binary",
                                       "--max-k", "4", kEdits});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 2u);
  FingerprintOptions options;
  ASSERT_TRUE(ParseEvalConfig("words,tf,no-stop", &options).ok());
  std::unique_ptr<Fingerprinter> f;
  ASSERT_TRUE(Fingerprinter::Create(options, &f).ok());
  std::vector<FingerprintResult> fps;
  for (const LabelledDocument& d : docs_) fps.push_back(f->Fingerprint(d.text));
  EvalOptions eval;
  eval.max_k = 4;
  std::vector<EvalBucket> buckets;
  ASSERT_TRUE(Evaluate(docs_, fps, eval, &buckets).ok());
  for (const EvalBucket& b : buckets) {
    std::string want = "{\"bucket\":\"" + b.name + "\"";
    const size_t at = lines[0].find(want);
    ASSERT_NE(at, std::string::npos) << b.name;
    want = "\"positives\":" + std::to_string(b.positives) + ",\"negatives\":" + std::to_string(b.negatives);
    EXPECT_NE(lines[0].find(want, at), std::string::npos) << b.name;
    want = "{\"k\":3,\"tp\":" + std::to_string(b.tp[3]) + ",\"fp\":" + std::to_string(b.fp[3]) + ",";
    EXPECT_NE(lines[0].find(want, at), std::string::npos) << b.name << " " << want;
  }
}

TEST_F(QualityCli, EvalBadInputNamesFileAndLine) {
  WriteFile(dir_.File("bad.jsonl"), "{\"id\":\"a\",\"text\":\"x\",\"cluster\":\"c\"}\n{\"id\":\"b\"}\n");
  RunResult r = RunSimdex(dir_, {"eval", "-o", dir_.File("out.jsonl"), dir_.File("bad.jsonl")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("bad.jsonl:2: field 'text' is missing"), std::string::npos) << r.err;
  EXPECT_FALSE(FileExists(dir_.File("out.jsonl")));
  r = RunSimdex(dir_, {"eval", "--config", "words,idf", kEdits});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown option 'idf'"), std::string::npos) << r.err;
}

TEST_F(QualityCli, EvalJaccardTruthCountsEqualTheLibrarys) {
  // edits.jsonl's clusters are ignored: the truth is the shingles' Jaccard.
  const RunResult r = RunSimdex(dir_, {"eval", "--quiet", "--truth", "jaccard", "--config", "default", "--baseline",
                                       "--max-k", "4", "--list", dir_.File("pairs.jsonl"), kEdits});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 4u);  // the truth, the fingerprints, the baseline without and with its filter
  EXPECT_EQ(lines[0].rfind("{\"kind\":\"truth\"", 0), 0u) << lines[0];
  EXPECT_NE(lines[2].find("\"method\":\"minhash-lsh\",\"filter\":\"none\",\"num_perm\":128,\"bands\":9,"
                          "\"rows\":13"),
            std::string::npos)
      << lines[2];
  std::unique_ptr<ShingleMaker> maker;
  ASSERT_TRUE(ShingleMaker::Create(ShingleOptions(), &maker).ok());
  std::vector<std::vector<uint64_t>> sets(docs_.size());
  std::vector<std::string_view> texts;
  for (size_t i = 0; i < docs_.size(); ++i) {
    maker->Make(docs_[i].text, &sets[i]);
    texts.push_back(docs_[i].text);
  }
  std::vector<JaccardPair> truth;
  ASSERT_TRUE(FindJaccardPairs(sets, 0.2, &truth).ok());
  TruthOptions options;
  options.max_k = 4;
  options.list_negative_within = 3;
  options.list_positive_beyond = 12;
  std::vector<TruthBucket> buckets;
  std::vector<ListedPair> listed;
  ASSERT_TRUE(EvaluateAgainstTruth(texts, fps_, truth, options, &buckets, &listed).ok());
  for (const TruthBucket& b : buckets) {
    const size_t at = lines[1].find("{\"bucket\":\"" + b.name + "\"");
    ASSERT_NE(at, std::string::npos) << b.name;
    std::string want = "\"positives\":" + std::to_string(b.positives) + ",\"between\":" +
                       std::to_string(b.between) + ",\"negatives\":" + std::to_string(b.negatives);
    EXPECT_NE(lines[1].find(want, at), std::string::npos) << b.name << " " << want;
    want = "{\"k\":3,\"tp\":" + std::to_string(b.tp[3]) + ",\"fp\":" + std::to_string(b.fp[3]) + ",";
    EXPECT_NE(lines[1].find(want, at), std::string::npos) << b.name << " " << want;
  }
  EXPECT_EQ(Lines(ReadFile(dir_.File("pairs.jsonl"))).size(), listed.size());
}

TEST_F(QualityCli, EvalJaccardBadOptionsAreUsageErrorsWithNoOutput) {
  const std::vector<std::vector<std::string>> cases = {
      {"eval", "--truth", "jaccard", "--bands", "5", "-o", dir_.File("out.jsonl"), kEdits},
      {"eval", "--truth", "jaccard", "--bands", "20", "--rows", "10", "-o", dir_.File("out.jsonl"), kEdits},
      {"eval", "--truth", "jaccard", "--negative", "0.9", "-o", dir_.File("out.jsonl"), kEdits},
      {"eval", "--truth", "votes", "-o", dir_.File("out.jsonl"), kEdits},
      {"eval", "--baseline", "-o", dir_.File("out.jsonl"), kEdits},
  };
  for (const auto& args : cases) {
    const RunResult r = RunSimdex(dir_, args);
    EXPECT_EQ(r.exit_code, 2) << args[2] << " " << r.err;
    EXPECT_FALSE(FileExists(dir_.File("out.jsonl")));
  }
}

}  // namespace
}  // namespace simdex::clitest
