#include "simdex/fingerprint_file.h"

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/io/io_test_util.h"

namespace simdex {
namespace {

using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

struct Entry {
  uint64_t id;
  uint64_t fingerprint;
  const char* empty_reason;  // nullptr: has a fingerprint
};

struct ReadResult {
  Status status;
  std::vector<FingerprintRecord> records;
  FingerprintFileStats stats;
  FingerprintFileForm form = FingerprintFileForm::kText;
  std::string profile;
};

ReadResult ReadAll(const std::string& path, size_t batch = 1000, bool skip_bad = false) {
  ReadResult r;
  FingerprintFileReaderOptions options;
  options.skip_bad = skip_bad;
  std::unique_ptr<FingerprintFileReader> reader;
  r.status = FingerprintFileReader::Open(path, options, &reader);
  if (!r.status.ok()) return r;
  r.form = reader->form();
  r.profile = reader->profile();
  std::vector<FingerprintRecord> buf(batch);
  for (;;) {
    size_t n = 0;
    r.status = reader->Read(buf.data(), buf.size(), &n);
    if (!r.status.ok() || n == 0) break;
    r.records.insert(r.records.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
  }
  r.stats = reader->stats();
  return r;
}

Status Write(const std::string& path, FingerprintFileForm form, const std::vector<Entry>& entries,
             std::string_view profile = {}) {
  std::unique_ptr<FingerprintFileWriter> writer;
  SIMDEX_RETURN_IF_ERROR(FingerprintFileWriter::Open(path, form, profile, &writer));
  for (const Entry& e : entries) {
    SIMDEX_RETURN_IF_ERROR(e.empty_reason ? writer->AddEmpty(e.id, e.empty_reason) : writer->Add(e.id, e.fingerprint));
  }
  return writer->Finish();
}

std::vector<Entry> RandomEntries(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Entry> out;
  for (size_t i = 0; i < n; ++i) {
    bool empty = rng() % 10 == 0;
    out.push_back({rng() >> (rng() % 64), rng(), empty ? "no-features" : nullptr});
  }
  return out;
}

void ExpectSameRecords(const std::vector<Entry>& entries, const ReadResult& r) {
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  std::vector<FingerprintRecord> want;
  uint64_t empty = 0;
  for (const Entry& e : entries) {
    if (e.empty_reason) {
      ++empty;
    } else {
      want.push_back({e.id, e.fingerprint});
    }
  }
  ASSERT_EQ(r.records.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r.records[i].id, want[i].id) << i;
    EXPECT_EQ(r.records[i].fingerprint, want[i].fingerprint) << i;
  }
  EXPECT_EQ(r.stats.records, want.size());
  EXPECT_EQ(r.stats.empty, empty);
}

class FingerprintFileTest : public ::testing::Test {
 protected:
  TempDir dir_;
};

TEST_F(FingerprintFileTest, TextFormIsOneLinePerDocument) {
  std::string path = dir_.Path("fp.txt");
  ASSERT_TRUE(Write(path, FingerprintFileForm::kText,
                    {{42, 0x9f3a0c71d2e4b856, nullptr}, {43, 0, "no-text"}, {18446744073709551615u, 1, nullptr}})
                  .ok());
  EXPECT_EQ(ReadFile(path), "42\t9f3a0c71d2e4b856\n43\t-\tno-text\n18446744073709551615\t0000000000000001\n");
  ReadResult r = ReadAll(path);
  EXPECT_EQ(r.form, FingerprintFileForm::kText);
  ExpectSameRecords({{42, 0x9f3a0c71d2e4b856, nullptr}, {43, 0, "no-text"}, {18446744073709551615u, 1, nullptr}}, r);
}

TEST_F(FingerprintFileTest, RoundTripsInBothFormsAndAllCompressions) {
  const std::vector<Entry> entries = RandomEntries(5000, 1);
  for (FingerprintFileForm form : {FingerprintFileForm::kText, FingerprintFileForm::kBinary}) {
    for (std::string suffix : {"", ".gz", ".zst", ".bz2"}) {
      std::string path = dir_.Path("fp" + suffix);
      ASSERT_TRUE(Write(path, form, entries).ok()) << suffix;
      ReadResult r = ReadAll(path, 4096);
      EXPECT_EQ(r.form, form);
      ExpectSameRecords(entries, r);
    }
  }
}

TEST_F(FingerprintFileTest, RecordsAcrossBufferRefillsRoundTrip) {
  // More than a 1 MiB read buffer holds, in either form.
  const std::vector<Entry> entries = RandomEntries(120000, 3);
  for (FingerprintFileForm form : {FingerprintFileForm::kText, FingerprintFileForm::kBinary}) {
    std::string path = dir_.Path("big");
    ASSERT_TRUE(Write(path, form, entries).ok());
    ExpectSameRecords(entries, ReadAll(path, 5000));
  }
}

TEST_F(FingerprintFileTest, SmallBatchesSeeEveryRecord) {
  const std::vector<Entry> entries = RandomEntries(1000, 2);
  for (FingerprintFileForm form : {FingerprintFileForm::kText, FingerprintFileForm::kBinary}) {
    std::string path = dir_.Path("fp");
    ASSERT_TRUE(Write(path, form, entries).ok());
    for (size_t batch : {1, 3, 17}) ExpectSameRecords(entries, ReadAll(path, batch));
  }
}

TEST_F(FingerprintFileTest, EmptyFilesOfBothForms) {
  std::string bin = dir_.Path("empty.bin");
  ASSERT_TRUE(Write(bin, FingerprintFileForm::kBinary, {{1, 0, "no-text"}}).ok());
  EXPECT_EQ(std::filesystem::file_size(bin), 48u);
  ReadResult r = ReadAll(bin);
  EXPECT_EQ(r.form, FingerprintFileForm::kBinary);
  ExpectSameRecords({{1, 0, "no-text"}}, r);
  std::string text = dir_.Path("empty.txt");
  WriteFile(text, "");
  ExpectSameRecords({}, ReadAll(text));
}

TEST_F(FingerprintFileTest, TextReaderAcceptsCrlfUpperCaseHexBlankLinesAndNoFinalNewline) {
  std::string path = dir_.Path("fp.txt");
  WriteFile(path, "1\tABCDEF0123456789\r\n\n2\t-\tall-stop-words\r\n3\t00000000000000ff");
  ExpectSameRecords({{1, 0xabcdef0123456789, nullptr}, {2, 0, "x"}, {3, 0xff, nullptr}}, ReadAll(path));
}

TEST_F(FingerprintFileTest, MalformedTextLinesNameFileAndLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"12 9f3a0c71d2e4b856", "expected '<id><TAB><fingerprint>' or '<id><TAB>-<TAB><reason>', got '12 9f3a0c71d2e4b856'"},
      {"\t9f3a0c71d2e4b856", "bad id '': id is empty"},
      {"a\x01\t9f3a0c71d2e4b856", "bad id 'a\\x01': id holds control character 0x01 at byte 1"},
      {"\xff\t9f3a0c71d2e4b856", "bad id '\xff': id is not valid UTF-8 at byte 0"},
      {"5\t", "fingerprint is not 1 to 16 hex digits: ''"},
      {"5\t0x", "fingerprint is not 1 to 16 hex digits: '0x'"},
      {"5\t9f3a0c71d2e4b85g", "fingerprint is not 1 to 16 hex digits: '9f3a0c71d2e4b85g'"},
      {"5\t9f3a0c71d2e4b8560", "fingerprint is not 1 to 16 hex digits: '9f3a0c71d2e4b8560'"},
      {"5\t-", "empty-document line without '<TAB><reason>': '5\\t-'"},
      {"5\t-\t", "empty-document line without '<TAB><reason>': '5\\t-\\t'"},
  };
  for (const auto& [line, message] : cases) {
    std::string path = dir_.Path("fp.txt");
    WriteFile(path, "1\t0000000000000001\n" + line + "\n");
    ReadResult r = ReadAll(path);
    EXPECT_TRUE(r.status.IsInvalidArgument()) << line;
    EXPECT_EQ(r.status.message(), path + ":2: " + message);
  }
}

// Other tools write fingerprints as Python's f"{h:x}" or hex(h) do.
TEST_F(FingerprintFileTest, ShortAndPrefixedHexFingerprintsAreRead) {
  std::string path = dir_.Path("fp.txt");
  WriteFile(path, "1\tff\n2\t0x9f3a0c71d2e4b856\n3\t0X0\n4\tFFFFFFFFFFFFFFFF\n");
  ExpectSameRecords({{1, 0xff, nullptr}, {2, 0x9f3a0c71d2e4b856, nullptr}, {3, 0, nullptr}, {4, ~uint64_t{0}, nullptr}},
                    ReadAll(path));
}

// Read() is for numeric ids; a string id is a bad line there. Next() gives
// string ids and empty documents.
TEST_F(FingerprintFileTest, StringIdsAreEntriesForNextAndBadLinesForRead) {
  std::string path = dir_.Path("fp.txt");
  WriteFile(path, "https://a.example/x\t0000000000000001\n18446744073709551616\t2\n7\t-\tno-text\n"
                  "計算\t-\tno-features\n9\t0000000000000009\n");
  ReadResult r = ReadAll(path);
  EXPECT_EQ(r.status.message(),
            path + ":1: id 'https://a.example/x' is not an unsigned 64-bit integer (this reader needs numeric ids)");
  std::unique_ptr<FingerprintFileReader> reader;
  ASSERT_TRUE(FingerprintFileReader::Open(path, FingerprintFileReaderOptions(), &reader).ok());
  std::vector<FingerprintEntry> got;
  for (;;) {
    FingerprintEntry e;
    bool eof = false;
    ASSERT_TRUE(reader->Next(&e, &eof).ok());
    if (eof) break;
    got.push_back(e);
  }
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(got[0].id_string, "https://a.example/x");
  EXPECT_EQ(got[0].fingerprint, 1u);
  EXPECT_EQ(got[0].line, 1u);
  EXPECT_EQ(got[1].id_string, "18446744073709551616");  // past 2^64 - 1: a string
  EXPECT_EQ(got[2].id, 7u);
  EXPECT_TRUE(got[2].empty);
  EXPECT_EQ(got[2].empty_reason, "no-text");
  EXPECT_EQ(got[3].id_string, "計算");
  EXPECT_TRUE(got[3].empty);
  EXPECT_EQ(got[4].id, 9u);
  EXPECT_EQ(got[4].id_string, "");
  EXPECT_EQ(reader->stats().records, 3u);
  EXPECT_EQ(reader->stats().empty, 2u);
}

TEST_F(FingerprintFileTest, StringIdsRoundTripThroughTheTextFormOnly) {
  std::string path = dir_.Path("fp.txt");
  std::unique_ptr<FingerprintFileWriter> writer;
  ASSERT_TRUE(FingerprintFileWriter::Open(path, FingerprintFileForm::kText, &writer).ok());
  ASSERT_TRUE(writer->Add("doc \"7\"", 0xabc).ok());
  ASSERT_TRUE(writer->AddEmpty("https://a.example/empty", "no-text").ok());
  ASSERT_TRUE(writer->Add(12, 0xdef).ok());
  ASSERT_TRUE(writer->Finish().ok());
  EXPECT_EQ(ReadFile(path), "doc \"7\"\t0000000000000abc\nhttps://a.example/empty\t-\tno-text\n12\t0000000000000def\n");
  ASSERT_TRUE(FingerprintFileWriter::Open(dir_.Path("bad.txt"), FingerprintFileForm::kText, &writer).ok());
  Status s = writer->Add("a\tb", 1);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ(s.message(), "id 'a\\tb': id holds control character 0x09 at byte 1") << "the tab escaped";
  writer.reset();
  ASSERT_TRUE(FingerprintFileWriter::Open(dir_.Path("bad.txt"), FingerprintFileForm::kText, &writer).ok());
  s = writer->AddEmpty(std::string("a\0b", 3), "no-text");
  EXPECT_EQ(s.message(), "id 'a\\x00b': id holds control character 0x00 at byte 1") << "not a raw NUL";
  writer.reset();
  ASSERT_TRUE(FingerprintFileWriter::Open(dir_.Path("fp.bin"), FingerprintFileForm::kBinary, &writer).ok());
  s = writer->Add("abc", 1);
  EXPECT_EQ(s.message(), "binary fingerprint files hold unsigned 64-bit ids only, not 'abc'; write the text form");
  EXPECT_TRUE(writer->Finish().IsInvalidArgument());
  writer.reset();
  EXPECT_FALSE(std::filesystem::exists(dir_.Path("fp.bin")));
  EXPECT_FALSE(std::filesystem::exists(dir_.Path("bad.txt")));
}

TEST_F(FingerprintFileTest, SkipBadCountsMalformedTextLines) {
  std::string path = dir_.Path("fp.txt");
  WriteFile(path, "1\t0000000000000001\nbad\n3\t0000000000000003\n4\tzz\n");
  ReadResult r = ReadAll(path, 10, /*skip_bad=*/true);
  ExpectSameRecords({{1, 1, nullptr}, {3, 3, nullptr}}, r);
  EXPECT_EQ(r.stats.skipped, 2u);
  ASSERT_EQ(r.stats.first_errors.size(), 2u);
  EXPECT_EQ(r.stats.first_errors[1], path + ":4: fingerprint is not 1 to 16 hex digits: 'zz'");
}

std::string SmallBinaryFile(const TempDir& dir, std::vector<Entry>* entries) {
  *entries = {{1, 0x0123456789abcdef, nullptr}, {2, 0, "no-text"}, {300, 0xfedcba9876543210, nullptr},
              {4, 0xffffffffffffffff, nullptr}};
  std::string path = dir.Path("small.bin");
  EXPECT_TRUE(Write(path, FingerprintFileForm::kBinary, *entries).ok());
  return ReadFile(path);
}

constexpr std::string_view kProfile = "simdex-fp/3 words nfkc-casefold clean cap-numbers stop:en+zh tf seed:0";

TEST_F(FingerprintFileTest, TheProfileRoundTripsInBothFormsAndAllCompressions) {
  const std::vector<Entry> entries = RandomEntries(500, 3);
  for (FingerprintFileForm form : {FingerprintFileForm::kText, FingerprintFileForm::kBinary}) {
    for (const char* ext : {"", ".gz", ".zst", ".bz2"}) {
      const std::string path = dir_.Path(std::string("p") + ext);
      ASSERT_TRUE(Write(path, form, entries, kProfile).ok());
      ReadResult r = ReadAll(path);
      ExpectSameRecords(entries, r);
      EXPECT_EQ(r.profile, kProfile) << ext;
      EXPECT_EQ(r.form, form);
    }
  }
}

TEST_F(FingerprintFileTest, TheTextFormsProfileIsItsFirstLine) {
  const std::string path = dir_.Path("fp.txt");
  ASSERT_TRUE(Write(path, FingerprintFileForm::kText, {{42, 0x9f3a0c71d2e4b856, nullptr}}, "P 1").ok());
  EXPECT_EQ(ReadFile(path), "#simdex-profile\tP 1\n42\t9f3a0c71d2e4b856\n");
}

TEST_F(FingerprintFileTest, FilesWithoutAProfileReadAsUnrecordedAndBinaryStaysVersionOne) {
  std::vector<Entry> entries;
  const std::string good = SmallBinaryFile(dir_, &entries);
  EXPECT_EQ(good[8], 1) << "a binary file without a profile is still version 1, byte for byte as before";
  EXPECT_EQ(ReadAll(dir_.Path("small.bin")).profile, "");
  ASSERT_TRUE(Write(dir_.Path("t.txt"), FingerprintFileForm::kText, entries).ok());
  EXPECT_EQ(ReadAll(dir_.Path("t.txt")).profile, "");
}

TEST_F(FingerprintFileTest, CorruptionAtEveryByteOfABinaryFileWithAProfileIsDetected) {
  std::vector<Entry> entries = {{1, 0x0123456789abcdef, nullptr}, {300, 0xfedcba9876543210, nullptr}};
  const std::string path = dir_.Path("p.bin");
  ASSERT_TRUE(Write(path, FingerprintFileForm::kBinary, entries, "P").ok());
  const std::string good = ReadFile(path);
  ASSERT_EQ(good.size(), 16u + 4 + 1 + 2 * 16 + 32);
  for (size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0x01);
    WriteFile(path, bad);
    ReadResult r = ReadAll(path);
    EXPECT_FALSE(r.status.ok()) << "byte " << i << " read as " << r.profile;
  }
}

TEST_F(FingerprintFileTest, ABinaryProfileOfBadLengthOrBytesNamesItsOffset) {
  const std::string path = dir_.Path("p.bin");
  ASSERT_TRUE(Write(path, FingerprintFileForm::kBinary, {{1, 2, nullptr}}, "P").ok());
  const std::string good = ReadFile(path);
  auto message = [&](std::string bytes) {
    WriteFile(path, bytes);
    return ReadAll(path).status.message();
  };
  std::string zero = good;
  zero[16] = 0;
  EXPECT_NE(message(zero).find("byte 16: profile length 0"), std::string::npos) << message(zero);
  std::string huge = good;
  huge[18] = 1;  // 65,537 bytes
  EXPECT_NE(message(huge).find("byte 16: profile length 65537"), std::string::npos) << message(huge);
  std::string control = good;
  control[20] = '\n';
  EXPECT_NE(message(control).find("byte 20: "), std::string::npos) << message(control);
  EXPECT_NE(message(good.substr(0, 18)).find("byte 16: truncated"), std::string::npos);
}

TEST_F(FingerprintFileTest, ABadProfileLineNamesLineOne) {
  const std::string path = dir_.Path("p.txt");
  for (const std::string& line : {std::string("#simdex-profile\t\n"), std::string("#simdex-profile\tcaf\xC3\xA9\n")}) {
    WriteFile(path, line + "1\t00000000000000ff\n");
    Status s = ReadAll(path).status;
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.message().find("p.txt:1: bad profile line"), std::string::npos) << s.message();
  }
  // After a byte order mark, and with CRLF, the line is still the profile.
  WriteFile(path, "\xEF\xBB\xBF#simdex-profile\tP\r\n1\t00000000000000ff\r\n");
  ReadResult r = ReadAll(path);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.profile, "P");
  EXPECT_EQ(r.records.size(), 1u);
}

TEST_F(FingerprintFileTest, TheWriterRefusesWhatWouldReadBackAsAnotherProfile) {
  std::unique_ptr<FingerprintFileWriter> writer;
  EXPECT_TRUE(FingerprintFileWriter::Open(dir_.Path("a"), FingerprintFileForm::kText, "two\nlines", &writer)
                  .IsInvalidArgument());
  ASSERT_TRUE(FingerprintFileWriter::Open(dir_.Path("b"), FingerprintFileForm::kText, &writer).ok());
  EXPECT_TRUE(writer->Add(std::string_view("#simdex-profile"), 1).IsInvalidArgument());
  ASSERT_TRUE(FingerprintFileWriter::Open(dir_.Path("c"), FingerprintFileForm::kText, "P", &writer).ok());
  EXPECT_TRUE(writer->Add(std::string_view("#simdex-profile"), 1).ok()) << "after the profile line it is an id";
  ASSERT_TRUE(writer->Finish().ok());
  std::unique_ptr<FingerprintFileReader> reader;
  ASSERT_TRUE(FingerprintFileReader::Open(dir_.Path("c"), {}, &reader).ok());
  FingerprintEntry e;
  bool eof = false;
  ASSERT_TRUE(reader->Next(&e, &eof).ok());
  EXPECT_EQ(e.id_string, "#simdex-profile");
  EXPECT_EQ(reader->profile(), "P");
}

TEST_F(FingerprintFileTest, CorruptionAtEveryByteOfABinaryFileIsDetectedOrHarmless) {
  std::vector<Entry> entries;
  const std::string good = SmallBinaryFile(dir_, &entries);
  ASSERT_EQ(good.size(), 16u + 3 * 16 + 32);
  std::string path = dir_.Path("corrupt.bin");
  for (size_t i = 0; i < good.size(); ++i) {
    for (int mask : {0x01, 0x80, 0xff}) {
      std::string bad = good;
      bad[i] = static_cast<char>(bad[i] ^ mask);
      WriteFile(path, bad);
      ReadResult r = ReadAll(path);
      if (r.status.ok()) {
        SCOPED_TRACE("byte " + std::to_string(i) + " mask " + std::to_string(mask));
        ExpectSameRecords(entries, r);
      }
    }
  }
}

TEST_F(FingerprintFileTest, TruncationOfABinaryFileIsDetected) {
  std::vector<Entry> entries;
  const std::string good = SmallBinaryFile(dir_, &entries);
  std::string path = dir_.Path("cut.bin");
  // A cut inside the magic leaves a file that reads as (malformed) text.
  for (size_t len = 1; len < good.size(); ++len) {
    WriteFile(path, good.substr(0, len));
    EXPECT_FALSE(ReadAll(path).status.ok()) << len;
  }
}

TEST_F(FingerprintFileTest, BinaryErrorsGiveTheByteOffset) {
  std::vector<Entry> entries;
  const std::string good = SmallBinaryFile(dir_, &entries);
  std::string path = dir_.Path("b.bin");
  auto message = [&](const std::string& bytes) {
    WriteFile(path, bytes);
    return ReadAll(path).status.message();
  };
  std::string v3 = good;
  v3[8] = 3;
  EXPECT_EQ(message(v3), path + ": byte 8: unsupported version 3 (this reader knows 1 and 2)");
  std::string flags = good;
  flags[12] = 1;
  EXPECT_EQ(message(flags), path + ": byte 12: unknown flags 1");
  EXPECT_EQ(message(good.substr(0, 12)), path + ": byte 12: truncated: the file ends inside the 16-byte header");
  EXPECT_EQ(message(good.substr(0, good.size() - 1)),
            path + ": byte 48: truncated: 15 bytes of a partial record before the trailer");
  EXPECT_EQ(message(good.substr(0, 32)), path + ": byte 16: truncated: 16 bytes where the 32-byte trailer should be");
  // With the trailer cut short, the last 32 bytes are taken as the trailer.
  EXPECT_EQ(message(good.substr(0, good.size() - 16)),
            path + ": byte 72: bad end magic (the file is truncated or not a simdex fingerprint file)");
  std::string record = good;
  record[20] ^= 1;
  EXPECT_EQ(message(record), path + ": byte 80: checksum mismatch");
  std::string count = good;
  count[64] ^= 1;
  EXPECT_EQ(message(count), path + ": byte 64: trailer says 2 records, the file holds 3");
  std::string end = good;
  end[good.size() - 1] ^= 1;
  EXPECT_EQ(message(end), path + ": byte 88: bad end magic (the file is truncated or not a simdex fingerprint file)");
}

TEST_F(FingerprintFileTest, FinishNamesTheFileAndAbandonLeavesNothing) {
  std::string path = dir_.Path("fp.txt");
  // The directory's entries whose names start with "fp.txt".
  auto entries = [&] {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir_.Path(""))) {
      const std::string name = e.path().filename().string();
      if (name.rfind("fp.txt", 0) == 0) names.push_back(name);
    }
    return names;
  };
  {
    std::unique_ptr<FingerprintFileWriter> writer;
    ASSERT_TRUE(FingerprintFileWriter::Open(path, FingerprintFileForm::kText, &writer).ok());
    ASSERT_TRUE(writer->Add(1, 2).ok());
    EXPECT_TRUE(entries().empty()) << "the file has no name until it is complete";
  }
  EXPECT_TRUE(entries().empty());
  ASSERT_TRUE(Write(path, FingerprintFileForm::kText, {{1, 2, nullptr}}).ok());
  EXPECT_EQ(entries(), std::vector<std::string>{"fp.txt"});
}

TEST_F(FingerprintFileTest, WriterIntoAMissingDirectoryFails) {
  std::unique_ptr<FingerprintFileWriter> writer;
  Status s = FingerprintFileWriter::Open(dir_.Path("no/such/dir/fp.txt"), FingerprintFileForm::kText, &writer);
  EXPECT_TRUE(s.IsIOError());
  EXPECT_NE(s.message().find("no/such/dir/fp.txt.tmp-XXXXXX: cannot create"), std::string::npos) << s.message();
}

// Found by fuzz_fingerprint_file: readers drop a byte order mark at the start
// of a file, which took the first character of a first string id that began
// with U+FEFF.
TEST_F(FingerprintFileTest, FirstStringIdBeginningWithAByteOrderMarkReadsBackWhole) {
  const std::string path = dir_.Path("bom.txt");
  const std::string id = "\xEF\xBB\xBF" "2";
  std::unique_ptr<FingerprintFileWriter> writer;
  ASSERT_TRUE(FingerprintFileWriter::Open(path, FingerprintFileForm::kText, &writer).ok());
  ASSERT_TRUE(writer->AddEmpty(id, "no-text").ok());
  ASSERT_TRUE(writer->Add(id, 7).ok());
  ASSERT_TRUE(writer->Finish().ok());
  std::unique_ptr<FingerprintFileReader> reader;
  ASSERT_TRUE(FingerprintFileReader::Open(path, {}, &reader).ok());
  FingerprintEntry e;
  bool eof = false;
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(reader->Next(&e, &eof).ok());
    ASSERT_FALSE(eof);
    EXPECT_EQ(e.id_string, id) << i;
  }
}

TEST_F(FingerprintFileTest, AnIndexIsNamedAsOneInsteadOfReadAsText) {
  const std::string path = dir_.Write("corpus.sdx", std::string("SIMDEXIX\x02\0\0\0@\0\0\0", 16));
  std::unique_ptr<FingerprintFileReader> reader;
  const Status s = FingerprintFileReader::Open(path, {}, &reader);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(s.message(), path + ": is a simdex index, not a fingerprint file");
}

// Found by fuzz_fingerprint_file: a first string id that began with the
// index magic ("SIMDEXIX6") made the file it was written to read as an index.
TEST_F(FingerprintFileTest, AFirstIdBeginningWithTheIndexMagicReadsBackAsText) {
  const std::string path = dir_.Path("magic.txt");
  std::unique_ptr<FingerprintFileWriter> writer;
  ASSERT_TRUE(FingerprintFileWriter::Open(path, FingerprintFileForm::kText, &writer).ok());
  ASSERT_TRUE(writer->AddEmpty("SIMDEXIX6", "\xC2\xB0" "0ff").ok());
  ASSERT_TRUE(writer->Add("SIMDEXIX", 0xff).ok());
  ASSERT_TRUE(writer->Finish().ok());
  std::unique_ptr<FingerprintFileReader> reader;
  const Status s = FingerprintFileReader::Open(path, {}, &reader);
  ASSERT_TRUE(s.ok()) << s.ToString();
  FingerprintEntry e;
  bool eof = false;
  ASSERT_TRUE(reader->Next(&e, &eof).ok());
  EXPECT_EQ(e.id_string, "SIMDEXIX6");
  EXPECT_TRUE(e.empty);
  ASSERT_TRUE(reader->Next(&e, &eof).ok());
  EXPECT_EQ(e.id_string, "SIMDEXIX");
  EXPECT_EQ(e.fingerprint, 0xffu);
  ASSERT_TRUE(reader->Next(&e, &eof).ok());
  EXPECT_TRUE(eof);
}

TEST_F(FingerprintFileTest, ADirectoryIsNamedAsOne) {
  std::unique_ptr<FingerprintFileReader> reader;
  const Status s = FingerprintFileReader::Open(dir_.Path(""), {}, &reader);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_EQ(s.message(), dir_.Path("") + ": is a directory");
}

TEST_F(FingerprintFileTest, ControlBytesOfABadLineAreEscapedInTheMessage) {
  const std::string path = dir_.Write("bad.fp", std::string("a\x01\x1b[2J\tzz\n"));
  std::unique_ptr<FingerprintFileReader> reader;
  ASSERT_TRUE(FingerprintFileReader::Open(path, {}, &reader).ok());
  FingerprintEntry entry;
  bool eof = false;
  const Status s = reader->Next(&entry, &eof);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("'a\\x01\\x1b[2J'"), std::string::npos) << s.message();
  for (char c : s.message()) EXPECT_GE(static_cast<unsigned char>(c), 0x20) << s.message();
}

}  // namespace
}  // namespace simdex
