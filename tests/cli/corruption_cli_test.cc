// The `simdex` commands on damaged indexes (issue 18, items 4 and 7): no
// command answers from bytes it has not checked (a flipped bit in a block's
// count or in the id section fails `query`, `dedup --against` and `merge`,
// which then writes nothing), and every such error names the index file.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "format/block_frame.h"
#include "format/coding.h"
#include "format/index_layout.h"
#include "simdex/fingerprint.h"
#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

const uint8_t* U(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

class CorruptionCli : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    good_ = ReadFile(index_);
    WriteFile(batch_, TextFingerprints(entries_));  // the index's own entries: every one matches
    format::Footer footer;
    const uint8_t* end = U(good_) + good_.size();
    ASSERT_TRUE(footer.DecodeFrom(end - format::Footer::kEncodedLength, end).ok());
    const uint8_t* meta = U(good_) + footer.metadata_offset;
    ASSERT_TRUE(meta_.DecodeFrom(meta, meta + footer.metadata_length).ok());
    ASSERT_GT(meta_.tables.size(), 5u);
    ASSERT_GT(meta_.tables[5].num_blocks, 2u);
  }

  uint64_t BlockOffset(int table, uint64_t block) const {
    return meta_.tables[table].blocks_offset + block * meta_.block_size;
  }
  uint64_t Head(int table, uint64_t block) const {
    return format::DecodeFixed64(U(good_) + meta_.tables[table].heads_offset + 8 * block);
  }

  // Writes the intact index with bit `bit` of byte `offset` flipped to `name`.
  std::string Damaged(const std::string& name, uint64_t offset, int bit) const {
    std::string bytes = good_;
    bytes[offset] ^= static_cast<char>(1 << bit);
    const std::string path = dir_.File(name);
    WriteFile(path, bytes);
    return path;
  }

  // Expects a one-line error naming `path` and containing `what`, exit 1.
  static void ExpectError(const RunResult& r, const std::string& path, const std::string& what) {
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(path + ": "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
  }

  std::string good_;
  format::IndexMetadata meta_;
  std::string batch_ = dir_.File("batch.fp");
};

// Table 0 holds the fingerprints unpermuted: the head of its block 2 is a
// stored fingerprint, which a query reads block 2 for.
TEST_F(CorruptionCli, QueryOfAFlippedBitInABlockCountFailsNamingTableAndBlock) {
  const std::string fingerprint = FormatHexFingerprint(Head(0, 2));
  ASSERT_EQ(RunSimdex(dir_, {"query", index_, fingerprint}).exit_code, 0);
  for (int bit = 0; bit < 3; ++bit) {
    SCOPED_TRACE("count bit " + std::to_string(bit));
    const std::string path = Damaged("damaged.sdx", BlockOffset(0, 2) + 4, bit);
    const RunResult r = RunSimdex(dir_, {"query", path, fingerprint});
    ExpectError(r, path, "block 2 of table 0: checksum mismatch");
    EXPECT_EQ(r.out, "");
  }
}

TEST_F(CorruptionCli, AFlippedByteInTheIdSectionFailsQueryAndDedupAgainst) {
  const std::string path = Damaged("damaged.sdx", meta_.ids_offset + meta_.ids_length / 2, 2);
  const RunResult q = RunSimdex(dir_, {"query", path, FormatHexFingerprint(entries_[0].fingerprint)});
  ExpectError(q, path, "id section");
  EXPECT_EQ(q.out, "");
  for (const char* strategy : {"probe", "merge-join"}) {
    SCOPED_TRACE(strategy);
    const std::string out = dir_.File("out.jsonl");
    const RunResult r =
        RunSimdex(dir_, {"dedup", "--method", "simhash", "--quiet", "--against", path, "--against-strategy", strategy, "-o", out, batch_});
    ExpectError(r, path, "id section");
    EXPECT_FALSE(FileExists(out));
  }
}

TEST_F(CorruptionCli, MergeOfADamagedIndexFailsNamingItAndWritesNothing) {
  WriteFile(dir_.File("one.fp"), "1\t0123456789abcdef\n");
  struct Case {
    const char* name;
    uint64_t offset;
    int bit;
    std::string what;
  };
  const Case cases[] = {
      {"block count", BlockOffset(5, 1) + 4, 0, "block 1 of table 5: checksum mismatch"},
      {"id section", meta_.ids_offset + 1, 0, "id section"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = Damaged("damaged.sdx", c.offset, c.bit);
    const std::vector<std::string> before = dir_.List();
    const RunResult r = RunSimdex(dir_, {"merge", "--quiet", path, dir_.File("one.fp"), "--out", dir_.File("new.sdx")});
    ExpectError(r, path, c.what);
    EXPECT_EQ(dir_.List(), before);
  }
}

// Issue 36 item 10: an ef index whose table 5 was changed in one block,
// the block's checksum recomputed, merged with exit 0 into a file (fresh
// checksums) that `verify` then rejected. The merge checks that each table
// holds table 0's fingerprints as it streams it: one line naming the
// index, exit 1, no output.
TEST_F(CorruptionCli, MergeOfAnEfIndexWhoseTablesDisagreeFailsAndWritesNothing) {
  const std::string ef = dir_.File("ef.sdx");
  ASSERT_EQ(RunSimdex(dir_, {"build", "-q", "--codec", "ef", "--block-size", std::to_string(kBlockSize), "--out", ef,
                             input_})
                .exit_code,
            0);
  good_ = ReadFile(ef);
  const uint8_t* end = U(good_) + good_.size();
  format::Footer footer;
  ASSERT_TRUE(footer.DecodeFrom(end - format::Footer::kEncodedLength, end).ok());
  ASSERT_TRUE(meta_.DecodeFrom(U(good_) + footer.metadata_offset,
                               U(good_) + footer.metadata_offset + footer.metadata_length).ok());
  WriteFile(dir_.File("one.fp"), "1\t0123456789abcdef\n");
  const std::string path = dir_.File("crafted.sdx");
  // The first byte of block 1 of table 5 whose change `verify` finds only
  // by comparing the tables (every checksum is right).
  bool crafted = false;
  for (uint64_t byte = 12; byte < meta_.block_size && !crafted; ++byte) {
    std::string bytes = good_;
    char* block = bytes.data() + BlockOffset(5, 1);
    block[byte] ^= 0x01;
    format::EncodeFixed32(block, format::BlockChecksum(reinterpret_cast<const uint8_t*>(block), meta_.block_size,
                                                       format::BlockSeed(5, 1)));
    WriteFile(path, bytes);
    const RunResult v = RunSimdex(dir_, {"verify", path});
    crafted = v.err.find("does not hold the same fingerprints as table 0") != std::string::npos;
  }
  ASSERT_TRUE(crafted) << "no byte of the block changed a value alone";
  const std::vector<std::string> before = dir_.List();
  const RunResult r = RunSimdex(dir_, {"merge", "--quiet", path, dir_.File("one.fp"), "--out", dir_.File("new.sdx")});
  ExpectError(r, path, "table 5 does not hold the entries of table 0");
  EXPECT_EQ(dir_.List(), before);
}

// Item 7: with two indexes, the error names the damaged one.
TEST_F(CorruptionCli, DedupAgainstTwoIndexesNamesTheDamagedOne) {
  const std::string intact = dir_.File("a.sdx");
  WriteFile(intact, good_);
  const std::string damaged = Damaged("b.sdx", BlockOffset(5, 1) + 9, 4);
  for (const char* strategy : {"probe", "merge-join"}) {
    SCOPED_TRACE(strategy);
    const RunResult r = RunSimdex(dir_, {"dedup", "--method", "simhash", "--quiet", "--against", intact, "--against", damaged,
                                         "--against-strategy", strategy, "-o", dir_.File("out.jsonl"), batch_});
    ExpectError(r, damaged, "block 1 of table 5: checksum mismatch");
    EXPECT_EQ(r.err.find(intact), std::string::npos) << r.err;
    EXPECT_FALSE(FileExists(dir_.File("out.jsonl")));
  }
}

}  // namespace
}  // namespace simdex::clitest
