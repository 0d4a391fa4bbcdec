// --shingles end to end (include/simdex/shingles.h, docs/minhash.md
// "Shingles"): the word definition decides whether a pair that differs only
// in its punctuation crosses the threshold, in dedup and in eval's truth;
// an index records its definition, so that queries and merges sign as it
// was signed and a batch or signature file of the other one is refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

// 40 made-up words, a copy with a comma or a full stop after every third
// word (word-chars: the same shingles, J = 1; space-split: every window of
// five words holds a punctuated one, J = 0), and an unrelated text.
const char* const kPlain =
    "lorisu nozumi rasute zumila lodobo lokazu lolosu katevi sumido norido bobori lalo kadovi fape lorimi "
    "bolafa ribo gemifa noka sumiri tenozu lorimi sumiri vilosu doka pefasu dotemi kakami terala pevino "
    "zutepe zuzu zumi bote bopedo zutezu pevino botemi bofasu zusula";
const char* const kPunctuated =
    "Lorisu nozumi rasute, zumila lodobo lokazu. lolosu katevi sumido, norido bobori lalo. kadovi fape lorimi, "
    "bolafa ribo gemifa. noka sumiri tenozu, lorimi sumiri vilosu. doka pefasu dotemi, kakami terala pevino. "
    "zutepe zuzu zumi, bote bopedo zutezu. pevino botemi bofasu, zusula.";
const char* const kUnrelated = "an unrelated text of a few words, nothing like the others at all, really";

std::string Json(const std::string& id, const std::string& text) {
  return "{\"id\":\"" + id + "\",\"text\":\"" + text + "\"}\n";
}

class ShinglesCli : public ::testing::Test {
 protected:
  void SetUp() override { WriteFile(docs_, Json("plain", kPlain) + Json("punctuated", kPunctuated) + Json("u", kUnrelated)); }
  ScratchDir dir_;
  std::string docs_ = dir_.File("docs.jsonl");
};

TEST_F(ShinglesCli, TheWordDefinitionDecidesWhetherAPunctuatedCopyCrossesTheThreshold) {
  for (const char* words : {"word-chars", "space-split"}) {
    const std::string pairs = dir_.File(std::string(words) + ".pairs.jsonl");
    RunResult r = RunSimdex(dir_, {"dedup", "--shingles", words, "--pairs", pairs, "-o", "/dev/null", docs_});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("by their word 5-shingles, " + std::string(words)), std::string::npos) << r.err;
    if (std::string(words) == "word-chars") {
      EXPECT_EQ(ReadFile(pairs), "{\"a\":\"plain\",\"b\":\"punctuated\",\"estimate\":1,\"similarity\":1}\n");
    } else {
      EXPECT_EQ(ReadFile(pairs), "");
    }
  }
  // --approximate signs the same way.
  const std::string pairs = dir_.File("approximate.jsonl");
  ASSERT_EQ(RunSimdex(dir_, {"dedup", "--approximate", "--shingles", "space-split", "--pairs", pairs, "-o",
                             "/dev/null", docs_}).exit_code, 0);
  EXPECT_EQ(ReadFile(pairs), "");
}

TEST_F(ShinglesCli, EvalScoresReportedPairsAgainstTheTruthOfEitherDefinition) {
  const std::string reported = dir_.File("reported.jsonl");
  WriteFile(reported, "{\"a\":\"punctuated\",\"b\":\"plain\",\"estimate\":1}\n{\"a\":\"u\",\"b\":\"plain\"}\n");
  for (const char* words : {"word-chars", "space-split"}) {
    const std::string truth = dir_.File(std::string(words) + ".truth.jsonl"), out = dir_.File("eval.jsonl");
    RunResult r = RunSimdex(dir_, {"eval", "--truth", "jaccard", "--shingles", words, "--truth-pairs", truth,
                                   "--reported", reported, "-o", out, docs_});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const bool common = std::string(words) == "word-chars";
    EXPECT_EQ(ReadFile(truth),
              common ? "{\"kind\":\"pair\",\"set\":\"" + docs_ + "\",\"a\":\"plain\",\"b\":\"punctuated\",\"jaccard\":1}\n"
                     : "");
    const std::vector<std::string> rows = Lines(ReadFile(out));
    ASSERT_EQ(rows.size(), 2u) << ReadFile(out);  // the truth, then the reported pairs: no fingerprints
    EXPECT_NE(rows[0].find("\"shingles_words\":\"" + std::string(words) + "\""), std::string::npos) << rows[0];
    EXPECT_EQ(rows[1].rfind("{\"kind\":\"reported\",\"set\":\"" + docs_ + "\",\"file\":\"" + reported + "\"", 0), 0u)
        << rows[1];
    EXPECT_NE(rows[1].find("\"pairs\":2"), std::string::npos) << rows[1];
    // Of the two pairs reported, one is true under word-chars and none under space-split.
    EXPECT_NE(rows[1].find(common ? "\"tp\":1,\"fn\":0,\"strict_fp\":1" : "\"tp\":0,\"fn\":0,\"strict_fp\":2"),
              std::string::npos)
        << rows[1];
  }
  WriteFile(reported, "{\"a\":\"plain\",\"b\":\"nobody\"}\n");
  RunResult r = RunSimdex(dir_, {"eval", "--truth", "jaccard", "--reported", reported, "-o", "/dev/null", docs_});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "simdex eval: " + reported + ":1: the set holds no document 'nobody'\n");
  r = RunSimdex(dir_, {"eval", "--truth", "jaccard", "--reported", reported, "-o", "/dev/null", docs_, docs_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--reported scores pairs of one set's documents: give one set"), std::string::npos) << r.err;
  r = RunSimdex(dir_, {"eval", "--shingles", "words-w", "--truth", "jaccard", docs_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("words-w"), std::string::npos) << r.err;
}

TEST_F(ShinglesCli, AnIndexKeepsItsDefinitionAndRefusesSignaturesOfTheOther) {
  const std::string query = dir_.File("q.jsonl");
  WriteFile(query, Json("q", kPlain));
  const std::string profile = "simdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold";
  for (const char* words : {"word-chars", "space-split"}) {
    const bool common = std::string(words) == "word-chars";
    const std::string index = dir_.File(std::string(words) + ".sdx");
    const std::string punctuated = dir_.File("p.jsonl");
    WriteFile(punctuated, Json("punctuated", kPunctuated));
    ASSERT_EQ(RunSimdex(dir_, {"build", "--method", "minhash", "--shingles", words, "--out", index, punctuated}).exit_code,
              0);
    RunResult r = RunSimdex(dir_, {"inspect", index});
    EXPECT_NE(r.out.find("\"profile\": \"" + profile + (common ? " word-chars" : "") + " perm:128 seed:1\""),
              std::string::npos)
        << r.out;
    // query signs the documents as the index records.
    r = RunSimdex(dir_, {"query", index, query});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, common ? "{\"id\":\"q\",\"matches\":[{\"id\":\"punctuated\",\"estimate\":1}]}\n"
                            : "{\"id\":\"q\",\"matches\":[]}\n");
    // So does dedup --against it without --shingles.
    r = RunSimdex(dir_, {"dedup", "--against", index, "-o", "-", query});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(common ? "\"against\":{\"index\":\"" + index + "\",\"id\":\"punctuated\""
                                : "\"duplicate\":false"),
              std::string::npos)
        << r.out;
    // And merge: the batch is signed as the old index was.
    const std::string merged = dir_.File("merged.sdx");
    ASSERT_EQ(RunSimdex(dir_, {"merge", "--out", merged, index, query}).exit_code, 0);
    r = RunSimdex(dir_, {"query", merged, punctuated});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, common ? "{\"id\":\"punctuated\",\"matches\":[{\"id\":\"punctuated\",\"estimate\":1},"
                              "{\"id\":\"q\",\"estimate\":1}]}\n"
                            : "{\"id\":\"punctuated\",\"matches\":[{\"id\":\"punctuated\",\"estimate\":1}]}\n");
    // A batch or a signature file of the other definition is refused.
    const char* other = common ? "space-split" : "word-chars";
    r = RunSimdex(dir_, {"dedup", "--shingles", other, "--against", index, "-o", "/dev/null", query});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(index + " holds signatures of '" + profile + (common ? " word-chars" : "") + " perm:128 seed:1'"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    const std::string sigs = dir_.File("s.txt");
    ASSERT_EQ(RunSimdex(dir_, {"fingerprint", "--method", "minhash", "--shingles", other, "-o", sigs, query}).exit_code,
              0);
    r = RunSimdex(dir_, {"query", index, sigs});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("signatures of different profiles are not comparable"), std::string::npos) << r.err;
    r = RunSimdex(dir_, {"build", "--method", "minhash", "--shingles", words, "--out", dir_.File("x.sdx"), sigs});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("--num-perm, --seed and --shingles ask for"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace simdex::clitest
