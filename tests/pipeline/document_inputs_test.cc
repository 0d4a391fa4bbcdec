// The batch jobs of include/simdex/document_inputs.h against oracles made
// here one document at a time: the documents of several files (more than a
// batch, ordinal ids continuing from file to file) fingerprinted as a
// Fingerprinter does, signed as a MinHasher does, their idf learned as an
// IdfLearner fed the texts learns it, all in input order on any number of
// threads; bad records skipped and counted; the first error of a sink ends
// the job; each input's format chosen by its name, else its content.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/document_inputs.h"
#include "simdex/idf_learner.h"
#include "simdex/minhash.h"
#include "tests/index/test_data.h"

namespace simdex {
namespace {

// One document of the files: the id the reader gives it and its text.
struct Expected {
  uint64_t id = 0;
  std::string id_string;
  std::string text;
};

// A JSONL file of 400 documents (numeric ids, every 7th a string id, every
// 50th empty) and a file of 300 lines, both more than a batch of 256, the
// second with ordinal ids continuing after the first file's 400 records.
class DocumentInputsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string jsonl;
    for (int i = 0; i < 400; ++i) {
      Expected e;
      e.text = i % 50 == 0 ? "" : "words of document " + std::to_string(i % 90) + " and its copy number " +
                                      std::to_string(i % 3) + " which repeats a common phrase";
      const bool string_id = i % 7 == 0;
      if (string_id) {
        e.id_string = "doc-" + std::to_string(i);
        jsonl += "{\"id\":\"" + e.id_string + "\",\"text\":\"" + e.text + "\"}\n";
      } else {
        e.id = 1000 + static_cast<uint64_t>(i);
        jsonl += "{\"id\":" + std::to_string(e.id) + ",\"text\":\"" + e.text + "\"}\n";
      }
      expected_.push_back(e);
    }
    std::string lines;
    for (int i = 0; i < 300; ++i) {
      Expected e;
      e.id = 400 + static_cast<uint64_t>(i) + 1;
      e.text = "a line of plain text number " + std::to_string(i % 40) + " in the second file";
      lines += e.text + "\n";
      expected_.push_back(e);
    }
    testing::WriteFileOrDie(dir_.File("a.jsonl"), jsonl);
    testing::WriteFileOrDie(dir_.File("b.txt"), lines);
    files_.paths = {dir_.File("a.jsonl"), dir_.File("b.txt")};
  }

  void ExpectDocument(const Document& got, size_t ordinal) const {
    ASSERT_LT(ordinal, expected_.size());
    const Expected& want = expected_[ordinal];
    EXPECT_EQ(got.id_string, want.id_string) << ordinal;
    if (want.id_string.empty()) {
      EXPECT_EQ(got.id, want.id) << ordinal;
    }
    EXPECT_EQ(got.text, want.text) << ordinal;
  }

  testing::ScopedTempDir dir_;
  DocumentFiles files_;
  std::vector<Expected> expected_;
};

TEST_F(DocumentInputsTest, ForEachDocumentGivesEveryDocumentInOrder) {
  size_t ordinal = 0;
  DocumentFilesStats stats;
  ASSERT_TRUE(ForEachDocument(
                  files_, [&](const Document& d) { ExpectDocument(d, ordinal++); return Status::OK(); }, &stats)
                  .ok());
  EXPECT_EQ(ordinal, expected_.size());
  EXPECT_EQ(stats.documents, expected_.size());
  const uint64_t bytes = testing::ReadFileOrDie(files_.paths[0]).size() + testing::ReadFileOrDie(files_.paths[1]).size();
  EXPECT_EQ(stats.bytes, bytes);
  EXPECT_EQ(stats.skipped, 0u);
}

TEST_F(DocumentInputsTest, FingerprintsEachDocumentAsAFingerprinterDoes) {
  std::unique_ptr<Fingerprinter> fingerprinter;
  ASSERT_TRUE(Fingerprinter::Create(FingerprintOptions(), &fingerprinter).ok());
  for (int threads : {1, 3}) {
    size_t ordinal = 0;
    DocumentFilesStats stats;
    NoProgress progress;
    const Status s = FingerprintDocuments(
        files_, *fingerprinter, threads, &progress,
        [&](const FingerprintedDocuments& b) {
          EXPECT_EQ(b.documents.size(), b.results.size());
          for (size_t i = 0; i < b.documents.size(); ++i, ++ordinal) {
            ExpectDocument(b.documents[i], ordinal);
            const FingerprintResult want = fingerprinter->Fingerprint(b.documents[i].text);
            EXPECT_EQ(b.results[i].empty(), want.empty()) << ordinal;
            EXPECT_EQ(b.results[i].fingerprint, want.fingerprint) << ordinal;
            EXPECT_EQ(b.results[i].reason, want.reason) << ordinal;
          }
          return Status::OK();
        },
        &stats);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(ordinal, expected_.size()) << threads;
    EXPECT_EQ(stats.documents, expected_.size()) << threads;
  }
}

TEST_F(DocumentInputsTest, SignsEachDocumentAsAMinHasherDoes) {
  MinHashOptions options;
  options.num_perm = 32;
  std::unique_ptr<MinHasher> hasher;
  ASSERT_TRUE(MinHasher::Create(options, &hasher).ok());
  for (int threads : {1, 3}) {
    size_t ordinal = 0;
    size_t without_shingles = 0;
    DocumentFilesStats stats;
    const Status s = SignDocuments(
        files_, options, threads, nullptr,
        [&](const SignedDocuments& b) {
          EXPECT_EQ(b.num_perm, 32u);
          EXPECT_EQ(b.signatures.size(), b.documents.size() * 32);
          EXPECT_EQ(b.has_shingles.size(), b.documents.size());
          EXPECT_EQ(b.shingles.size(), b.documents.size());
          for (size_t i = 0; i < b.documents.size(); ++i, ++ordinal) {
            ExpectDocument(b.documents[i], ordinal);
            std::vector<uint32_t> want(32);
            std::vector<uint64_t> shingles;
            const bool has = hasher->Sign(b.documents[i].text, want.data(), &shingles) != ShingleKind::kNone;
            EXPECT_EQ(b.has_shingles[i] != 0, has) << ordinal;
            without_shingles += has ? 0 : 1;
            if (has) {
              EXPECT_EQ(std::vector<uint32_t>(b.signature(i), b.signature(i) + 32), want) << ordinal;
            }
            EXPECT_EQ(b.shingles[i], shingles) << ordinal;
          }
          return Status::OK();
        },
        &stats);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(ordinal, expected_.size()) << threads;
    EXPECT_EQ(without_shingles, 8u) << threads;  // the empty texts, every 50th of the first file
  }
}

TEST_F(DocumentInputsTest, LearnsTheIdfAnIdfLearnerFedTheTextsLearns) {
  FingerprintOptions options;
  testing::ScopedTempDir spill;
  IdfLearnerOptions learn{.memory_bytes = size_t{1} << 20, .tmpdir = spill.path(), .threads = 2};
  std::unique_ptr<IdfLearner> oracle;
  ASSERT_TRUE(IdfLearner::Create(options, learn, &oracle).ok());
  for (const Expected& e : expected_) ASSERT_TRUE(oracle->Add(e.text).ok());
  std::shared_ptr<const IdfTable> want;
  ASSERT_TRUE(oracle->Finish(&want).ok());

  std::shared_ptr<const IdfTable> got;
  IdfLearnerStats stats;
  const Status s = LearnIdf(files_, options, learn, nullptr, &got, &stats);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(stats.documents, expected_.size());
  EXPECT_EQ(stats.features, oracle->stats().features);
  EXPECT_EQ(stats.kept, oracle->stats().kept);
  EXPECT_EQ(got->default_idf(), want->default_idf());
  ASSERT_EQ(got->hash_entries().size(), want->hash_entries().size());
  EXPECT_TRUE(std::equal(got->hash_entries().begin(), got->hash_entries().end(), want->hash_entries().begin()));
  EXPECT_EQ(IdfTableBytes(*got), got->hash_entries().size() * 16);
}

TEST_F(DocumentInputsTest, BadRecordsAreSkippedAndCountedOrStopTheJob) {
  std::string jsonl = "{\"id\":1,\"text\":\"first\"}\n";
  for (int i = 0; i < 7; ++i) jsonl += i % 2 == 0 ? "{bad\n" : "{\"id\":5}\n";
  jsonl += "{\"id\":2,\"text\":\"last\"}\n";
  const std::string path = dir_.File("bad.jsonl");
  testing::WriteFileOrDie(path, jsonl);
  DocumentFiles files;
  files.paths = {path};
  std::vector<std::string> texts;
  auto collect = [&](const Document& d) {
    texts.push_back(d.text);
    return Status::OK();
  };
  DocumentFilesStats stats;
  const Status stopped = ForEachDocument(files, collect, &stats);
  EXPECT_FALSE(stopped.ok());
  EXPECT_NE(stopped.message().find("bad.jsonl:2"), std::string::npos) << stopped.ToString();

  files.skip_bad = true;
  texts.clear();
  ASSERT_TRUE(ForEachDocument(files, collect, &stats).ok());
  EXPECT_EQ(texts, (std::vector<std::string>{"first", "last"}));
  EXPECT_EQ(stats.documents, 2u);
  EXPECT_EQ(stats.skipped, 7u);
  ASSERT_EQ(stats.first_errors.size(), 5u);
  EXPECT_NE(stats.first_errors[0].find("bad.jsonl:2"), std::string::npos) << stats.first_errors[0];
}

TEST_F(DocumentInputsTest, BlankLinesOfEveryInputAreCounted) {
  const std::string a = dir_.File("a.jsonl"), b = dir_.File("b.jsonl");
  testing::WriteFileOrDie(a, "{\"id\":1,\"text\":\"one\"}\n\n  \n");
  testing::WriteFileOrDie(b, "\t\n{\"id\":2,\"text\":\"two\"}\n");
  DocumentFiles files;
  files.paths = {a, b};
  DocumentFilesStats stats;
  ASSERT_TRUE(ForEachDocument(files, [](const Document&) { return Status::OK(); }, &stats).ok());
  EXPECT_EQ(stats.documents, 2u);
  EXPECT_EQ(stats.blank_lines, 3u);
}

TEST_F(DocumentInputsTest, TheSinksFirstErrorEndsTheJob) {
  std::unique_ptr<Fingerprinter> fingerprinter;
  ASSERT_TRUE(Fingerprinter::Create(FingerprintOptions(), &fingerprinter).ok());
  int batches = 0;
  DocumentFilesStats stats;
  const Status s = FingerprintDocuments(
      files_, *fingerprinter, 2, nullptr,
      [&](const FingerprintedDocuments&) {
        return ++batches == 2 ? Status::IOError("the sink's error") : Status::OK();
      },
      &stats);
  EXPECT_EQ(s.ToString(), Status::IOError("the sink's error").ToString());
  EXPECT_EQ(batches, 2);
}

TEST(ChooseBatchFormatsTest, ByNameThenByContentUnlessForced) {
  testing::ScopedTempDir dir;
  testing::WriteFileOrDie(dir.File("docs.jsonl"), "one line, whatever it holds\n");
  testing::WriteFileOrDie(dir.File("fp.fp"), "{}\n");
  testing::WriteFileOrDie(dir.File("json.txt"), "{\"id\":1,\"text\":\"a\"}\n");
  testing::WriteFileOrDie(dir.File("lines.txt"), "plain text\n");
  testing::WriteFileOrDie(dir.File("fingerprints.txt"), "7\t0123456789abcdef\n");
  testing::WriteFileOrDie(dir.File("sig.txt"), "#simdex-signatures\tsimdex-minhash/1\n");
  const std::vector<std::string> paths = {dir.File("docs.jsonl"), dir.File("fp.fp"), dir.File("json.txt"),
                                          dir.File("lines.txt"), dir.File("fingerprints.txt")};
  std::vector<BatchFormat> formats;
  std::vector<std::string> notes;
  ASSERT_TRUE(ChooseBatchFormats(paths, "", &formats, &notes).ok());
  EXPECT_EQ(formats, (std::vector<BatchFormat>{BatchFormat::kJsonl, BatchFormat::kFingerprints, BatchFormat::kJsonl,
                                               BatchFormat::kLines, BatchFormat::kFingerprints}));
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0], dir.File("json.txt") + ": read as JSON Lines (judged by its content; --format chooses)");
  EXPECT_EQ(notes[1], dir.File("fingerprints.txt") + ": read as a fingerprint file (judged by its content; --format chooses)");

  notes.clear();
  ASSERT_TRUE(ChooseBatchFormats(paths, "lines", &formats, &notes).ok());
  EXPECT_EQ(formats, std::vector<BatchFormat>(paths.size(), BatchFormat::kLines));
  EXPECT_TRUE(notes.empty());

  const Status refused = ChooseBatchFormats({dir.File("sig.txt")}, "", &formats, &notes);
  EXPECT_TRUE(refused.IsInvalidArgument()) << refused.ToString();
  EXPECT_NE(refused.message().find("holds MinHash signatures"), std::string::npos) << refused.ToString();
  ASSERT_TRUE(ChooseBatchFormats({dir.File("sig.txt")}, "", &formats, &notes, /*allow_signatures=*/true).ok());
  EXPECT_EQ(formats, std::vector<BatchFormat>{BatchFormat::kSignatures});
}

}  // namespace
}  // namespace simdex
