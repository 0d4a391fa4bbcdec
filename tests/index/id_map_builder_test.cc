// IdMapBuilder: a map held in memory and one spilled to sorted runs at the
// smallest budget give the same section and ranks; every provisional
// number (a string seen again after a spill gets a second one) ranks to its
// string; a damaged or cut run is Corruption naming the file; a spill that
// cannot write is an error from Finish().
#include "engine/index/id_map_builder.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/index/string_order.h"
#include "engine/index/string_runs.h"
#include "format/coding.h"
#include "tests/index/test_data.h"

namespace simdex::testing {
namespace {

// n ids of 1..120 bytes, about a third of them repeated, in random order.
std::vector<std::string> Ids(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t k = rng() % (n * 2 / 3 + 1);
    std::string id = "doc/" + std::to_string(k);
    id.resize(1 + k % 120, static_cast<char>('a' + k % 26));
    out.push_back(id);
  }
  return out;
}

struct Interned {
  std::vector<uint64_t> numbers;  // of each id, in the order given
};

Interned InternAll(index::IdMapBuilder* map, const std::vector<std::string>& ids) {
  Interned out;
  for (const std::string& id : ids) out.numbers.push_back(map->Intern(id));
  return out;
}

TEST(IdMapBuilderTest, ASpilledMapGivesTheSameSectionAndRanksAsOneInMemory) {
  ScopedTempDir dir;
  const std::vector<std::string> ids = Ids(30000, 1);
  index::IdMapBuilder memory;
  index::IdMapBuilder spilled(size_t{64} << 10, dir.path());  // a run every ~600 ids; merges 2 at a time
  const Interned in_memory = InternAll(&memory, ids);
  const Interned on_disk = InternAll(&spilled, ids);
  ASSERT_TRUE(memory.Finish().ok());
  const Status s = spilled.Finish();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(memory.stats().runs_spilled, 0u);
  EXPECT_GT(spilled.stats().runs_spilled, 20u);
  EXPECT_GT(spilled.stats().merge_passes, 1u);  // intermediate passes, then the final one
  EXPECT_GT(spilled.numbers(), memory.numbers());  // ids seen again after a spill
  // In memory every repeat of an id is found: one number per distinct id.
  const std::set<std::string> distinct(ids.begin(), ids.end());
  EXPECT_EQ(memory.numbers(), distinct.size());
  ASSERT_EQ(memory.size(), distinct.size());
  ASSERT_EQ(memory.size(), spilled.size());
  EXPECT_TRUE(memory.Section() == spilled.Section());
  for (size_t i = 0; i < ids.size(); ++i) {
    const uint64_t rank = spilled.Rank(on_disk.numbers[i]);
    ASSERT_EQ(rank, memory.Rank(in_memory.numbers[i])) << i;
    ASSERT_EQ(spilled.String(rank), ids[i]);
  }
  // The mapped ranks and section are scratch files: nothing is in the
  // directory (there were two names in it before issue 36).
  EXPECT_TRUE(dir.List().empty());
}

TEST(IdMapBuilderTest, AnEmptyMapAndOneIdWorkEitherWay) {
  ScopedTempDir dir;
  for (size_t budget : {size_t{0}, size_t{64} << 10}) {
    index::IdMapBuilder empty(budget, dir.path());
    ASSERT_TRUE(empty.Finish().ok());
    EXPECT_EQ(empty.size(), 0u);
    EXPECT_EQ(empty.Section().size(), format::IdMapBytes(0, 0));
    index::IdMapBuilder one(budget, dir.path());
    EXPECT_EQ(one.Intern("x"), 0u);
    EXPECT_EQ(one.Intern("x"), 0u);
    ASSERT_TRUE(one.Finish().ok());
    EXPECT_EQ(one.Rank(0), 0u);
    EXPECT_EQ(one.String(0), "x");
  }
}

TEST(IdMapBuilderTest, ASpillThatCannotWriteIsAnErrorFromFinish) {
  index::IdMapBuilder map(size_t{64} << 10, "/nonexistent/simdex-dir");
  for (const std::string& id : Ids(3000, 2)) map.Intern(id);
  const Status s = map.Finish();
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.ToString().find("/nonexistent/simdex-dir"), std::string::npos) << s.ToString();
}

// OrderOfStrings against std::stable_sort of the strings: shared prefixes
// of every length around its 8-byte pieces, strings that are prefixes of
// others, zero bytes (alike to the end in a piece), repeats, 0 and 1 strings.
TEST(StringOrderTest, OrdersAsAComparisonSortDoes) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 200; ++round) {
    const size_t n = round < 2 ? static_cast<size_t>(round) : 1 + rng() % 300;
    const std::string prefix(rng() % 20, static_cast<char>('a' + rng() % 3));
    std::vector<std::string> strings;
    for (size_t i = 0; i < n; ++i) {
      std::string s = prefix.substr(0, rng() % (prefix.size() + 1));
      const size_t extra = rng() % 12;
      for (size_t j = 0; j < extra; ++j) s.push_back("\0ab\xff"[rng() % 4]);
      strings.push_back(i > 0 && rng() % 8 == 0 ? strings[rng() % i] : s);
    }
    std::vector<uint64_t> expected(n);
    std::iota(expected.begin(), expected.end(), uint64_t{0});
    std::stable_sort(expected.begin(), expected.end(),
                     [&](uint64_t a, uint64_t b) { return strings[a] < strings[b]; });
    const std::vector<uint64_t> got =
        index::OrderOfStrings(n, [&](uint64_t i) { return std::string_view(strings[i]); });
    ASSERT_EQ(got, expected) << "round " << round;
  }
}

// A run of `n` sorted records, at the end of file.
index::StringRun WriteRun(util::OutputFile* file, size_t n) {
  std::unique_ptr<index::StringRunWriter> w;
  EXPECT_TRUE(index::StringRunWriter::Create(file, n, &w).ok());
  std::vector<std::string> ids;
  for (size_t i = 0; i < n; ++i) ids.push_back("id-" + std::to_string(100000 + i));
  for (size_t i = 0; i < n; ++i) EXPECT_TRUE(w->Add(ids[i], i).ok());
  index::StringRun run;
  EXPECT_TRUE(w->Finish(&run).ok());
  return run;
}

Status MergeAll(const util::OutputFile& file, const index::StringRun& run, uint64_t* records) {
  *records = 0;
  return index::MergeStringRuns(file, {&run}, [records](std::string_view, uint64_t) {
    ++*records;
    return Status::OK();
  });
}

TEST(StringRunsTest, RunsMergeInOrderAndDamageIsCorruptionNamingTheFile) {
  ScopedTempDir dir;
  std::unique_ptr<util::OutputFile> file;
  ASSERT_TRUE(index::StringRunFile::Create(dir.path(), &file).ok());
  const index::StringRun a = WriteRun(file.get(), 20000), b = WriteRun(file.get(), 3);
  EXPECT_EQ(b.offset, a.bytes) << "one run after another";
  EXPECT_TRUE(dir.List().empty()) << "the runs' file has no name";
  std::vector<std::pair<std::string, uint64_t>> merged;
  ASSERT_TRUE(index::MergeStringRuns(*file, {&a, &b}, [&](std::string_view s, uint64_t n) {
                return merged.emplace_back(std::string(s), n), Status::OK();
              }).ok());
  ASSERT_EQ(merged.size(), 20003u);
  EXPECT_TRUE(std::is_sorted(merged.begin(), merged.end()));
  // Run a's bytes, read and rewritten in place through the descriptor.
  std::string good(a.bytes, '\0');
  ASSERT_EQ(::pread(file->scratch_fd(), good.data(), good.size(), 0), static_cast<ssize_t>(good.size()));
  auto put = [&](const std::string& bytes) {
    ASSERT_EQ(::pwrite(file->scratch_fd(), bytes.data(), bytes.size(), 0), static_cast<ssize_t>(bytes.size()));
  };
  ASSERT_GT(good.size(), 3u * 65536);  // several frames
  uint64_t records = 0;
  // A flipped byte in the header, in a frame's payload or in its header.
  for (size_t at : {size_t{9}, size_t{24 + 16 + 5}, size_t{24 + 16 + 70000}, good.size() - 1}) {
    std::string bad = good;
    bad[at] ^= 0x20;
    put(bad);
    const Status s = MergeAll(*file, a, &records);
    EXPECT_TRUE(s.IsCorruption()) << at << ": " << s.ToString();
    EXPECT_NE(s.ToString().find(file->path() + ": run at byte 0"), std::string::npos) << s.ToString();
  }
  put(good);
  // A run cut inside a frame or at a frame's end: it then ends between
  // frames, with fewer records than its header says.
  const size_t first_frame = 24 + 16 + format::DecodeFixed32(good.data() + 24);
  for (size_t size : {good.size() - 3, size_t{24 + 7}, size_t{24}, first_frame}) {
    index::StringRun cut = a;
    cut.bytes = size;
    const Status s = MergeAll(*file, cut, &records);
    EXPECT_TRUE(s.IsCorruption()) << size << ": " << s.ToString();
  }
  ASSERT_TRUE(MergeAll(*file, a, &records).ok());
  EXPECT_EQ(records, 20000u);
}

}  // namespace
}  // namespace simdex::testing
