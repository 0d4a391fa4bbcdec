// SignatureFileWriter / SignatureFileReader (include/simdex/signature_file.h):
// round trips, the bytes written, and every malformed line named by file
// and line.
#include "simdex/signature_file.h"

#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/fingerprint_file.h"
#include "tests/io/io_test_util.h"

namespace simdex {
namespace {

using testing::ReadFile;
using testing::TempDir;

struct Doc {
  uint64_t id = 0;
  std::string id_string;
  std::vector<uint32_t> signature;  // empty: no signature
};

MinHashOptions Options(int num_perm, uint64_t seed = 1) {
  MinHashOptions o;
  o.num_perm = num_perm;
  o.seed = seed;
  return o;
}

// Numeric and string ids, one document in seven without a signature.
std::vector<Doc> RandomDocs(size_t n, int num_perm, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Doc> docs(n);
  for (size_t i = 0; i < n; ++i) {
    Doc& d = docs[i];
    if (rng() % 3 == 0) d.id_string = "https://a.example/" + std::to_string(rng() % 100000);
    else d.id = rng() >> (rng() % 64);
    if (rng() % 7 == 0) continue;
    for (int j = 0; j < num_perm; ++j) d.signature.push_back(static_cast<uint32_t>(rng()));
  }
  return docs;
}

Status Write(const std::string& path, const MinHashOptions& options, const std::vector<Doc>& docs) {
  std::unique_ptr<SignatureFileWriter> writer;
  SIMDEX_RETURN_IF_ERROR(SignatureFileWriter::Open(path, options, &writer));
  for (const Doc& d : docs) {
    const bool string_id = !d.id_string.empty();
    if (d.signature.empty()) {
      SIMDEX_RETURN_IF_ERROR(string_id ? writer->AddEmpty(d.id_string, "no-text") : writer->AddEmpty(d.id, "no-text"));
    } else {
      SIMDEX_RETURN_IF_ERROR(string_id ? writer->Add(d.id_string, d.signature.data())
                                       : writer->Add(d.id, d.signature.data()));
    }
  }
  return writer->Finish();
}

struct ReadResult {
  Status status;
  std::vector<SignatureEntry> entries;
  std::string profile;
  MinHashOptions options;
  SignatureFileStats stats;
};

ReadResult ReadAll(const std::string& path) {
  ReadResult r;
  std::unique_ptr<SignatureFileReader> reader;
  r.status = SignatureFileReader::Open(path, &reader);
  if (!r.status.ok()) return r;
  r.profile = reader->profile();
  r.options = reader->options();
  SignatureEntry e;
  for (bool eof = false;;) {
    r.status = reader->Next(&e, &eof);
    if (!r.status.ok() || eof) break;
    r.entries.push_back(e);
  }
  r.stats = reader->stats();
  return r;
}

void ExpectSameDocs(const std::vector<Doc>& docs, const ReadResult& r) {
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.entries.size(), docs.size());
  uint64_t empty = 0;
  for (size_t i = 0; i < docs.size(); ++i) {
    const SignatureEntry& e = r.entries[i];
    EXPECT_EQ(e.id, docs[i].id) << i;
    EXPECT_EQ(e.id_string, docs[i].id_string) << i;
    EXPECT_EQ(e.empty, docs[i].signature.empty()) << i;
    EXPECT_EQ(e.signature, docs[i].signature) << i;
    EXPECT_EQ(e.line, i + 2) << "the header is line 1";
    if (e.empty) {
      EXPECT_EQ(e.empty_reason, "no-text");
      ++empty;
    }
  }
  EXPECT_EQ(r.stats.empty, empty);
  EXPECT_EQ(r.stats.records, docs.size() - empty);
}

class SignatureFileTest : public ::testing::Test {
 protected:
  // A header line for `options` and the given lines after it.
  std::string File(const std::string& name, const std::string& lines, const MinHashOptions& options = Options(2)) {
    return dir_.Write(name, "#simdex-signatures\t" + MinHashProfile(options) + "\n" + lines);
  }
  TempDir dir_;
};

TEST_F(SignatureFileTest, TheFileIsAHeaderThenOneLinePerDocument) {
  const std::string path = dir_.Path("s.txt");
  ASSERT_TRUE(Write(path, Options(2, 7),
                    {{42, "", {0x9f3a0c71, 0x00000001}}, {43, "", {}}, {0, "doc/b", {0xffffffff, 0x0000abcd}}})
                  .ok());
  EXPECT_EQ(ReadFile(path),
            "#simdex-signatures\tsimdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold word-chars perm:2 seed:7\n"
            "42\t9f3a0c7100000001\n"
            "43\t-\tno-text\n"
            "doc/b\tffffffff0000abcd\n");
}

TEST_F(SignatureFileTest, RoundTripsIdsSignaturesEmptiesAndTheProfileInEveryCompression) {
  MinHashOptions options = Options(128, 99);
  options.shingles.word_n = 3;
  const std::vector<Doc> docs = RandomDocs(800, 128, 5);
  for (std::string suffix : {"", ".gz", ".zst", ".bz2"}) {
    const std::string path = dir_.Path("s.txt" + suffix);
    ASSERT_TRUE(Write(path, options, docs).ok()) << suffix;
    ReadResult r = ReadAll(path);
    ExpectSameDocs(docs, r);
    EXPECT_EQ(r.profile, MinHashProfile(options)) << suffix;
    EXPECT_EQ(MinHashProfile(r.options), MinHashProfile(options)) << suffix;
  }
}

TEST_F(SignatureFileTest, OneValueAndTheLargestNumPermRoundTrip) {
  for (int num_perm : {1, kMaxNumPerm}) {
    const std::vector<Doc> docs = RandomDocs(50, num_perm, static_cast<uint32_t>(num_perm));
    const std::string path = dir_.Path("s" + std::to_string(num_perm));
    ASSERT_TRUE(Write(path, Options(num_perm), docs).ok());
    ReadResult r = ReadAll(path);
    ExpectSameDocs(docs, r);
    EXPECT_EQ(r.options.num_perm, num_perm);
  }
}

TEST_F(SignatureFileTest, ReaderAcceptsCrlfUpperCaseHexBlankLinesAndNoFinalNewline) {
  ReadResult r = ReadAll(File("s.txt", "1\t0000000AFFFFFFFF\r\n\n2\t-\tno-text\n3\t0000000100000002"));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.entries.size(), 3u);
  EXPECT_EQ(r.entries[0].signature, (std::vector<uint32_t>{10, 0xffffffff}));
  EXPECT_TRUE(r.entries[1].empty);
  EXPECT_EQ(r.entries[2].signature, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(r.entries[2].line, 5u);
}

TEST_F(SignatureFileTest, EveryMalformedLineNamesFileAndLine) {
  struct Case {
    const char* line;
    const char* message;
  };
  const Case cases[] = {
      {"7\t000000010000000", ":3: signature has 15 hex digits, not 16 (2 values of 8)"},
      {"7\t00000001000000020", ":3: signature has 17 hex digits, not 16 (2 values of 8)"},
      {"7\t", ":3: signature has 0 hex digits, not 16 (2 values of 8)"},
      {"7\t0000000g00000002", ":3: signature digit 8 is 'g', not a hex digit"},
      {"7\t00000001 0000002", ":3: signature digit 9 is byte 0x20, not a hex digit"},
      {"7\t0x00000100000002", ":3: signature digit 2 is 'x', not a hex digit"},
      {"no tab here", ":3: expected '<id><TAB><signature>' or '<id><TAB>-<TAB><reason>', got 'no tab here'"},
      {"7\t-", ":3: empty-document line without '<TAB><reason>': '7\\t-'"},
      {"\t0000000100000002", ":3: bad id '': id is empty"},
  };
  for (const Case& c : cases) {
    const std::string path = File("s.txt", "1\t0000000100000002\n" + std::string(c.line) + "\n");
    ReadResult r = ReadAll(path);
    EXPECT_TRUE(r.status.IsInvalidArgument()) << c.line;
    EXPECT_EQ(r.status.message(), path + c.message) << c.line;
    EXPECT_EQ(r.entries.size(), 1u) << "the line before is read: " << c.line;
  }
}

TEST_F(SignatureFileTest, AMissingOrForeignHeaderIsRefusedOnLineOne) {
  struct Case {
    const char* file;
    const char* message;
  };
  const Case cases[] = {
      {"", ":1: empty, not a MinHash signature file (no '#simdex-signatures' line)"},
      {"just a line of text\n",
       ":1: not a MinHash signature file: the first line is not '#simdex-signatures<TAB><profile>'"},
      {"{\"id\":1,\"text\":\"a\"}\n",
       ":1: not a MinHash signature file: the first line is not '#simdex-signatures<TAB><profile>'"},
      {"\n#simdex-signatures\tsimdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold perm:2 seed:1\n",
       ":1: not a MinHash signature file: the first line is not '#simdex-signatures<TAB><profile>'"},
      {"42\t9f3a0c71d2e4b856\n",
       ":1: holds SimHash fingerprints, not MinHash signatures (simdex fingerprint --method minhash makes them)"},
      {"#simdex-profile\tsimdex-fp/3 words\n42\t9f3a0c71d2e4b856\n",
       ":1: holds SimHash fingerprints, not MinHash signatures (simdex fingerprint --method minhash makes them)"},
      {"#simdex-signatures\tsimdex-minhash/2 perm:2\n",
       ":1: bad signature header: signature profile 'simdex-minhash/2 perm:2' is not one this build makes "
       "(simdex-minhash/1 ...)"},
      {"#simdex-signatures\tsimdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold perm:0 seed:1\n",
       ":1: bad signature header: minhash: num_perm 0 is not 1..1024"},
      {"#simdex-signatures\tsimdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold perm:99999999999 seed:1\n",
       ":1: bad signature header: signature profile 'simdex-minhash/1 words:5 chars:5 unspaced:0.5 "
       "nfkc-casefold perm:99999999999 seed:1' is not one this build makes (simdex-minhash/1 ...)"},
  };
  for (const Case& c : cases) {
    const std::string path = dir_.Write("s.txt", c.file);
    ReadResult r = ReadAll(path);
    EXPECT_TRUE(r.status.IsInvalidArgument()) << c.file;
    EXPECT_EQ(r.status.message(), path + c.message) << c.file;
  }
}

TEST_F(SignatureFileTest, ABinaryFingerprintFileAndAnIndexAreNamed) {
  const std::string fp = dir_.Path("fp.bin");
  std::unique_ptr<FingerprintFileWriter> writer;
  ASSERT_TRUE(FingerprintFileWriter::Open(fp, FingerprintFileForm::kBinary, &writer).ok());
  ASSERT_TRUE(writer->Add(1, 2).ok());
  ASSERT_TRUE(writer->Finish().ok());
  EXPECT_EQ(ReadAll(fp).status.message(),
            fp + ": holds SimHash fingerprints (the binary form), not MinHash signatures");
  const std::string index = dir_.Write("x.sdx", std::string("SIMDEXIX\x05\0\0\0@\0\0\0", 16));
  EXPECT_EQ(ReadAll(index).status.message(), index + ": is a simdex index, not a MinHash signature file");
}

TEST_F(SignatureFileTest, ATruncatedFileIsAnErrorWhereTheCutFallsInASignature) {
  const std::vector<Doc> docs = RandomDocs(40, 16, 11);
  const std::string whole = dir_.Path("whole.txt");
  ASSERT_TRUE(Write(whole, Options(16), docs).ok());
  const std::string bytes = ReadFile(whole);
  // Cut within the signature of the last document with one.
  size_t last = docs.size();
  while (docs[last - 1].signature.empty()) --last;
  const size_t line_start = [&] {
    size_t pos = 0;
    for (size_t i = 0; i < last; ++i) pos = bytes.find('\n', pos) + 1;  // past the header and `last - 1` lines
    return pos;
  }();
  const size_t cut = bytes.find('\t', line_start) + 1 + 50;
  const std::string path = dir_.Write("cut.txt", bytes.substr(0, cut));
  ReadResult r = ReadAll(path);
  EXPECT_TRUE(r.status.IsInvalidArgument());
  EXPECT_EQ(r.status.message(), path + ":" + std::to_string(last + 1) +
                                    ": signature has 50 hex digits, not 128 (16 values of 8)");
  // A compressed file cut anywhere is an error naming the file.
  const std::string gz = dir_.Path("whole.txt.gz");
  ASSERT_TRUE(Write(gz, Options(16), docs).ok());
  const std::string zipped = ReadFile(gz);
  const std::string cut_gz = dir_.Write("cut.txt.gz", zipped.substr(0, zipped.size() / 2));
  r = ReadAll(cut_gz);
  EXPECT_FALSE(r.status.ok());
  EXPECT_NE(r.status.message().find("cut.txt.gz"), std::string::npos) << r.status.message();
}

TEST_F(SignatureFileTest, TheWriterRefusesBadIdsAndOptionsAndKeepsTheFirstError) {
  std::unique_ptr<SignatureFileWriter> writer;
  EXPECT_TRUE(SignatureFileWriter::Open(dir_.Path("a"), Options(0), &writer).IsInvalidArgument());
  EXPECT_TRUE(SignatureFileWriter::Open(dir_.Path("a"), Options(kMaxNumPerm + 1), &writer).IsInvalidArgument());
  ASSERT_TRUE(SignatureFileWriter::Open(dir_.Path("b"), Options(2), &writer).ok());
  const uint32_t signature[2] = {1, 2};
  EXPECT_TRUE(writer->Add(std::string_view("#simdex-signatures"), signature).ok()) << "after the header, an id";
  EXPECT_TRUE(writer->Add(std::string_view(""), signature).IsInvalidArgument());
  EXPECT_TRUE(writer->Add(7, signature).IsInvalidArgument()) << "the first error is kept";
  EXPECT_TRUE(writer->Finish().IsInvalidArgument());
  EXPECT_FALSE(std::filesystem::exists(dir_.Path("b"))) << "nothing under the final name";
}

TEST_F(SignatureFileTest, TheFingerprintReaderRefusesASignatureFileNamingWhatItHolds) {
  const std::string path = dir_.Path("s.txt");
  ASSERT_TRUE(Write(path, Options(2), {{1, "", {1, 2}}}).ok());
  std::unique_ptr<FingerprintFileReader> reader;
  Status s = FingerprintFileReader::Open(path, {}, &reader);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ(s.message(),
            path + ":1: holds MinHash signatures (simdex fingerprint --method minhash), not SimHash fingerprints");
}

TEST_F(SignatureFileTest, AFingerprintFileCannotStartWithAnIdTakenForTheSignatureHeader) {
  std::unique_ptr<FingerprintFileWriter> writer;
  ASSERT_TRUE(FingerprintFileWriter::Open(dir_.Path("fp.txt"), FingerprintFileForm::kText, &writer).ok());
  EXPECT_TRUE(writer->Add(std::string_view("#simdex-signatures"), 1).IsInvalidArgument());
}

}  // namespace
}  // namespace simdex
