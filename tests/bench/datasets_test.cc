// The data sets and query sets of simdex-bench (bench/harness/datasets.h):
// deterministic per seed, clusters within their stated distances, skew as
// documented, the text set read from a fingerprint file and capped by it.
#include "bench/harness/datasets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>

#include "simdex/fingerprint.h"
#include "simdex/fingerprint_file.h"
#include "tests/index/test_data.h"

namespace simdex::bench {
namespace {

std::vector<uint64_t> Make(const std::string& name, uint64_t n, uint64_t seed, const std::string& text = "") {
  Dataset d;
  Status s = MakeDataset(name, n, seed, text, &d);
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(d.requested_n, n);
  return d.fps;
}

TEST(DatasetsTest, SameSeedGivesSameFingerprints) {
  for (const std::string name : {"uniform", "clusters", "skewed"}) {
    SCOPED_TRACE(name);
    const std::vector<uint64_t> a = Make(name, 5000, 7);
    EXPECT_EQ(a.size(), 5000u);
    EXPECT_EQ(a, Make(name, 5000, 7));
    EXPECT_NE(a, Make(name, 5000, 8));
  }
}

TEST(DatasetsTest, SameSeedGivesSameQueries) {
  const std::vector<uint64_t> fps = Make("uniform", 1000, 3);
  EXPECT_EQ(NearQueries(fps, 3, 500, 3), NearQueries(fps, 3, 500, 3));
  EXPECT_NE(NearQueries(fps, 3, 500, 3), NearQueries(fps, 2, 500, 3));
  EXPECT_EQ(RandomQueries(500, 3), RandomQueries(500, 3));
  EXPECT_NE(RandomQueries(500, 3), RandomQueries(500, 4));
}

TEST(DatasetsTest, ClusterMembersLieWithinTheStatedDistanceOfTheirCentre) {
  std::vector<uint64_t> centre_of;
  const std::vector<uint64_t> fps = GenerateClusters(100000, 5, &centre_of);
  ASSERT_EQ(fps.size(), 100000u);
  ASSERT_EQ(centre_of.size(), fps.size());
  std::map<uint64_t, int> size;
  std::map<int, int> by_distance;
  for (size_t i = 0; i < fps.size(); ++i) {
    ASSERT_LE(centre_of[i], i);
    EXPECT_EQ(centre_of[centre_of[i]], centre_of[i]) << "a centre is its own centre";
    const int d = HammingDistance(fps[i], fps[centre_of[i]]);
    ASSERT_LE(d, kMaxMemberDistance) << i;
    ++size[centre_of[i]];
    if (centre_of[i] != i) ++by_distance[d];
  }
  for (const auto& [centre, count] : size) ASSERT_LE(count, kMaxClusterSize);
  // Member distances are uniform over 0..3 and the mean cluster size is 8.5,
  // so about 22% of entries are exact duplicates of their centre.
  for (int d = 0; d <= kMaxMemberDistance; ++d) EXPECT_NEAR(by_distance[d] / 100000.0, 0.22, 0.02) << d;
  EXPECT_NEAR(100000.0 / static_cast<double>(size.size()), 8.5, 0.3);
}

TEST(DatasetsTest, SkewedBitsAreOneWithProbabilityAQuarter) {
  const std::vector<uint64_t> fps = Make("skewed", 100000, 9);
  for (int bit = 0; bit < 64; ++bit) {
    const double ones = static_cast<double>(
        std::count_if(fps.begin(), fps.end(), [bit](uint64_t fp) { return (fp >> bit) & 1; }));
    EXPECT_NEAR(ones / static_cast<double>(fps.size()), 0.25, 0.01) << "bit " << bit;
  }
}

TEST(DatasetsTest, NearQueriesAreUpToKBitsFromAStoredFingerprint) {
  const std::vector<uint64_t> fps = Make("uniform", 300, 2);
  for (int k = 0; k <= 3; ++k) {
    std::map<int, int> seen;
    for (const uint64_t q : NearQueries(fps, k, 400, 2)) {
      int best = 64;
      for (const uint64_t fp : fps) best = std::min(best, HammingDistance(fp, q));
      ASSERT_LE(best, k);
      ++seen[best];
    }
    EXPECT_EQ(static_cast<int>(seen.size()), k + 1) << "every distance 0..k occurs";
  }
}

TEST(DatasetsTest, TextSetIsReadFromTheFileAndCappedAtItsSize) {
  testing::ScopedTempDir dir;
  const std::string path = dir.File("text.fp");
  std::unique_ptr<FingerprintFileWriter> writer;
  ASSERT_TRUE(FingerprintFileWriter::Open(path, FingerprintFileForm::kText, &writer).ok());
  for (uint64_t i = 0; i < 5; ++i) ASSERT_TRUE(writer->Add(100 + i, 0x1111 * (i + 1)).ok());
  ASSERT_TRUE(writer->AddEmpty(200, "no-text").ok());
  ASSERT_TRUE(writer->Finish().ok());

  EXPECT_EQ(Make("text", 3, 1, path), (std::vector<uint64_t>{0x1111, 0x2222, 0x3333}));
  const std::vector<uint64_t> all = Make("text", 10, 1, path);
  EXPECT_EQ(all, (std::vector<uint64_t>{0x1111, 0x2222, 0x3333, 0x4444, 0x5555}));
}

TEST(DatasetsTest, UnknownNamesAndMissingTextFilesAreErrors) {
  Dataset d;
  EXPECT_TRUE(MakeDataset("zipf", 10, 1, "", &d).IsInvalidArgument());
  EXPECT_TRUE(MakeDataset("text", 10, 1, "", &d).IsInvalidArgument());
  Status s = MakeDataset("text", 10, 1, "/nonexistent/text.fp", &d);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("/nonexistent/text.fp"), std::string::npos) << s.ToString();
}

}  // namespace
}  // namespace simdex::bench
