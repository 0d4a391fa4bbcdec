// MinHash-LSH indexes end to end: `simdex build --method minhash`, then
// `query` with documents (thresholds and top-k chosen at query time),
// `verify` and `inspect`; build and merge under a --memory that spills
// write the default run's bytes; the options of the other method and the
// other index kind refused with one line.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "simdex/lsh_index.h"
#include "simdex/minhash.h"
#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

// About 100 made-up words, an edited copy of them (three words added: word
// 5-shingle Jaccard about 0.97), and an unrelated text.
const char* const kOriginal =
    "lorisu nozumi rasute zumila lodobo lokazu lolosu katevi sumido norido bobori lalo kadovi fape lorimi "
    "bolafa ribo gemifa noka sumiri tenozu lorimi sumiri vilosu doka pefasu dotemi kakami terala pevino "
    "zutepe zuzu zumi bote bopedo zutezu pevino botemi bofasu zusula peka logemi tenozu dofavi nofano "
    "sute tesu zutepe lasudo lolari vivi lasu pemido pevi geka peviri lazupe nofano nobo dori sulo gedo "
    "ralori lavi rimi bope faribo fazuri temibo rami fazu gegemi gesute gemi sugebo loka bolo bote farisu "
    "fano pera sumiri nobodo favi logemi peravi kala gemilo ratevi nofano nokami pebola sumido fafa dosu";
const char* const kEdited =
    "lorisu nozumi rasute zumila lodobo lokazu lolosu katevi sumido norido bobori lalo kadovi fape lorimi "
    "bolafa ribo gemifa noka sumiri tenozu lorimi sumiri vilosu doka pefasu dotemi kakami terala pevino "
    "zutepe zuzu zumi bote bopedo zutezu pevino botemi bofasu zusula peka logemi tenozu dofavi nofano "
    "sute tesu zutepe lasudo lolari vivi lasu pemido pevi geka peviri lazupe nofano nobo dori sulo gedo "
    "ralori lavi rimi bope faribo fazuri temibo rami fazu gegemi gesute gemi sugebo loka bolo bote farisu "
    "fano pera sumiri nobodo favi logemi peravi kala gemilo ratevi nofano nokami pebola sumido fafa dosu "
    "and three more";
const char* const kUnrelated = "an unrelated text of a few words, nothing like the others at all, really";

std::string Json(const std::string& id, const std::string& text) {
  return "{\"id\":" + id + ",\"text\":\"" + text + "\"}\n";
}

class LshIndexCli : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteFile(docs_, Json("1", kOriginal) + Json("2", kUnrelated) + Json("3", kEdited) + Json("4", ""));
  }
  ScratchDir dir_;
  std::string docs_ = dir_.File("docs.jsonl");
  std::string index_ = dir_.File("docs.sdx");
};

TEST_F(LshIndexCli, BuildsAnIndexThatQueryVerifyAndInspectRead) {
  RunResult r = RunSimdex(dir_, {"build", "--method", "minhash", "--out", index_, docs_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("4 documents (1 without shingles), MinHash-LSH 16 x 8 bands"), std::string::npos) << r.out;

  r = RunSimdex(dir_, {"verify", index_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "ok: 4 documents, 16 band tables\n");

  r = RunSimdex(dir_, {"inspect", index_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* want : {"\"kind\": \"minhash-lsh\"", "\"documents\": 4", "\"banded_documents\": 3",
                           "\"num_perm\": 128", "\"bands\": 16", "\"rows\": 8", "\"threshold\": 0.8",
                           "\"format_version\": 6", "\"signature_bytes\": 256", "\"sketch_k\": 256",
                           "\"profile\": \"simdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold word-chars "
                           "perm:128 seed:1\""}) {
    EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
  }

  const std::string queries = dir_.File("q.jsonl");
  WriteFile(queries, Json("\"e\"", kEdited) + Json("\"u\"", "completely different words here, none shared") +
                         Json("\"n\"", "  "));
  r = RunSimdex(dir_, {"query", index_, queries});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_EQ(lines[0].rfind("{\"id\":\"e\",\"matches\":[{\"id\":1,\"estimate\":", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find("{\"id\":3,\"estimate\":1}"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[0].find("\"id\":2,"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1], "{\"id\":\"u\",\"matches\":[]}");
  EXPECT_EQ(lines[2], "{\"id\":\"n\",\"empty\":\"no-text\",\"matches\":[]}");

  // With the filter at 0.99 the edited copy's original drops out.
  r = RunSimdex(dir_, {"query", "--min-estimate", "0.99", index_, queries});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out)[0], "{\"id\":\"e\",\"matches\":[{\"id\":3,\"estimate\":1}]}");
}

// 3,000 documents: past half of --memory 2M (16 bands: the smallest) they
// go to scratch files in --tmpdir; a merge under --memory 4M likewise. The
// files are the default bound's, and nothing is left in --tmpdir.
TEST_F(LshIndexCli, BuildAndMergeUnderATinyMemoryWriteTheDefaultBytes) {
  std::mt19937_64 rng(5);
  std::string docs, batch;
  for (int id = 1; id <= 3300; ++id) {
    std::string text;
    for (uint64_t w = 10 + rng() % 30; w > 0; --w) text += (text.empty() ? "w" : " w") + std::to_string(rng() % 2000);
    (id <= 3000 ? docs : batch) += Json(std::to_string(id), text);
  }
  WriteFile(docs_, docs);
  const std::string more = dir_.File("more.jsonl");
  WriteFile(more, batch);
  const std::string spill = dir_.File("spill");
  ASSERT_EQ(::mkdir(spill.c_str(), 0700), 0);
  std::string built[2], merged[2];
  for (const int tiny : {0, 1}) {
    const std::string index = dir_.File("i" + std::to_string(tiny) + ".sdx");
    const std::string grown = dir_.File("m" + std::to_string(tiny) + ".sdx");
    std::vector<std::string> build = {"build", "--method", "minhash", "--tmpdir", spill, "--out", index, docs_};
    std::vector<std::string> merge = {"merge", "--tmpdir", spill, "--out", grown, index, more};
    if (tiny) {
      build.insert(build.begin() + 1, {"--memory", "2M"});
      merge.insert(merge.begin() + 1, {"--memory", "4M"});
    }
    RunResult r = RunSimdex(dir_, build);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("through scratch files") != std::string::npos, tiny == 1) << r.out;
    r = RunSimdex(dir_, merge);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    built[tiny] = ReadFile(index);
    merged[tiny] = ReadFile(grown);
    EXPECT_EQ(std::filesystem::directory_iterator(spill), std::filesystem::directory_iterator()) << "left in --tmpdir";
  }
  EXPECT_EQ(built[0], built[1]);
  EXPECT_EQ(merged[0], merged[1]);
}

TEST_F(LshIndexCli, TheOtherMethodsOptionsAreRefusedWithOneLine) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"build", "--method", "minhash", "--scheme", "t4", "--out", index_, docs_},
        std::vector<std::string>{"build", "--method", "minhash", "--k", "3", "--out", index_, docs_},
        std::vector<std::string>{"build", "--method", "minhash", "--memory", "100K", "--out", index_, docs_},
        std::vector<std::string>{"build", "--num-perm", "64", "--out", index_, docs_},
        std::vector<std::string>{"build", "--method", "minhash", "--bands", "4", "--out", index_, docs_},
        std::vector<std::string>{"build", "--method", "minhash", "--threshold", "1.5", "--out", index_, docs_},
        std::vector<std::string>{"build", "--method", "minhash", "--signature-bits", "3", "--out", index_, docs_}}) {
    const RunResult r = RunSimdex(dir_, args);
    EXPECT_EQ(r.exit_code, 2) << args[3] << ": " << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_FALSE(FileExists(index_));
  }
}

TEST_F(LshIndexCli, EachKindIsRefusedWhereTheOtherIsNeededNamingBoth) {
  ASSERT_EQ(RunSimdex(dir_, {"build", "--method", "minhash", "--out", index_, docs_}).exit_code, 0);
  const std::string fps = dir_.File("x.fp");
  ASSERT_EQ(RunSimdex(dir_, {"fingerprint", "-o", fps, docs_}).exit_code, 0);
  const std::string simhash = dir_.File("sim.sdx");
  ASSERT_EQ(RunSimdex(dir_, {"build", "--out", simhash, fps}).exit_code, 0);

  RunResult r = RunSimdex(dir_, {"dedup", "--method", "simhash", "--against", index_, "-o", dir_.File("out.jsonl"), docs_});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("a MinHash-LSH index where a SimHash index is needed"), std::string::npos) << r.err;
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  r = RunSimdex(dir_, {"merge", "--out", dir_.File("m.sdx"), simhash, "--text-field", "text", docs_});
  EXPECT_EQ(r.exit_code, 2) << r.err;  // a SimHash index's batch is fingerprint files, not documents
  r = RunSimdex(dir_, {"merge", "--out", dir_.File("m.sdx"), index_, simhash});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("sim.sdx: is a simdex index, not"), std::string::npos) << r.err;
  r = RunSimdex(dir_, {"merge", "--out", dir_.File("m.sdx"), "--k", "2", index_, docs_});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--k is a SimHash option"), std::string::npos) << r.err;
  EXPECT_FALSE(FileExists(dir_.File("m.sdx")));
  r = RunSimdex(dir_, {"query", "--k", "2", index_, docs_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("MinHash-LSH"), std::string::npos) << r.err;
  // A fingerprint file is not documents.
  r = RunSimdex(dir_, {"build", "--method", "minhash", "--out", dir_.File("y.sdx"), fps});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("holds fingerprints, not documents"), std::string::npos) << r.err;
  EXPECT_FALSE(FileExists(dir_.File("y.sdx")));
}

// --only-new: a batch document is left out when the index (here the edited
// copy of document 1) or an earlier batch document (7, a copy of 6 with a
// word added) matches it at the index's threshold; the rest is the fresh
// build of the documents kept.
TEST_F(LshIndexCli, MergeOnlyNewLeavesOutNearDuplicatesOfTheIndexAndOfTheBatch) {
  const std::string fresh_text =
      "a fresh text of some forty made up words: mela noru kiba sato vemi lupa dorin kasi welo patu nimo "
      "rebu solta finu garo mesi tupa lodi vaka nure sibo talu menda kori pisa lute rona dume hilo basa";
  const std::string more = dir_.File("more.jsonl"), kept = dir_.File("kept.jsonl");
  WriteFile(more, Json("5", std::string(kEdited) + " again") + Json("6", fresh_text) +
                      Json("7", fresh_text + " more") + Json("8", ""));
  WriteFile(kept, ReadFile(docs_) + Json("6", fresh_text) + Json("8", ""));
  ASSERT_EQ(RunSimdex(dir_, {"build", "--method", "minhash", "--out", index_, docs_}).exit_code, 0);
  RunResult r = RunSimdex(dir_, {"merge", index_, more, "--only-new", "--out", dir_.File("merged.sdx")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("6 documents (4 old - 0 deleted + 2 added; 2 batch documents left out as near-duplicates, "
                       "0 ids to delete not found), MinHash-LSH"),
            std::string::npos) << r.out;
  ASSERT_EQ(RunSimdex(dir_, {"build", "--method", "minhash", "--out", dir_.File("fresh.sdx"), kept}).exit_code, 0);
  EXPECT_EQ(ReadFile(dir_.File("merged.sdx")), ReadFile(dir_.File("fresh.sdx")));
}

TEST_F(LshIndexCli, MergeWritesTheFileAFreshBuildWrites) {
  const std::string more = dir_.File("more.jsonl"), all = dir_.File("all.jsonl"), gone = dir_.File("gone.txt");
  WriteFile(more, Json("5", "five more made-up words here, and then some others to make shingles") + Json("6", kEdited));
  WriteFile(all, ReadFile(docs_) + ReadFile(more));
  WriteFile(gone, "2\n6\n99\n");
  ASSERT_EQ(RunSimdex(dir_, {"build", "--method", "minhash", "--out", index_, docs_}).exit_code, 0);
  RunResult r = RunSimdex(dir_, {"merge", index_, more, "--out", dir_.File("merged.sdx")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("6 documents (4 old - 0 deleted + 2 added; 0 ids to delete not found), MinHash-LSH"),
            std::string::npos) << r.out;
  ASSERT_EQ(RunSimdex(dir_, {"build", "--method", "minhash", "--out", dir_.File("fresh.sdx"), all}).exit_code, 0);
  EXPECT_EQ(ReadFile(dir_.File("merged.sdx")), ReadFile(dir_.File("fresh.sdx")));
  // Deleting the old index's 2 (6 is a batch document and stays; 99 is nobody's), in place.
  r = RunSimdex(dir_, {"merge", index_, more, "--delete", gone, "--out", index_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("5 documents (4 old - 1 deleted + 2 added; 2 ids to delete not found)"), std::string::npos)
      << r.out;
  EXPECT_EQ(RunSimdex(dir_, {"verify", index_}).out, "ok: 5 documents, 16 band tables\n");
}

TEST_F(LshIndexCli, DedupAgainstAnLshIndexMarksTheBatchDocumentsItHolds) {
  ASSERT_EQ(RunSimdex(dir_, {"build", "--method", "minhash", "--out", index_, docs_}).exit_code, 0);
  const std::string batch = dir_.File("batch.jsonl");
  WriteFile(batch, Json("10", kEdited) + Json("11", "words that no stored document has, none of them at all") +
                       Json("12", kEdited) + Json("13", ""));
  for (const char* threads : {"1", "2"}) {
    const RunResult r = RunSimdex(dir_, {"dedup", "--method", "minhash", "--threads", threads, "--against", index_,
                                         "-o", "-", batch});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::vector<std::string> lines = Lines(r.out);
    ASSERT_EQ(lines.size(), 4u) << r.out;
    // The edited copy's best stored match is its identical twin, id 3 (estimate 1), not the original.
    EXPECT_EQ(lines[0], "{\"id\":10,\"cluster\":10,\"duplicate\":true,\"estimate\":1,\"against\":{\"index\":\"" +
                            index_ + "\",\"id\":3,\"estimate\":1}}");
    EXPECT_EQ(lines[1], "{\"id\":11,\"cluster\":11,\"duplicate\":false,\"estimate\":1}");
    EXPECT_EQ(lines[2], "{\"id\":12,\"cluster\":10,\"duplicate\":true,\"estimate\":1,\"against\":{\"index\":\"" +
                            index_ + "\",\"id\":3,\"estimate\":1}}");
    EXPECT_EQ(lines[3], "{\"id\":13,\"cluster\":13,\"duplicate\":false,\"estimate\":0,\"empty\":\"no-text\"}");
    EXPECT_NE(r.err.find("against 1 MinHash-LSH index: 2 documents with a match"), std::string::npos) << r.err;
  }
  // Signatures made otherwise than the index's are refused, naming both.
  for (const std::vector<std::string>& other : {std::vector<std::string>{"--num-perm", "64"},
                                                std::vector<std::string>{"--seed", "7"}}) {
    std::vector<std::string> args = {"dedup", "--method", "minhash", "--against", index_, "-o", dir_.File("o.jsonl"), batch};
    args.insert(args.begin() + 3, other.begin(), other.end());
    const RunResult r = RunSimdex(dir_, args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find("perm:128 seed:1'; this batch is signed as '"), std::string::npos) << r.err;
    EXPECT_FALSE(FileExists(dir_.File("o.jsonl")));
  }
}

// 100 made-up words and copies with their last m words replaced: word
// 5-shingle Jaccard about 0.83 (m = 5), 0.67 (15) and 0.54 (25).
std::string Variant(int replaced) {
  std::mt19937_64 rng(17);
  std::string text;
  for (int w = 0; w < 100; ++w) {
    const uint64_t word = w < 100 - replaced ? rng() % 5000 : 5000 + 100 * static_cast<uint64_t>(replaced) + w;
    text += (text.empty() ? "w" : " w") + std::to_string(word);
  }
  return text;
}

// The line `simdex query` prints for a document's matches, from the
// library's answer to its signature and shingles (LshIndexReader::Query
// with options: on the index's sketches).
std::string LibraryLine(const std::string& index, const std::string& id, const std::string& text,
                        const LshQueryOptions& options) {
  std::unique_ptr<LshIndexReader> reader;
  EXPECT_TRUE(LshIndexReader::Open(index, ReaderOptions(), &reader).ok());
  std::unique_ptr<MinHasher> hasher;
  EXPECT_TRUE(MinHasher::Create(reader->minhash_options(), &hasher).ok());
  std::vector<uint32_t> signature(static_cast<size_t>(reader->minhash_options().num_perm));
  std::vector<uint64_t> shingles;
  hasher->Sign(text, signature.data(), &shingles);
  std::vector<LshMatch> matches;
  const Status s = reader->Query(signature.data(), shingles, options, &matches);
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::string line = "{\"id\":" + id + ",\"matches\":[";
  for (size_t j = 0; j < matches.size(); ++j) {
    char match[96];
    std::snprintf(match, sizeof match, "%s{\"id\":%llu,\"estimate\":%.4g", j > 0 ? "," : "",
                  static_cast<unsigned long long>(matches[j].id), matches[j].estimate);
    line += match;
    if (matches[j].threshold > 0) {
      std::snprintf(match, sizeof match, ",\"threshold\":%g", matches[j].threshold);
      line += match;
    }
    line += "}";
  }
  return line + "]}";
}

// An index built for 0.5 answers 0.5, 0.7 and 0.9 at once, each match
// labelled with the highest it passes, and its top k: what the library
// answers, line for line; 0.4 is refused naming both thresholds.
TEST_F(LshIndexCli, QueryTimeThresholdsAndTopKPrintTheLibrarysAnswer) {
  WriteFile(docs_, Json("1", Variant(0)) + Json("2", Variant(5)) + Json("3", Variant(15)) + Json("4", Variant(25)) +
                       Json("5", kUnrelated) + Json("6", Variant(0)));
  const RunResult built = RunSimdex(dir_, {"build", "--method", "minhash", "--threshold", "0.5", "--out", index_, docs_});
  ASSERT_EQ(built.exit_code, 0) << built.err;
  const std::string query = dir_.File("q.jsonl");
  WriteFile(query, Json("\"q\"", Variant(0)));

  LshQueryOptions options;
  options.thresholds = {0.5, 0.7, 0.9};
  RunResult r = RunSimdex(dir_, {"query", "--threshold", "0.5,0.7,0.9", index_, query});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string all = LibraryLine(index_, "\"q\"", Variant(0), options);
  EXPECT_EQ(r.out, all + "\n");
  for (const char* label : {"\"threshold\":0.9}", "\"threshold\":0.7}", "\"threshold\":0.5}"}) {
    EXPECT_NE(all.find(label), std::string::npos) << label << " in " << all;  // every level is reached
  }
  EXPECT_EQ(all.find("{\"id\":5,"), std::string::npos) << all;
  // --threshold 0.9,0.5,0.7 is the same query; repeated options add up.
  EXPECT_EQ(RunSimdex(dir_, {"query", "--threshold", "0.9", "--threshold", "0.5,0.7", index_, query}).out, r.out);

  // The K highest estimates: the two identical copies (ids 1 and 6, estimate 1, in id order), then 2.
  options.top_k = 3;
  r = RunSimdex(dir_, {"query", "--threshold", "0.5,0.7,0.9", "--top-k", "3", index_, query});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, LibraryLine(index_, "\"q\"", Variant(0), options) + "\n");
  EXPECT_EQ(r.out.rfind("{\"id\":\"q\",\"matches\":[{\"id\":1,\"estimate\":1,\"threshold\":0.9},"
                        "{\"id\":6,\"estimate\":1,\"threshold\":0.9},{\"id\":2,", 0),
            0u) << r.out;
  options = LshQueryOptions();
  options.top_k = 1;
  r = RunSimdex(dir_, {"query", "--top-k", "1", index_, query});
  EXPECT_EQ(r.out, LibraryLine(index_, "\"q\"", Variant(0), options) + "\n");

  r = RunSimdex(dir_, {"query", "--threshold", "0.9,0.4", index_, query});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "simdex query: " + index_ + ": threshold 0.4 is below the index's 0.5: its bands were chosen "
                   "for 0.5 and answer thresholds at or above it\n");
  EXPECT_EQ(r.out, "");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"query", "--threshold", "1.5", index_, query},
        std::vector<std::string>{"query", "--threshold", "0.8", "--min-estimate", "0.5", index_, query},
        std::vector<std::string>{"query", "--top-k", "0", index_, query}}) {
    r = RunSimdex(dir_, args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << ": " << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  }
  // They are MinHash-LSH options.
  const std::string fps = dir_.File("x.fp"), simhash = dir_.File("sim.sdx");
  ASSERT_EQ(RunSimdex(dir_, {"fingerprint", "-o", fps, docs_}).exit_code, 0);
  ASSERT_EQ(RunSimdex(dir_, {"build", "--out", simhash, fps}).exit_code, 0);
  for (const char* option : {"--threshold", "--top-k"}) {
    r = RunSimdex(dir_, {"query", option, "1", simhash, fps});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err, std::string("simdex query: ") + option + " is a MinHash-LSH option; " + simhash +
                         " is a SimHash index\n");
  }
}

// `--sketch 0` builds the version 5 file of before, whose queries decide on
// the signatures, as `query --approximate` does on an index of sketches;
// with sketches the estimates are the sketches' (exact for these short
// documents, each stored whole).
TEST_F(LshIndexCli, SketchZeroAndApproximateQueriesDecideOnSignatures) {
  WriteFile(docs_, Json("1", Variant(0)) + Json("2", Variant(5)) + Json("3", Variant(15)) + Json("4", Variant(25)));
  const std::string plain = dir_.File("plain.sdx");
  ASSERT_EQ(RunSimdex(dir_, {"build", "--method", "minhash", "--threshold", "0.5", "--out", index_, docs_}).exit_code, 0);
  ASSERT_EQ(RunSimdex(dir_, {"build", "--method", "minhash", "--threshold", "0.5", "--sketch", "0", "--out", plain,
                             docs_}).exit_code, 0);
  RunResult r = RunSimdex(dir_, {"inspect", plain});
  EXPECT_NE(r.out.find("\"format_version\": 5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"sketch_k\": 0"), std::string::npos) << r.out;
  const std::string query = dir_.File("q.jsonl");
  WriteFile(query, Json("\"q\"", Variant(0)));
  const RunResult on_plain = RunSimdex(dir_, {"query", "--min-estimate", "0", plain, query});
  const RunResult approximate = RunSimdex(dir_, {"query", "--approximate", "--min-estimate", "0", index_, query});
  const RunResult sketched = RunSimdex(dir_, {"query", "--min-estimate", "0", index_, query});
  ASSERT_EQ(on_plain.exit_code, 0) << on_plain.err;
  EXPECT_EQ(approximate.out, on_plain.out);
  EXPECT_NE(sketched.out, on_plain.out);
  LshQueryOptions options;
  options.min_estimate = 0;
  EXPECT_EQ(sketched.out, LibraryLine(index_, "\"q\"", Variant(0), options) + "\n");
}

TEST_F(LshIndexCli, ABadRecordFailsTheBuildAndLeavesNoFile) {
  WriteFile(docs_, Json("1", kOriginal) + "{not json\n");
  const RunResult r = RunSimdex(dir_, {"build", "--method", "minhash", "--out", index_, docs_});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("docs.jsonl:2: invalid JSON"), std::string::npos) << r.err;
  EXPECT_EQ(dir_.List(), std::vector<std::string>{"docs.jsonl"});
}

}  // namespace
}  // namespace simdex::clitest
