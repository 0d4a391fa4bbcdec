// `--idf auto` (simdex dedup, simdex fingerprint) and `simdex idf` end to
// end: the boilerplate batch separated, the learned file giving the
// fingerprints --idf auto gave, a tiny --memory spilling to the same result,
// and the inputs and options that cannot work refused with their names.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cli/cli_harness.h"
#include "tests/text/boilerplate_batch.h"

namespace simdex::clitest {
namespace {

class IdfCli : public ::testing::Test {
 protected:
  // The batch as JSONL, ids 0..n-1.
  std::string WriteBatch(const std::vector<std::string>& texts, const std::string& name = "docs.jsonl") {
    std::string jsonl;
    for (size_t i = 0; i < texts.size(); ++i) {
      jsonl += "{\"id\":" + std::to_string(i) + ",\"text\":\"" + texts[i] + "\"}\n";
    }
    WriteFile(dir_.File(name), jsonl);
    return dir_.File(name);
  }
  size_t PairsOf(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"dedup", "--method", "simhash", "--quiet", "--pairs", dir_.File("pairs.jsonl"), "-o",
                                     dir_.File("out.jsonl")};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(dir_.File("docs.jsonl"));
    const RunResult r = RunSimdex(dir_, args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return Lines(ReadFile(dir_.File("pairs.jsonl"))).size();
  }
  std::string Fingerprints(const std::vector<std::string>& extra, const std::string& input) {
    std::vector<std::string> args = {"fingerprint", "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(input);
    const RunResult r = RunSimdex(dir_, args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  }
  ScratchDir dir_;
};

TEST_F(IdfCli, IdfAutoSeparatesUnrelatedDocumentsSharingABoilerplateBlock) {
  WriteBatch(testdata::BoilerplateBatch(30));
  EXPECT_EQ(PairsOf({}), 30u * 29 / 2);           // every pair within 3 bits
  EXPECT_EQ(PairsOf({"--idf", "auto"}), 0u);      // none
  EXPECT_EQ(PairsOf({"--idf", "auto", "--k", "8"}), 0u);
  EXPECT_EQ(PairsOf({"--weighting", "log-tf-idf", "--idf", "auto", "--idf-cap", "0.693"}), 0u);
}

TEST_F(IdfCli, TheFileSimdexIdfWritesGivesTheFingerprintsOfIdfAuto) {
  std::vector<std::string> texts = testdata::BoilerplateBatch(20);
  texts.push_back("Ｆｕｌｌ-width ＡＢＣ and Ünïcödé, ÜNÏCÖDÉ; 床前明月光，疑是地上霜。");
  texts.push_back("Ｆｕｌｌ-width ＡＢＣ again; 床前明月光");
  const std::string docs = WriteBatch(texts);
  for (const std::vector<std::string>& options :
       {std::vector<std::string>{}, {"--tokenizer", "char-ngrams", "--ngram", "3", "--seed", "5"}}) {
    std::vector<std::string> learn = {"idf", "--quiet", "-o", dir_.File("terms.idf")};
    learn.insert(learn.end(), options.begin(), options.end());
    learn.push_back(docs);
    const RunResult r = RunSimdex(dir_, learn);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string file = ReadFile(dir_.File("terms.idf"));
    EXPECT_NE(file.find("\n#default-idf\t"), std::string::npos) << file.substr(0, 300);
    std::vector<std::string> with_file = options, with_auto = options;
    with_file.insert(with_file.end(), {"--idf", dir_.File("terms.idf")});
    with_auto.insert(with_auto.end(), {"--idf", "auto"});
    const std::string from_file = Fingerprints(with_file, docs);
    EXPECT_EQ(from_file, Fingerprints(with_auto, docs));
    EXPECT_NE(from_file, Fingerprints(options, docs));  // the weights changed something
    EXPECT_EQ(Lines(from_file).size(), 1 + texts.size());  // the profile line, then a line per text
  }
}

TEST_F(IdfCli, ACappedFileGivesTheFingerprintsOfIdfAutoWithTheSameCap) {
  std::vector<std::string> texts = testdata::BoilerplateBatch(20);
  for (int i = 0; i < 8; ++i) texts.push_back("topic alpha and beta, note " + std::to_string(i));  // df 8 of 28
  const std::string docs = WriteBatch(texts);
  const RunResult all = RunSimdex(dir_, {"idf", "--quiet", "-o", dir_.File("all.idf"), docs});
  const RunResult capped = RunSimdex(dir_, {"idf", "-o", dir_.File("capped.idf"), "--idf-cap", "0.693", docs});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  ASSERT_EQ(capped.exit_code, 0) << capped.err;
  EXPECT_NE(capped.err.find("below the cap of 0.693 in the table"), std::string::npos) << capped.err;
  const std::string file = ReadFile(dir_.File("capped.idf"));
  EXPECT_NE(file.find("the terms listed are those below the cap"), std::string::npos) << file.substr(0, 300);
  EXPECT_NE(file.find("\n#default-idf\t0.693\n"), std::string::npos) << file.substr(0, 300);
  // The block's words (20 of 28 documents hold them) are below ln 2; alpha, beta (8) are not.
  EXPECT_LT(Lines(file).size(), Lines(ReadFile(dir_.File("all.idf"))).size());
  for (const std::string weighting : {"tf-idf", "log-tf-idf"}) {
    const std::string from_file = Fingerprints({"--weighting", weighting, "--idf", dir_.File("capped.idf")}, docs);
    EXPECT_EQ(from_file, Fingerprints({"--weighting", weighting, "--idf", "auto", "--idf-cap", "0.693"}, docs));
    EXPECT_NE(from_file, Fingerprints({"--weighting", weighting, "--idf", "auto"}, docs));  // the cap changed weights
    EXPECT_NE(Lines(from_file)[0].find(weighting + ":"), std::string::npos) << Lines(from_file)[0];  // the profile
  }
}

TEST_F(IdfCli, ATinyMemoryBoundSpillsAndGivesTheSameFingerprints) {
  std::vector<std::string> texts;
  for (int d = 0; d < 300; ++d) {
    std::string t;
    for (int w = 0; w < 80; ++w) t.append("w").append(std::to_string((d * 37 + w * 11) % 3000)).append(" ");
    texts.push_back(t);
  }
  const std::string docs = WriteBatch(texts);
  const RunResult tiny = RunSimdex(dir_, {"fingerprint", "--idf", "auto", "--memory", "128K", docs});
  ASSERT_EQ(tiny.exit_code, 0) << tiny.err;
  const size_t at = tiny.err.find(" spilled runs");
  ASSERT_NE(at, std::string::npos) << tiny.err;
  const size_t from = tiny.err.rfind(' ', at - 1) + 1;
  EXPECT_GT(std::stoul(tiny.err.substr(from, at - from)), 1u) << tiny.err;
  EXPECT_EQ(tiny.out, Fingerprints({"--idf", "auto"}, docs));
  const RunResult dedup = RunSimdex(dir_, {"dedup", "--method", "simhash", "--idf", "auto", "--memory", "128K", "-o", dir_.File("o"), docs});
  EXPECT_EQ(dedup.exit_code, 0) << dedup.err;
}

TEST_F(IdfCli, TheFirstPassGivesTheSameIdfOnOneThreadAndOnSeveral) {
  // Enough documents for several read batches (256 documents each), so that
  // threads take documents of each batch out of order.
  std::vector<std::string> texts = testdata::BoilerplateBatch(40);
  for (int d = 0; d < 700; ++d) {
    texts.push_back("note " + std::to_string(d % 37) + " of part " + std::to_string(d % 11) + " word" +
                    std::to_string(d % 53) + " word" + std::to_string(d % 29) + " common text here");
  }
  const std::string docs = WriteBatch(texts);
  std::string files[2], fingerprints[2];
  for (int i = 0; i < 2; ++i) {
    const std::string threads = i == 0 ? "1" : "3";
    const RunResult r = RunSimdex(dir_, {"idf", "--quiet", "--threads", threads, "-o", dir_.File("t" + threads), docs});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    files[i] = ReadFile(dir_.File("t" + threads));
    fingerprints[i] = Fingerprints({"--idf", "auto", "--threads", threads}, docs);
  }
  EXPECT_GT(Lines(files[0]).size(), 50u);
  EXPECT_EQ(files[1], files[0]);
  EXPECT_EQ(Lines(fingerprints[0]).size(), 1 + texts.size());  // the profile line, then a line per text
  EXPECT_EQ(fingerprints[1], fingerprints[0]);
}

TEST_F(IdfCli, InputsReadOnceAndContradictoryOptionsAreRefusedByName) {
  const std::string docs = WriteBatch({"one two three", "four five six"});
  struct Case {
    std::vector<std::string> args;
    std::string stdin_text;
    std::string message;
  } cases[] = {
      {{"fingerprint", "--idf", "auto", "--format", "lines", "-"}, "a b c\n", "--idf auto reads the documents twice: give files, not standard input"},
      {{"dedup", "--method", "simhash", "--idf", "auto", "--format", "lines"}, "a b c\n", "--idf auto reads the documents twice: give files, not standard input"},
      {{"idf", "-o", dir_.File("t.idf"), "--format", "lines", "-"}, "a b c\n", "simdex idf reads the documents twice: give files, not standard input"},
      {{"dedup", "--method", "simhash", "--idf", "auto", "--weighting", "binary", docs}, "", "--idf weighs features by tf-idf or log-tf-idf; --weighting binary contradicts it"},
      {{"fingerprint", "--idf", dir_.File("any.idf"), "--idf-cap", "0.7", docs}, "", "--idf-cap caps the idf that --idf auto learns"},
      {{"dedup", "--method", "simhash", "--idf-cap", "0.7", docs}, "", "--idf-cap caps the idf that --idf auto learns"},
      {{"fingerprint", "--weighting", "log-tf-idf", docs}, "", "--weighting log-tf-idf needs --idf"},
      {{"fingerprint", "--idf", "auto", "--idf-cap", "0", docs}, "", "--idf-cap"},
      {{"fingerprint", "--idf", "auto", "--compat", "python-simhash", docs}, "", "the python-simhash profile has no idf weighting"},
      {{"idf", "-o", dir_.File("t.idf"), "--idf", "auto", docs}, "", "--idf, --weighting and --compat do not apply"},
      {{"fingerprint", "--idf", "auto", "--memory", "lots", docs}, "", "--memory 'lots' is not a size"},
      {{"serve", "--data", dir_.File("state"), "--idf", "auto", "--port", "0"}, "", "--idf auto learns from a batch"},
  };
  for (const Case& c : cases) {
    const RunResult r = RunSimdex(dir_, c.args, c.stdin_text);
    EXPECT_EQ(r.exit_code, 2) << c.args[0] << " " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  EXPECT_FALSE(FileExists(dir_.File("t.idf")));
  WriteFile(dir_.File("bad.idf"), "#default-idf\t1\nalpha\t0.5\nbeta\tmany\n");
  const RunResult r = RunSimdex(dir_, {"fingerprint", "--idf", dir_.File("bad.idf"), docs});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find(dir_.File("bad.idf") + ":3: idf of 'beta' is 'many', not a number"), std::string::npos)
      << r.err;
}

// `#default-idf 1e308` gave half of a batch the fingerprint 0 (two words'
// sums inf - inf = NaN) and every such pair a "duplicate", exit 0. Every
// weight passes one rule (CheckWeight): refused, naming file and line.
TEST_F(IdfCli, AnOverflowingIdfIsRefusedNamingFileAndLine) {
  const std::string docs = WriteBatch({"alpha beta gamma delta", "epsilon zeta eta theta", "iota kappa lambda mu"});
  WriteFile(dir_.File("huge.idf"), "#default-idf\t1e308\nalpha\t0.5\n");
  WriteFile(dir_.File("term.idf"), "alpha\t0.5\nbeta\tinf\n");
  const std::string huge = dir_.File("huge.idf") + ":1: #default-idf is 1e+308: a weight must be a finite number from 0 to 1e+288";
  const std::string term = dir_.File("term.idf") + ":2: idf of 'beta' is inf: a weight must be";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"dedup", "--method", "simhash", "-o", dir_.File("out.jsonl"), "--idf", dir_.File("huge.idf"), docs}, huge},
      {{"fingerprint", "--idf", dir_.File("huge.idf"), docs}, huge},
      {{"fingerprint", "--idf", dir_.File("term.idf"), docs}, term},
  };
  for (const auto& [args, message] : cases) {
    const RunResult r = RunSimdex(dir_, args);
    EXPECT_NE(r.exit_code, 0) << args[0];
    EXPECT_NE(r.err.find(message), std::string::npos) << args[0] << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  EXPECT_FALSE(FileExists(dir_.File("out.jsonl")));
}

}  // namespace
}  // namespace simdex::clitest
