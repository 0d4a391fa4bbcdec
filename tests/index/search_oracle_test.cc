// The search harness (in the manner of leveldb's table_test Harness and of
// faiss's tests against IndexBinaryFlat): one parameterized test builds an
// index for every codec x scheme x block size x data set, opens it through a memory
// map and through an in-memory file, and checks every search, for every k
// from 0 to the scheme's k, against a brute-force scan.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "simdex/index.h"
#include "simdex/scheme.h"
#include "tests/index/test_data.h"

namespace simdex::testing {
namespace {

// Presets, a two-table scheme with 32-bit keys, a 70-table scheme at k = 4
// (the distance the cluster data set plants), and the one-table scheme whose
// key is the whole fingerprint.
const std::string kSchemes[] = {"t4", "t10", "t20", "32,32:1", "8,8,8,8,8,8,8,8:4", "64:0"};
// The smallest, default and largest block sizes.
const uint32_t kBlockSizes[] = {64, 4096, 65536};  // smallest, default, largest
// The ef codec's, with 256 B too: a block of a few dozen values, whose
// buckets and select samples (one per 256 zeros) differ from both ends'.
const uint32_t kEfBlockSizes[] = {64, 256, 4096, 65536};

// The data sets at full size, and at half size for the 70-table scheme.
const std::vector<DataSet>& DataSets(size_t divisor = 1) {
  static const std::vector<DataSet>* full = new std::vector<DataSet>(StandardDataSets(1));
  static const std::vector<DataSet>* half = new std::vector<DataSet>(StandardDataSets(2));
  return divisor == 1 ? *full : *half;
}

std::string Hex(uint64_t x) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

std::string Describe(const Match& m) {
  return "{id " + Hex(m.id) + ", fp " + Hex(m.fingerprint) + ", d " + std::to_string(m.distance) + "}";
}

// Equal, or a description of the first few differences.
::testing::AssertionResult SameMatches(const std::vector<Match>& want, const Match* got_begin,
                                       const Match* got_end) {
  const std::vector<Match> got(got_begin, got_end);
  if (got == want) return ::testing::AssertionSuccess();
  auto key = [](const Match& m) { return std::make_tuple(m.distance, m.id, m.fingerprint); };
  std::multiset<std::tuple<int, uint64_t, uint64_t>> want_set, got_set;
  for (const Match& m : want) want_set.insert(key(m));
  for (const Match& m : got) got_set.insert(key(m));
  std::ostringstream msg;
  msg << "expected " << want.size() << " matches, got " << got.size();
  int shown = 0;
  for (const Match& m : want) {
    if (got_set.count(key(m)) < want_set.count(key(m)) && shown++ < 5) msg << "\n  missing " << Describe(m);
  }
  shown = 0;
  for (const Match& m : got) {
    if (want_set.count(key(m)) < got_set.count(key(m)) && shown++ < 5) msg << "\n  extra " << Describe(m);
  }
  if (want_set == got_set) {
    for (size_t i = 0; i < got.size(); ++i) {
      if (!(got[i] == want[i])) {
        msg << "\n  same matches, wrong order: position " << i << " is " << Describe(got[i])
            << ", expected " << Describe(want[i]);
        break;
      }
    }
  }
  return ::testing::AssertionFailure() << msg.str();
}

// Codec (BuildOptions::codec), scheme, block size, data set.
using Param = std::tuple<std::string, std::string, uint32_t, size_t>;

// Restart points per block: the data sets take turns, so that every scheme
// and block size meets none, the default and the most.
int RestartsFor(const Param& p) {
  constexpr int kRestarts[] = {0, 6, 15};  // none, the default, the most
  return kRestarts[std::get<3>(p) % 3];
}

std::string ParamName(const ::testing::TestParamInfo<Param>& info) {
  std::string scheme = std::get<1>(info.param);
  for (char& c : scheme) {
    if (c == ',' || c == ':') c = '_';
  }
  return std::get<0>(info.param) + "_s" + scheme + "_b" + std::to_string(std::get<2>(info.param)) + "_" +
         DataSets()[std::get<3>(info.param)].name + "_r" + std::to_string(RestartsFor(info.param));
}

class SearchOracleTest : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    codec_ = std::get<0>(GetParam());
    scheme_ = SchemeOrDie(std::get<1>(GetParam()));
    block_size_ = std::get<2>(GetParam());
    const DataSet& set = DataSets(scheme_.num_tables() > 20 ? 2 : 1)[std::get<3>(GetParam())];
    entries_ = set.entries;
    // A seed of its own per case (FNV-1a of the case name), the same on every platform.
    uint64_t seed = 0xcbf29ce484222325ULL;
    for (char c : ParamName({GetParam(), 0})) seed = (seed ^ static_cast<uint8_t>(c)) * 0x100000001b3ULL;
    rng_.seed(seed);
    MakeQueries();
  }

  // Data points, data points with 1 .. k+1 bits flipped, random values.
  // Fewer data points for the 70-table scheme, whose every query at k = 4
  // probes 70 tables.
  void MakeQueries() {
    const int k = scheme_.k();
    const int points = scheme_.num_tables() > 20 ? 5 : 10;
    for (int i = 0; i < points && !entries_.empty(); ++i) {
      const uint64_t point = entries_[rng_() % entries_.size()].fingerprint;
      point_queries_.push_back(point);
      for (int flips = 1; flips <= k + 1; ++flips) queries_.push_back(FlipRandomBits(point, flips, rng_));
    }
    for (int i = 0; i < 10; ++i) queries_.push_back(rng_());
    queries_.insert(queries_.end(), point_queries_.begin(), point_queries_.end());
    // The threaded batch repeats the queries until it is long enough to be
    // shared between two threads (the reader hands out chunks of 64).
    while (threaded_batch_.size() <= 128) {
      threaded_batch_.insert(threaded_batch_.end(), queries_.begin(), queries_.end());
    }
  }

  // Builds the index from the entries in shuffled order; returns its path.
  std::string Build() {
    std::vector<Entry> shuffled = entries_;
    Shuffle(&shuffled, rng_);
    BuildOptions options;
    options.scheme = scheme_;
    options.block_size = block_size_;
    options.restarts = RestartsFor(GetParam());
    options.codec = codec_;
    // Every data set fits in 1 MiB, so nothing spills; the default budget
    // (1 GiB, of which the builder allocates half up front) would dominate
    // the runtime under AddressSanitizer.
    options.memory_bytes = size_t{1} << 20;
    const std::string path = dir_.File("index.sdx");
    BuildStats stats;
    Status s = BuildIndex(path, options, shuffled, &stats);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(stats.entries, entries_.size());
    EXPECT_EQ(stats.distinct_fingerprints, DistinctFingerprints());
    EXPECT_EQ(stats.file_bytes, ReadFileOrDie(path).size());
    return path;
  }

  uint64_t DistinctFingerprints() const {
    std::set<uint64_t> fps;
    for (const Entry& e : entries_) fps.insert(e.fingerprint);
    return fps.size();
  }

  void CheckInfo(const IndexReader& reader) {
    EXPECT_EQ(reader.entries(), entries_.size());
    EXPECT_EQ(reader.scheme().Name(), scheme_.Name());
    const IndexInfo info = reader.Info();
    EXPECT_EQ(info.entries, entries_.size());
    EXPECT_EQ(info.distinct_fingerprints, DistinctFingerprints());
    EXPECT_EQ(info.scheme, scheme_.Name());
    EXPECT_EQ(info.widths, scheme_.widths());
    EXPECT_EQ(info.k, scheme_.k());
    EXPECT_EQ(info.block_size, block_size_);
    EXPECT_EQ(info.restarts, RestartsFor(GetParam()));
    EXPECT_EQ(info.tables.size(), static_cast<size_t>(scheme_.num_tables()));
    for (const IndexInfo::Table& table : info.tables) {
      if (codec_ == "auto") {
        EXPECT_TRUE(table.codec == "card" || table.codec == "ef") << table.codec;
      } else {
        EXPECT_EQ(table.codec, codec_);
      }
    }
    Status s = reader.Verify();
    EXPECT_TRUE(s.ok()) << s.ToString();
  }

  void CheckStats(const SearchStats& stats, size_t nq, bool includes_data_points) {
    EXPECT_EQ(stats.queries, nq);
    EXPECT_EQ(stats.candidates_per_table.size(), static_cast<size_t>(scheme_.num_tables()));
    uint64_t sum = 0;
    for (uint64_t c : stats.candidates_per_table) sum += c;
    EXPECT_EQ(sum, stats.candidates);
    EXPECT_GE(stats.entries_scanned, stats.candidates);
    if (includes_data_points) {
      EXPECT_GT(stats.blocks_decoded, 0u);
      EXPECT_GE(stats.tables_probed, nq);
      EXPECT_GT(stats.candidates, 0u);
    }
  }

  // Runs `batch` (whose query i is queries_[i % queries_.size()]) through
  // the batch call and checks the lims layout and every query's matches
  // against want; its counters must be those of the single queries
  // (single_stats) times the number of repeats.
  void CheckBatch(const IndexReader& reader, int k, const std::vector<uint64_t>& batch, int threads,
                  const std::vector<std::vector<Match>>& want, const SearchStats& single_stats) {
    SCOPED_TRACE("batch of " + std::to_string(batch.size()) + ", threads = " + std::to_string(threads));
    SearchResults results;
    SearchStats stats;
    Status s = reader.Search(batch, k, &results, threads, &stats);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(results.lims.size(), batch.size() + 1);
    ASSERT_EQ(results.lims.front(), 0u);
    ASSERT_EQ(results.lims.back(), results.matches.size());
    for (size_t i = 0; i < batch.size(); ++i) {
      ASSERT_LE(results.lims[i], results.lims[i + 1]);
      ASSERT_TRUE(SameMatches(want[i % queries_.size()], results.matches.data() + results.lims[i],
                              results.matches.data() + results.lims[i + 1]))
          << "batch query " << i << " = " << Hex(batch[i]);
    }
    CheckStats(stats, batch.size(), !point_queries_.empty());
    const uint64_t repeats = batch.size() / queries_.size();
    EXPECT_EQ(stats.candidates, repeats * single_stats.candidates);
    EXPECT_EQ(stats.blocks_decoded, repeats * single_stats.blocks_decoded);
  }

  // For every k: every query through the single-query call and as a batch on
  // one thread; at the scheme's k, also a longer batch on two threads. Then
  // an empty batch and k beyond the scheme.
  void CheckSearches(const IndexReader& reader) {
    for (int k = 0; k <= scheme_.k(); ++k) {
      SCOPED_TRACE("k = " + std::to_string(k));
      std::vector<std::vector<Match>> want;
      for (uint64_t q : queries_) want.push_back(BruteForceSearch(entries_, q, k));
      SearchStats stats;
      for (size_t i = 0; i < queries_.size(); ++i) {
        std::vector<Match> got = {Match{1, 2, 3}};  // must be replaced, not appended to
        Status s = reader.Search(queries_[i], k, &got, &stats);
        ASSERT_TRUE(s.ok()) << "query " << Hex(queries_[i]) << ": " << s.ToString();
        ASSERT_TRUE(SameMatches(want[i], got.data(), got.data() + got.size())) << "query " << Hex(queries_[i]);
      }
      CheckStats(stats, queries_.size(), !point_queries_.empty());
      CheckBatch(reader, k, queries_, 1, want, stats);
      if (k == scheme_.k()) CheckBatch(reader, k, threaded_batch_, 2, want, stats);
      if (HasFatalFailure()) return;
    }

    SearchResults empty;
    Status s = reader.Search(std::span<const uint64_t>(), 0, &empty, 2);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(empty.lims, std::vector<size_t>{0});
    EXPECT_TRUE(empty.matches.empty());

    const int too_far = scheme_.k() + 1;
    std::vector<Match> out;
    EXPECT_TRUE(reader.Search(queries_[0], too_far, &out).IsInvalidArgument());
    SearchResults batch;
    EXPECT_TRUE(reader.Search(queries_, too_far, &batch, 1).IsInvalidArgument());
    EXPECT_TRUE(reader.Search(threaded_batch_, too_far, &batch, 2).IsInvalidArgument());
  }

  std::string codec_;
  Scheme scheme_;
  uint32_t block_size_ = 0;
  std::vector<Entry> entries_;
  std::mt19937_64 rng_;
  std::vector<uint64_t> point_queries_;
  std::vector<uint64_t> queries_;
  std::vector<uint64_t> threaded_batch_;
  ScopedTempDir dir_;
};

TEST_P(SearchOracleTest, FindsExactlyTheEntriesWithinKThroughMapAndMemory) {
  const std::string path = Build();
  if (HasFailure()) return;

  {
    SCOPED_TRACE("mmap reader, default options");
    std::unique_ptr<IndexReader> reader;
    Status s = IndexReader::Open(path, ReaderOptions(), &reader);
    ASSERT_TRUE(s.ok()) << s.ToString();
    CheckInfo(*reader);
    CheckSearches(*reader);
  }
  {
    SCOPED_TRACE("memory reader, block checksums verified, heads not verified on open");
    ReaderOptions options;
    options.verify_block_checksums = true;
    options.verify_heads_on_open = false;
    std::unique_ptr<IndexReader> reader;
    Status s = IndexReader::Open(NewMemoryFile(ReadFileOrDie(path)), options, &reader);
    ASSERT_TRUE(s.ok()) << s.ToString();
    CheckInfo(*reader);
    CheckSearches(*reader);
  }
}

INSTANTIATE_TEST_SUITE_P(AllSchemesBlockSizesAndDataSets, SearchOracleTest,
                         ::testing::Combine(::testing::Values("card"), ::testing::ValuesIn(kSchemes),
                                            ::testing::ValuesIn(kBlockSizes),
                                            ::testing::Range<size_t>(0, DataSets().size())),
                         ParamName);
INSTANTIATE_TEST_SUITE_P(EfAllSchemesBlockSizesAndDataSets, SearchOracleTest,
                         ::testing::Combine(::testing::Values("ef"), ::testing::ValuesIn(kSchemes),
                                            ::testing::ValuesIn(kEfBlockSizes),
                                            ::testing::Range<size_t>(0, DataSets().size())),
                         ParamName);
// auto: tables of either codec in one index (the data sets where they tie
// or split go to different codecs per table).
INSTANTIATE_TEST_SUITE_P(AutoCodec, SearchOracleTest,
                         ::testing::Combine(::testing::Values("auto"), ::testing::Values("t4", "t10"),
                                            ::testing::Values(256u), ::testing::Range<size_t>(0, DataSets().size())),
                         ParamName);

}  // namespace
}  // namespace simdex::testing
