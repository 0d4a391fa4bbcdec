// `simdex merge` end to end: the merged index equals `simdex build` over the
// same entries byte for byte (with deletions, and in place), --only-new
// leaves out what the oracle calls near-duplicates, and bad input leaves
// nothing behind.
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/fingerprint.h"
#include "tests/cli/cli_harness.h"
#include "tests/dedup/dedup_oracle.h"

namespace simdex::clitest {
namespace {

class MergeCli : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    for (size_t i = 0; i < entries_.size(); ++i) (i % 3 == 0 ? batch_ : old_).push_back(entries_[i]);
    WriteFile(dir_.File("old.fp"), TextFingerprints(old_));
    WriteFile(dir_.File("batch.fp"), TextFingerprints(batch_));
    ASSERT_EQ(RunSimdex(dir_, {"build", "--quiet", "--block-size", "128", "--out", old_index_, dir_.File("old.fp")})
                  .exit_code,
              0);
  }

  std::vector<Entry> old_, batch_;
  std::string old_index_ = dir_.File("old.sdx");
};

TEST_F(MergeCli, MergedIndexEqualsABuildOfTheSameEntries) {
  // Delete the ids of every 5th old entry, and one id no entry has.
  std::string ids = "# ids to delete\n424242424242\n";
  std::set<uint64_t> gone;
  for (size_t i = 0; i < old_.size(); i += 5) {
    ids += std::to_string(old_[i].id) + "\n";
    gone.insert(old_[i].id);
  }
  WriteFile(dir_.File("gone.txt"), ids);
  const RunResult r = RunSimdex(dir_, {"merge", old_index_, dir_.File("batch.fp"), "--delete", dir_.File("gone.txt"),
                                       "--out", dir_.File("new.sdx")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<Entry> kept;
  for (const Entry& e : old_) {
    if (!gone.count(e.id)) kept.push_back(e);
  }
  kept.insert(kept.end(), batch_.begin(), batch_.end());
  WriteFile(dir_.File("union.fp"), TextFingerprints(kept));
  ASSERT_EQ(RunSimdex(dir_, {"build", "--quiet", "--block-size", "128", "--out", dir_.File("fresh.sdx"),
                             dir_.File("union.fp")}).exit_code, 0);
  EXPECT_TRUE(ReadFile(dir_.File("new.sdx")) == ReadFile(dir_.File("fresh.sdx")));
  EXPECT_NE(r.out.find(std::to_string(kept.size()) + " entries"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 id to delete not found"), std::string::npos) << r.out;
  // In place: the old file is replaced by the merged one.
  ASSERT_EQ(RunSimdex(dir_, {"merge", "--quiet", old_index_, dir_.File("batch.fp"), "--delete", dir_.File("gone.txt"),
                             "--out", old_index_}).exit_code, 0);
  EXPECT_TRUE(ReadFile(old_index_) == ReadFile(dir_.File("fresh.sdx")));
}

// The same batch merged twice stored each id twice (`query` then answered
// {"id":1},{"id":1}), for SimHash and for every MinHash-LSH merge. Now the
// second merge is refused naming an id, as `dedup` refuses an id given twice
// in a batch; --replace replaces the old entries of such ids.
TEST_F(MergeCli, TheSameBatchMergedTwiceIsRefusedNamingAnIdOrReplaced) {
  const std::string once = dir_.File("once.sdx"), twice = dir_.File("twice.sdx");
  ASSERT_EQ(RunSimdex(dir_, {"merge", "-q", old_index_, dir_.File("batch.fp"), "--out", once}).exit_code, 0);
  RunResult r = RunSimdex(dir_, {"merge", "-q", once, dir_.File("batch.fp"), "--out", twice});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("' is in the old index already (and " + std::to_string(batch_.size() - 1) +
                       " more ids of the batch are): each would be stored twice (--replace replaces their old "
                       "entries)"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(FileExists(twice));
  r = RunSimdex(dir_, {"merge", once, dir_.File("batch.fp"), "--replace", "--out", twice});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(" - " + std::to_string(batch_.size()) + " replaced + "), std::string::npos) << r.out;
  EXPECT_TRUE(ReadFile(twice) == ReadFile(once)) << "the batch replaced by itself";

  // A MinHash-LSH index: its batch is documents, ids from their JSON.
  std::string docs;
  for (int i = 0; i < 6; ++i) {
    docs += "{\"id\":\"doc-" + std::to_string(i) + "\",\"text\":\"words of document number " + std::to_string(i) +
            " here and there\"}\n";
  }
  WriteFile(dir_.File("docs.jsonl"), docs);
  const std::string lsh = dir_.File("lsh.sdx"), lsh_twice = dir_.File("lsh2.sdx");
  ASSERT_EQ(RunSimdex(dir_, {"build", "--method", "minhash", "-q", "--out", lsh, dir_.File("docs.jsonl")}).exit_code, 0);
  r = RunSimdex(dir_, {"merge", "-q", lsh, dir_.File("docs.jsonl"), "--out", lsh_twice});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err, "simdex merge: id 'doc-0' is in the old index already (and 5 more ids of the batch are): each "
                   "would be stored twice (--replace replaces their old entries)\n");
  EXPECT_FALSE(FileExists(lsh_twice));
  r = RunSimdex(dir_, {"merge", lsh, dir_.File("docs.jsonl"), "--replace", "--out", lsh_twice});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("6 documents (6 old - 0 deleted - 6 replaced + 6 added;"), std::string::npos) << r.out;
  EXPECT_TRUE(ReadFile(lsh_twice) == ReadFile(lsh));
}

TEST_F(MergeCli, OnlyNewAddsTheBatchRecordsTheOracleKeeps) {
  std::vector<testing::Doc> docs;
  for (const Entry& e : batch_) docs.push_back({false, e.fingerprint, 0});
  std::vector<testing::Entry> stored;
  for (const Entry& e : old_) stored.push_back({e.id, e.fingerprint});
  const testing::Oracle o = testing::ExpectedDedup(docs, 3, {&stored});
  std::vector<Entry> kept = old_;
  for (size_t i = 0; i < batch_.size(); ++i) {
    if (!o.results[i].duplicate) kept.push_back(batch_[i]);
  }
  ASSERT_LT(kept.size(), entries_.size());  // the test data holds near-duplicates across the split
  const RunResult r =
      RunSimdex(dir_, {"merge", "--only-new", old_index_, dir_.File("batch.fp"), "--out", dir_.File("new.sdx")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  WriteFile(dir_.File("union.fp"), TextFingerprints(kept));
  ASSERT_EQ(RunSimdex(dir_, {"build", "--quiet", "--block-size", "128", "--out", dir_.File("fresh.sdx"),
                             dir_.File("union.fp")}).exit_code, 0);
  EXPECT_TRUE(ReadFile(dir_.File("new.sdx")) == ReadFile(dir_.File("fresh.sdx"))) << r.out;
}

// An index of URL ids: the batch's URLs join them, --delete names URLs,
// `query` gives the URLs back, and the file equals a build of the union.
TEST_F(MergeCli, StringIdsAreKeptAndDeletedByName) {
  auto url = [](const Entry& e) { return "https://news.example/a/" + std::to_string(e.id); };
  auto lines = [&](const std::vector<Entry>& entries) {
    std::string out;
    for (const Entry& e : entries) out += url(e) + "\t" + FormatHexFingerprint(e.fingerprint) + "\n";
    return out;
  };
  WriteFile(dir_.File("old-urls.fp"), lines(old_));
  WriteFile(dir_.File("batch-urls.fp"), lines(batch_));
  ASSERT_EQ(RunSimdex(dir_, {"build", "--quiet", "--block-size", "128", "--out", dir_.File("urls.sdx"),
                             dir_.File("old-urls.fp")}).exit_code, 0);
  WriteFile(dir_.File("gone.txt"), url(old_[0]) + "\n" + url(old_[1]) + "\nhttps://news.example/none\n");
  const RunResult r = RunSimdex(dir_, {"merge", dir_.File("urls.sdx"), dir_.File("batch-urls.fp"), "--delete",
                                       dir_.File("gone.txt"), "--out", dir_.File("new.sdx")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("1 id to delete not found"), std::string::npos) << r.out;
  std::vector<Entry> kept(old_.begin() + 2, old_.end());
  kept.insert(kept.end(), batch_.begin(), batch_.end());
  WriteFile(dir_.File("union-urls.fp"), lines(kept));
  ASSERT_EQ(RunSimdex(dir_, {"build", "--quiet", "--block-size", "128", "--out", dir_.File("fresh.sdx"),
                             dir_.File("union-urls.fp")}).exit_code, 0);
  EXPECT_TRUE(ReadFile(dir_.File("new.sdx")) == ReadFile(dir_.File("fresh.sdx")));
  // A batch entry is found under its URL; a deleted one is gone.
  const std::string fp = FormatHexFingerprint(batch_[0].fingerprint);
  const RunResult q = RunSimdex(dir_, {"query", "--k", "0", dir_.File("new.sdx"), fp});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_NE(q.out.find("\"id\":\"" + url(batch_[0]) + "\""), std::string::npos) << q.out;
  EXPECT_EQ(q.out.find("\"id\":0"), std::string::npos) << q.out;
  // Numeric ids given for an index of string ids mean their decimal strings.
  WriteFile(dir_.File("numbers.fp"), TextFingerprints({batch_[0]}));
  ASSERT_EQ(RunSimdex(dir_, {"merge", "--quiet", dir_.File("new.sdx"), dir_.File("numbers.fp"), "--out",
                             dir_.File("more.sdx")}).exit_code, 0);
  const RunResult q2 = RunSimdex(dir_, {"query", "--k", "0", dir_.File("more.sdx"), fp});
  EXPECT_NE(q2.out.find("\"id\":\"" + std::to_string(batch_[0].id) + "\""), std::string::npos) << q2.out;
}

TEST_F(MergeCli, BadInputIsOneLineErrorAndLeavesNoIndex) {
  WriteFile(dir_.File("gone.txt"), "12\nnot-an-id\n");
  RunResult r = RunSimdex(dir_, {"merge", old_index_, dir_.File("batch.fp"), "--delete", dir_.File("gone.txt"),
                                 "--out", dir_.File("new.sdx")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("gone.txt:2:"), std::string::npos) << r.err;
  std::string bytes = ReadFile(old_index_);
  bytes[200] ^= 0x10;  // a block of table 0
  WriteFile(dir_.File("damaged.sdx"), bytes);
  r = RunSimdex(dir_, {"merge", dir_.File("damaged.sdx"), dir_.File("batch.fp"), "--out", dir_.File("new.sdx")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  r = RunSimdex(dir_, {"merge", dir_.File("missing.sdx"), dir_.File("batch.fp"), "--out", dir_.File("new.sdx")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("missing.sdx"), std::string::npos) << r.err;
  EXPECT_FALSE(FileExists(dir_.File("new.sdx")));
  EXPECT_EQ(dir_.List(), (std::vector<std::string>{"batch.fp", "damaged.sdx", "fp.txt", "gone.txt", "index.sdx",
                                                  "old.fp", "old.sdx"}));
}

}  // namespace
}  // namespace simdex::clitest
