// ShingleStore: every document's hashes read back as added, in memory and
// spilled past a tiny bound, in any order and slot.
#include "engine/pipeline/shingle_store.h"

#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "tests/index/test_data.h"

namespace simdex::pipeline {
namespace {

void ExpectEveryDocumentReadsBack(size_t memory_bytes, bool spills) {
  testing::ScopedTempDir dir;
  std::mt19937_64 rng(17);
  std::vector<std::vector<uint64_t>> docs(3000);
  for (auto& d : docs) {
    d.resize(rng() % 7 == 0 ? 0 : rng() % 300);  // some empty
    for (uint64_t& h : d) h = rng();
  }
  ShingleStore store(memory_bytes, dir.path());
  for (const auto& d : docs) ASSERT_TRUE(store.Add(d).ok());
  ASSERT_TRUE(store.Finish().ok());
  EXPECT_EQ(store.bytes_spilled() > 0, spills);
  for (int round = 0; round < 4000; ++round) {
    const uint64_t a = rng() % docs.size(), b = round % 3 == 0 ? a : rng() % docs.size();
    std::span<const uint64_t> x, y;
    ASSERT_TRUE(store.Get(a, 0, &x).ok());
    ASSERT_TRUE(store.Get(b, 1, &y).ok());
    ASSERT_TRUE(std::equal(x.begin(), x.end(), docs[a].begin(), docs[a].end())) << a;
    ASSERT_TRUE(std::equal(y.begin(), y.end(), docs[b].begin(), docs[b].end())) << b;
  }
}

TEST(ShingleStore, DocumentsReadBackAsAddedInMemory) { ExpectEveryDocumentReadsBack(size_t{64} << 20, false); }

TEST(ShingleStore, DocumentsReadBackAsAddedWhenSpilledPastTheBound) { ExpectEveryDocumentReadsBack(256 << 10, true); }

}  // namespace
}  // namespace simdex::pipeline
