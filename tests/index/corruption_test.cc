// Hostile files (in the manner of leveldb's db/corruption_test): every byte
// of a real index flipped in turn, truncations, foreign files, blocks moved
// between tables, and crafted files whose checksums are right. Verify() must
// reject each damaged file; Open(), searches, the merge join and table
// cursors must either give exactly the intact file's answers or fail with
// Corruption: never another answer, a crash or a read outside the file
// (the AddressSanitizer build checks the latter).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "engine/simhash/dedup/against.h"
#include "engine/simhash/index/table_cursor.h"
#include "format/card/card_format.h"
#include "format/card/block_reader.h"
#include "format/coding.h"
#include "format/index_layout.h"
#include "simdex/index.h"
#include "tests/index/test_data.h"

namespace simdex::testing {
namespace {

const uint8_t* U(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

// The footer and metadata of a valid index, to name the part of the file a
// byte belongs to and to find blocks.
struct Layout {
  format::Footer footer;
  format::IndexMetadata meta;

  static Layout Parse(const std::string& file) {
    Layout l;
    const uint8_t* end = U(file) + file.size();
    Status s = l.footer.DecodeFrom(end - format::Footer::kEncodedLength, end);
    if (s.ok()) {
      const uint8_t* m = U(file) + l.footer.metadata_offset;
      s = l.meta.DecodeFrom(m, m + l.footer.metadata_length);
    }
    EXPECT_TRUE(s.ok()) << s.ToString();
    return l;
  }

  // `file` (the one parsed) with `m` in place of its metadata, the metadata
  // and footer checksums redone: every checksum right, so only the rules
  // of the metadata's values can refuse it. REQUIRES: m encodes to the
  // same length (its fields are fixed-width).
  std::string WithMetadata(const std::string& file, const format::IndexMetadata& m) const {
    std::string encoded;
    m.EncodeTo(&encoded);
    EXPECT_EQ(encoded.size(), footer.metadata_length);
    std::string out = file;
    out.replace(footer.metadata_offset, encoded.size(), encoded);
    format::Footer f = footer;
    f.metadata_checksum = format::SectionChecksum(encoded.data(), encoded.size());
    std::string tail;
    f.EncodeTo(&tail);
    out.replace(out.size() - tail.size(), tail.size(), tail);
    return out;
  }

  uint64_t BlockOffset(int table, uint64_t block) const {
    return meta.tables[table].blocks_offset + block * meta.block_size;
  }

  std::string Describe(uint64_t offset, uint64_t file_size) const {
    std::ostringstream out;
    out << "byte " << offset << " (";
    auto in = [offset](uint64_t start, uint64_t length) { return offset >= start && offset < start + length; };
    if (offset < format::FileHeader::kEncodedLength) {
      out << "header";
    } else if (offset >= file_size - format::Footer::kEncodedLength) {
      out << "footer";
    } else if (in(footer.metadata_offset, footer.metadata_length)) {
      out << "metadata";
    } else if (in(meta.rank_offset, 8 * meta.tables[0].num_blocks)) {
      out << "rank index";
    } else if (in(meta.ids_offset, meta.ids_length)) {
      out << "id section";
    } else {
      std::string where = "padding between sections";
      for (size_t t = 0; t < meta.tables.size(); ++t) {
        const format::TableMetadata& tm = meta.tables[t];
        if (in(tm.blocks_offset, tm.num_blocks * meta.block_size)) {
          where = "table " + std::to_string(t) + " block " +
                  std::to_string((offset - tm.blocks_offset) / meta.block_size) + " byte " +
                  std::to_string((offset - tm.blocks_offset) % meta.block_size);
        } else if (in(tm.heads_offset, 8 * tm.num_blocks)) {
          where = "table " + std::to_string(t) + " head index";
        }
      }
      out << where;
    }
    out << ")";
    return out.str();
  }
};

Status OpenBytes(std::string bytes, const ReaderOptions& options, std::unique_ptr<IndexReader>* out) {
  return IndexReader::Open(NewMemoryFile(std::move(bytes)), options, out);
}

// Checks, without stopping, that a status is OK or Corruption with a message.
bool OkOrCleanCorruption(const Status& s) { return s.ok() || (s.IsCorruption() && !s.message().empty()); }

// Open() may also refuse a file whose header names another format version
// (NotSupported): a clean rejection too.
bool OpenedOrCleanlyRefused(const Status& s) {
  return OkOrCleanCorruption(s) || (s.IsNotSupported() && s.message().find("version") != std::string::npos);
}

// The three ways of opening a file: the default (head and rank indexes and
// id map checked by Open, blocks and the id section on first use),
// everything on first use, and everything in Open.
std::vector<std::pair<std::string, ReaderOptions>> ReaderModes() {
  ReaderOptions lazy;
  lazy.verify_heads_on_open = false;
  ReaderOptions eager;
  eager.verify_block_checksums = true;
  return {{"default", ReaderOptions()}, {"on first use", lazy}, {"all on open", eager}};
}

// The codecs every test runs with (BuildOptions::codec).
const char* const kCodecs[] = {"card", "ef"};

class CorruptionTest : public ::testing::TestWithParam<const char*> {
 protected:
  // One small file per codec: 20 clusters of 10 (members at distance 0..4
  // from their centre), ids within 2^16 of 2^64 - 1: 200 entries, t4,
  // 64-byte blocks.
  struct Answers;
  struct Built {
    std::string path;
    std::string file;
    Answers* intact = nullptr;
  };

  static void SetUpTestSuite() {
    entries_ = new std::vector<Entry>(AssignIds(ClusterFingerprints(20, 9, 11), IdStyle::kNearMax, 12));
    dir_ = new ScopedTempDir();
    built_ = new std::vector<Built>();
    for (const char* codec : kCodecs) {
      BuildOptions options;
      options.scheme = SchemeOrDie("t4");
      options.block_size = 64;
      options.codec = codec;
      Built b;
      b.path = dir_->File(std::string("small-") + codec + ".sdx");
      Status s = BuildIndex(b.path, options, *entries_);
      ASSERT_TRUE(s.ok()) << s.ToString();
      b.file = ReadFileOrDie(b.path);
      built_->push_back(std::move(b));
    }
  }

  static void TearDownTestSuite() {
    for (Built& b : *built_) delete b.intact;
    delete built_;
    delete entries_;
    delete dir_;
  }

  // The tests read the file of their codec through file_ and path_.
  void SetUp() override {
    const size_t i = static_cast<size_t>(std::find_if(std::begin(kCodecs), std::end(kCodecs), [](const char* c) {
                                           return std::string(c) == GetParam();
                                         }) - std::begin(kCodecs));
    ASSERT_LT(i, built_->size());
    current_ = &(*built_)[i];
    file_ = &current_->file;
    path_ = &current_->path;
  }

  // Queries: data points, near them, and random values.
  static std::vector<uint64_t> Queries() {
    std::mt19937_64 rng(13);
    std::vector<uint64_t> queries;
    for (size_t i = 0; i < entries_->size(); i += 23) {
      queries.push_back((*entries_)[i].fingerprint);
      queries.push_back(FlipRandomBits((*entries_)[i].fingerprint, 2, rng));
    }
    for (int i = 0; i < 3; ++i) queries.push_back(rng());
    return queries;
  }

  // What a reader answers: every query's Search at the scheme's k and,
  // with `streams`, the merge join of dedup --against over the queries and
  // every table read in order by a TableCursor. Each part keeps its own
  // status.
  struct Answers {
    std::vector<Status> search_status;
    std::vector<std::vector<Match>> searches;
    Status join_status;
    std::vector<simhash::AgainstHit> join;
    std::vector<Status> table_status;
    std::vector<std::vector<uint64_t>> tables;
  };

  static Answers Answer(const IndexReader& reader, bool streams) {
    Answers a;
    const std::vector<uint64_t> queries = Queries();
    const int k = reader.scheme().k();
    for (uint64_t q : queries) {
      a.searches.emplace_back();
      a.search_status.push_back(reader.Search(q, k, &a.searches.back()));
    }
    if (!streams) return a;
    std::vector<uint64_t> distinct = queries;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    simhash::AgainstStats stats;
    a.join_status = simhash::MergeJoinIndex(distinct, reader, k, simhash::KeyGroupOptions(), &a.join, &stats);
    for (int t = 0; t < reader.scheme().num_tables(); ++t) {
      simhash::TableCursor cursor(reader, t);
      a.tables.emplace_back();
      Status s = cursor.Seek(0);
      for (; s.ok() && cursor.Valid(); s = cursor.Next()) a.tables.back().push_back(cursor.value());
      a.table_status.push_back(s);
    }
    return a;
  }

  // The answers of the intact file.
  static const Answers& Intact() {
    if (current_->intact == nullptr) {
      std::unique_ptr<IndexReader> reader;
      EXPECT_TRUE(OpenBytes(*file_, ReaderOptions(), &reader).ok());
      current_->intact = new Answers(Answer(*reader, true));
    }
    return *current_->intact;
  }

  // Opens a damaged file in the default mode, or when `thorough` in every
  // mode, and asks it what Answer() asks (the streams only when thorough,
  // in the default mode: they check what searches check). Returns a problem description,
  // or "" when everything behaved: Open and every answer either succeeded
  // with exactly the intact file's answer or failed with Corruption (never
  // another answer), and Verify() rejected the file.
  static std::string Exercise(const std::string& bytes, bool thorough) {
    const Answers& intact = Intact();
    std::string problems;
    bool rejected = false;
    for (const auto& mode_options : ReaderModes()) {
      const std::string& mode = mode_options.first;  // not a structured binding: clang 14 cannot capture one
      const auto& options = mode_options.second;
      if (!thorough && mode != "default") continue;
      auto problem = [&problems, &mode](const std::string& what, const Status& s) {
        problems += " " + mode + ": " + what + ": " + (s.ok() ? "a different answer" : s.ToString()) + ";";
      };
      std::unique_ptr<IndexReader> reader;
      Status s = OpenBytes(bytes, options, &reader);
      if (!OpenedOrCleanlyRefused(s)) problem("Open", s);
      if (!s.ok()) {
        rejected = true;
        continue;
      }
      const bool streams = thorough && mode == "default";
      const Answers a = Answer(*reader, streams);
      for (size_t i = 0; i < a.searches.size(); ++i) {
        if (a.search_status[i].ok() ? a.searches[i] != intact.searches[i] : !a.search_status[i].IsCorruption()) {
          problem("Search " + std::to_string(i), a.search_status[i]);
        }
      }
      if (streams && (a.join_status.ok() ? !SameHits(a.join, intact.join) : !a.join_status.IsCorruption())) {
        problem("merge join", a.join_status);
      }
      for (size_t t = 0; streams && t < a.tables.size(); ++t) {
        if (a.table_status[t].ok() ? a.tables[t] != intact.tables[t] : !a.table_status[t].IsCorruption()) {
          problem("cursor over table " + std::to_string(t), a.table_status[t]);
        }
      }
      Status vs = reader->Verify();
      if (!OkOrCleanCorruption(vs)) problems += " Verify: " + vs.ToString() + ";";
      if (!vs.ok()) rejected = true;
    }
    if (!rejected) problems += " accepted by Open and Verify;";
    return problems;
  }

  static bool SameHits(const std::vector<simhash::AgainstHit>& a, const std::vector<simhash::AgainstHit>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const simhash::AgainstHit& x, const simhash::AgainstHit& y) {
      return x.distinct == y.distinct && x.distance == y.distance && x.id == y.id;
    });
  }

  // Runs Exercise on the file with `mask(offset)` xored into each byte at
  // `offsets` (thoroughly at every third offset); fails listing the first
  // few offsets that misbehaved.
  static void FlipEach(const std::vector<size_t>& offsets, const std::function<uint8_t(size_t)>& mask) {
    const Layout layout = Layout::Parse(*file_);
    int failures = 0;
    std::string report;
    for (size_t offset : offsets) {
      std::string damaged = *file_;
      damaged[offset] = static_cast<char>(damaged[offset] ^ mask(offset));
      const std::string problems = Exercise(damaged, offset % 3 == 0);
      if (!problems.empty() && ++failures <= 10) {
        report += "\n  " + layout.Describe(offset, file_->size()) + " xor " + std::to_string(mask(offset)) + ":" +
                  problems;
      }
    }
    EXPECT_EQ(failures, 0) << "of " << offsets.size() << " damaged files, these misbehaved:" << report;
  }

  static std::vector<Entry>* entries_;
  static ScopedTempDir* dir_;
  static std::vector<Built>* built_;
  static Built* current_;
  static std::string* file_;
  static std::string* path_;
};

std::vector<Entry>* CorruptionTest::entries_;
ScopedTempDir* CorruptionTest::dir_;
std::vector<CorruptionTest::Built>* CorruptionTest::built_;
CorruptionTest::Built* CorruptionTest::current_;
std::string* CorruptionTest::file_;
std::string* CorruptionTest::path_;

INSTANTIATE_TEST_SUITE_P(Codecs, CorruptionTest, ::testing::ValuesIn(kCodecs),
                         [](const ::testing::TestParamInfo<const char*>& param) { return std::string(param.param); });

TEST_P(CorruptionTest, UndamagedFileOpensSearchesAndVerifies) {
  std::unique_ptr<IndexReader> reader;
  Status s = IndexReader::Open(*path_, ReaderOptions(), &reader);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(reader->Verify().ok());
  for (uint64_t q : Queries()) {
    std::vector<Match> out;
    ASSERT_TRUE(reader->Search(q, 3, &out).ok());
    EXPECT_EQ(out, BruteForceSearch(*entries_, q, 3));
  }
}

// Byte i has its bit i mod 8 flipped, so that every bit position of every
// field is hit somewhere.
TEST_P(CorruptionTest, EveryFlippedBitGivesTheIntactAnswersOrCorruptionAndIsRejected) {
  std::vector<size_t> offsets(file_->size());
  for (size_t i = 0; i < offsets.size(); ++i) offsets[i] = i;
  FlipEach(offsets, [](size_t offset) { return static_cast<uint8_t>(1u << (offset % 8)); });
}

TEST_P(CorruptionTest, SampledBytesInvertedGiveTheIntactAnswersOrCorruptionAndAreRejected) {
  std::vector<size_t> offsets;
  for (size_t i = 0; i < file_->size(); i += 7) offsets.push_back(i);
  FlipEach(offsets, [](size_t) { return uint8_t{0xFF}; });
}

// Issue 18: one flipped bit in a block's count made a query answer another
// document's id. Every bit of every block count of every table, in turn:
// each query that reads the block fails naming table and block; the others
// answer as before.
TEST_P(CorruptionTest, AFlippedBitInAnyBlockCountIsCorruptionNamingTableAndBlock) {
  const Layout layout = Layout::Parse(*file_);
  const Scheme scheme = SchemeOrDie("t4");
  const int k = scheme.k();
  std::vector<std::vector<Match>> expected;
  for (const Entry& e : *entries_) expected.push_back(BruteForceSearch(*entries_, e.fingerprint, k));
  int failures = 0, corruptions = 0;
  std::string report;
  for (size_t t = 0; t < layout.meta.tables.size(); ++t) {
    const format::TableMetadata& tm = layout.meta.tables[t];
    for (uint64_t b = 0; b < tm.num_blocks; ++b) {
      // The entries whose permuted fingerprint may lie in block b.
      const uint64_t lo = format::DecodeFixed64(U(*file_) + tm.heads_offset + 8 * b);
      const uint64_t hi = b + 1 < tm.num_blocks ? format::DecodeFixed64(U(*file_) + tm.heads_offset + 8 * (b + 1))
                                                : ~uint64_t{0};
      for (int bit = 0; bit < 16; ++bit) {
        std::string damaged = *file_;
        damaged[layout.BlockOffset(static_cast<int>(t), b) + 4 + bit / 8] ^= static_cast<char>(1 << (bit % 8));
        std::unique_ptr<IndexReader> reader;
        ASSERT_TRUE(OpenBytes(damaged, ReaderOptions(), &reader).ok());
        const std::string where = "block " + std::to_string(b) + " of table " + std::to_string(t) + ": checksum mismatch";
        for (size_t i = 0; i < entries_->size(); ++i) {
          const uint64_t permuted = scheme.table(static_cast<int>(t)).Apply((*entries_)[i].fingerprint);
          if (permuted < lo || permuted > hi) continue;
          std::vector<Match> out;
          const Status s = reader->Search((*entries_)[i].fingerprint, k, &out);
          corruptions += !s.ok();
          const bool good = s.ok() ? out == expected[i] : s.IsCorruption() && s.message().find(where) != std::string::npos;
          if (!good && ++failures <= 5) {
            report += "\n  count bit " + std::to_string(bit) + " of " + where.substr(0, where.find(':')) + ", entry " +
                      std::to_string(i) + ": " + (s.ok() ? "a different answer" : s.ToString());
          }
        }
      }
    }
  }
  EXPECT_EQ(failures, 0) << report;
  EXPECT_GT(corruptions, 0);
}

// Issue 18: one flipped byte in the id section made queries and the merge
// join of dedup --against answer wrong ids. Every byte of the section, in
// turn: every search that finds something, and the merge join, fail naming
// the id section.
TEST_P(CorruptionTest, AFlippedByteInTheIdSectionIsCorruptionForSearchesAndTheMergeJoin) {
  const Layout layout = Layout::Parse(*file_);
  ASSERT_GT(layout.meta.ids_length, 0u);
  std::vector<uint64_t> distinct;
  for (const Entry& e : *entries_) distinct.push_back(e.fingerprint);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  int failures = 0;
  std::string report;
  for (uint64_t at = layout.meta.ids_offset; at < layout.meta.ids_offset + layout.meta.ids_length; ++at) {
    std::string damaged = *file_;
    damaged[at] ^= static_cast<char>(1 << (at % 8));
    std::unique_ptr<IndexReader> reader;
    ASSERT_TRUE(OpenBytes(damaged, ReaderOptions(), &reader).ok());
    auto check = [&](const std::string& what, const Status& s) {
      const bool good = s.IsCorruption() && s.message().find("id section") != std::string::npos &&
                        s.message().find("checksum mismatch") != std::string::npos;
      if (!good && ++failures <= 5) report += "\n  byte " + std::to_string(at) + ", " + what + ": " + s.ToString();
    };
    std::vector<Match> out;
    check("search", reader->Search((*entries_)[at % entries_->size()].fingerprint, 0, &out));
    std::vector<simhash::AgainstHit> hits;
    simhash::AgainstStats stats;
    check("merge join", simhash::MergeJoinIndex(distinct, *reader, 3, simhash::KeyGroupOptions(), &hits, &stats));
  }
  EXPECT_EQ(failures, 0) << report;
}

// Threads that meet the same unchecked blocks and sections of a fresh
// reader at once all get the answers of a reader that checked them alone,
// and all report a damaged block; the AddressSanitizer build runs it too.
TEST_P(CorruptionTest, ThreadsCheckingTheSameBlocksAtOnceAgreeWithOneThread) {
  std::vector<uint64_t> queries;
  for (int copy = 0; copy < 8; ++copy) {
    for (const Entry& e : *entries_) queries.push_back(e.fingerprint);
  }
  const Layout layout = Layout::Parse(*file_);
  std::string damaged = *file_;
  damaged[layout.BlockOffset(0, 1) + 4] ^= 0x01;
  for (const std::string* bytes : {file_, &damaged}) {
    std::unique_ptr<IndexReader> alone, together;
    ASSERT_TRUE(OpenBytes(*bytes, ReaderOptions(), &alone).ok());
    ASSERT_TRUE(OpenBytes(*bytes, ReaderOptions(), &together).ok());
    SearchResults one, many;
    const Status s1 = alone->Search(queries, 3, &one, 1);
    const Status s4 = together->Search(queries, 3, &many, 4);
    if (bytes == file_) {
      ASSERT_TRUE(s1.ok()) << s1.ToString();
      ASSERT_TRUE(s4.ok()) << s4.ToString();
      EXPECT_EQ(one.lims, many.lims);
      EXPECT_TRUE(one.matches == many.matches);
    } else {
      EXPECT_EQ(s1.ToString(), s4.ToString());
      EXPECT_NE(s4.message().find("block 1 of table 0: checksum mismatch"), std::string::npos) << s4.ToString();
    }
  }
}

// With ReaderOptions::verify_block_checksums, Open() checks every block and
// section: damage that no search would read fails the Open.
TEST_P(CorruptionTest, VerifyingEveryChecksumOnOpenFindsDamageNoSearchReads) {
  const Layout layout = Layout::Parse(*file_);
  const int t = static_cast<int>(layout.meta.tables.size()) - 1;
  const uint64_t b = layout.meta.tables[t].num_blocks - 1;
  std::string damaged = *file_;
  damaged[layout.BlockOffset(t, b) + 5] ^= 0x01;  // the count's high byte
  std::unique_ptr<IndexReader> reader;
  ASSERT_TRUE(OpenBytes(damaged, ReaderOptions(), &reader).ok());
  std::vector<Match> out;
  EXPECT_TRUE(reader->Search(0, 0, &out).ok());  // reads table 0 only
  ReaderOptions eager;
  eager.verify_block_checksums = true;
  Status s = OpenBytes(damaged, eager, &reader);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find("block " + std::to_string(b) + " of table " + std::to_string(t)), std::string::npos)
      << s.ToString();
  EXPECT_NE(s.message().find("checksum mismatch"), std::string::npos) << s.ToString();
  EXPECT_TRUE(OpenBytes(*file_, eager, &reader).ok());
}

// Issue 18 item 7: errors of searches, cursors and the merge join of an
// index opened from a file name the file.
TEST_P(CorruptionTest, ErrorsOfSearchesCursorsAndTheMergeJoinNameTheFile) {
  const Layout layout = Layout::Parse(*file_);
  std::string bad_block = *file_;
  bad_block[layout.BlockOffset(1, 0) + 9] ^= 0x10;
  std::string bad_ids = *file_;
  bad_ids[layout.meta.ids_offset] ^= 0x10;
  std::vector<uint64_t> all;  // every fingerprint: the merge join reads every block
  for (const Entry& e : *entries_) all.push_back(e.fingerprint);
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  for (const std::string* bytes : {&bad_block, &bad_ids}) {
    const std::string path = dir_->File(bytes == &bad_block ? "bad-block.sdx" : "bad-ids.sdx");
    WriteFileOrDie(path, *bytes);
    std::unique_ptr<IndexReader> reader;
    ASSERT_TRUE(IndexReader::Open(path, ReaderOptions(), &reader).ok());
    const std::string what = bytes == &bad_block ? "block 0 of table 1: checksum mismatch" : "id section";
    auto check = [&](const char* call, const Status& s) {
      EXPECT_TRUE(s.IsCorruption()) << call << ": " << s.ToString();
      EXPECT_EQ(s.message().rfind(path + ": ", 0), 0u) << call << ": " << s.ToString();
      EXPECT_NE(s.message().find(what), std::string::npos) << call << ": " << s.ToString();
    };
    simhash::TableCursor cursor(*reader, bytes == &bad_block ? 1 : 0);
    Status s = cursor.Seek(0);
    while (s.ok() && cursor.Valid()) s = cursor.Next();
    check("cursor", s);
    std::vector<simhash::AgainstHit> hits;
    simhash::AgainstStats stats;
    check("merge join", simhash::MergeJoinIndex(all, *reader, 3, simhash::KeyGroupOptions(), &hits, &stats,
                                              bytes == &bad_block ? 1 : -1));
    if (bytes == &bad_ids) {
      std::vector<Match> out;
      check("search", reader->Search((*entries_)[0].fingerprint, 0, &out));
      SearchResults results;
      check("batch search", reader->Search(all, 0, &results, 1));
    }
  }
}

// Issue 18 item 5: an entry's id is the id base plus its packed value; a
// crafted file (every checksum right) whose base makes an id pass 2^64 - 1
// is corrupted, and one whose largest id is exactly 2^64 - 1 is not.
TEST(IdWrapTest, IdsPassing2To64AreCorruptionAndTheLargestIdThatFitsIsKept) {
  ScopedTempDir dir;
  const std::vector<Entry> entries = AssignIds(UniformFingerprints(50, 21), IdStyle::kSequential, 21);
  BuildOptions options;
  options.scheme = SchemeOrDie("t4");
  options.block_size = 64;
  ASSERT_TRUE(BuildIndex(dir.File("seq.sdx"), options, entries).ok());
  const std::string file = ReadFileOrDie(dir.File("seq.sdx"));
  Layout layout = Layout::Parse(file);
  ASSERT_EQ(layout.meta.id_base, 0u);
  ASSERT_EQ(layout.meta.id_width, 6);  // ids 0..49
  // The file with another id base.
  auto with_base = [&](uint64_t base) {
    format::IndexMetadata meta = layout.meta;
    meta.id_base = base;
    return layout.WithMetadata(file, meta);
  };
  const Entry* last = &entries[0];
  for (const Entry& e : entries) {
    if (e.id > last->id) last = &e;
  }
  const uint64_t fits = ~uint64_t{0} - 49;  // id 49 becomes 2^64 - 1
  std::unique_ptr<IndexReader> reader;
  ASSERT_TRUE(IndexReader::Open(NewMemoryFile(with_base(fits)), ReaderOptions(), &reader).ok());
  EXPECT_TRUE(reader->Verify().ok());
  std::vector<Match> out;
  ASSERT_TRUE(reader->Search(last->fingerprint, 0, &out).ok());
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out.back().id, ~uint64_t{0});

  for (const auto& [mode, reader_options] : ReaderModes()) {
    SCOPED_TRACE(mode);
    Status s = IndexReader::Open(NewMemoryFile(with_base(fits + 1)), reader_options, &reader);
    if (!s.ok()) {  // checked in Open() when it reads the ids
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
      EXPECT_NE(s.message().find("id"), std::string::npos) << s.ToString();
      continue;
    }
    s = reader->Verify();
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_NE(s.message().find("2^64"), std::string::npos) << s.ToString();
    // Every search that finds an entry fails, whichever id it finds.
    for (const Entry& e : entries) {
      s = reader->Search(e.fingerprint, 0, &out);
      EXPECT_TRUE(s.IsCorruption()) << e.id << ": " << s.ToString();
      EXPECT_NE(s.message().find("2^64"), std::string::npos) << s.ToString();
    }
  }
}

// An index whose ids are all equal has no id section (width 0), so that
// nothing sized by the entry count bounds it but the file (8 per byte) and
// the blocks: with 64 KiB blocks a count past what the tables' blocks can
// hold (65,535 values each) is refused by Open(), and one within it that the
// blocks do not hold by Verify() (the path of a damaged count at any size,
// 2^30 and past included).
TEST(EntryCountTest, ACountTheBlocksCannotHoldIsCorruptionAtOpen) {
  ScopedTempDir dir;
  std::vector<Entry> entries = AssignIds(UniformFingerprints(300, 23), IdStyle::kSequential, 23);
  for (Entry& e : entries) e.id = 7;
  BuildOptions options;
  options.scheme = SchemeOrDie("t4");
  options.block_size = format::kMaxBlockSize;
  ASSERT_TRUE(BuildIndex(dir.File("same-id.sdx"), options, entries).ok());
  const std::string file = ReadFileOrDie(dir.File("same-id.sdx"));
  const Layout layout = Layout::Parse(file);
  ASSERT_EQ(layout.meta.id_width, 0);
  uint64_t fewest_blocks = ~uint64_t{0};
  for (const auto& t : layout.meta.tables) fewest_blocks = std::min(fewest_blocks, t.num_blocks);
  auto with_entries = [&](uint64_t n) {
    format::IndexMetadata meta = layout.meta;
    meta.entries = n;
    meta.distinct_fingerprints = std::min(meta.distinct_fingerprints, n);
    return layout.WithMetadata(file, meta);
  };
  const uint64_t most = fewest_blocks * format::kMaxBlockEntries;
  for (uint64_t n : {most + 1, uint64_t{1} << 40, ~uint64_t{0}}) {
    std::unique_ptr<IndexReader> reader;
    Status s = IndexReader::Open(NewMemoryFile(with_entries(n)), ReaderOptions(), &reader);
    EXPECT_TRUE(s.IsCorruption()) << n << ": " << s.ToString();
    EXPECT_NE(s.message().find("do not fit"), std::string::npos) << s.ToString();
  }
  std::unique_ptr<IndexReader> reader;
  Status s = IndexReader::Open(NewMemoryFile(with_entries(most)), ReaderOptions(), &reader);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(reader->Verify().IsCorruption());
}

TEST_P(CorruptionTest, TruncatedFileFailsToOpen) {
  std::vector<size_t> lengths = {0, 1, 8, 55, 56, 63, 64, 65, 119, 120, 121};
  const size_t size = file_->size();
  for (size_t n = size > 300 ? size - 300 : 0; n < size; ++n) lengths.push_back(n);
  for (size_t n = 128; n < size; n += 61) lengths.push_back(n);
  for (size_t n : lengths) {
    SCOPED_TRACE("length " + std::to_string(n) + " of " + std::to_string(size));
    std::unique_ptr<IndexReader> reader;
    Status s = OpenBytes(file_->substr(0, n), ReaderOptions(), &reader);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_FALSE(s.message().empty());
    if (n < format::FileHeader::kEncodedLength + format::Footer::kEncodedLength) {
      EXPECT_NE(s.message().find("too short"), std::string::npos) << s.ToString();
    }
  }
}

TEST_P(CorruptionTest, TruncatedFileOnDiskFailsToOpen) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{64}, file_->size() / 2, file_->size() - 1}) {
    SCOPED_TRACE("length " + std::to_string(n));
    const std::string path = dir_->File("truncated.sdx");
    WriteFileOrDie(path, file_->substr(0, n));
    std::unique_ptr<IndexReader> reader;
    Status s = IndexReader::Open(path, ReaderOptions(), &reader);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  }
}

TEST_P(CorruptionTest, ForeignFilesHaveBadMagicOrAreTooShort) {
  std::mt19937_64 rng(14);
  std::string random_bytes(4096, '\0');
  for (char& c : random_bytes) c = static_cast<char>(rng());
  std::string text;
  for (int i = 0; i < 40; ++i) text += "The quick brown fox jumps over the lazy dog, line " + std::to_string(i) + ".\n";
  struct Case {
    const char* name;
    std::string bytes;
    const char* message;
  };
  const Case cases[] = {
      {"random bytes", random_bytes, "magic"},
      {"text", text, "magic"},
      {"empty", "", "too short"},
      {"header only", file_->substr(0, 64) + std::string(64, '\0'), "magic"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = dir_->File("foreign");
    WriteFileOrDie(path, c.bytes);
    std::unique_ptr<IndexReader> reader;
    for (Status s : {IndexReader::Open(path, ReaderOptions(), &reader),
                     OpenBytes(c.bytes, ReaderOptions(), &reader)}) {
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
      EXPECT_NE(s.message().find(c.message), std::string::npos) << s.ToString();
    }
  }
}

// With fingerprints of the form (x << 32) | x, the two tables of scheme
// "32,32:1" hold the same permuted values, so their blocks are byte for byte
// equal except for the checksums, whose seeds name table and block. Blocks
// swapped between the tables (or within one), which would decode to the
// right values, are then caught by the checksum seeds alone.
TEST(CorruptionSeedTest, BlocksSwappedBetweenOrWithinTablesFailTheirChecksums) {
  std::mt19937_64 rng(15);
  std::vector<uint64_t> fps(300);
  for (uint64_t& f : fps) {
    const uint64_t x = rng() & 0xFFFFFFFF;
    f = (x << 32) | x;
  }
  const std::vector<Entry> entries = AssignIds(fps, IdStyle::kSequential, 16);
  ScopedTempDir dir;
  BuildOptions options;
  options.scheme = SchemeOrDie("32,32:1");
  options.block_size = 64;
  const std::string path = dir.File("mirror.sdx");
  ASSERT_TRUE(BuildIndex(path, options, entries).ok());
  const std::string file = ReadFileOrDie(path);
  const Layout layout = Layout::Parse(file);
  ASSERT_EQ(layout.meta.tables.size(), 2u);
  ASSERT_EQ(layout.meta.tables[0].num_blocks, layout.meta.tables[1].num_blocks);
  ASSERT_GE(layout.meta.tables[0].num_blocks, 3u);
  const size_t b = layout.meta.block_size;
  const uint64_t block = 1;
  ASSERT_EQ(file.substr(layout.BlockOffset(0, block) + 4, b - 4),
            file.substr(layout.BlockOffset(1, block) + 4, b - 4))
      << "the two tables' blocks should differ only in their checksums";

  auto swapped = [&](uint64_t a, uint64_t c) {
    std::string out = file;
    std::string tmp = out.substr(a, b);
    out.replace(a, b, out, c, b);
    out.replace(c, b, tmp);
    return out;
  };
  const std::string across = swapped(layout.BlockOffset(0, block), layout.BlockOffset(1, block));
  const std::string within = swapped(layout.BlockOffset(0, block), layout.BlockOffset(0, block + 1));

  for (const std::string* damaged : {&across, &within}) {
    SCOPED_TRACE(damaged == &across ? "block 1 of tables 0 and 1 swapped" : "blocks 1 and 2 of table 0 swapped");
    // Checking every block in Open() finds the swap at once.
    ReaderOptions verify_blocks;
    verify_blocks.verify_block_checksums = true;
    std::unique_ptr<IndexReader> reader;
    Status os = OpenBytes(*damaged, verify_blocks, &reader);
    EXPECT_TRUE(os.IsCorruption()) << os.ToString();
    EXPECT_NE(os.message().find("checksum"), std::string::npos) << os.ToString();
    // The default reader opens it, and every search that decodes a swapped
    // block reports its checksum.
    ASSERT_TRUE(OpenBytes(*damaged, ReaderOptions(), &reader).ok());
    Status vs = reader->Verify();
    EXPECT_TRUE(vs.IsCorruption()) << vs.ToString();
    EXPECT_NE(vs.message().find("checksum"), std::string::npos) << vs.ToString();
    int checksum_errors = 0;
    for (const Entry& e : entries) {
      std::vector<Match> out;
      Status s = reader->Search(e.fingerprint, 1, &out);
      if (s.ok()) {
        EXPECT_EQ(out, BruteForceSearch(entries, e.fingerprint, 1));
      } else {
        EXPECT_TRUE(s.IsCorruption()) << s.ToString();
        EXPECT_NE(s.message().find("checksum"), std::string::npos) << s.ToString();
        ++checksum_errors;
      }
    }
    EXPECT_GT(checksum_errors, 0);
  }
}

// A block whose padding is made nonzero and whose checksum is then
// recomputed passes the checksum; Verify() must still reject it.
TEST_P(CorruptionTest, NonzeroBlockPaddingWithValidChecksumIsRejected) {
  const Layout layout = Layout::Parse(*file_);
  const size_t b = layout.meta.block_size;
  std::unique_ptr<format::TableDecoder> decoder;
  const format::Codec* codec = format::FindCodec(layout.meta.tables[0].codec);
  ASSERT_NE(codec, nullptr);
  ASSERT_EQ(codec->name(), GetParam());
  ASSERT_TRUE(codec->NewDecoder(layout.meta.tables[0].codec_params, layout.meta.restarts, &decoder).ok());
  int forged = 0;
  for (uint64_t block = 0; block < layout.meta.tables[0].num_blocks; ++block) {
    const uint64_t at = layout.BlockOffset(0, block);
    const uint64_t head = format::DecodeFixed64(U(*file_) + layout.meta.tables[0].heads_offset + 8 * block);
    std::string damaged = *file_;
    uint8_t* p = reinterpret_cast<uint8_t*>(damaged.data()) + at;
    p[b - 1] ^= 0x01;
    format::EncodeFixed32(reinterpret_cast<char*>(p), format::BlockChecksum(p, b, block));
    format::BlockReadOptions strict;
    strict.strict = true;
    std::vector<uint64_t> values;
    Status ds = decoder->DecodeBlock(p, p + b, b, head, strict, &values);
    if (ds.message().find("padding") == std::string::npos) continue;  // the last bit was not padding
    ++forged;
    std::unique_ptr<IndexReader> reader;
    ASSERT_TRUE(OpenBytes(damaged, ReaderOptions(), &reader).ok());
    Status vs = reader->Verify();
    EXPECT_TRUE(vs.IsCorruption()) << "block " << block << ": " << vs.ToString();
  }
  EXPECT_GT(forged, 0) << "no block of table 0 had a padding bit to forge";
}

}  // namespace
}  // namespace simdex::testing
