// String ids: the id map section on its own (format/id_map.h: the bytes of
// docs/format.md's example, round trips, every corruption rule) and in an
// index (ids come back from searches; the file depends only on the
// entries; mixed numeric ids; version 1 files still open; damaged maps are
// Corruption).
#include "format/id_map.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "format/coding.h"
#include "format/index_layout.h"
#include "simdex/index.h"
#include "tests/index/test_data.h"

namespace simdex::testing {
namespace {

std::string Encode(const std::vector<std::string>& strings) {
  std::vector<std::string_view> views(strings.begin(), strings.end());
  std::string out;
  format::EncodeIdMap(views, &out);
  return out;
}

Status Check(const std::string& bytes) {
  format::IdMapReader reader;
  SIMDEX_RETURN_IF_ERROR(reader.Init(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  return reader.Verify();
}

// docs/format.md, "Id map": the map of "a" and "bc".
TEST(IdMapTest, TheDocumentedExampleEncodesByteForByte) {
  const std::string want = std::string("\x02\0\0\0\0\0\0\0", 8) + std::string("\x03\0\0\0\0\0\0\0", 8) +
                           std::string("\x02\0\0\0\0\0\0\0", 8) + std::string("\x34\0\0\0\0\0\0\0", 8) + "abc";
  EXPECT_EQ(Encode({"a", "bc"}), want);
  EXPECT_EQ(format::IdMapBytes(2, 3), 35u);
}

TEST(IdMapTest, RoundTripsAndFindsEveryString) {
  std::mt19937_64 rng(1);
  for (size_t k : {size_t{0}, size_t{1}, size_t{2}, size_t{9}, size_t{1000}}) {
    std::vector<std::string> strings;
    while (strings.size() < k) {
      std::string s = "https://site" + std::to_string(rng() % 100) + ".example/" + std::to_string(rng());
      strings.push_back(s.substr(0, 1 + rng() % s.size()));
      std::sort(strings.begin(), strings.end());
      strings.erase(std::unique(strings.begin(), strings.end()), strings.end());
    }
    const std::string bytes = Encode(strings);
    format::IdMapReader reader;
    ASSERT_TRUE(reader.Init(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()).ok());
    ASSERT_TRUE(reader.Verify().ok());
    ASSERT_EQ(reader.size(), k);
    for (uint64_t i = 0; i < k; ++i) {
      EXPECT_EQ(reader.Get(i), strings[i]);
      uint64_t found = ~uint64_t{0};
      EXPECT_TRUE(reader.Find(strings[i], &found));
      EXPECT_EQ(found, i);
    }
    uint64_t found;
    EXPECT_FALSE(reader.Find("not there", &found));
    EXPECT_FALSE(reader.Find("", &found));
  }
}

TEST(IdMapTest, EveryRuleIsChecked) {
  const std::string good = Encode({"a", "bc", "d"});
  ASSERT_TRUE(Check(good).ok());
  auto with = [&](size_t offset, char byte) {
    std::string b = good;
    b[offset] = byte;
    return b;
  };
  EXPECT_EQ(Check(good.substr(0, 20)).message(), "id map: shorter than its header");
  EXPECT_EQ(Check(good + "x").message(), "id map: 37 bytes do not hold 3 strings of 4 bytes");
  EXPECT_EQ(Check(with(0, 30)).message(), "id map: 36 bytes do not hold 30 strings of 4 bytes");
  EXPECT_EQ(Check(with(16, 5)).message(), "id map: offset width 5 does not fit 4 bytes of strings");
  EXPECT_EQ(Check(with(20, 1)).message(), "id map: header bytes 17..23 are not zero");
  EXPECT_EQ(Check(with(26, 1)).message(), "id map: padding after the offsets is not zero");
  // Offsets 0,1,3,4 of 3 bits each, least significant bit first: byte 24
  // is 0xc8 (bits 3, 6, 7), byte 25 0x08 (bit 11).
  ASSERT_EQ(static_cast<uint8_t>(good[24]), 0xc8);
  ASSERT_EQ(static_cast<uint8_t>(good[25]), 0x08);
  EXPECT_EQ(Check(with(24, static_cast<char>(0xc9))).message(), "id map: the first offset is not 0");
  EXPECT_EQ(Check(with(24, 0x08)).message(), "id map: string 1 is empty or out of order");  // offsets 0,1,0,4
  EXPECT_EQ(Check(with(25, 0x18)).message(), "id map: the unused bits after the last offset are not zero");
  EXPECT_EQ(Check(with(25, 0x0a)).message(), "id map: the last offset is not the strings' length");
  std::string swapped = good;
  std::swap(swapped[32], swapped[35]);  // "d", "bc", "a": out of order
  EXPECT_EQ(Check(swapped).message(), "id map: string 1 is not greater than the one before it");
}

// --- In an index.

std::vector<std::pair<std::string, uint64_t>> UrlEntries(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::pair<std::string, uint64_t>> out;
  std::vector<uint64_t> fps = ClusterFingerprints(n / 6 + 1, 6, seed);
  for (size_t i = 0; i < n; ++i) {
    // Some ids repeat (a document with two fingerprints), some fingerprints
    // repeat under other ids.
    const std::string id = "https://news.example/" + std::to_string(rng() % (n * 2)) + "?q=\"x\"&é";
    out.emplace_back(id, fps[i % fps.size()]);
  }
  return out;
}

Status BuildStrings(const std::string& path, const std::vector<std::pair<std::string, uint64_t>>& entries,
                    uint32_t block_size = 4096, size_t memory_bytes = BuildOptions().memory_bytes,
                    BuildStats* stats = nullptr) {
  BuildOptions o;
  o.string_ids = true;
  o.block_size = block_size;
  o.memory_bytes = memory_bytes;
  std::unique_ptr<IndexBuilder> b;
  SIMDEX_RETURN_IF_ERROR(IndexBuilder::Create(path, o, &b));
  for (const auto& [id, fp] : entries) SIMDEX_RETURN_IF_ERROR(b->Add(id, fp));
  SIMDEX_RETURN_IF_ERROR(b->Finish());
  if (stats != nullptr) *stats = b->stats();
  return Status::OK();
}

TEST(StringIdIndexTest, SearchesGiveTheIdsBackAndTheFileDependsOnlyOnTheEntries) {
  ScopedTempDir dir;
  auto entries = UrlEntries(3000, 2);
  ASSERT_TRUE(BuildStrings(dir.File("a.sdx"), entries, 64).ok());
  std::mt19937_64 rng(3);
  for (size_t i = entries.size(); i > 1; --i) std::swap(entries[i - 1], entries[rng() % i]);
  ASSERT_TRUE(BuildStrings(dir.File("b.sdx"), entries, 64).ok());
  EXPECT_TRUE(ReadFileOrDie(dir.File("a.sdx")) == ReadFileOrDie(dir.File("b.sdx")));
  std::unique_ptr<IndexReader> reader;
  ASSERT_TRUE(IndexReader::Open(dir.File("a.sdx"), ReaderOptions(), &reader).ok());
  ASSERT_TRUE(reader->Verify().ok());
  ASSERT_TRUE(reader->has_string_ids());
  EXPECT_EQ(reader->Info().format_version, format::kWrittenFormatVersion);
  for (size_t i = 0; i < entries.size(); i += 7) {
    const auto& [id, fp] = entries[i];
    std::vector<Match> matches;
    ASSERT_TRUE(reader->Search(fp, 3, &matches).ok());
    std::vector<std::string> ids;
    for (const Match& m : matches) {
      if (m.fingerprint == fp) ids.emplace_back(reader->IdString(m.id));
    }
    EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
    uint64_t number;
    ASSERT_TRUE(reader->FindIdString(id, &number).ok());
    EXPECT_EQ(reader->IdString(number), id);
  }
  uint64_t number;
  EXPECT_TRUE(reader->FindIdString("https://absent.example/", &number).IsNotFound());
}

// The ids of a build at the smallest budget are spilled as sorted runs and
// merged back (engine/index/id_map_builder.h): the same file as in memory.
TEST(StringIdIndexTest, IdsSpilledPastTheBudgetGiveTheSameFile) {
  ScopedTempDir dir;
  const auto entries = UrlEntries(20000, 5);
  BuildStats in_memory, spilled;
  ASSERT_TRUE(BuildStrings(dir.File("memory.sdx"), entries, 1024, BuildOptions().memory_bytes, &in_memory).ok());
  const Status s = BuildStrings(dir.File("spilled.sdx"), entries, 1024, size_t{64} << 10, &spilled);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(in_memory.id_map_runs, 0u);
  EXPECT_GT(spilled.id_map_runs, 10u);
  EXPECT_TRUE(ReadFileOrDie(dir.File("memory.sdx")) == ReadFileOrDie(dir.File("spilled.sdx")));
  EXPECT_EQ(dir.List(), (std::vector<std::string>{"memory.sdx", "spilled.sdx"}));  // no scratch left
}

TEST(StringIdIndexTest, NumericIdsInAStringIndexAreTheirDecimalStrings) {
  ScopedTempDir dir;
  BuildOptions o;
  o.string_ids = true;
  std::unique_ptr<IndexBuilder> b;
  ASSERT_TRUE(IndexBuilder::Create(dir.File("m.sdx"), o, &b).ok());
  ASSERT_TRUE(b->Add(uint64_t{42}, 0x1234).ok());
  ASSERT_TRUE(b->Add("doc-7", 0x1234).ok());
  ASSERT_TRUE(b->Finish().ok());
  std::unique_ptr<IndexReader> reader;
  ASSERT_TRUE(IndexReader::Open(dir.File("m.sdx"), ReaderOptions(), &reader).ok());
  std::vector<Match> matches;
  ASSERT_TRUE(reader->Search(0x1234, 0, &matches).ok());
  ASSERT_EQ(matches.size(), 2u);
  EXPECT_EQ(reader->IdString(matches[0].id), "42");  // "42" < "doc-7"
  EXPECT_EQ(reader->IdString(matches[1].id), "doc-7");
  std::unique_ptr<IndexReader> numeric;
  ASSERT_TRUE(IndexBuilder::Create(dir.File("n2.sdx"), BuildOptions(), &b).ok());
  ASSERT_TRUE(b->Add(uint64_t{1}, 1).ok());
  ASSERT_TRUE(b->Finish().ok());
  ASSERT_TRUE(IndexReader::Open(dir.File("n2.sdx"), ReaderOptions(), &numeric).ok());
  EXPECT_FALSE(numeric->has_string_ids());
  uint64_t n;
  EXPECT_TRUE(numeric->FindIdString("1", &n).IsInvalidArgument());
}

// Numeric ids before the first string id (spilled by a tiny budget) become
// decimal strings: the same bytes as a build with string ids from the start.
TEST(StringIdIndexTest, AFirstStringIdTurnsEarlierNumbersIntoStrings) {
  ScopedTempDir dir;
  const std::vector<uint64_t> fps = UniformFingerprints(20000, 9);
  BuildOptions o;
  o.memory_bytes = size_t{64} << 10;
  std::unique_ptr<IndexBuilder> b;
  ASSERT_TRUE(IndexBuilder::Create(dir.File("switched.sdx"), o, &b).ok());
  for (size_t i = 0; i < fps.size(); ++i) {
    ASSERT_TRUE((i == 15000 ? b->Add("doc-" + std::to_string(i), fps[i]) : b->Add(uint64_t{i}, fps[i])).ok());
  }
  ASSERT_TRUE(b->Finish().ok());
  EXPECT_GT(b->stats().spilled_runs, 0u);
  o.string_ids = true;
  ASSERT_TRUE(IndexBuilder::Create(dir.File("strings.sdx"), o, &b).ok());
  for (size_t i = fps.size(); i-- > 0;) {
    ASSERT_TRUE(b->Add(i == 15000 ? "doc-" + std::to_string(i) : std::to_string(i), fps[i]).ok());
  }
  ASSERT_TRUE(b->Finish().ok());
  EXPECT_TRUE(ReadFileOrDie(dir.File("switched.sdx")) == ReadFileOrDie(dir.File("strings.sdx")));
}

TEST(StringIdIndexTest, EmptyAndLargeMapsWork) {
  ScopedTempDir dir;
  Status built = BuildStrings(dir.File("empty.sdx"), {});
  ASSERT_TRUE(built.ok()) << built.ToString();
  std::unique_ptr<IndexReader> reader;
  Status opened = IndexReader::Open(dir.File("empty.sdx"), ReaderOptions(), &reader);
  ASSERT_TRUE(opened.ok()) << opened.ToString();
  EXPECT_TRUE(reader->has_string_ids());
  EXPECT_TRUE(reader->Verify().ok());
  std::vector<std::pair<std::string, uint64_t>> many;
  std::vector<uint64_t> fps = UniformFingerprints(100000, 4);
  for (size_t i = 0; i < fps.size(); ++i) many.emplace_back("id-" + std::to_string(i * 7919 % 100003), fps[i]);
  ASSERT_TRUE(BuildStrings(dir.File("many.sdx"), many).ok());
  ASSERT_TRUE(IndexReader::Open(dir.File("many.sdx"), ReaderOptions(), &reader).ok());
  EXPECT_TRUE(reader->Verify().ok());
  EXPECT_EQ(reader->Info().id_map_strings, 100000u);
  std::vector<Match> m;
  ASSERT_TRUE(reader->Search(fps[12345], 0, &m).ok());
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(reader->IdString(m[0].id), "id-" + std::to_string(12345 * 7919 % 100003));
}

// Rewrites a file of this version as an older `version`: the same
// sections, the metadata with that version's fields, header and footer
// saying it. (Version 1 has no id map: REQUIRES numeric ids for it.)
std::string AsVersion(const std::string& file, uint32_t version) {
  const uint8_t* base = reinterpret_cast<const uint8_t*>(file.data());
  format::Footer footer;
  EXPECT_TRUE(footer.DecodeFrom(base + file.size() - 56, base + file.size()).ok());
  format::IndexMetadata meta;
  EXPECT_TRUE(meta.DecodeFrom(base + footer.metadata_offset, base + file.size() - 56).ok());
  std::string out = file.substr(0, footer.metadata_offset);
  format::FileHeader header;
  header.version = version;
  std::string h;
  header.EncodeTo(&h);
  out.replace(0, h.size(), h);
  std::string tail;
  meta.EncodeTo(&tail, version);
  footer.version = version;
  footer.metadata_length = tail.size();
  footer.metadata_checksum = format::SectionChecksum(tail.data(), tail.size());
  footer.file_size = out.size() + tail.size() + 56;
  footer.EncodeTo(&tail);
  return out + tail;
}

// An old file's reader verifies and answers every 13th entry's k = 3
// search as the brute-force oracle does.
void ExpectVerifiesAndAnswersAsBruteForce(IndexReader& reader, const std::vector<Entry>& entries) {
  EXPECT_TRUE(reader.Verify().ok());
  for (size_t i = 0; i < entries.size(); i += 13) {
    std::vector<Match> got;
    ASSERT_TRUE(reader.Search(entries[i].fingerprint, 3, &got).ok());
    EXPECT_EQ(got, BruteForceSearch(entries, entries[i].fingerprint, 3));
  }
}

TEST(StringIdIndexTest, VersionOneFilesStillOpenAndSearch) {
  ScopedTempDir dir;
  const std::vector<Entry> entries = AssignIds(ClusterFingerprints(200, 6, 5), IdStyle::kFullRange, 5);
  ASSERT_TRUE(BuildIndex(dir.File("v3.sdx"), BuildOptions(), entries).ok());
  const std::string v1 = AsVersion(ReadFileOrDie(dir.File("v3.sdx")), 1);
  std::unique_ptr<IndexReader> reader;
  Status s = IndexReader::Open(NewMemoryFile(v1), ReaderOptions(), &reader);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(reader->Info().format_version, 1u);
  EXPECT_FALSE(reader->has_string_ids());
  ExpectVerifiesAndAnswersAsBruteForce(*reader, entries);
  // A version after this build's is not supported, whatever else it holds.
  std::string next = v1;
  format::FileHeader header;
  header.version = format::kFormatVersion + 1;
  std::string h;
  header.EncodeTo(&h);
  next.replace(0, h.size(), h);
  EXPECT_TRUE(IndexReader::Open(NewMemoryFile(next), ReaderOptions(), &reader).IsNotSupported());
}

// Version 5 only named the index kind in a header byte that was zero:
// a SimHash file of version 4 is this build's file with the versions (and
// the header and footer checksums) changed, and it opens and answers alike.
TEST(StringIdIndexTest, VersionFourFilesDifferOnlyInTheirVersionFields) {
  ScopedTempDir dir;
  const std::vector<Entry> entries = AssignIds(ClusterFingerprints(200, 6, 9), IdStyle::kFullRange, 9);
  BuildOptions options;
  options.profile = "simdex-fp/3 words seed:0";
  ASSERT_TRUE(BuildIndex(dir.File("v5.sdx"), options, entries).ok());
  const std::string v5 = ReadFileOrDie(dir.File("v5.sdx"));
  const std::string v4 = AsVersion(v5, 4);
  ASSERT_EQ(v4.size(), v5.size());
  size_t differing = 0;
  for (size_t i = 0; i < v5.size(); ++i) differing += v4[i] != v5[i];
  EXPECT_EQ(v4.substr(64, v5.size() - 64 - 56), v5.substr(64, v5.size() - 64 - 56));
  EXPECT_LE(differing, 2u * (4 + 8));  // two versions and two checksums
  std::unique_ptr<IndexReader> reader;
  ASSERT_TRUE(IndexReader::Open(NewMemoryFile(v4), ReaderOptions(), &reader).ok());
  EXPECT_EQ(reader->Info().format_version, 4u);
  ExpectVerifiesAndAnswersAsBruteForce(*reader, entries);
  // A version 4 file with a nonzero byte 16 is damaged, not an LSH index.
  std::string bad = v4;
  bad[16] = 1;
  const uint64_t sum = format::SectionChecksum(bad.data(), 56);  // the header still checks out
  std::memcpy(bad.data() + 56, &sum, 8);
  format::FileHeader header;
  EXPECT_TRUE(header.DecodeFrom(reinterpret_cast<const uint8_t*>(bad.data()),
                                reinterpret_cast<const uint8_t*>(bad.data()) + 64).IsCorruption());
}

// Files written before profiles (version 3) open as unrecorded and answer
// as the same file of this version does.
TEST(StringIdIndexTest, VersionThreeFilesOpenWithoutAProfile) {
  ScopedTempDir dir;
  const std::vector<Entry> entries = AssignIds(ClusterFingerprints(200, 6, 7), IdStyle::kFullRange, 7);
  BuildOptions options;
  options.profile = "simdex-fp/3 words seed:0";
  ASSERT_TRUE(BuildIndex(dir.File("v4.sdx"), options, entries).ok());
  const std::string v4 = ReadFileOrDie(dir.File("v4.sdx"));
  const std::string v3 = AsVersion(v4, 3);
  EXPECT_EQ(v3.size() + 4 + options.profile.size(), v4.size());
  std::unique_ptr<IndexReader> reader;
  Status s = IndexReader::Open(NewMemoryFile(v3), ReaderOptions(), &reader);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(reader->Info().format_version, 3u);
  EXPECT_EQ(reader->profile(), "");
  ExpectVerifiesAndAnswersAsBruteForce(*reader, entries);
}

// Files written before codec tags (version 2) open, verify and answer as
// the same file of this version does: string ids, their map, every table.
TEST(StringIdIndexTest, VersionTwoFilesStillOpenAndSearch) {
  ScopedTempDir dir;
  const auto entries = UrlEntries(2000, 9);
  ASSERT_TRUE(BuildStrings(dir.File("v3.sdx"), entries, 256).ok());
  const std::string v3 = ReadFileOrDie(dir.File("v3.sdx"));
  const std::string v2 = AsVersion(v3, 2);
  EXPECT_EQ(v2.substr(64, 4096), v3.substr(64, 4096));  // the sections are the same bytes
  std::unique_ptr<IndexReader> old_reader, new_reader;
  Status s = IndexReader::Open(NewMemoryFile(v2), ReaderOptions(), &old_reader);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_TRUE(IndexReader::Open(NewMemoryFile(v3), ReaderOptions(), &new_reader).ok());
  EXPECT_EQ(old_reader->Info().format_version, 2u);
  EXPECT_TRUE(old_reader->Verify().ok());
  for (size_t i = 0; i < entries.size(); i += 11) {
    std::vector<Match> got, want;
    ASSERT_TRUE(old_reader->Search(entries[i].second, 3, &got).ok());
    ASSERT_TRUE(new_reader->Search(entries[i].second, 3, &want).ok());
    EXPECT_EQ(got, want);
    ASSERT_FALSE(got.empty());
    EXPECT_EQ(old_reader->IdString(got[0].id), new_reader->IdString(want[0].id));
  }
}

TEST(StringIdIndexTest, ADamagedIdMapIsCorruption) {
  ScopedTempDir dir;
  ASSERT_TRUE(BuildStrings(dir.File("s.sdx"), UrlEntries(500, 6)).ok());
  const std::string good = ReadFileOrDie(dir.File("s.sdx"));
  std::unique_ptr<IndexReader> reader;
  ASSERT_TRUE(IndexReader::Open(NewMemoryFile(good), ReaderOptions(), &reader).ok());
  const IndexInfo info = reader->Info();
  // The map sits just before the metadata; find it from the metadata.
  const uint8_t* base = reinterpret_cast<const uint8_t*>(good.data());
  format::Footer footer;
  ASSERT_TRUE(footer.DecodeFrom(base + good.size() - 56, base + good.size()).ok());
  format::IndexMetadata meta;
  ASSERT_TRUE(meta.DecodeFrom(base + footer.metadata_offset, base + good.size() - 56).ok());
  ASSERT_EQ(meta.id_map_length, info.id_map_bytes);
  for (uint64_t at : {meta.id_map_offset + 3, meta.id_map_offset + 30, meta.id_map_offset + meta.id_map_length - 2}) {
    std::string bad = good;
    bad[at] ^= 0x20;
    Status s = IndexReader::Open(NewMemoryFile(bad), ReaderOptions(), &reader);
    EXPECT_TRUE(s.IsCorruption()) << at << ": " << s.ToString();
    EXPECT_NE(s.message().find("id map"), std::string::npos) << s.message();
    // Without the checksum at open, Verify() finds it; lookups stay in bounds.
    ReaderOptions lax;
    lax.verify_heads_on_open = false;
    if (IndexReader::Open(NewMemoryFile(bad), lax, &reader).ok()) {
      EXPECT_TRUE(reader->Verify().IsCorruption()) << at;
      for (uint64_t i = 0; i < std::min<uint64_t>(info.id_map_strings, 50); ++i) (void)reader->IdString(i);
      uint64_t n;
      (void)reader->FindIdString("https://news.example/1", &n);
    }
  }
}

}  // namespace
}  // namespace simdex::testing
