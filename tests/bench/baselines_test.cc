// The searchers simdex-bench compares: each must return exactly what the
// brute-force scan returns, for every k it claims, on uniform data, planted
// clusters (with exact duplicates) and a skewed set, under the settings
// MakeBaseline chooses.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <memory>
#include <ostream>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "bench/harness/baselines.h"
#include "bench/harness/faiss_searchers.h"
#include "bench/harness/scan_searcher.h"
#include "bench/harness/simdex_searcher.h"
#include "tests/index/test_data.h"

namespace simdex::bench {
namespace {

using simdex::testing::ClusterFingerprints;
using simdex::testing::ConstantPrefixFingerprints;
using simdex::testing::FlipRandomBits;
using simdex::testing::SchemeOrDie;
using simdex::testing::ScopedTempDir;
using simdex::testing::UniformFingerprints;

// 3001 and 3000 entries: the scan's 8-wide loop ends with and without a tail.
std::vector<uint64_t> DataSet(const std::string& name) {
  if (name == "uniform") return UniformFingerprints(3001, 11);
  if (name == "clusters") return ClusterFingerprints(300, 9, 12);  // members at 0..4 bits
  return ConstantPrefixFingerprints(2000, 20, 13);
}

// Stored fingerprints with 0..k+1 bits flipped, then a few random values.
std::vector<uint64_t> Queries(const std::vector<uint64_t>& fps, int k, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> queries;
  for (int i = 0; i < 150; ++i) {
    queries.push_back(FlipRandomBits(fps[rng() % fps.size()], i % (k + 2), rng));
  }
  for (int i = 0; i < 10; ++i) queries.push_back(rng());
  return queries;
}

struct Case {
  std::string scheme;
  std::string data;
  std::string searcher;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.scheme << " " << c.data << " " << c.searcher; }

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  std::string name = info.param.scheme + "_" + info.param.data + "_" + info.param.searcher;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

class EverySearcher : public ::testing::TestWithParam<Case> {};

TEST_P(EverySearcher, MatchesTheScanForEveryK) {
  const Case& c = GetParam();
  const Scheme scheme = SchemeOrDie(c.scheme);
  const std::vector<uint64_t> fps = DataSet(c.data);
  ScopedTempDir dir;
  std::unique_ptr<Searcher> searcher;
  if (c.searcher == "simdex") {
    BuildOptions options;
    options.scheme = scheme;
    options.block_size = 256;  // many blocks: key ranges cross block boundaries
    searcher = std::make_unique<SimdexSearcher>(options, dir.File("index"), ReaderOptions{});
  } else {
    searcher = MakeBaseline(c.searcher, scheme);
  }
  ASSERT_NE(searcher, nullptr);
  ASSERT_TRUE(searcher->Build(fps).ok());
  ScanSearcher scan;
  ASSERT_TRUE(scan.Build(fps).ok());
  ASSERT_EQ(searcher->MaxK(), scheme.k());

  std::vector<Match> want, got;
  size_t nonempty = 0;
  for (int k = 0; k <= searcher->MaxK(); ++k) {
    for (uint64_t q : Queries(fps, k, 100 + k)) {
      ASSERT_TRUE(scan.Search(q, k, &want).ok());
      const Status s = searcher->Search(q, k, &got);
      ASSERT_TRUE(s.ok()) << s.ToString();
      ASSERT_EQ(got, want) << c.searcher << " k=" << k << " q=" << q;
      nonempty += !want.empty();
    }
  }
  EXPECT_GT(nonempty, 0u);
}

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (const char* scheme : {"t4", "t10", "16,16,16,16:2"}) {
    for (const char* data : {"uniform", "clusters", "prefix20"}) {
      for (const char* searcher : {"simdex", "permuted", "faiss-hash", "faiss-multihash"}) {
        cases.push_back({scheme, data, searcher});
      }
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Baselines, EverySearcher, ::testing::ValuesIn(AllCases()), CaseName);

TEST(ScanSearcher, MatchesTheOracleForEveryLengthAndK) {
  std::mt19937_64 rng(5);
  std::vector<uint64_t> all = ClusterFingerprints(4, 4, 6);  // 20 values
  std::vector<Match> got;
  for (size_t n = 0; n <= all.size(); ++n) {
    const std::span<const uint64_t> fps(all.data(), n);
    ScanSearcher scan;
    ASSERT_TRUE(scan.Build(fps).ok());
    for (int k : {0, 1, 3, 4, 64}) {
      const uint64_t q = n == 0 ? rng() : FlipRandomBits(all[rng() % n], 2, rng);
      std::vector<testing::Entry> entries;
      for (size_t i = 0; i < n; ++i) entries.push_back({i, all[i]});
      ASSERT_TRUE(scan.Search(q, k, &got).ok());
      EXPECT_EQ(got, testing::BruteForceSearch(entries, q, k)) << "n=" << n << " k=" << k;
    }
  }
  EXPECT_EQ(ScanSearcher().Bytes(), 0u);
}

// The shape MakeBaseline gives faiss-multihash for `spec` (max_k: -1 for
// the scheme's k), as "nhash x bits, nflip".
std::string MultiHashShape(const std::string& spec, int max_k = -1) {
  BaselineOptions options;
  options.max_k = max_k;
  auto searcher = MakeBaseline("faiss-multihash", SchemeOrDie(spec), options);
  auto* multi = dynamic_cast<FaissMultiHashSearcher*>(searcher.get());
  if (multi == nullptr) return "not a FaissMultiHashSearcher";
  return std::to_string(multi->nhash()) + " x " + std::to_string(multi->bits()) + ", nflip " +
         std::to_string(multi->nflip());
}

TEST(MakeBaseline, CutsEqualBlocksLikeTheScheme) {
  EXPECT_EQ(MultiHashShape("t4"), "4 x 16, nflip 0");
  EXPECT_EQ(MultiHashShape("16,16,16,16:2"), "4 x 16, nflip 0");
  EXPECT_EQ(MultiHashShape("8,8,8,8,8,8,8,8:4"), "8 x 8, nflip 0");
}

TEST(MakeBaseline, FallsBackToFourSixteenBitMapsForUnequalBlocks) {
  EXPECT_EQ(MultiHashShape("t10"), "4 x 16, nflip 0");
  EXPECT_EQ(MultiHashShape("t20"), "4 x 16, nflip 0");
  EXPECT_EQ(MultiHashShape("t10", 4), "4 x 16, nflip 1");
}

TEST(MakeBaseline, FaissHashFlipsUpToMaxKKeyBits) {
  auto hash = MakeBaseline("faiss-hash", SchemeOrDie("t4"));
  auto* h = dynamic_cast<FaissHashSearcher*>(hash.get());
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->bits(), 24);
  EXPECT_EQ(h->nflip(), 3);
  EXPECT_EQ(h->MaxK(), 3);
}

TEST(MakeBaseline, UnknownNameIsNull) {
  EXPECT_EQ(MakeBaseline("lsh", SchemeOrDie("t4")), nullptr);
  for (const std::string& name : BaselineNames()) {
    auto searcher = MakeBaseline(name, SchemeOrDie("t4"));
    ASSERT_NE(searcher, nullptr) << name;
    EXPECT_EQ(searcher->Name(), name);
  }
}

TEST(PermutedTablesSearcher, BytesAreTwelvePerEntryPerTable) {
  const std::vector<uint64_t> fps = UniformFingerprints(1000, 7);
  auto permuted = MakeBaseline("permuted", SchemeOrDie("t10"));
  ASSERT_TRUE(permuted->Build(fps).ok());
  EXPECT_EQ(permuted->Bytes(), 10u * 1000u * 12u);
}

TEST(FaissSearcher, BytesCoverAtLeastTheCodes) {
#if SIMDEX_SANITIZED_BUILD
  GTEST_SKIP() << "AddressSanitizer's allocator does not report to glibc's mallinfo2";
#endif
  const std::vector<uint64_t> fps = UniformFingerprints(5000, 8);
  for (const char* name : {"faiss-hash", "faiss-multihash"}) {
    auto faiss = MakeBaseline(name, SchemeOrDie("t4"));
    ASSERT_TRUE(faiss->Build(fps).ok());
    EXPECT_GE(faiss->Bytes(), fps.size() * 8) << name;
  }
}

TEST(SimdexSearcher, ReopensAfterCloseAndRemovesItsFile) {
  ScopedTempDir dir;
  const std::string path = dir.File("index");
  const std::vector<uint64_t> fps = UniformFingerprints(500, 9);
  std::vector<Match> before, after;
  {
    SimdexSearcher searcher(BuildOptions{}, path, ReaderOptions{});
    ASSERT_TRUE(searcher.Build(fps).ok());
    EXPECT_EQ(searcher.Bytes(), std::filesystem::file_size(path));
    EXPECT_EQ(searcher.build_stats().entries, fps.size());
    EXPECT_EQ(searcher.reader().entries(), fps.size());
    ASSERT_TRUE(searcher.Search(fps[7], 3, &before).ok());
    searcher.Close();
    ASSERT_TRUE(searcher.Reopen().ok());
    ASSERT_TRUE(searcher.Search(fps[7], 3, &after).ok());
    EXPECT_EQ(after, before);
    ASSERT_FALSE(before.empty());
    EXPECT_EQ(before[0].id, 7u);
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(SimdexSearcher, KeepsItsFileWhenTold) {
  ScopedTempDir dir;
  const std::string path = dir.File("index");
  {
    SimdexSearcher searcher(BuildOptions{}, path, ReaderOptions{});
    searcher.set_keep_file(true);
    ASSERT_TRUE(searcher.Build(UniformFingerprints(100, 10)).ok());
  }
  EXPECT_TRUE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace simdex::bench
