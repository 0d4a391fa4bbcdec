// MinHash signature files end to end: `simdex fingerprint --method minhash`
// writes them, `simdex query` of a MinHash-LSH index reads them and prints
// the lines it prints for the documents themselves, and `simdex build
// --method minhash` builds the index the documents build; another profile,
// the other family's files and malformed lines are refused with one line.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

// `n` made-up words from `seed`.
std::string Words(size_t n, uint32_t seed) {
  static const char* const kSyllables[] = {"lo", "ri", "su", "no", "zu", "mi", "ra", "te", "ka", "do", "be", "fa"};
  std::mt19937 rng(seed);
  std::string text;
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) text += ' ';
    for (int s = 0; s < 3; ++s) text += kSyllables[rng() % 12];
  }
  return text;
}

class SignatureFileCli : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string base = Words(120, 1);
    // Numeric and string ids, near copies, an unrelated text and an empty one.
    WriteFile(docs_, "{\"id\":1,\"text\":\"" + base + "\"}\n" +
                         "{\"id\":\"doc/b\",\"text\":\"" + base + " and two\"}\n" +
                         "{\"id\":3,\"text\":\"" + Words(80, 2) + "\"}\n" +
                         "{\"id\":\"empty\",\"text\":\" \"}\n" +
                         "{\"id\":5,\"text\":\"" + base.substr(0, base.size() - 40) + "\"}\n");
    WriteFile(queries_, "{\"id\":\"q1\",\"text\":\"" + base + " one more\"}\n" +
                            "{\"id\":7,\"text\":\"\"}\n" +
                            "{\"id\":8,\"text\":\"" + Words(60, 3) + "\"}\n" +
                            "{\"id\":\"q/4\",\"text\":\"" + Words(80, 2) + "\"}\n");
    const RunResult r = RunSimdex(dir_, {"build", "--method", "minhash", "--out", index_, docs_});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }

  ScratchDir dir_;
  std::string docs_ = dir_.File("docs.jsonl");
  std::string queries_ = dir_.File("q.jsonl");
  std::string index_ = dir_.File("docs.sdx");
};

// The documents decide on the index's sketches, the signatures on the
// signatures: what they print is the documents' query with --approximate.
TEST_F(SignatureFileCli, QueryingTheSignaturesPrintsWhatQueryingTheDocumentsPrints) {
  const RunResult texts = RunSimdex(dir_, {"query", "--approximate", index_, queries_, docs_});
  ASSERT_EQ(texts.exit_code, 0) << texts.err;
  ASSERT_EQ(Lines(texts.out).size(), 9u) << texts.out;
  EXPECT_NE(texts.out.find("{\"id\":7,\"empty\":\"no-text\",\"matches\":[]}"), std::string::npos) << texts.out;
  EXPECT_NE(texts.out.find("{\"id\":\"q1\",\"matches\":[{\"id\":"), std::string::npos) << texts.out;

  for (const char* name : {"q.sig", "q.sig.zst", "q.sig.gz"}) {
    const std::string sigs = dir_.File(name), more = dir_.File(std::string("d-") + name);
    RunResult r = RunSimdex(dir_, {"fingerprint", "--method", "minhash", "--threads", "2", "-o", sigs, queries_});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("4 documents, 3 signed, 1 without shingles"), std::string::npos) << r.err;
    r = RunSimdex(dir_, {"fingerprint", "--method", "minhash", "-q", "-o", more, docs_});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    r = RunSimdex(dir_, {"query", index_, sigs, more});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, texts.out) << name;
  }
  // From standard input, judged by its first line.
  const RunResult piped = RunSimdex(dir_, {"query", index_, "-"}, ReadFile(dir_.File("q.sig")));
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.out + RunSimdex(dir_, {"query", index_, dir_.File("d-q.sig")}).out, texts.out);
}

TEST_F(SignatureFileCli, FingerprintWritesTheProfileOfItsOptionsAndOneLinePerDocument) {
  const std::string sigs = dir_.File("s.txt");
  RunResult r = RunSimdex(dir_, {"fingerprint", "--method", "minhash", "--num-perm", "3", "--seed", "9", "-o", sigs,
                                 queries_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = Lines(ReadFile(sigs));
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0],
            "#simdex-signatures\tsimdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold word-chars perm:3 seed:9");
  EXPECT_EQ(lines[1].rfind("q1\t", 0), 0u) << lines[1];
  EXPECT_EQ(lines[1].size(), 3 + 24u) << "3 values of 8 hex digits";
  EXPECT_EQ(lines[2], "7\t-\tno-text");
  EXPECT_EQ(lines[4].rfind("q/4\t", 0), 0u) << lines[4];
}

TEST_F(SignatureFileCli, TheOtherMethodsOptionsAreRefusedAndNothingIsWritten) {
  const std::string out = dir_.File("s.txt");
  struct Case {
    std::vector<std::string> args;
    std::string error;
  };
  const Case cases[] = {
      {{"fingerprint", "--method", "minhash", "--idf", "auto", "-o", out, docs_},
       "simdex fingerprint: --idf is a SimHash option; --method minhash takes --num-perm, --seed and --shingles "
       "(docs/minhash.md)\n"},
      {{"fingerprint", "--method", "minhash", "--binary", "-o", out, docs_}, "--binary is a SimHash option"},
      {{"fingerprint", "--method", "minhash", "--tokenizer", "char-ngrams", "-o", out, docs_},
       "--tokenizer is a SimHash option"},
      {{"fingerprint", "--num-perm", "64", "-o", out, docs_},
       "simdex fingerprint: --num-perm is a MinHash option (--method minhash)\n"},
      {{"fingerprint", "--method", "minhash", "--num-perm", "0", "-o", out, docs_}, "--num-perm"},
      {{"fingerprint", "--method", "minhash", "-o", docs_, docs_}, "would destroy the input"}};
  for (const Case& c : cases) {
    const RunResult r = RunSimdex(dir_, c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args[3] << ": " << r.err;
    EXPECT_NE(r.err.find(c.error), std::string::npos) << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_FALSE(FileExists(out));
  }
}

TEST_F(SignatureFileCli, AFailedRunLeavesNoFileAndADeviceIsWrittenInPlace) {
  const std::string bad = dir_.File("bad.jsonl"), out = dir_.File("s.txt");
  WriteFile(bad, "{\"id\":1,\"text\":\"a b c d e f\"}\n{\"id\":2,\"text\":\n");
  RunResult r = RunSimdex(dir_, {"fingerprint", "--method", "minhash", "-o", out, bad});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("bad.jsonl:2"), std::string::npos) << r.err;
  EXPECT_EQ(dir_.List(), (std::vector<std::string>{"bad.jsonl", "docs.jsonl", "docs.sdx", "q.jsonl"}))
      << "no file and no temporary";
  r = RunSimdex(dir_, {"fingerprint", "--method", "minhash", "-o", "/dev/null", docs_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(SignatureFileCli, ASignatureFileOfAnotherProfileIsRefusedNamingBoth) {
  const std::string sigs = dir_.File("s64.txt");
  ASSERT_EQ(RunSimdex(dir_, {"fingerprint", "--method", "minhash", "--num-perm", "64", "-o", sigs, queries_}).exit_code,
            0);
  RunResult r = RunSimdex(dir_, {"query", index_, sigs});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "simdex query: " + sigs +
                       " holds signatures of 'simdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold "
                       "word-chars perm:64 seed:1', " + index_ +
                       " of 'simdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold word-chars perm:128 seed:1': "
                       "signatures of different profiles are not comparable\n");
  const std::string seeded = dir_.File("seed2.txt");
  ASSERT_EQ(RunSimdex(dir_, {"fingerprint", "--method", "minhash", "--seed", "2", "-o", seeded, queries_}).exit_code, 0);
  r = RunSimdex(dir_, {"query", index_, seeded});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("seed:2', "), std::string::npos) << r.err;
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
}

TEST_F(SignatureFileCli, EachFamilysFilesAreRefusedWhereTheOtherIsNeeded) {
  const std::string sigs = dir_.File("s.txt"), fps = dir_.File("f.txt"), simhash = dir_.File("sim.sdx");
  ASSERT_EQ(RunSimdex(dir_, {"fingerprint", "--method", "minhash", "-o", sigs, docs_}).exit_code, 0);
  ASSERT_EQ(RunSimdex(dir_, {"fingerprint", "-o", fps, docs_}).exit_code, 0);
  ASSERT_EQ(RunSimdex(dir_, {"build", "--out", simhash, fps}).exit_code, 0);

  RunResult r = RunSimdex(dir_, {"query", simhash, sigs});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "simdex query: " + sigs + " holds MinHash signatures, not SimHash fingerprints: " + simhash +
                       " is a SimHash index (a MinHash-LSH index reads them)\n");
  r = RunSimdex(dir_, {"query", index_, fps});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(fps + " holds fingerprints, not documents or MinHash signatures"), std::string::npos)
      << r.err;
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  r = RunSimdex(dir_, {"build", "--out", dir_.File("x.sdx"), sigs});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(sigs + ":1: holds MinHash signatures"), std::string::npos) << r.err;
  EXPECT_FALSE(FileExists(dir_.File("x.sdx")));
  r = RunSimdex(dir_, {"dedup", "-o", dir_.File("d.jsonl"), sigs});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(sigs + " holds MinHash signatures"), std::string::npos) << r.err;
  r = RunSimdex(dir_, {"query", index_, sigs, queries_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("inputs mix MinHash signature files and documents"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

// Without its header line a signature file was read as text, silently:
// `query` answered every line with no match, `dedup` found no pair, `build
// --method minhash` indexed the hex strings. Now each command refuses it by
// its content, naming the line, and writes nothing.
TEST_F(SignatureFileCli, SignaturesWithoutTheirHeaderLineAreRefusedByEveryCommand) {
  const std::string sigs = dir_.File("s.txt"), bare = dir_.File("bare.txt");
  ASSERT_EQ(RunSimdex(dir_, {"fingerprint", "--method", "minhash", "-q", "-o", sigs, docs_}).exit_code, 0);
  std::string bytes = ReadFile(sigs);
  bytes.erase(0, bytes.find('\n') + 1);  // the '#simdex-signatures' line
  WriteFile(bare, bytes);
  const std::string message = bare + ":1: a MinHash signature without the '#simdex-signatures<TAB><profile>' line";
  const std::vector<std::vector<std::string>> commands = {
      {"query", index_, bare},
      {"dedup", "-o", dir_.File("d.jsonl"), bare},
      {"dedup", "--method", "simhash", "-o", dir_.File("d.jsonl"), bare},
      {"build", "--method", "minhash", "--out", dir_.File("x.sdx"), bare},
      {"fingerprint", "-o", dir_.File("f.txt"), bare},
  };
  for (const std::vector<std::string>& args : commands) {
    const RunResult r = RunSimdex(dir_, args);
    EXPECT_NE(r.exit_code, 0) << args[0];
    EXPECT_NE(r.err.find(message), std::string::npos) << args[0] << ": " << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.out, "") << args[0];
  }
  EXPECT_FALSE(FileExists(dir_.File("d.jsonl")));
  EXPECT_FALSE(FileExists(dir_.File("x.sdx")));
  EXPECT_FALSE(FileExists(dir_.File("f.txt")));
  // `simdex build` reads fingerprint files only: the line is not one.
  const RunResult simhash = RunSimdex(dir_, {"build", "--out", dir_.File("x.sdx"), bare});
  EXPECT_EQ(simhash.exit_code, 1);
  EXPECT_NE(simhash.err.find(bare + ":1: fingerprint is not 1 to 16 hex digits"), std::string::npos) << simhash.err;
  EXPECT_FALSE(FileExists(dir_.File("x.sdx")));
  // Asked for, the lines are read as text.
  const RunResult text = RunSimdex(dir_, {"dedup", "--format", "lines", "-q", "-o", dir_.File("d.jsonl"), bare});
  EXPECT_EQ(text.exit_code, 0) << text.err;
}

TEST_F(SignatureFileCli, AMalformedLineStopsTheQueryNamingFileAndLine) {
  const std::string sigs = dir_.File("s.txt");
  ASSERT_EQ(RunSimdex(dir_, {"fingerprint", "--method", "minhash", "--num-perm", "128", "-o", sigs, queries_})
                .exit_code,
            0);
  std::vector<std::string> lines = Lines(ReadFile(sigs));
  lines[3] = lines[3].substr(0, lines[3].size() - 1);  // line 4 (id 8) one digit short
  std::string bytes;
  for (const std::string& line : lines) bytes += line + "\n";
  WriteFile(sigs, bytes);
  const RunResult r = RunSimdex(dir_, {"query", index_, sigs});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "simdex query: " + sigs + ":4: signature has 1023 hex digits, not 1024 (128 values of 8)\n");
  EXPECT_EQ(Lines(r.out).size(), 2u) << "the lines before it are answered";
}

// Signatures carry no shingles: their index is the documents' without
// sketches (--sketch 0).
TEST_F(SignatureFileCli, BuildingFromTheSignaturesWritesTheBytesOfTheBuildFromTheDocuments) {
  const std::string sigs = dir_.File("d.sig.zst"), built = dir_.File("from-sigs.sdx"), plain = dir_.File("plain.sdx");
  ASSERT_EQ(RunSimdex(dir_, {"fingerprint", "--method", "minhash", "-q", "-o", sigs, docs_}).exit_code, 0);
  RunResult r = RunSimdex(dir_, {"build", "--method", "minhash", "--out", built, sigs});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("5 documents (1 without shingles)"), std::string::npos) << r.out;
  ASSERT_EQ(RunSimdex(dir_, {"build", "--method", "minhash", "-q", "--sketch", "0", "--out", plain, docs_}).exit_code, 0);
  EXPECT_EQ(ReadFile(built), ReadFile(plain));
  EXPECT_NE(ReadFile(built), ReadFile(index_));  // the documents' default build has sketches

  // Another num_perm and seed: the file's options are the index's, from standard input too.
  const std::string small = dir_.File("s.sig"), from_docs = dir_.File("a.sdx"), from_sigs = dir_.File("b.sdx");
  ASSERT_EQ(RunSimdex(dir_, {"fingerprint", "--method", "minhash", "--num-perm", "32", "--seed", "5", "-q", "-o",
                             small, docs_, queries_})
                .exit_code,
            0);
  ASSERT_EQ(RunSimdex(dir_, {"build", "--method", "minhash", "-q", "--num-perm", "32", "--seed", "5", "--sketch", "0",
                             "--out", from_docs, docs_, queries_})
                .exit_code,
            0);
  r = RunSimdex(dir_, {"build", "--method", "minhash", "-q", "--out", from_sigs, "-"}, ReadFile(small));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadFile(from_sigs), ReadFile(from_docs));
}

TEST_F(SignatureFileCli, BuildingFromSignaturesRefusesOtherProfilesAndMixedInputs) {
  const std::string sigs = dir_.File("d.sig"), other = dir_.File("o.sig"), out = dir_.File("x.sdx");
  ASSERT_EQ(RunSimdex(dir_, {"fingerprint", "--method", "minhash", "-q", "-o", sigs, docs_}).exit_code, 0);
  ASSERT_EQ(RunSimdex(dir_, {"fingerprint", "--method", "minhash", "-q", "--seed", "2", "-o", other, docs_}).exit_code,
            0);
  RunResult r = RunSimdex(dir_, {"build", "--method", "minhash", "--num-perm", "64", "--out", out, sigs});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("perm:128 seed:1', --num-perm, --seed and --shingles ask for '"), std::string::npos) << r.err;
  r = RunSimdex(dir_, {"build", "--method", "minhash", "--out", out, sigs, other});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(other + " holds signatures of '"), std::string::npos) << r.err;
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  r = RunSimdex(dir_, {"build", "--method", "minhash", "--out", out, sigs, docs_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("inputs mix MinHash signature files and documents"), std::string::npos) << r.err;
  EXPECT_FALSE(FileExists(out));
}

}  // namespace
}  // namespace simdex::clitest
