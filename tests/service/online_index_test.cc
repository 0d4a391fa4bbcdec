// OnlineIndex against a brute-force scan: every scheme shape the service
// uses, every k, min_seq cut-offs, adversarial data (clusters, duplicates,
// keys that share buckets), and a reader racing the writer.
#include "engine/service/online_index.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <random>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace simdex::service {
namespace {

struct Entry {
  uint64_t seq, fp;
};

std::vector<OnlineMatch> Brute(const std::vector<Entry>& entries, uint64_t q, int k, uint64_t min_seq) {
  std::vector<OnlineMatch> out;
  for (const Entry& e : entries) {
    const int d = std::popcount(e.fp ^ q);
    if (d <= k && e.seq >= min_seq) out.push_back({e.seq, e.fp, d});
  }
  return out;
}

std::vector<uint64_t> Seqs(std::vector<OnlineMatch> ms) {
  std::vector<uint64_t> seqs;
  for (const auto& m : ms) seqs.push_back(m.seq);
  std::sort(seqs.begin(), seqs.end());
  return seqs;
}

// Planted clusters: centres and members 0..k+1 bits away, exact copies,
// and values that differ only in their low bits (one key in every table
// whose key leaves them out).
std::vector<Entry> MakeEntries(uint64_t seed, int n) {
  std::mt19937_64 rng(seed);
  std::vector<Entry> entries;
  uint64_t centre = rng();
  uint64_t seq = 5;
  for (int i = 0; i < n; ++i) {
    uint64_t v;
    switch (rng() % 5) {
      case 0: centre = rng(); v = centre; break;
      case 1: v = centre; break;
      case 2: v = centre ^ (rng() & 0xff); break;
      default: {
        v = centre;
        for (int b = static_cast<int>(rng() % 6); b > 0; --b) v ^= uint64_t{1} << (rng() % 64);
      }
    }
    seq += 1 + rng() % 3;
    entries.push_back({seq, v});
  }
  return entries;
}

class OnlineIndexOracle : public ::testing::TestWithParam<const char*> {};

TEST_P(OnlineIndexOracle, FindsExactlyTheEntriesWithinKFromMinSeq) {
  Scheme scheme;
  ASSERT_TRUE(Scheme::Parse(GetParam(), &scheme).ok());
  const std::vector<Entry> entries = MakeEntries(42, 3000);
  OnlineIndex index(scheme, 64);  // few buckets: long chains, many collisions
  for (const Entry& e : entries) index.Add(e.seq, e.fp);
  ASSERT_EQ(index.size(), entries.size());
  std::mt19937_64 rng(7);
  for (int q = 0; q < 400; ++q) {
    uint64_t query = entries[rng() % entries.size()].fp;
    if (q % 4 == 0) query ^= uint64_t{1} << (rng() % 64);
    if (q % 9 == 0) query = rng();
    const uint64_t min_seq = q % 3 == 0 ? 0 : entries[rng() % entries.size()].seq;
    for (int k = 0; k <= scheme.k(); ++k) {
      std::vector<OnlineMatch> got;
      index.Search(query, k, min_seq, &got);
      const std::vector<uint64_t> seqs = Seqs(got);
      ASSERT_EQ(seqs, Seqs(Brute(entries, query, k, min_seq))) << "query " << query << " k " << k;
      ASSERT_TRUE(std::adjacent_find(seqs.begin(), seqs.end()) == seqs.end()) << "an entry reported twice";
      for (const OnlineMatch& m : got) ASSERT_EQ(m.distance, std::popcount(m.fingerprint ^ query));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Schemes, OnlineIndexOracle,
                         ::testing::Values("t10", "t4", "t20", "16,16,16,16:0", "8,8,8,8,8,8,8,8:5"));

TEST(OnlineIndex, ForEachVisitsEntriesInTheOrderAdded) {
  OnlineIndex index(Scheme::Default(), 1);
  for (uint64_t i = 0; i < 70000; ++i) index.Add(2 * i + 1, i * 0x9E3779B97F4A7C15ull);  // two chunks
  uint64_t n = 0;
  bool ordered = true;
  index.ForEach(index.size(), [&](uint64_t seq, uint64_t fp) {
    ordered = ordered && seq == 2 * n + 1 && fp == n * 0x9E3779B97F4A7C15ull;
    ++n;
  });
  EXPECT_TRUE(ordered);
  EXPECT_EQ(n, 70000u);
  EXPECT_GT(index.MemoryBytes(), 70000u * (16 + 4 * 10));
}

// A reader searching while the writer appends: every entry published
// before the search began is found (no torn chains, no lost links).
TEST(OnlineIndex, SearchesRacingTheWriterFindEveryPublishedEntry) {
  OnlineIndex index(Scheme::Default(), 1 << 16);
  const std::vector<Entry> entries = MakeEntries(9, 100000);
  std::atomic<bool> failed{false};
  std::thread reader([&] {
    std::mt19937_64 rng(3);
    std::vector<OnlineMatch> got;
    for (int q = 0; q < 5000 && !failed; ++q) {
      const uint64_t published = index.size();
      if (published == 0) continue;
      const Entry& e = entries[rng() % published];
      got.clear();
      index.Search(e.fp, 3, 0, &got);
      if (std::none_of(got.begin(), got.end(), [&](const OnlineMatch& m) { return m.seq == e.seq; })) failed = true;
    }
  });
  for (const Entry& e : entries) index.Add(e.seq, e.fp);
  reader.join();
  EXPECT_FALSE(failed);
}

}  // namespace
}  // namespace simdex::service
