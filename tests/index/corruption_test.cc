// Hostile files (in the manner of leveldb's db/corruption_test): every byte
// of a real index flipped in turn, truncations, foreign files, and blocks
// moved between tables. Verify() must reject each damaged file; Open() and
// searches must fail cleanly or succeed, never crash or read outside the
// file (the AddressSanitizer build checks the latter).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "format/block_format.h"
#include "format/block_reader.h"
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

class CorruptionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // 20 clusters of 10 (members at distance 0..4 from their centre), ids
    // within 2^16 of 2^64 - 1: 200 entries, t4, 64-byte blocks.
    entries_ = new std::vector<Entry>(AssignIds(ClusterFingerprints(20, 9, 11), IdStyle::kNearMax, 12));
    dir_ = new ScopedTempDir();
    BuildOptions options;
    options.scheme = SchemeOrDie("t4");
    options.block_size = 64;
    const std::string path = dir_->File("small.sdx");
    Status s = BuildIndex(path, options, *entries_);
    ASSERT_TRUE(s.ok()) << s.ToString();
    file_ = new std::string(ReadFileOrDie(path));
    path_ = new std::string(path);
  }

  static void TearDownTestSuite() {
    delete entries_;
    delete file_;
    delete path_;
    delete dir_;
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

  // Opens a damaged file as permissively as possible (so that searches see
  // the damage) and with block checksums on; searches both. Returns a
  // problem description, or "" when everything behaved: Open and every
  // search returned OK or Corruption, and Verify() rejected the file.
  static std::string Exercise(const std::string& bytes) {
    std::string problems;
    bool rejected = false;
    for (bool checksums : {false, true}) {
      ReaderOptions options;
      options.verify_block_checksums = checksums;
      options.verify_heads_on_open = checksums;
      std::unique_ptr<IndexReader> reader;
      Status s = OpenBytes(bytes, options, &reader);
      if (!OpenedOrCleanlyRefused(s)) problems += " Open: " + s.ToString() + ";";
      if (!s.ok()) {
        rejected = true;
        continue;
      }
      const std::vector<uint64_t> queries = Queries();
      const int k = reader->scheme().k();
      for (uint64_t q : queries) {
        std::vector<Match> out;
        Status qs = reader->Search(q, k, &out);
        if (!OkOrCleanCorruption(qs)) problems += " Search: " + qs.ToString() + ";";
      }
      SearchResults results;
      Status bs = reader->Search(queries, 1, &results, 2);
      if (!OkOrCleanCorruption(bs)) problems += " batch Search: " + bs.ToString() + ";";
      Status vs = reader->Verify();
      if (!OkOrCleanCorruption(vs)) problems += " Verify: " + vs.ToString() + ";";
      if (!vs.ok()) rejected = true;
    }
    if (!rejected) problems += " accepted by Open and Verify;";
    return problems;
  }

  // Runs Exercise on the file with `mask` xored into each byte at `offsets`;
  // fails listing the first few offsets that misbehaved.
  static void FlipEach(const std::vector<size_t>& offsets, uint8_t mask) {
    const Layout layout = Layout::Parse(*file_);
    int failures = 0;
    std::string report;
    for (size_t offset : offsets) {
      std::string damaged = *file_;
      damaged[offset] = static_cast<char>(damaged[offset] ^ mask);
      const std::string problems = Exercise(damaged);
      if (!problems.empty() && ++failures <= 10) {
        report += "\n  " + layout.Describe(offset, file_->size()) + ":" + problems;
      }
    }
    EXPECT_EQ(failures, 0) << "of " << offsets.size() << " damaged files (xor " << int{mask}
                           << "), these misbehaved:" << report;
  }

  static std::vector<Entry>* entries_;
  static ScopedTempDir* dir_;
  static std::string* file_;
  static std::string* path_;
};

std::vector<Entry>* CorruptionTest::entries_;
ScopedTempDir* CorruptionTest::dir_;
std::string* CorruptionTest::file_;
std::string* CorruptionTest::path_;

TEST_F(CorruptionTest, UndamagedFileOpensSearchesAndVerifies) {
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

TEST_F(CorruptionTest, EveryFlippedBitOfEveryByteIsRejected) {
  std::vector<size_t> offsets(file_->size());
  for (size_t i = 0; i < offsets.size(); ++i) offsets[i] = i;
  FlipEach(offsets, 0x01);
}

TEST_F(CorruptionTest, SampledBytesInvertedAreRejected) {
  std::vector<size_t> offsets;
  for (size_t i = 0; i < file_->size(); i += 7) offsets.push_back(i);
  FlipEach(offsets, 0xFF);
}

TEST_F(CorruptionTest, TruncatedFileFailsToOpen) {
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

TEST_F(CorruptionTest, TruncatedFileOnDiskFailsToOpen) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{64}, file_->size() / 2, file_->size() - 1}) {
    SCOPED_TRACE("length " + std::to_string(n));
    const std::string path = dir_->File("truncated.sdx");
    WriteFileOrDie(path, file_->substr(0, n));
    std::unique_ptr<IndexReader> reader;
    Status s = IndexReader::Open(path, ReaderOptions(), &reader);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  }
}

TEST_F(CorruptionTest, ForeignFilesHaveBadMagicOrAreTooShort) {
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
// swapped between the tables (or within one) are then caught by the checksum
// seeds alone.
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
    ReaderOptions verify_blocks;
    verify_blocks.verify_block_checksums = true;
    std::unique_ptr<IndexReader> reader;
    ASSERT_TRUE(OpenBytes(*damaged, verify_blocks, &reader).ok());
    Status vs = reader->Verify();
    EXPECT_TRUE(vs.IsCorruption()) << vs.ToString();
    EXPECT_NE(vs.message().find("checksum"), std::string::npos) << vs.ToString();
    // Every search that decodes a swapped block reports its checksum.
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

  // Without block checksums the swap across tables is invisible: the bytes
  // decode to the same values.
  std::unique_ptr<IndexReader> reader;
  ASSERT_TRUE(OpenBytes(across, ReaderOptions(), &reader).ok());
  for (const Entry& e : entries) {
    std::vector<Match> out;
    ASSERT_TRUE(reader->Search(e.fingerprint, 1, &out).ok());
    EXPECT_EQ(out, BruteForceSearch(entries, e.fingerprint, 1));
  }
}

// A block whose padding is made nonzero and whose checksum is then
// recomputed passes the checksum; Verify() must still reject it.
TEST_F(CorruptionTest, NonzeroBlockPaddingWithValidChecksumIsRejected) {
  const Layout layout = Layout::Parse(*file_);
  const size_t b = layout.meta.block_size;
  format::BlockDecoder decoder;
  ASSERT_TRUE(decoder.Init(layout.meta.tables[0].code_lengths).ok());
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
    Status ds = format::DecodeBlock(p, p + b, b, head, decoder, strict, &values);
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
