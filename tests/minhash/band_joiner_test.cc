// BandJoiner (include/simdex/minhash_join.h), the band self-join within a
// memory bound, against FindBandPairs (itself checked against a brute-force
// oracle in band_join_test.cc): random and adversarial keys under bounds
// that keep everything in memory, spill the keys only, or spill many sorted
// runs; temporary files after success and after errors.
#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/minhash/dedup/band_join_core.h"
#include "simdex/minhash_join.h"
#include "tests/io/io_test_util.h"
#include "tests/open_files.h"

namespace simdex {
namespace {

using testing::TempDir;

constexpr size_t kNoSpill = size_t{1} << 30;
constexpr size_t kTiny = kMinBandJoinMemoryBytes;

// Keys item after item (keys[i * bands + j]); banded[i] == 0 leaves item i out.
struct Items {
  int bands = 1;
  std::vector<uint64_t> keys;
  std::vector<uint8_t> banded;
  size_t size() const { return banded.size(); }
};

std::vector<uint64_t> Oracle(const Items& in) {
  const size_t n = in.size();
  std::vector<uint64_t> band_major(in.keys.size());
  for (size_t i = 0; i < n; ++i) {
    for (int j = 0; j < in.bands; ++j) band_major[j * n + i] = in.keys[i * in.bands + j];
  }
  std::vector<uint64_t> pairs;
  BandJoinStats stats;
  EXPECT_TRUE(FindBandPairs(band_major, in.bands, in.banded, 1, &pairs, &stats).ok());
  return pairs;
}

// The directory's path, without the trailing '/' of Path("").
std::string Root(const TempDir& dir) {
  std::string path = dir.Path("");
  path.pop_back();
  return path;
}

std::vector<std::string> FilesIn(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path().filename().string());
  return files;
}

// Joins `in` with a BandJoiner; pairs read `batch` at a time.
Status Join(const Items& in, size_t memory, const std::string& tmpdir, size_t batch, std::vector<uint64_t>* pairs,
            BandJoinStats* stats, int threads = 1) {
  std::unique_ptr<BandJoiner> join;
  SIMDEX_RETURN_IF_ERROR(
      BandJoiner::Create(in.bands, {.memory_bytes = memory, .tmpdir = tmpdir, .threads = threads}, &join));
  for (size_t i = 0; i < in.size(); ++i) {
    SIMDEX_RETURN_IF_ERROR(in.banded[i] ? join->Add(&in.keys[i * in.bands]) : join->AddUnbanded());
  }
  SIMDEX_RETURN_IF_ERROR(join->Finish());
  pairs->clear();
  std::vector<uint64_t> out(batch);
  size_t n = 0;
  do {
    SIMDEX_RETURN_IF_ERROR(join->Read(out.data(), out.size(), &n));
    pairs->insert(pairs->end(), out.begin(), out.begin() + n);
  } while (n > 0);
  *stats = join->stats();
  return Status::OK();
}

// Expects the joiner's pairs to be FindBandPairs', under `memory`, with
// nothing left in the temporary directory; returns the stats.
BandJoinStats ExpectSameAsOracle(const Items& in, size_t memory, size_t batch = 1000, int threads = 1) {
  TempDir dir;
  const std::string tmp = Root(dir);
  std::vector<uint64_t> pairs;
  BandJoinStats stats;
  const Status s = Join(in, memory, tmp, batch, &pairs, &stats, threads);
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(pairs, Oracle(in)) << "memory " << memory << ", " << in.size() << " items";
  EXPECT_EQ(stats.pairs, pairs.size());
  EXPECT_EQ(FilesIn(tmp), std::vector<std::string>{});
  return stats;
}

// Keys from an alphabet of `alphabet` values per band: groups of about
// n / alphabet equal keys; one item in `unbanded` is left out.
Items RandomItems(size_t n, int bands, uint64_t alphabet, uint64_t seed, int unbanded = 10) {
  std::mt19937_64 rng(seed);
  Items in;
  in.bands = bands;
  in.keys.resize(n * bands);
  for (uint64_t& k : in.keys) k = (rng() % alphabet + 1) * 0x9e3779b97f4a7c15ull;
  in.banded.resize(n);
  for (uint8_t& b : in.banded) b = unbanded == 0 || rng() % unbanded != 0;
  return in;
}

// Unrelated keys, with clusters of 2-5 items that share some bands.
Items PlantedItems(size_t n, int bands, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Items in;
  in.bands = bands;
  in.keys.resize(n * bands);
  for (uint64_t& k : in.keys) k = rng();
  in.banded.assign(n, 1);
  for (size_t i = 0; i + 5 < n; i += 5 + rng() % 20) {
    const size_t members = 2 + rng() % 4;
    for (size_t x = 1; x < members; ++x) {
      for (int j = 0; j < bands; ++j) {
        if (rng() % 3 == 0) in.keys[(i + x) * bands + j] = in.keys[i * bands + j];
      }
    }
  }
  return in;
}

const std::vector<size_t> kBounds = {kNoSpill, size_t{1} << 20, kTiny};

TEST(BandJoiner, MatchesFindBandPairsOnRandomKeysUnderEveryBound) {
  for (const size_t memory : kBounds) {
    for (const uint64_t alphabet : {50ull, 2000ull, 1ull << 40}) {
      ExpectSameAsOracle(RandomItems(6000, 4, alphabet, alphabet), memory);
    }
    ExpectSameAsOracle(PlantedItems(20000, 4, 7), memory, 7);
  }
}

TEST(BandJoiner, SmallBatchesAreEdgeCasesUnderEveryBound) {
  for (const size_t memory : kBounds) {
    for (const size_t n : {0, 1, 2, 3}) {
      Items in;
      in.bands = 2;
      in.keys.assign(n * 2, 42);  // every item shares every band
      in.banded.assign(n, 1);
      const BandJoinStats stats = ExpectSameAsOracle(in, memory, 1);
      EXPECT_EQ(stats.pairs, n * (n - (n > 0)) / 2);
    }
  }
}

// Identical signatures: one huge group in every band, each pair once.
TEST(BandJoiner, ManyIdenticalItemsGiveEveryPairOnce) {
  Items in;
  in.bands = 3;
  in.keys.assign(700 * 3, 0);
  for (size_t i = 0; i < 700; ++i) {
    for (int j = 0; j < 3; ++j) in.keys[i * 3 + j] = 1000 + j;
  }
  in.banded.assign(700, 1);
  for (const size_t memory : kBounds) {
    const BandJoinStats stats = ExpectSameAsOracle(in, memory, 333);
    EXPECT_EQ(stats.pairs, 700u * 699 / 2);
  }
}

// Every item in one bucket of one band, the other bands unrelated.
TEST(BandJoiner, AllItemsInOneBucketOfOneBand) {
  Items in = RandomItems(700, 3, uint64_t{1} << 40, 3, 0);
  for (size_t i = 0; i < 700; ++i) in.keys[i * 3 + 1] = 77;
  for (const size_t memory : kBounds) ExpectSameAsOracle(in, memory);
}

// Equal leading bits, different keys: told apart by the whole key.
TEST(BandJoiner, KeysEqualInLeadingBitsOnlyAreNotPairs) {
  Items in;
  in.bands = 2;
  for (size_t i = 0; i < 3000; ++i) {
    in.keys.push_back(0xabcdef0000000000ull | (i % 8));
    in.keys.push_back(0x1234000000000000ull | i);
  }
  in.banded.assign(3000, 1);
  for (const size_t memory : kBounds) ExpectSameAsOracle(in, memory);
}

// Empty signatures (unbanded items) with equal keys are in no pair.
TEST(BandJoiner, UnbandedItemsAreInNoPair) {
  Items in;
  in.bands = 2;
  in.keys.assign(20000 * 2, 5);
  in.banded.assign(20000, 0);
  in.banded[3] = in.banded[19999] = 1;
  for (const size_t memory : kBounds) {
    std::vector<uint64_t> pairs;
    BandJoinStats stats;
    TempDir dir;
    ASSERT_TRUE(Join(in, memory, Root(dir), 10, &pairs, &stats).ok());
    EXPECT_EQ(pairs, std::vector<uint64_t>({(3ull << 32) | 19999}));
    EXPECT_EQ(stats.banded, 2u);
  }
}

// The in-memory join sorts every record (plain) or the records its filter
// keeps, filtered at once or part by part: all three give FindBandPairs'
// pairs and the same groups. Part by part, the records go to parts of fixed
// room (part_bits 6: cuts of 9 to 12 bits) unless a part overflows, as
// the 20 keys of the third set make every band do, or the cut is longer
// (part_bits 1: 14 to 17 bits); both are cut by counting instead.
TEST(BandJoiner, InMemoryJoinWithAndWithoutTheFilterAgree) {
  for (const Items& in : {RandomItems(6000, 4, 2000, 11), PlantedItems(20000, 4, 12), RandomItems(3000, 3, 20, 13)}) {
    const size_t n = in.size();
    std::vector<uint64_t> band_major(in.keys.size());
    std::vector<uint32_t> items;
    for (size_t i = 0; i < n; ++i) {
      for (int j = 0; j < in.bands; ++j) band_major[j * n + i] = in.keys[i * in.bands + j];
      if (in.banded[i]) items.push_back(static_cast<uint32_t>(i));
    }
    std::vector<const uint64_t*> columns;
    for (int j = 0; j < in.bands; ++j) columns.push_back(band_major.data() + j * n);
    const std::vector<uint64_t> oracle = Oracle(in);
    BandJoinStats plain;
    for (const int part_bits : {-1, 64, 6, 1}) {  // -1: no filter
      minhash::JoinShape shape = minhash::ShapeOf(n, items.size(), size_t{1} << 30);
      shape.filter_in_memory = part_bits >= 0;
      shape.part_bits = part_bits;
      std::vector<uint64_t> pairs;
      auto flush = [&](const uint64_t* p, size_t count) {
        pairs.insert(pairs.end(), p, p + count);
        return Status::OK();
      };
      BandJoinStats stats;
      ASSERT_TRUE(minhash::JoinInMemory(columns.data(), in.bands, items, shape, 1, flush, &stats).ok());
      std::sort(pairs.begin(), pairs.end());
      pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());  // a pair comes once per band it shares
      EXPECT_EQ(pairs, oracle) << "part_bits " << part_bits;
      if (part_bits < 0) {
        plain = stats;
        EXPECT_EQ(stats.filtered, items.size() * in.bands);
        continue;
      }
      EXPECT_EQ(stats.groups, plain.groups);
      EXPECT_EQ(stats.comparisons, plain.comparisons);
      EXPECT_LE(stats.filtered, plain.filtered);
    }
  }
}

TEST(BandJoiner, FitsInMemoryWithoutTouchingDisk) {
  const BandJoinStats stats = ExpectSameAsOracle(PlantedItems(20000, 4, 1), kNoSpill);
  EXPECT_EQ(stats.bytes_spilled, 0u);
  EXPECT_EQ(stats.runs_spilled, 0u);
}

TEST(BandJoiner, SpillsTheKeysAloneWhenTheSortsFit) {
  // 20,000 x 4 keys: 640 KB, over half of 1 MiB; a band's filtered records fit.
  const BandJoinStats stats = ExpectSameAsOracle(PlantedItems(20000, 4, 2), size_t{1} << 20);
  EXPECT_EQ(stats.key_bytes_spilled, 20000u * 4 * 8);
  EXPECT_EQ(stats.runs_spilled, 0u);
}

TEST(BandJoiner, SpillsKeysThatFitWhenTheJoinDoesNot) {
  // One band: 12,000 keys fit half of 256 KiB, their records and keys do
  // not fit three quarters of it.
  const BandJoinStats stats = ExpectSameAsOracle(RandomItems(12000, 1, 3000, 4, 0), kTiny);
  EXPECT_EQ(stats.key_bytes_spilled, 12000u * 8);
}

TEST(BandJoiner, ManySpilledRunsMergeToTheSamePairs) {
  // Groups of about 4: every item passes the filter (3,968 records fit a
  // 128 KiB sort), and 30,000 pair records spill many runs of 3,840.
  for (const int threads : {1, 2}) {
    const BandJoinStats stats = ExpectSameAsOracle(RandomItems(20000, 4, 5000, 5), kTiny, 4096, threads);
    EXPECT_GT(stats.runs_spilled, 4u * 5);
    EXPECT_GT(stats.filtered, 4u * 3968);
  }
}

TEST(BandJoiner, StatsOfTheJoinDoNotDependOnTheBound) {
  const Items in = PlantedItems(20000, 4, 9);
  const BandJoinStats big = ExpectSameAsOracle(in, kNoSpill);
  const BandJoinStats tiny = ExpectSameAsOracle(in, kTiny);
  EXPECT_EQ(big.groups, tiny.groups);
  EXPECT_EQ(big.comparisons, tiny.comparisons);
  EXPECT_EQ(big.pairs, tiny.pairs);
  EXPECT_GT(tiny.runs_spilled, 0u);
}

TEST(BandJoiner, TemporaryFilesNeverHaveANameAndGoWithTheJoiner) {
  TempDir dir;
  const std::string tmp = Root(dir);
  const Items in = RandomItems(20000, 4, 5000, 6);
  {
    std::unique_ptr<BandJoiner> join;
    ASSERT_TRUE(BandJoiner::Create(4, {.memory_bytes = kTiny, .tmpdir = tmp}, &join).ok());
    for (size_t i = 0; i < in.size(); ++i) ASSERT_TRUE(join->Add(&in.keys[i * 4]).ok());
    EXPECT_EQ(FilesIn(tmp), std::vector<std::string>{});  // the keys' files have no name
    ASSERT_TRUE(join->Finish().ok());
    EXPECT_FALSE(testing::OpenFilesIn(tmp).empty());  // the pairs' runs
    EXPECT_EQ(FilesIn(tmp), std::vector<std::string>{});  // which have no name either
    uint64_t pair;
    size_t n;
    ASSERT_TRUE(join->Read(&pair, 1, &n).ok());
    EXPECT_EQ(n, 1u);
  }  // abandoned while reading
  EXPECT_EQ(FilesIn(tmp), std::vector<std::string>{});
  EXPECT_TRUE(testing::OpenFilesIn(tmp).empty());
}

// A file size limit makes write() fail with EFBIG, as a full disk fails
// with ENOSPC.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    EXPECT_EQ(::getrlimit(RLIMIT_FSIZE, &old_), 0);
    struct rlimit limit = old_;
    limit.rlim_cur = bytes;
    old_handler_ = ::signal(SIGXFSZ, SIG_IGN);
    EXPECT_EQ(::setrlimit(RLIMIT_FSIZE, &limit), 0);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &old_);
    ::signal(SIGXFSZ, old_handler_);
  }

 private:
  struct rlimit old_;
  sighandler_t old_handler_;
};

TEST(BandJoiner, FailedKeySpillIsIOErrorAndLeavesNoFiles) {
  TempDir dir;
  const std::string tmp = Root(dir);
  const Items in = PlantedItems(20000, 4, 3);
  std::vector<uint64_t> pairs;
  BandJoinStats stats;
  Status s;
  {
    FileSizeLimit limit(100000);  // a band's keys are 160,000 bytes
    s = Join(in, kTiny, tmp, 100, &pairs, &stats);
  }
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.message().find(tmp + "/simdex-spill-"), std::string::npos) << s.ToString();
  EXPECT_EQ(FilesIn(tmp), std::vector<std::string>{});
}

TEST(BandJoiner, FailedSortSpillIsIOErrorAndLeavesNoFiles) {
  TempDir dir;
  const std::string tmp = Root(dir);
  // 8 bands of 20,000 keys (160,000 bytes each) spill under 1 MiB; every
  // item passes the filter, and a band's sort spills runs of 16,256 records
  // (260,000 bytes).
  const Items in = RandomItems(20000, 8, 5000, 8, 0);
  std::unique_ptr<BandJoiner> join;
  ASSERT_TRUE(BandJoiner::Create(8, {.memory_bytes = size_t{1} << 20, .tmpdir = tmp}, &join).ok());
  for (size_t i = 0; i < in.size(); ++i) ASSERT_TRUE(join->Add(&in.keys[i * 8]).ok());
  Status s;
  {
    FileSizeLimit limit(200000);  // the keys are written; a sort's run is not
    s = join->Finish();
  }
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.message().find(tmp + "/simdex-sort-"), std::string::npos) << s.ToString();
  EXPECT_EQ(FilesIn(tmp), std::vector<std::string>{});
  uint64_t pair;
  size_t n;
  EXPECT_EQ(join->Read(&pair, 1, &n).ToString(), s.ToString());
  EXPECT_EQ(join->Add(&in.keys[0]).ToString(), s.ToString());
}

// The path of the item past kMaxBandJoinItems (2^32 - 2), at 3: refused,
// and the error sticks.
TEST(BandJoiner, AnItemPastTheMostIsRefusedAndTheErrorSticks) {
  TempDir dir;
  std::unique_ptr<BandJoiner> join;
  ASSERT_TRUE(BandJoiner::Create(2, {.memory_bytes = kTiny, .tmpdir = Root(dir), .max_items = 3}, &join).ok());
  const uint64_t keys[2] = {1, 2};
  ASSERT_TRUE(join->Add(keys).ok());
  ASSERT_TRUE(join->AddUnbanded().ok());
  ASSERT_TRUE(join->Add(keys).ok());
  const Status s = join->AddUnbanded();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("more than 3 items"), std::string::npos) << s.ToString();
  EXPECT_EQ(join->Add(keys).ToString(), s.ToString());
  EXPECT_EQ(join->Finish().ToString(), s.ToString());
}

TEST(BandJoiner, BadOptionsAreRefused) {
  TempDir dir;
  std::unique_ptr<BandJoiner> join;
  EXPECT_TRUE(BandJoiner::Create(0, {.memory_bytes = kNoSpill, .tmpdir = Root(dir)}, &join).IsInvalidArgument());
  EXPECT_TRUE(BandJoiner::Create(4, {.memory_bytes = kTiny - 1, .tmpdir = Root(dir)}, &join).IsInvalidArgument());
  EXPECT_TRUE(
      BandJoiner::Create(4, {.memory_bytes = kTiny, .tmpdir = Root(dir), .threads = 0}, &join).IsInvalidArgument());
  EXPECT_TRUE(BandJoiner::Create(4, {.memory_bytes = kTiny, .tmpdir = Root(dir), .max_items = kMaxBandJoinItems + 1},
                                 &join)
                  .IsInvalidArgument());
  const Status missing = BandJoiner::Create(4, {.memory_bytes = kTiny, .tmpdir = dir.Path("nowhere")}, &join);
  EXPECT_TRUE(missing.IsIOError());
  EXPECT_NE(missing.message().find(dir.Path("nowhere")), std::string::npos) << missing.ToString();
}

}  // namespace
}  // namespace simdex
