// IndexMerger against a fresh build: merging a batch into an index (and
// deleting ids) gives byte for byte the file IndexBuilder writes for the
// same entries, for every scheme, small and default blocks, every standard
// data set, in memory and with every buffer spilled; and failures leave no
// file behind.
#include "simdex/merge.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "format/block_frame.h"
#include "format/coding.h"
#include "format/index_layout.h"
#include "tests/index/test_data.h"

namespace simdex::testing {
namespace {

struct Split {
  std::vector<Entry> old_entries;
  std::vector<Entry> batch;
  std::vector<uint64_t> deleted;  // ids of old entries (and one that no entry has)
};

// Old entries: about two thirds; the batch the rest plus copies of some old
// entries under their own ids; deleted: every 7th old entry's id.
Split SplitEntries(const std::vector<Entry>& entries, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Split s;
  for (const Entry& e : entries) (rng() % 3 == 0 ? s.batch : s.old_entries).push_back(e);
  for (size_t i = 0; i < s.old_entries.size(); i += 11) s.batch.push_back(s.old_entries[i]);
  for (size_t i = 3; i < s.old_entries.size(); i += 7) s.deleted.push_back(s.old_entries[i].id);
  s.deleted.push_back(0x5eed);
  return s;
}

// What a fresh build gets: the old entries whose ids are not deleted, and
// the batch.
std::vector<Entry> Union(const Split& s) {
  const std::set<uint64_t> gone(s.deleted.begin(), s.deleted.end());
  std::vector<Entry> out;
  for (const Entry& e : s.old_entries) {
    if (!gone.count(e.id)) out.push_back(e);
  }
  out.insert(out.end(), s.batch.begin(), s.batch.end());
  return out;
}

Status Merge(const std::string& old_path, const std::string& out, const Split& s, const MergeOptions& options,
             MergeStats* stats = nullptr) {
  std::unique_ptr<IndexReader> old;
  SIMDEX_RETURN_IF_ERROR(IndexReader::Open(old_path, ReaderOptions(), &old));
  std::unique_ptr<IndexMerger> merger;
  SIMDEX_RETURN_IF_ERROR(IndexMerger::Create(old.get(), out, options, &merger));
  for (const Entry& e : s.batch) SIMDEX_RETURN_IF_ERROR(merger->Add(e.id, e.fingerprint));
  for (uint64_t id : s.deleted) SIMDEX_RETURN_IF_ERROR(merger->Delete(id));
  SIMDEX_RETURN_IF_ERROR(merger->Finish());
  if (stats) *stats = merger->stats();
  return Status::OK();
}

// A 128 KiB budget with scratch files in dir: every buffer of a merge of
// thousands of entries spills.
MergeOptions TinyMergeOptions(const ScopedTempDir& dir) {
  MergeOptions o;
  o.memory_bytes = size_t{128} << 10;
  o.tmpdir = dir.path();
  return o;
}

// The metadata of an index file's bytes, through its footer.
Status MetadataOf(const std::string& file, format::IndexMetadata* meta) {
  const uint8_t* base = reinterpret_cast<const uint8_t*>(file.data());
  format::Footer footer;
  SIMDEX_RETURN_IF_ERROR(footer.DecodeFrom(base + file.size() - format::Footer::kEncodedLength, base + file.size()));
  return meta->DecodeFrom(base + footer.metadata_offset, base + footer.metadata_offset + footer.metadata_length);
}

// The codec a merge into this index writes with: the old index's when its
// tables share one, else a choice per table again (include/simdex/merge.h).
std::string CodecAMergeKeeps(const std::string& path) {
  std::unique_ptr<IndexReader> reader;
  EXPECT_TRUE(IndexReader::Open(path, ReaderOptions(), &reader).ok());
  std::set<std::string> codecs;
  const IndexInfo info = reader->Info();
  for (const IndexInfo::Table& t : info.tables) codecs.insert(t.codec);
  return info.entries > 0 && codecs.size() == 1 ? *codecs.begin() : "auto";
}

class MergerTest : public ::testing::TestWithParam<std::tuple<std::string, uint32_t>> {};

TEST_P(MergerTest, MergeEqualsAFreshBuildByteForByte) {
  const auto& [scheme, block_size] = GetParam();
  ScopedTempDir dir;
  BuildOptions options;
  options.scheme = SchemeOrDie(scheme);
  options.block_size = block_size;
  for (const DataSet& data : StandardDataSets(2)) {
    const Split s = SplitEntries(data.entries, 1);
    const std::string old_path = dir.File("old.sdx"), merged = dir.File("merged.sdx"), fresh = dir.File("fresh.sdx");
    ASSERT_TRUE(BuildIndex(old_path, options, s.old_entries).ok());
    BuildOptions fresh_options = options;  // the default codec, auto, may have chosen one codec for every table
    fresh_options.codec = CodecAMergeKeeps(old_path);
    ASSERT_TRUE(BuildIndex(fresh, fresh_options, Union(s)).ok());
    for (size_t memory : {size_t{64} << 20, size_t{128} << 10}) {
      MergeOptions mo;
      mo.memory_bytes = memory;
      mo.tmpdir = dir.path();
      MergeStats stats;
      Status st = Merge(old_path, merged, s, mo, &stats);
      ASSERT_TRUE(st.ok()) << data.name << ": " << st.ToString();
      EXPECT_TRUE(ReadFileOrDie(merged) == ReadFileOrDie(fresh)) << data.name << " memory " << memory;
      EXPECT_EQ(stats.entries, Union(s).size()) << data.name;
      EXPECT_EQ(stats.added, s.batch.size());
      EXPECT_EQ(stats.ids_not_found, s.old_entries.empty() ? s.deleted.size() : 1u) << data.name;
      std::unique_ptr<IndexReader> reader;
      ASSERT_TRUE(IndexReader::Open(merged, ReaderOptions(), &reader).ok());
      EXPECT_TRUE(reader->Verify().ok()) << data.name;
    }
  }
  EXPECT_EQ(dir.List(), (std::vector<std::string>{"fresh.sdx", "merged.sdx", "old.sdx"}));
}

INSTANTIATE_TEST_SUITE_P(Schemes, MergerTest,
                         ::testing::Combine(::testing::Values("t4", "t10", "t20", "32,32:1", "64:0"),
                                            ::testing::Values(64u, 4096u)));

// An index of the ef codec grows into one of the ef codec: the fresh ef
// build's bytes.
TEST(MergerTest, AnEfIndexMergesIntoTheFreshEfBuild) {
  ScopedTempDir dir;
  BuildOptions options;
  options.scheme = SchemeOrDie("t10");
  options.block_size = 256;
  options.codec = "ef";
  for (const DataSet& data : StandardDataSets(2)) {
    const Split s = SplitEntries(data.entries, 1);
    const std::string old_path = dir.File("old.sdx"), merged = dir.File("merged.sdx"), fresh = dir.File("fresh.sdx");
    ASSERT_TRUE(BuildIndex(old_path, options, s.old_entries).ok());
    ASSERT_TRUE(BuildIndex(fresh, options, Union(s)).ok());
    Status st = Merge(old_path, merged, s, MergeOptions(), nullptr);
    ASSERT_TRUE(st.ok()) << data.name << ": " << st.ToString();
    EXPECT_TRUE(ReadFileOrDie(merged) == ReadFileOrDie(fresh)) << data.name;
  }
}

// The merged index records the old index's fingerprint profile and is the
// fresh build of that profile byte for byte; entries of another profile are
// refused before anything is written; an unrecorded old index takes the
// added entries' profile.
TEST(MergerTest, TheMergedIndexKeepsTheProfileAndRefusesAnother) {
  ScopedTempDir dir;
  BuildOptions options;
  options.block_size = 256;
  options.profile = "simdex-fp/3 words seed:0";
  const DataSet data = StandardDataSets(2).front();
  const Split s = SplitEntries(data.entries, 1);
  const std::string old_path = dir.File("old.sdx"), merged = dir.File("merged.sdx"), fresh = dir.File("fresh.sdx");
  ASSERT_TRUE(BuildIndex(old_path, options, s.old_entries).ok());
  ASSERT_TRUE(BuildIndex(fresh, options, Union(s)).ok());
  MergeOptions same;
  same.profile = options.profile;
  for (const MergeOptions& mo : {MergeOptions(), same}) {
    ASSERT_TRUE(Merge(old_path, merged, s, mo).ok());
    EXPECT_TRUE(ReadFileOrDie(merged) == ReadFileOrDie(fresh)) << "added profile '" << mo.profile << "'";
  }
  MergeOptions other;
  other.profile = "simdex-fp/3 words seed:7";
  Status st = Merge(old_path, dir.File("refused.sdx"), s, other);
  ASSERT_TRUE(st.IsInvalidArgument()) << st.ToString();
  EXPECT_NE(st.message().find("seed:0"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("seed:7"), std::string::npos) << st.message();
  EXPECT_EQ(dir.List(), (std::vector<std::string>{"fresh.sdx", "merged.sdx", "old.sdx"}));

  BuildOptions unrecorded = options;
  unrecorded.profile.clear();
  ASSERT_TRUE(BuildIndex(old_path, unrecorded, s.old_entries).ok());
  ASSERT_TRUE(Merge(old_path, merged, s, same).ok());
  EXPECT_TRUE(ReadFileOrDie(merged) == ReadFileOrDie(fresh));
}

// 30,000 entries with 128 KiB: the batch's sorts spill and the merged
// tables go through scratch files; still the fresh build's bytes.
TEST(MergerTest, SpilledMergeEqualsAFreshBuild) {
  ScopedTempDir dir;
  std::vector<uint64_t> fps = ClusterFingerprints(2000, 8, 8);
  for (uint64_t x : UniformFingerprints(14000, 9)) fps.push_back(x);
  const Split s = SplitEntries(AssignIds(fps, IdStyle::kFullRange, 8), 2);
  ASSERT_GT(s.batch.size(), 5000u);
  ASSERT_TRUE(BuildIndex(dir.File("old.sdx"), BuildOptions(), s.old_entries).ok());
  ASSERT_TRUE(BuildIndex(dir.File("fresh.sdx"), BuildOptions(), Union(s)).ok());
  ASSERT_TRUE(Merge(dir.File("old.sdx"), dir.File("merged.sdx"), s, TinyMergeOptions(dir)).ok());
  EXPECT_TRUE(ReadFileOrDie(dir.File("merged.sdx")) == ReadFileOrDie(dir.File("fresh.sdx")));
  EXPECT_EQ(dir.List(), (std::vector<std::string>{"fresh.sdx", "merged.sdx", "old.sdx"}));
}

TEST(MergerTest, NothingAddedOrDeletedGivesTheSameFile) {
  ScopedTempDir dir;
  const std::vector<Entry> entries = AssignIds(ClusterFingerprints(300, 6, 4), IdStyle::kFullRange, 4);
  ASSERT_TRUE(BuildIndex(dir.File("old.sdx"), BuildOptions(), entries).ok());
  ASSERT_TRUE(Merge(dir.File("old.sdx"), dir.File("new.sdx"), Split(), MergeOptions()).ok());
  EXPECT_TRUE(ReadFileOrDie(dir.File("old.sdx")) == ReadFileOrDie(dir.File("new.sdx")));
}

TEST(MergerTest, DeletingEveryIdGivesTheEmptyIndex) {
  ScopedTempDir dir;
  Split s;
  s.old_entries = AssignIds(UniformFingerprints(500, 5), IdStyle::kSequential, 5);
  for (const Entry& e : s.old_entries) s.deleted.push_back(e.id);
  ASSERT_TRUE(BuildIndex(dir.File("old.sdx"), BuildOptions(), s.old_entries).ok());
  ASSERT_TRUE(BuildIndex(dir.File("empty.sdx"), BuildOptions(), {}).ok());
  MergeStats stats;
  ASSERT_TRUE(Merge(dir.File("old.sdx"), dir.File("new.sdx"), s, MergeOptions(), &stats).ok());
  EXPECT_TRUE(ReadFileOrDie(dir.File("empty.sdx")) == ReadFileOrDie(dir.File("new.sdx")));
  EXPECT_EQ(stats.deleted, 500u);
  EXPECT_EQ(stats.entries, 0u);
}

TEST(MergerTest, DamagedOldIndexIsCorruptionAndLeavesNoFile) {
  ScopedTempDir dir;
  const std::vector<Entry> entries = AssignIds(UniformFingerprints(3000, 6), IdStyle::kSequential, 6);
  BuildOptions options;
  options.block_size = 64;
  ASSERT_TRUE(BuildIndex(dir.File("old.sdx"), options, entries).ok());
  std::string bytes = ReadFileOrDie(dir.File("old.sdx"));
  bytes[64 + 64 * 5 + 9] ^= 0x40;  // inside block 5 of table 0: its checksum no longer matches
  WriteFileOrDie(dir.File("old.sdx"), bytes);
  // Open() does not read the blocks; the merger verifies each as it reads it.
  std::unique_ptr<IndexReader> old;
  ASSERT_TRUE(IndexReader::Open(dir.File("old.sdx"), ReaderOptions(), &old).ok());
  std::unique_ptr<IndexMerger> merger;
  ASSERT_TRUE(IndexMerger::Create(old.get(), dir.File("new.sdx"), MergeOptions(), &merger).ok());
  ASSERT_TRUE(merger->Add(1, 2).ok());
  Status s = merger->Finish();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find("block 5 of table 0"), std::string::npos) << s.message();
  EXPECT_TRUE(merger->Add(3, 4).IsCorruption());
  merger.reset();
  EXPECT_EQ(dir.List(), std::vector<std::string>{"old.sdx"});
}

// A block of table t > 0 whose bits are changed and whose checksum is then
// recomputed (so that only the tables' disagreement shows) gave merges that
// returned OK and wrote a file, with fresh checksums, that Verify()
// rejected ("table 4 does not hold the same fingerprints as table 0"). The
// merge now checks, as it streams each old table, that it holds the
// fingerprints table 0 holds. Of the crafted files Verify() rejects, the
// merge refuses each whose values it would copy wrong, naming the old
// index and writing nothing; the others (bits that decode to the same
// values, such as nonzero padding) merge into the fresh build's bytes.
TEST(MergerTest, TablesThatDisagreeAreCorruptionAndLeaveNoFile) {
  ScopedTempDir dir;
  const std::vector<Entry> entries = AssignIds(UniformFingerprints(600, 8), IdStyle::kSequential, 8);
  for (const char* codec : {"card", "ef"}) {
    SCOPED_TRACE(codec);
    BuildOptions options;
    options.block_size = 64;
    options.codec = codec;
    ASSERT_TRUE(BuildIndex(dir.File("good.sdx"), options, entries).ok());
    const std::string good = ReadFileOrDie(dir.File("good.sdx"));
    format::IndexMetadata meta;
    ASSERT_TRUE(MetadataOf(good, &meta).ok());
    std::vector<Entry> merged_entries = entries;
    merged_entries.push_back({1 << 20, 2});
    ASSERT_TRUE(BuildIndex(dir.File("fresh.sdx"), options, merged_entries).ok());
    const std::string fresh = ReadFileOrDie(dir.File("fresh.sdx"));
    int crafted = 0, refused = 0;
    for (uint32_t t = 1; t < meta.tables.size(); t += 3) {
      for (uint64_t b = 0; b < meta.tables[t].num_blocks; b += 2) {
        for (size_t byte = 4; byte < meta.block_size; byte += 5) {
          std::string bad = good;
          uint8_t* block = reinterpret_cast<uint8_t*>(bad.data()) + meta.tables[t].blocks_offset + b * meta.block_size;
          block[byte] ^= static_cast<uint8_t>(1 << (byte % 8));
          format::EncodeFixed32(reinterpret_cast<char*>(block),
                                format::BlockChecksum(block, meta.block_size, format::BlockSeed(t, b)));
          const std::string old_path = dir.File("old.sdx");
          WriteFileOrDie(old_path, bad);
          std::unique_ptr<IndexReader> old;
          if (!IndexReader::Open(old_path, ReaderOptions(), &old).ok() || old->Verify().ok()) continue;
          ++crafted;
          std::unique_ptr<IndexMerger> merger;
          ASSERT_TRUE(IndexMerger::Create(old.get(), dir.File("new.sdx"), MergeOptions(), &merger).ok());
          ASSERT_TRUE(merger->Add(1 << 20, 2).ok());
          const Status s = merger->Finish();
          merger.reset();
          const std::string where = "table " + std::to_string(t) + " block " + std::to_string(b) + " byte " +
                                    std::to_string(byte);
          if (s.ok()) {
            EXPECT_TRUE(ReadFileOrDie(dir.File("new.sdx")) == fresh) << where << ": a merge that is not the fresh build";
            std::remove(dir.File("new.sdx").c_str());
            continue;
          }
          ++refused;
          EXPECT_TRUE(s.IsCorruption()) << where << ": " << s.ToString();
          EXPECT_EQ(s.message().rfind(old_path + ": ", 0), 0u) << where << ": " << s.message();
          EXPECT_EQ(dir.List(), (std::vector<std::string>{"fresh.sdx", "good.sdx", "old.sdx"})) << where;
        }
      }
    }
    EXPECT_GT(refused, 100);
    std::printf("%s: %d crafted files Verify() rejects, %d merges refused, the others the fresh build\n", codec,
                crafted, refused);
  }
}

// Issue 18: a merge copied a damaged id section into a new index that
// verify then accepted. Every byte of the old index's id section, in turn:
// the merge fails naming the old index and its id section, and writes
// nothing.
TEST(MergerTest, DamagedIdSectionIsCorruptionNamingTheOldIndexAndLeavesNoFile) {
  ScopedTempDir dir;
  const std::vector<Entry> entries = AssignIds(UniformFingerprints(300, 7), IdStyle::kSequential, 7);
  BuildOptions options;
  options.block_size = 64;
  ASSERT_TRUE(BuildIndex(dir.File("good.sdx"), options, entries).ok());
  const std::string good = ReadFileOrDie(dir.File("good.sdx"));
  format::IndexMetadata meta;
  ASSERT_TRUE(MetadataOf(good, &meta).ok());
  const uint64_t ids_begin = meta.ids_offset, ids_end = meta.ids_offset + meta.ids_length;
  ASSERT_GT(ids_end, ids_begin);
  for (uint64_t at = ids_begin; at < ids_end; at += 3) {
    SCOPED_TRACE("id section byte " + std::to_string(at - ids_begin));
    std::string bad = good;
    bad[at] ^= static_cast<char>(1 << (at % 8));
    const std::string old_path = dir.File("old.sdx");
    WriteFileOrDie(old_path, bad);
    std::unique_ptr<IndexReader> old;
    ASSERT_TRUE(IndexReader::Open(old_path, ReaderOptions(), &old).ok());
    std::unique_ptr<IndexMerger> merger;
    ASSERT_TRUE(IndexMerger::Create(old.get(), dir.File("new.sdx"), MergeOptions(), &merger).ok());
    ASSERT_TRUE(merger->Add(1, 2).ok());
    Status s = merger->Finish();
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_EQ(s.message().rfind(old_path + ": id section", 0), 0u) << s.message();
    merger.reset();
    EXPECT_EQ(dir.List(), (std::vector<std::string>{"good.sdx", "old.sdx"}));
  }
}

TEST(MergerTest, AnInvalidStringIdIsRefusedAndAnAbandonedMergeLeavesNoFile) {
  ScopedTempDir dir;
  ASSERT_TRUE(BuildIndex(dir.File("old.sdx"), BuildOptions(), AssignIds(UniformFingerprints(10, 7), IdStyle::kSequential, 7)).ok());
  std::unique_ptr<IndexReader> old;
  ASSERT_TRUE(IndexReader::Open(dir.File("old.sdx"), ReaderOptions(), &old).ok());
  std::unique_ptr<IndexMerger> merger;
  ASSERT_TRUE(IndexMerger::Create(old.get(), dir.File("new.sdx"), MergeOptions(), &merger).ok());
  ASSERT_TRUE(merger->Add(1, 2).ok());
  const Status bad = merger->Add(std::string_view("a\tb"), 1);
  EXPECT_TRUE(bad.IsInvalidArgument()) << bad.ToString();
  EXPECT_TRUE(merger->Add(std::string_view(""), 1).IsInvalidArgument());
  merger->Abandon();
  EXPECT_TRUE(merger->Finish().IsInvalidArgument());
  merger.reset();
  EXPECT_EQ(dir.List(), std::vector<std::string>{"old.sdx"});
}

// String ids. An entry's id is a string ("u" + its number, or the number's
// decimal digits when `decimal`); the builder and the merger are given the
// same strings, so their files must agree byte for byte.
struct StringEntry {
  std::string id;
  uint64_t fingerprint;
};

Status BuildStrings(const std::string& path, const BuildOptions& options, const std::vector<StringEntry>& entries) {
  std::unique_ptr<IndexBuilder> builder;
  BuildOptions o = options;
  o.string_ids = true;
  SIMDEX_RETURN_IF_ERROR(IndexBuilder::Create(path, o, &builder));
  for (const StringEntry& e : entries) SIMDEX_RETURN_IF_ERROR(builder->Add(e.id, e.fingerprint));
  return builder->Finish();
}

std::vector<StringEntry> StringEntries(const std::vector<Entry>& entries, bool decimal) {
  std::vector<StringEntry> out;
  for (const Entry& e : entries) {
    out.push_back({decimal ? std::to_string(e.id) : "https://example.org/doc/" + std::to_string(e.id % 997),
                   e.fingerprint});
  }
  return out;
}

// What the index answers: (fingerprint, id string) for every exact match of
// the queries' fingerprints.
std::multiset<std::pair<uint64_t, std::string>> IdsOf(const std::string& path, const std::vector<StringEntry>& queries) {
  std::unique_ptr<IndexReader> reader;
  EXPECT_TRUE(IndexReader::Open(path, ReaderOptions(), &reader).ok());
  std::multiset<std::pair<uint64_t, std::string>> out;
  if (!reader) return out;
  EXPECT_TRUE(reader->Verify().ok());
  std::set<uint64_t> fps;
  for (const StringEntry& e : queries) fps.insert(e.fingerprint);
  for (uint64_t fp : fps) {
    std::vector<Match> matches;
    EXPECT_TRUE(reader->Search(fp, 0, &matches).ok());
    for (const Match& m : matches) out.insert({fp, std::string(reader->IdString(m.id))});
  }
  return out;
}

TEST(MergerTest, StringIdsAreKeptAddedAndDeletedByName) {
  ScopedTempDir dir;
  BuildOptions options;
  options.block_size = 256;
  const std::vector<Entry> entries = AssignIds(ClusterFingerprints(400, 6, 3), IdStyle::kFullRange, 3);
  // Old: two thirds of the entries; the batch: the rest, as strings and as
  // numbers (kept as their decimal strings); deleted: some old urls, one
  // url no entry has, and a number (its decimal string, which no entry has).
  std::vector<StringEntry> old_entries, batch_strings;
  std::vector<Entry> batch_numbers;
  for (size_t i = 0; i < entries.size(); ++i) {
    const StringEntry e = StringEntries({entries[i]}, false)[0];
    if (i % 3 == 0) batch_strings.push_back(e);
    else if (i % 3 == 1 && i % 2 == 0) batch_numbers.push_back(entries[i]);
    else old_entries.push_back(e);
  }
  const std::vector<std::string> deleted = {old_entries[0].id, old_entries[5].id, "https://example.org/nowhere"};
  ASSERT_TRUE(BuildStrings(dir.File("old.sdx"), options, old_entries).ok());
  std::vector<StringEntry> all;
  for (const StringEntry& e : old_entries) {
    if (std::find(deleted.begin(), deleted.end(), e.id) == deleted.end()) all.push_back(e);
  }
  all.insert(all.end(), batch_strings.begin(), batch_strings.end());
  for (const StringEntry& e : StringEntries(batch_numbers, true)) all.push_back(e);
  ASSERT_TRUE(BuildStrings(dir.File("fresh.sdx"), options, all).ok());

  std::unique_ptr<IndexReader> old;
  ASSERT_TRUE(IndexReader::Open(dir.File("old.sdx"), ReaderOptions(), &old).ok());
  for (size_t memory : {size_t{64} << 20, size_t{128} << 10}) {
    MergeOptions mo;
    mo.memory_bytes = memory;
    mo.tmpdir = dir.path();
    std::unique_ptr<IndexMerger> merger;
    ASSERT_TRUE(IndexMerger::Create(old.get(), dir.File("merged.sdx"), mo, &merger).ok());
    for (size_t i = 0; i < batch_strings.size(); ++i) {
      ASSERT_TRUE(merger->Add(batch_strings[i].id, batch_strings[i].fingerprint).ok());
      if (i < batch_numbers.size()) {
        ASSERT_TRUE(merger->Add(batch_numbers[i].id, batch_numbers[i].fingerprint).ok());
      }
    }
    for (size_t i = batch_strings.size(); i < batch_numbers.size(); ++i) {
      ASSERT_TRUE(merger->Add(batch_numbers[i].id, batch_numbers[i].fingerprint).ok());
    }
    for (const std::string& id : deleted) ASSERT_TRUE(merger->Delete(id).ok());
    ASSERT_TRUE(merger->Delete(uint64_t{0}).ok());  // "0": no entry has it
    ASSERT_TRUE(merger->Finish().ok());
    EXPECT_TRUE(ReadFileOrDie(dir.File("merged.sdx")) == ReadFileOrDie(dir.File("fresh.sdx"))) << memory;
    EXPECT_EQ(merger->stats().ids_not_found, 2u);
    EXPECT_GT(merger->stats().deleted, 0u);
    // The small budget spills the ids as sorted runs (engine/index/id_map_builder.h).
    EXPECT_EQ(merger->stats().id_map_runs > 0, memory < (size_t{1} << 20)) << memory;
    const auto expected = IdsOf(dir.File("fresh.sdx"), all);
    EXPECT_EQ(IdsOf(dir.File("merged.sdx"), all), expected);
    EXPECT_EQ(expected.size(), all.size());
  }
}

// The join of the old id map with the batch's at its edges: no batch (the
// old map alone, some ids deleted), every old id deleted (the batch's map
// alone), and both empty (an empty map): each the fresh build's bytes.
TEST(MergerTest, StringIdMapsJoinAtTheirEdges) {
  ScopedTempDir dir;
  std::vector<StringEntry> old_entries, batch;
  for (int i = 0; i < 300; ++i) old_entries.push_back({"old/" + std::to_string(i % 120), 0x9e3779b97f4a7c15ULL * (i + 1)});
  for (int i = 0; i < 50; ++i) batch.push_back({"new/" + std::to_string(i), 0xc2b2ae3d27d4eb4fULL * (i + 7)});
  ASSERT_TRUE(BuildStrings(dir.File("old.sdx"), BuildOptions(), old_entries).ok());
  std::unique_ptr<IndexReader> old;
  ASSERT_TRUE(IndexReader::Open(dir.File("old.sdx"), ReaderOptions(), &old).ok());
  struct Case {
    const char* name;
    bool add_batch;
    int delete_below;  // old ids "old/0" .. "old/<delete_below - 1>" are deleted
  };
  for (const Case& c : {Case{"no batch", false, 40}, Case{"every old id deleted", true, 120},
                        Case{"nothing left", false, 120}}) {
    SCOPED_TRACE(c.name);
    std::vector<StringEntry> expected;
    for (const StringEntry& e : old_entries) {
      if (std::stoi(e.id.substr(4)) >= c.delete_below) expected.push_back(e);
    }
    if (c.add_batch) expected.insert(expected.end(), batch.begin(), batch.end());
    ASSERT_TRUE(BuildStrings(dir.File("fresh.sdx"), BuildOptions(), expected).ok());
    MergeOptions mo = TinyMergeOptions(dir);
    std::unique_ptr<IndexMerger> merger;
    ASSERT_TRUE(IndexMerger::Create(old.get(), dir.File("merged.sdx"), mo, &merger).ok());
    if (c.add_batch) {
      for (const StringEntry& e : batch) ASSERT_TRUE(merger->Add(e.id, e.fingerprint).ok());
    }
    for (int i = 0; i < c.delete_below; ++i) ASSERT_TRUE(merger->Delete("old/" + std::to_string(i)).ok());
    const Status s = merger->Finish();
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_TRUE(ReadFileOrDie(dir.File("merged.sdx")) == ReadFileOrDie(dir.File("fresh.sdx")));
    EXPECT_EQ(dir.List(), (std::vector<std::string>{"fresh.sdx", "merged.sdx", "old.sdx"}));
  }
}

// The old id map is read once, in order, and joined with the batch's: a
// map whose checksum holds but whose strings do not rise (string 1 made a
// copy of string 0, the checksums made to match) is Corruption naming the
// old index, and nothing is written.
TEST(MergerTest, AnOldIdMapOutOfOrderIsCorruptionNamingTheOldIndex) {
  ScopedTempDir dir;
  std::vector<StringEntry> entries;
  for (int i = 0; i < 50; ++i) entries.push_back({"id-" + std::to_string(10 + i), 0x1234567ULL * (i + 1)});
  ASSERT_TRUE(BuildStrings(dir.File("good.sdx"), BuildOptions(), entries).ok());
  std::string file = ReadFileOrDie(dir.File("good.sdx"));
  const uint8_t* base = reinterpret_cast<const uint8_t*>(file.data());
  format::Footer footer;
  ASSERT_TRUE(footer.DecodeFrom(base + file.size() - format::Footer::kEncodedLength, base + file.size()).ok());
  format::IndexMetadata meta;
  ASSERT_TRUE(meta.DecodeFrom(base + footer.metadata_offset, base + footer.metadata_offset + footer.metadata_length).ok());
  // 50 strings of 5 bytes: the strings are the section's last 250 bytes.
  const size_t strings = meta.id_map_offset + meta.id_map_length - 250;
  file.replace(strings + 5, 5, file.substr(strings, 5));
  meta.id_map_checksum = format::SectionChecksum(file.data() + meta.id_map_offset, meta.id_map_length);
  std::string tail;
  meta.EncodeTo(&tail, footer.version);
  file.resize(footer.metadata_offset);
  footer.metadata_length = tail.size();
  footer.metadata_checksum = format::SectionChecksum(tail.data(), tail.size());
  footer.file_size = file.size() + tail.size() + format::Footer::kEncodedLength;
  footer.EncodeTo(&tail);
  const std::string old_path = dir.File("old.sdx");
  WriteFileOrDie(old_path, file + tail);
  std::unique_ptr<IndexReader> old;
  ASSERT_TRUE(IndexReader::Open(old_path, ReaderOptions(), &old).ok());
  MergeOptions mo;
  mo.tmpdir = dir.path();
  std::unique_ptr<IndexMerger> merger;
  ASSERT_TRUE(IndexMerger::Create(old.get(), dir.File("new.sdx"), mo, &merger).ok());
  ASSERT_TRUE(merger->Add("id-5", 42).ok());
  const Status s = merger->Finish();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_EQ(s.message().rfind(old_path + ": id map of the old index: string 1 ", 0), 0u) << s.message();
  merger.reset();
  EXPECT_EQ(dir.List(), (std::vector<std::string>{"good.sdx", "old.sdx"}));
}

// A batch of string ids into an index of numeric ids: the old ids become
// their decimal strings ("10" sorts before "9"), as a build of mixed ids
// does; numeric deletions still name the old entries.
TEST(MergerTest, StringIdsIntoANumericIndexKeepTheOldIdsAsDecimalStrings) {
  ScopedTempDir dir;
  const std::vector<Entry> entries = AssignIds(ClusterFingerprints(300, 6, 4), IdStyle::kSequential, 4);
  std::vector<Entry> old_entries, batch;
  for (size_t i = 0; i < entries.size(); ++i) (i % 4 == 0 ? batch : old_entries).push_back(entries[i]);
  ASSERT_TRUE(BuildIndex(dir.File("old.sdx"), BuildOptions(), old_entries).ok());
  std::vector<StringEntry> all;
  for (const StringEntry& e : StringEntries(old_entries, true)) {
    if (e.id != std::to_string(old_entries[1].id) && e.id != std::to_string(old_entries[2].id)) all.push_back(e);
  }
  for (const StringEntry& e : StringEntries(batch, false)) all.push_back(e);
  ASSERT_TRUE(BuildStrings(dir.File("fresh.sdx"), BuildOptions(), all).ok());

  std::unique_ptr<IndexReader> old;
  ASSERT_TRUE(IndexReader::Open(dir.File("old.sdx"), ReaderOptions(), &old).ok());
  std::unique_ptr<IndexMerger> merger;
  ASSERT_TRUE(IndexMerger::Create(old.get(), dir.File("merged.sdx"), MergeOptions(), &merger).ok());
  ASSERT_TRUE(merger->Delete(old_entries[1].id).ok());
  ASSERT_TRUE(merger->Delete(std::to_string(old_entries[2].id)).ok());
  ASSERT_TRUE(merger->Delete("not-a-number").ok());
  for (const StringEntry& e : StringEntries(batch, false)) ASSERT_TRUE(merger->Add(e.id, e.fingerprint).ok());
  ASSERT_TRUE(merger->Finish().ok());
  EXPECT_EQ(merger->stats().ids_not_found, 1u);
  EXPECT_TRUE(ReadFileOrDie(dir.File("merged.sdx")) == ReadFileOrDie(dir.File("fresh.sdx")));
}

// DeleteRange: ranges that overlap, touch, hold no entry or end at 2^64 - 1
// delete what Delete() of each of their ids deletes, byte for byte, and
// what a fresh build leaves out; with a tiny budget the deleted entries'
// fingerprints and their permuted sorts go to scratch files (the service's
// expiry of 2^30 seqs took 24 bytes each in memory before).
TEST(MergerTest, DeletedRangesAreTheirIdsDeletedOneByOneWithinATinyBudget) {
  ScopedTempDir dir;
  Split s;
  s.old_entries = AssignIds(UniformFingerprints(20000, 31), IdStyle::kSequential, 31);
  s.batch = AssignIds(UniformFingerprints(700, 32), IdStyle::kSequential, 32);
  for (Entry& e : s.batch) e.id += 20000;
  const std::vector<std::pair<uint64_t, uint64_t>> ranges = {
      {100, 5099}, {5000, 5200}, {5201, 5300}, {9000, 9000}, {40000, 50000}, {~uint64_t{0} - 3, ~uint64_t{0}}};
  for (uint64_t id = 0; id < 20000; ++id) {
    for (const auto& [first, last] : ranges) {
      if (id >= first && id <= last) {
        s.deleted.push_back(id);
        break;
      }
    }
  }
  ASSERT_EQ(s.deleted.size(), 5202u);
  ASSERT_TRUE(BuildIndex(dir.File("old.sdx"), BuildOptions(), s.old_entries).ok());
  ASSERT_TRUE(BuildIndex(dir.File("fresh.sdx"), BuildOptions(), Union(s)).ok());
  const MergeOptions tiny = TinyMergeOptions(dir);
  MergeStats one_by_one;
  ASSERT_TRUE(Merge(dir.File("old.sdx"), dir.File("ids.sdx"), s, tiny, &one_by_one).ok());

  std::unique_ptr<IndexReader> old;
  ASSERT_TRUE(IndexReader::Open(dir.File("old.sdx"), ReaderOptions(), &old).ok());
  std::unique_ptr<IndexMerger> merger;
  ASSERT_TRUE(IndexMerger::Create(old.get(), dir.File("ranges.sdx"), tiny, &merger).ok());
  for (const Entry& e : s.batch) ASSERT_TRUE(merger->Add(e.id, e.fingerprint).ok());
  EXPECT_TRUE(merger->DeleteRange(8, 7).IsInvalidArgument());
  for (const auto& [first, last] : ranges) ASSERT_TRUE(merger->DeleteRange(first, last).ok());
  ASSERT_TRUE(merger->Finish().ok());
  EXPECT_EQ(merger->stats().deleted, 5202u);
  EXPECT_EQ(one_by_one.deleted, 5202u);
  EXPECT_TRUE(ReadFileOrDie(dir.File("ranges.sdx")) == ReadFileOrDie(dir.File("fresh.sdx")));
  EXPECT_TRUE(ReadFileOrDie(dir.File("ids.sdx")) == ReadFileOrDie(dir.File("fresh.sdx")));
  EXPECT_EQ(dir.List(), (std::vector<std::string>{"fresh.sdx", "ids.sdx", "old.sdx", "ranges.sdx"}));

  // An old index of string ids has no numeric ranges.
  ASSERT_TRUE(BuildStrings(dir.File("strings.sdx"), BuildOptions(), StringEntries(s.batch, false)).ok());
  std::unique_ptr<IndexReader> strings;
  ASSERT_TRUE(IndexReader::Open(dir.File("strings.sdx"), ReaderOptions(), &strings).ok());
  ASSERT_TRUE(IndexMerger::Create(strings.get(), dir.File("x.sdx"), MergeOptions(), &merger).ok());
  EXPECT_TRUE(merger->DeleteRange(0, 5).IsInvalidArgument());
  merger->Abandon();
}

// Merging the same batch twice stored each id twice (a query then answered
// {"id":1},{"id":1}). With ExistingIds::kRefuse an id the old index holds is
// refused by name before anything is written; kReplace removes its old
// entries first (the fresh build of the old entries less those ids, plus the
// batch); kKeep, the library's default, keeps both.
TEST(MergerTest, IdsTheOldIndexHoldsAreRefusedReplacedOrKept) {
  ScopedTempDir dir;
  const std::vector<Entry> entries = AssignIds(UniformFingerprints(400, 9), IdStyle::kSequential, 9);
  const std::vector<Entry> old_entries(entries.begin(), entries.begin() + 300);
  std::vector<Entry> batch(entries.begin() + 250, entries.end());  // ids 250..299 are old ones
  for (size_t i = 0; i < 50; ++i) batch[i].fingerprint ^= 0xff00;  // another version of those documents
  BuildOptions options;
  options.block_size = 128;
  ASSERT_TRUE(BuildIndex(dir.File("old.sdx"), options, old_entries).ok());
  auto merge = [&](ExistingIds existing, MergeStats* stats) {
    MergeOptions o;
    o.existing_ids = existing;
    Split s;
    s.old_entries = old_entries;
    s.batch = batch;
    return Merge(dir.File("old.sdx"), dir.File("new.sdx"), s, o, stats);
  };
  MergeStats stats;
  Status s = merge(ExistingIds::kRefuse, &stats);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("' is in the old index already (and 49 more ids of the batch are): each would be stored "
                             "twice"),
            std::string::npos)
      << s.ToString();
  EXPECT_EQ(dir.List(), std::vector<std::string>{"old.sdx"});

  ASSERT_TRUE(merge(ExistingIds::kReplace, &stats).ok());
  EXPECT_EQ(stats.replaced, 50u);
  EXPECT_EQ(stats.entries, 400u);
  std::vector<Entry> fresh(entries.begin(), entries.begin() + 250);
  fresh.insert(fresh.end(), batch.begin(), batch.end());
  ASSERT_TRUE(BuildIndex(dir.File("fresh.sdx"), options, fresh).ok());
  EXPECT_TRUE(ReadFileOrDie(dir.File("new.sdx")) == ReadFileOrDie(dir.File("fresh.sdx")));

  ASSERT_TRUE(merge(ExistingIds::kKeep, &stats).ok());
  EXPECT_EQ(stats.entries, 450u) << "each of the 50 ids twice";
  EXPECT_EQ(stats.replaced, 0u);
}

// The same with string ids: an old index of strings asked through the
// batch's id map (a number added is its decimal string), and an old index
// of numbers, which a string names only in its own decimal form.
TEST(MergerTest, StringIdsTheOldIndexHoldsAreFoundByName) {
  ScopedTempDir dir;
  const std::vector<Entry> entries = AssignIds(UniformFingerprints(200, 10), IdStyle::kSequential, 10);
  std::vector<StringEntry> old_strings = StringEntries(entries, /*decimal=*/false);
  old_strings.resize(100);
  old_strings.push_back({"42", 7});
  ASSERT_TRUE(BuildStrings(dir.File("strings.sdx"), BuildOptions(), old_strings).ok());
  ASSERT_TRUE(BuildIndex(dir.File("numbers.sdx"), BuildOptions(), {entries.begin(), entries.begin() + 100}).ok());
  auto finish = [&](const std::string& old_path, ExistingIds existing,
                    const std::function<Status(IndexMerger*)>& add) {
    std::unique_ptr<IndexReader> old;
    EXPECT_TRUE(IndexReader::Open(old_path, ReaderOptions(), &old).ok());
    MergeOptions o;
    o.existing_ids = existing;
    std::unique_ptr<IndexMerger> merger;
    EXPECT_TRUE(IndexMerger::Create(old.get(), dir.File("new.sdx"), o, &merger).ok());
    Status s = add(merger.get());
    if (s.ok()) s = merger->Finish();
    return s;
  };
  // Old strings: a string and a number (as "42") the old index holds.
  Status s = finish(dir.File("strings.sdx"), ExistingIds::kRefuse, [&](IndexMerger* m) {
    SIMDEX_RETURN_IF_ERROR(m->Add(std::string_view("https://example.org/doc/5"), 1));
    SIMDEX_RETURN_IF_ERROR(m->Add(std::string_view("https://example.org/new"), 2));
    return m->Add(uint64_t{42}, 3);
  });
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("(and 1 more id of the batch is)"), std::string::npos) << s.ToString();
  s = finish(dir.File("strings.sdx"), ExistingIds::kReplace, [&](IndexMerger* m) {
    return m->Add(std::string_view("https://example.org/doc/5"), 1);
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::vector<StringEntry> fresh;
  for (const StringEntry& e : old_strings) {
    if (e.id != "https://example.org/doc/5") fresh.push_back(e);
  }
  fresh.push_back({"https://example.org/doc/5", 1});
  ASSERT_TRUE(BuildStrings(dir.File("fresh.sdx"), BuildOptions(), fresh).ok());
  EXPECT_TRUE(ReadFileOrDie(dir.File("new.sdx")) == ReadFileOrDie(dir.File("fresh.sdx")));
  // Old numbers: "7" is id 7; "007" and "x" name no old id.
  s = finish(dir.File("numbers.sdx"), ExistingIds::kRefuse, [&](IndexMerger* m) {
    SIMDEX_RETURN_IF_ERROR(m->Add(std::string_view("007"), 1));
    SIMDEX_RETURN_IF_ERROR(m->Add(std::string_view("x"), 1));
    return m->Add(std::string_view("7"), 1);
  });
  EXPECT_EQ(s.message(), "id '7' is in the old index already: each would be stored twice");
  s = finish(dir.File("numbers.sdx"), ExistingIds::kRefuse, [&](IndexMerger* m) {
    return m->Add(std::string_view("007"), 1);
  });
  EXPECT_TRUE(s.ok()) << s.ToString();
}

}  // namespace
}  // namespace simdex::testing
