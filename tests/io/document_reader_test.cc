#include "simdex/document_reader.h"

#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/io/io_test_util.h"

namespace simdex {
namespace {

using testing::Compress;
using testing::TempDir;

struct ReadResult {
  Status status;
  std::vector<Document> docs;
  DocumentReaderStats stats;
};

ReadResult ReadAll(const std::string& path, const DocumentReaderOptions& options) {
  ReadResult r;
  std::unique_ptr<DocumentReader> reader;
  r.status = DocumentReader::Open(path, options, &reader);
  if (!r.status.ok()) return r;
  for (;;) {
    Document doc;
    bool eof = false;
    r.status = reader->Next(&doc, &eof);
    if (!r.status.ok() || eof) break;
    r.docs.push_back(doc);
  }
  r.stats = reader->stats();
  return r;
}

DocumentReaderOptions Jsonl() { return DocumentReaderOptions{}; }

DocumentReaderOptions Lines() {
  DocumentReaderOptions o;
  o.format = DocumentFormat::kLines;
  return o;
}

class DocumentReaderTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& bytes) { return dir_.Write(name, bytes); }
  TempDir dir_;
};

TEST_F(DocumentReaderTest, AnIndexIsNamedAsOneInsteadOfReadAsText) {
  const std::string path = Write("corpus.sdx", std::string("SIMDEXIX\x02\0\0\0@\0\0\0", 16));
  for (const DocumentReaderOptions& options : {Jsonl(), Lines()}) {
    const ReadResult r = ReadAll(path, options);
    EXPECT_TRUE(r.status.IsInvalidArgument()) << r.status.ToString();
    EXPECT_EQ(r.status.message(), path + ": is a simdex index, not a file of documents");
  }
}

TEST_F(DocumentReaderTest, TextThatBeginsWithTheIndexMagicIsReadAsText) {
  const std::string path = Write("docs.txt", "SIMDEXIX is a word in this document\n");
  const ReadResult r = ReadAll(path, Lines());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.docs.size(), 1u);
  EXPECT_EQ(r.docs[0].text, "SIMDEXIX is a word in this document");
}

TEST_F(DocumentReaderTest, ADirectoryIsNamedAsOne) {
  const ReadResult r = ReadAll(dir_.Path(""), Lines());
  EXPECT_TRUE(r.status.IsIOError()) << r.status.ToString();
  EXPECT_EQ(r.status.message(), dir_.Path("") + ": is a directory");
}

TEST_F(DocumentReaderTest, JsonlGivesIdsTextsAndLines) {
  const std::string content = "{\"id\": 7, \"text\": \"hello\"}\n{\"text\": \"world\", \"id\": 3}\n";
  std::string path = Write("a.jsonl", content);
  ReadResult r = ReadAll(path, Jsonl());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.docs.size(), 2u);
  EXPECT_EQ(r.docs[0].id, 7u);
  EXPECT_EQ(r.docs[0].text, "hello");
  EXPECT_EQ(r.docs[0].line, 1u);
  EXPECT_EQ(r.docs[1].id, 3u);
  EXPECT_EQ(r.docs[1].text, "world");
  EXPECT_EQ(r.docs[1].line, 2u);
  EXPECT_EQ(r.stats.records, 2u);
  EXPECT_EQ(r.stats.skipped, 0u);
  EXPECT_EQ(r.stats.bytes, content.size());
}

TEST_F(DocumentReaderTest, TextFieldsAreJoinedWithNewlineInOrder) {
  std::string path = Write("a.jsonl", "{\"doc\": \"18446744073709551615\", \"title\": \"T\", \"body\": \"B\"}\n"
                                      "{\"doc\": 2, \"title\": null, \"body\": \"only\"}\n");
  DocumentReaderOptions o = Jsonl();
  o.id_field = "doc";
  o.text_fields = {"title", "body"};
  ReadResult r = ReadAll(path, o);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.docs.size(), 2u);
  EXPECT_EQ(r.docs[0].id, 18446744073709551615u);
  EXPECT_EQ(r.docs[0].text, "T\nB");
  EXPECT_EQ(r.docs[1].text, "\nonly");
}

TEST_F(DocumentReaderTest, JsonlWithCrlfAndNoFinalNewline) {
  std::string path = Write("a.jsonl", "{\"id\": 1, \"text\": \"a\"}\r\n\r\n{\"id\": 2, \"text\": \"b\"}");
  ReadResult r = ReadAll(path, Jsonl());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.docs.size(), 2u);
  EXPECT_EQ(r.docs[1].id, 2u);
  EXPECT_EQ(r.docs[1].text, "b");
  EXPECT_EQ(r.docs[1].line, 3u);
  EXPECT_EQ(r.stats.blank_lines, 1u);
}

TEST_F(DocumentReaderTest, StringIdsOfDecimalDigitsAreAccepted) {
  std::string path = Write("a.jsonl", "{\"id\": \"0042\", \"text\": \"x\"}\n");
  ReadResult r = ReadAll(path, Jsonl());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.docs.at(0).id, 42u);
}

TEST_F(DocumentReaderTest, StringIdsAreKeptWhenAllowedAndDecimalStringsStayNumbers) {
  std::string path = Write("s.jsonl",
                           "{\"id\": \"https://a.example/x?q=1\", \"text\": \"a\"}\n"
                           "{\"id\": \"42\", \"text\": \"b\"}\n"
                           "{\"id\": 7, \"text\": \"c\"}\n"
                           "{\"id\": \"\u8a08\u7b97 \\\"q\\\"\", \"text\": \"d\"}\n");
  EXPECT_EQ(ReadAll(path, Jsonl()).status.message(),
            path + ":1: field 'id' is not an unsigned 64-bit integer: \"https://a.example/x?q=1\"");
  DocumentReaderOptions o;
  o.allow_string_ids = true;
  ReadResult r = ReadAll(path, o);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.docs.size(), 4u);
  EXPECT_EQ(r.docs[0].id_string, "https://a.example/x?q=1");
  EXPECT_EQ(r.docs[1].id_string, "");
  EXPECT_EQ(r.docs[1].id, 42u);
  EXPECT_EQ(r.docs[2].id_string, "");
  EXPECT_EQ(r.docs[2].id, 7u);
  EXPECT_EQ(r.docs[3].id_string, "計算 \"q\"");
}

TEST_F(DocumentReaderTest, EmptyOrControlCharacterStringIdsAreBadRecords) {
  DocumentReaderOptions o;
  o.allow_string_ids = true;
  std::string path = Write("e.jsonl", "{\"id\": \"\", \"text\": \"a\"}\n");
  EXPECT_EQ(ReadAll(path, o).status.message(), path + ":1: field 'id': id is empty");
  path = Write("c.jsonl", "{\"id\": \"x\", \"text\": \"a\"}\n{\"id\": \"a\\tb\", \"text\": \"a\"}\n");
  EXPECT_EQ(ReadAll(path, o).status.message(), path + ":2: field 'id': id holds control character 0x09 at byte 1");
  o.skip_bad = true;
  ReadResult r = ReadAll(path, o);
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.docs.size(), 1u);
  EXPECT_EQ(r.stats.skipped, 1u);
}

TEST_F(DocumentReaderTest, ScoreFieldIsANumberOrMinusInfinity) {
  DocumentReaderOptions o;
  o.score_field = "views";
  std::string path = Write("v.jsonl",
                           "{\"id\": 1, \"text\": \"a\", \"views\": 12}\n"
                           "{\"id\": 2, \"text\": \"b\", \"views\": -3.5}\n"
                           "{\"id\": 3, \"text\": \"c\"}\n"
                           "{\"id\": 4, \"text\": \"d\", \"views\": null}\n");
  ReadResult r = ReadAll(path, o);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.docs.size(), 4u);
  EXPECT_EQ(r.docs[0].score, 12.0);
  EXPECT_EQ(r.docs[1].score, -3.5);
  EXPECT_EQ(r.docs[2].score, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(r.docs[3].score, -std::numeric_limits<double>::infinity());
  path = Write("w.jsonl", "{\"id\": 1, \"text\": \"a\", \"views\": \"many\"}\n");
  EXPECT_EQ(ReadAll(path, o).status.message(), path + ":1: field 'views' is not a number: \"many\"");
}

// A title is for display: whatever the field holds, the record is read as
// it would be without a title field, so that a second read with titles
// numbers the documents as the first did.
TEST_F(DocumentReaderTest, TitleFieldIsReadForDisplayAndNeverMakesARecordBad) {
  DocumentReaderOptions o;
  o.title_field = "title";
  const std::string path = Write("t.jsonl",
                                 "{\"id\": 1, \"text\": \"a\", \"title\": \"Caf\\u00e9 \\\"Z\\\"\"}\n"
                                 "{\"id\": 2, \"text\": \"b\"}\n"
                                 "{\"id\": 3, \"text\": \"c\", \"title\": null}\n"
                                 "{\"id\": 4, \"text\": \"d\", \"title\": 42}\n"
                                 "{\"id\": 5, \"text\": \"e\", \"title\": [\"x\", {\"y\": 1}]}\n");
  const ReadResult r = ReadAll(path, o);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.docs.size(), 5u);
  EXPECT_EQ(r.docs[0].title, "Caf\u00e9 \"Z\"");
  EXPECT_EQ(r.docs[1].title, "");
  EXPECT_EQ(r.docs[2].title, "");
  EXPECT_EQ(r.docs[3].title, "42");
  EXPECT_EQ(r.docs[4].title, "[\"x\",{\"y\":1}]");
  EXPECT_EQ(r.stats.skipped, 0u);
  // Without a title field, no title.
  EXPECT_EQ(ReadAll(path, Jsonl()).docs[0].title, "");
}

TEST_F(DocumentReaderTest, OrdinalIdsCountRecordsNotBlankLines) {
  std::string path = Write("a.jsonl", "{\"text\": \"a\"}\n\n  \n{\"text\": \"b\"}\n");
  DocumentReaderOptions o = Jsonl();
  o.id_mode = IdMode::kOrdinal;
  ReadResult r = ReadAll(path, o);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.docs.size(), 2u);
  EXPECT_EQ(r.docs[0].id, 1u);
  EXPECT_EQ(r.docs[1].id, 2u);
  EXPECT_EQ(r.docs[1].line, 4u);
  EXPECT_EQ(r.stats.blank_lines, 2u);
}

TEST_F(DocumentReaderTest, InvalidJsonNamesFileAndLine) {
  std::string path = Write("bad.jsonl", "{\"id\": 1, \"text\": \"a\"}\n{\"id\": 2, \"text\": }\n");
  ReadResult r = ReadAll(path, Jsonl());
  EXPECT_TRUE(r.status.IsInvalidArgument());
  EXPECT_EQ(r.status.message().rfind(path + ":2: invalid JSON (", 0), 0u) << r.status.message();
  EXPECT_EQ(r.docs.size(), 1u);
}

TEST_F(DocumentReaderTest, RecordThatIsNotAnObjectIsBad) {
  std::string path = Write("a.jsonl", "[1, 2]\n");
  ReadResult r = ReadAll(path, Jsonl());
  EXPECT_EQ(r.status.message(), path + ":1: record is not a JSON object");
}

TEST_F(DocumentReaderTest, MissingFieldsAreNamed) {
  std::string path = Write("a.jsonl", "{\"text\": \"a\"}\n");
  EXPECT_EQ(ReadAll(path, Jsonl()).status.message(), path + ":1: field 'id' is missing");
  path = Write("b.jsonl", "{\"id\": 1, \"body\": \"a\"}\n");
  EXPECT_EQ(ReadAll(path, Jsonl()).status.message(), path + ":1: field 'text' is missing");
}

TEST_F(DocumentReaderTest, TextThatIsNotAStringIsBad) {
  std::string path = Write("a.jsonl", "{\"id\": 1, \"text\": 5}\n");
  EXPECT_EQ(ReadAll(path, Jsonl()).status.message(), path + ":1: field 'text' is not a string: 5");
}

TEST_F(DocumentReaderTest, IdsOutsideUnsigned64BitsAreRejected) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"-3", "field 'id' is not an unsigned 64-bit integer: -3"},
      {"1.5", "field 'id' is not an unsigned 64-bit integer: 1.5"},
      {"\"18446744073709551616\"", "field 'id' is not an unsigned 64-bit integer: \"18446744073709551616\""},
      {"\"-1\"", "field 'id' is not an unsigned 64-bit integer: \"-1\""},
      {"\"\"", "field 'id' is not an unsigned 64-bit integer: \"\""},
      {"\"12a\"", "field 'id' is not an unsigned 64-bit integer: \"12a\""},
      {"true", "field 'id' is not an unsigned 64-bit integer: true"},
  };
  for (const auto& [value, message] : cases) {
    std::string path = Write("a.jsonl", "{\"id\": " + value + ", \"text\": \"a\"}\n");
    EXPECT_EQ(ReadAll(path, Jsonl()).status.message(), path + ":1: " + message) << value;
  }
  // Past 2^64 - 1 a JSON number no longer parses at all.
  std::string path = Write("b.jsonl", "{\"id\": 18446744073709551616, \"text\": \"a\"}\n");
  EXPECT_EQ(ReadAll(path, Jsonl()).status.message().rfind(path + ":1: invalid JSON", 0), 0u);
}

TEST_F(DocumentReaderTest, SkipBadCountsAndKeepsTheFirstErrors) {
  std::string path = Write("a.jsonl",
                           "{\"id\": 1, \"text\": \"a\"}\n"
                           "not json\n"
                           "{\"id\": -1, \"text\": \"b\"}\n"
                           "{\"id\": 4, \"text\": \"c\"}\n"
                           "{\"id\": 5}\n");
  DocumentReaderOptions o = Jsonl();
  o.skip_bad = true;
  o.max_errors_kept = 2;
  ReadResult r = ReadAll(path, o);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.docs.size(), 2u);
  EXPECT_EQ(r.docs[1].id, 4u);
  EXPECT_EQ(r.stats.records, 2u);
  EXPECT_EQ(r.stats.skipped, 3u);
  ASSERT_EQ(r.stats.first_errors.size(), 2u);
  EXPECT_EQ(r.stats.first_errors[0].rfind(path + ":2: invalid JSON", 0), 0u);
  EXPECT_EQ(r.stats.first_errors[1], path + ":3: field 'id' is not an unsigned 64-bit integer: -1");
}

TEST_F(DocumentReaderTest, OrdinalIdsStayStableWhenBadRecordsAreSkipped) {
  std::string path = Write("a.jsonl", "{\"text\": \"a\"}\n{\"text\": 1}\n{\"text\": \"c\"}\n");
  DocumentReaderOptions o = Jsonl();
  o.id_mode = IdMode::kOrdinal;
  o.skip_bad = true;
  ReadResult r = ReadAll(path, o);
  ASSERT_EQ(r.docs.size(), 2u);
  EXPECT_EQ(r.docs[1].id, 3u);
}

TEST_F(DocumentReaderTest, LinesModeNumbersEveryLineIncludingEmptyOnes) {
  const std::string content = "first\r\n\r\nthird\n\nfifth";
  std::string path = Write("a.txt", content);
  ReadResult r = ReadAll(path, Lines());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.docs.size(), 5u);
  const std::vector<std::string> texts = {"first", "", "third", "", "fifth"};
  for (size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(r.docs[i].id, i + 1);
    EXPECT_EQ(r.docs[i].text, texts[i]);
  }
  EXPECT_EQ(r.stats.bytes, content.size());
}

TEST_F(DocumentReaderTest, LinesModeKeepsInvalidUtf8AndInnerCarriageReturns) {
  std::string path = Write("a.txt", std::string("a\xff\rb\n", 5));
  ReadResult r = ReadAll(path, Lines());
  ASSERT_EQ(r.docs.size(), 1u);
  EXPECT_EQ(r.docs[0].text, std::string("a\xff\rb", 4));
}

TEST_F(DocumentReaderTest, ByteOrderMarkAtTheStartIsDropped) {
  std::string path = Write("a.jsonl", "\xEF\xBB\xBF{\"id\": 1, \"text\": \"a\"}\n");
  ReadResult r = ReadAll(path, Jsonl());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.docs.at(0).text, "a");
}

TEST_F(DocumentReaderTest, EmptyFileHasNoDocuments) {
  ReadResult r = ReadAll(Write("a.txt", ""), Lines());
  EXPECT_TRUE(r.status.ok());
  EXPECT_TRUE(r.docs.empty());
}

TEST_F(DocumentReaderTest, TooLongLineIsABadRecordThatCanBeSkipped) {
  std::string path = Write("a.txt", "short\n" + std::string(100, 'x') + "\nafter\n");
  DocumentReaderOptions o = Lines();
  o.max_record_bytes = 50;
  EXPECT_EQ(ReadAll(path, o).status.message(), path + ":2: line is longer than 50 bytes");
  o.skip_bad = true;
  ReadResult r = ReadAll(path, o);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.docs.size(), 2u);
  EXPECT_EQ(r.docs[1].text, "after");
  EXPECT_EQ(r.docs[1].id, 3u);
  EXPECT_EQ(r.stats.skipped, 1u);
}

// A small .gz holding one huge line: the reader held a line up to 1 GiB
// (2.1 GB and 29 s for a 1.5 GB line before its error). By default a line
// is bounded at kDefaultMaxRecordBytes: the error names file and line once
// that much of it is read, and the rest is never held.
TEST_F(DocumentReaderTest, AHugeCompressedLineIsRefusedAfterTheLimitNotAtItsEnd) {
  const size_t huge = kDefaultMaxRecordBytes + (size_t{16} << 20);
  const std::string path = Write("one-line.txt.gz", Compress(std::string(huge, 'x') + "\nafter\n", ".gz"));
  ASSERT_LT(testing::ReadFile(path).size(), size_t{1} << 20) << "a small file";
  std::unique_ptr<DocumentReader> reader;
  ASSERT_TRUE(DocumentReader::Open(path, Lines(), &reader).ok());
  Document doc;
  bool eof = false;
  const Status s = reader->Next(&doc, &eof);
  EXPECT_EQ(s.message(), path + ":1: line is longer than 67108864 bytes");
  EXPECT_LE(reader->stats().bytes, kDefaultMaxRecordBytes + (size_t{2} << 20)) << "read up to the limit only";
  // With skip_bad the reader goes on past it, chunk by chunk.
  DocumentReaderOptions skip = Lines();
  skip.skip_bad = true;
  const ReadResult r = ReadAll(path, skip);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.docs.size(), 1u);
  EXPECT_EQ(r.docs[0].text, "after");
  EXPECT_EQ(r.docs[0].line, 2u);
}

TEST_F(DocumentReaderTest, LongLinesAcrossBufferRefillsAreWhole) {
  std::string content;
  std::vector<std::string> lines;
  for (int i = 0; i < 40; ++i) {
    lines.push_back(std::string(static_cast<size_t>(100000 + i * 7919), static_cast<char>('a' + i % 26)));
    content += lines.back() + "\n";
  }
  ReadResult r = ReadAll(Write("a.txt", content), Lines());
  ASSERT_EQ(r.docs.size(), lines.size());
  for (size_t i = 0; i < lines.size(); ++i) EXPECT_EQ(r.docs[i].text, lines[i]) << i;
}

TEST_F(DocumentReaderTest, MissingFileIsNotFound) {
  std::string path = dir_.Path("absent.jsonl");
  ReadResult r = ReadAll(path, Jsonl());
  EXPECT_TRUE(r.status.IsNotFound());
  EXPECT_EQ(r.status.message(), path + ": No such file or directory");
}

TEST_F(DocumentReaderTest, FormatFollowsTheExtensionBeforeCompression) {
  EXPECT_EQ(DocumentFormatFromPath("a.jsonl"), DocumentFormat::kJsonl);
  EXPECT_EQ(DocumentFormatFromPath("a.json.gz"), DocumentFormat::kJsonl);
  EXPECT_EQ(DocumentFormatFromPath("a.ndjson.zst"), DocumentFormat::kJsonl);
  EXPECT_EQ(DocumentFormatFromPath("a.txt.bz2"), DocumentFormat::kLines);
  EXPECT_EQ(DocumentFormatFromPath("-"), DocumentFormat::kLines);
}

class CompressedInputTest : public DocumentReaderTest, public ::testing::WithParamInterface<std::string> {};

std::string ManyRecords() {
  std::string s;
  for (int i = 1; i <= 20000; ++i) s += "{\"id\": " + std::to_string(i) + ", \"text\": \"document " + std::to_string(i * 7919) + "\"}\n";
  return s;
}

TEST_P(CompressedInputTest, DecompressesByExtension) {
  const std::string suffix = GetParam();
  std::string path = Write("docs.jsonl" + suffix, Compress(ManyRecords(), suffix));
  ReadResult r = ReadAll(path, Jsonl());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.docs.size(), 20000u);
  EXPECT_EQ(r.docs.back().id, 20000u);
  EXPECT_EQ(r.docs.back().text, "document " + std::to_string(20000 * 7919));
  EXPECT_EQ(r.stats.bytes, ManyRecords().size());
}

TEST_P(CompressedInputTest, TruncatedStreamIsCorruption) {
  const std::string suffix = GetParam();
  const std::string name = suffix == ".gz" ? "gzip" : suffix == ".zst" ? "zstd" : "bzip2";
  std::string full = Compress(ManyRecords(), suffix);
  for (size_t cut : {full.size() - 1, full.size() / 2, size_t{0}}) {
    std::string path = Write("docs.jsonl" + suffix, full.substr(0, cut));
    ReadResult r = ReadAll(path, Jsonl());
    EXPECT_TRUE(r.status.IsCorruption()) << cut << " " << r.status.ToString();
    EXPECT_EQ(r.status.message().rfind(path + ": ", 0), 0u) << r.status.message();
    EXPECT_NE(r.status.message().find(name), std::string::npos) << r.status.message();
  }
}

TEST_P(CompressedInputTest, TruncationIsNotSkippedAsABadRecord) {
  const std::string suffix = GetParam();
  std::string full = Compress(ManyRecords(), suffix);
  std::string path = Write("docs.jsonl" + suffix, full.substr(0, full.size() / 2));
  DocumentReaderOptions o = Jsonl();
  o.skip_bad = true;
  EXPECT_TRUE(ReadAll(path, o).status.IsCorruption());
}

TEST_P(CompressedInputTest, CorruptStreamIsCorruption) {
  const std::string suffix = GetParam();
  std::string data = Compress(ManyRecords(), suffix);
  data[data.size() / 2] = static_cast<char>(data[data.size() / 2] ^ 0x5a);
  ReadResult r = ReadAll(Write("docs.jsonl" + suffix, data), Jsonl());
  EXPECT_FALSE(r.status.ok());
}

TEST_F(DocumentReaderTest, UncompressedDataUnderACompressedNameIsCorruption) {
  ReadResult r = ReadAll(Write("docs.jsonl.gz", "{\"id\": 1, \"text\": \"a\"}\n"), Jsonl());
  EXPECT_TRUE(r.status.IsCorruption());
  EXPECT_NE(r.status.message().find("not a gzip stream"), std::string::npos) << r.status.message();
}

INSTANTIATE_TEST_SUITE_P(Codecs, CompressedInputTest, ::testing::Values(".gz", ".zst", ".bz2"),
                         [](const auto& param_info) { return param_info.param.substr(1); });

}  // namespace
}  // namespace simdex
