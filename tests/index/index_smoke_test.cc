// A quick end-to-end check of build -> open -> search -> verify. The full
// oracle grid is search_oracle_test.cc.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "simdex/fingerprint.h"
#include "simdex/index.h"

namespace simdex {
namespace {

std::vector<Match> BruteForce(const std::vector<std::pair<uint64_t, uint64_t>>& entries, uint64_t q, int k) {
  std::vector<Match> out;
  for (auto [id, fp] : entries) {
    const int d = HammingDistance(fp, q);
    if (d <= k) out.push_back({id, fp, d});
  }
  std::sort(out.begin(), out.end(), [](const Match& a, const Match& b) {
    return std::tie(a.distance, a.id, a.fingerprint) < std::tie(b.distance, b.id, b.fingerprint);
  });
  return out;
}

TEST(IndexSmoke, BuildsSearchesAndVerifies) {
  const std::string dir = std::filesystem::temp_directory_path() / ("simdex-smoke-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/smoke.sdx";
  std::mt19937_64 rng(7);
  std::vector<std::pair<uint64_t, uint64_t>> entries;
  for (uint64_t i = 0; i < 3000; ++i) {
    uint64_t fp = rng();
    if (i % 10 == 1) fp = entries[i - 1].second ^ (1ULL << (rng() % 64)) ^ (1ULL << (rng() % 64));
    if (i % 50 == 2) fp = entries[i - 1].second;
    entries.push_back({i * 3 + 1000, fp});
  }
  BuildOptions options;
  options.block_size = 256;
  std::unique_ptr<IndexBuilder> builder;
  ASSERT_TRUE(IndexBuilder::Create(path, options, &builder).ok());
  for (auto [id, fp] : entries) ASSERT_TRUE(builder->Add(id, fp).ok());
  Status s = builder->Finish();
  ASSERT_TRUE(s.ok()) << s.ToString();

  std::unique_ptr<IndexReader> reader;
  s = IndexReader::Open(path, ReaderOptions(), &reader);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(reader->entries(), entries.size());
  s = reader->Verify();
  EXPECT_TRUE(s.ok()) << s.ToString();
  for (int k = 0; k <= 3; ++k) {
    for (int i = 0; i < 300; ++i) {
      uint64_t q = entries[rng() % entries.size()].second ^ (i % 3 ? (1ULL << (rng() % 64)) : 0);
      std::vector<Match> got;
      s = reader->Search(q, k, &got);
      ASSERT_TRUE(s.ok()) << s.ToString();
      ASSERT_EQ(got, BruteForce(entries, q, k)) << "k=" << k << " q=" << q;
    }
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace simdex
