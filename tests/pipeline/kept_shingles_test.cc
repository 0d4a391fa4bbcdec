// KeptShingles: every document's hashes read back as added while they fit
// their room; past it, nothing kept and nothing held.
#include "engine/pipeline/kept_shingles.h"

#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace simdex::pipeline {
namespace {

std::vector<std::vector<uint64_t>> RandomDocuments(size_t n, std::mt19937_64& rng) {
  std::vector<std::vector<uint64_t>> docs(n);
  for (auto& d : docs) {
    d.resize(rng() % 7 == 0 ? 0 : rng() % 300);  // some empty
    for (uint64_t& h : d) h = rng();
  }
  docs[n / 2].resize(100000);  // more than a block: a block of its own
  for (uint64_t& h : docs[n / 2]) h = rng();
  return docs;
}

TEST(KeptShingles, EveryDocumentReadsBackAsAddedWithinItsRoom) {
  std::mt19937_64 rng(5);
  const std::vector<std::vector<uint64_t>> docs = RandomDocuments(3000, rng);
  const size_t room = size_t{8} << 20;
  KeptShingles kept(ShingleOptions{});
  for (const auto& d : docs) {
    kept.Add(d, room);
    ASSERT_LE(kept.bytes(), room);
  }
  ASSERT_TRUE(kept.kept());
  ASSERT_EQ(kept.size(), docs.size());
  for (size_t o = 0; o < docs.size(); ++o) {
    const std::span<const uint64_t> got = kept.Get(o);
    ASSERT_EQ(std::vector<uint64_t>(got.begin(), got.end()), docs[o]) << o;
  }
}

TEST(KeptShingles, PastTheRoomNothingIsKeptOrHeld) {
  std::mt19937_64 rng(6);
  const std::vector<std::vector<uint64_t>> docs = RandomDocuments(3000, rng);
  KeptShingles kept(ShingleOptions{});
  size_t added = 0;
  for (const auto& d : docs) {
    kept.Add(d, size_t{1} << 20);  // 1 MiB: about a third of the hashes
    added += kept.kept();
    ASSERT_LE(kept.bytes(), size_t{1} << 20);
  }
  EXPECT_FALSE(kept.kept());
  EXPECT_GT(added, 0u);
  EXPECT_LT(added, docs.size());
  EXPECT_EQ(kept.bytes(), 0u);
  EXPECT_EQ(kept.size(), 0u);
  kept.Add(docs[0], size_t{1} << 30);  // once dropped, never kept again
  EXPECT_FALSE(kept.kept());
}

TEST(KeptShingles, SameShinglesComparesEveryOption) {
  const ShingleOptions base;
  EXPECT_TRUE(SameShingles(base, base));
  for (int field = 0; field < 4; ++field) {
    ShingleOptions other = base;
    if (field == 0) other.words = ShingleWords::kSpaceSplit;
    if (field == 1) other.word_n = 4;
    if (field == 2) other.char_n = 3;
    if (field == 3) other.unspaced_share = 0.75;
    EXPECT_FALSE(SameShingles(base, other)) << field;
  }
}

}  // namespace
}  // namespace simdex::pipeline
