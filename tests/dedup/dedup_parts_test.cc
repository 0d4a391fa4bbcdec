// The de-duplication's pieces (include/simdex/dedup_parts.h) run apart, as
// the workers of a cluster run them, against brute force: the self-join of
// each table cut into key ranges gives every pair within k exactly once;
// each table's nearest entries, reduced, give the nearest entry; and a
// Deduplicator fed those pieces gives the oracle's results and pairs.
#include "simdex/dedup_parts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "tests/dedup/dedup_oracle.h"
#include "tests/index/test_data.h"
#include "tests/index/virtual_zeros.h"

namespace simdex::testing {
namespace {

constexpr int kRanges = 3;

// Clusters, exact repeats, near-equal low bits and uniform values.
std::vector<uint64_t> MixedFingerprints(uint64_t seed) {
  std::vector<uint64_t> fps = ClusterFingerprints(40, 6, seed);
  const size_t runs[] = {4, 2};
  for (uint64_t x : RepeatedFingerprints(runs, 150, seed + 1)) fps.push_back(x);
  for (uint64_t x : LowBitsFingerprints(120, 9, seed + 2)) fps.push_back(x);
  return fps;
}

// The fingerprints whose key in `table` falls in key range r of kRanges, in
// input order.
std::vector<uint64_t> InKeyRange(const Scheme& scheme, int table, int r, const std::vector<uint64_t>& fps) {
  std::vector<uint64_t> out;
  for (uint64_t f : fps) {
    if (KeyRange(scheme, table, f, kRanges) == r) out.push_back(f);
  }
  return out;
}

// The batch cut into kPartitions partitions (every kPartitions-th
// fingerprint), as a cluster holds it: repeats fall into several of them.
constexpr int kPartitions = 3;
std::vector<std::vector<uint64_t>> Partitions(const std::vector<uint64_t>& fps) {
  std::vector<std::vector<uint64_t>> parts(kPartitions);
  for (size_t i = 0; i < fps.size(); ++i) parts[i % kPartitions].push_back(fps[i]);
  return parts;
}

// Bucket (table, r) of every partition, as one reducer receives them.
struct Buckets {
  std::vector<std::vector<uint64_t>> held;
  std::vector<std::span<const uint64_t>> pieces;
};
Buckets BucketsOf(const Scheme& scheme, int table, int r, const std::vector<uint64_t>& fps) {
  Buckets b;
  for (const std::vector<uint64_t>& part : Partitions(fps)) b.held.push_back(InKeyRange(scheme, table, r, part));
  for (const std::vector<uint64_t>& h : b.held) b.pieces.emplace_back(h);
  return b;
}

// As the cluster's reducers join: one JoinTables call per key range, over
// that range's buckets of every table (or, by_table, one JoinTable call per
// table and range over the range's fingerprints in one piece).
std::vector<NearPair> JoinAllRanges(const Scheme& scheme, int k, const std::vector<uint64_t>& fps,
                                    bool by_table = false, int threads = 2) {
  std::vector<NearPair> pairs;
  for (int r = 0; r < kRanges; ++r) {
    if (by_table) {
      for (int t : scheme.TablesForDistance(k)) {
        EXPECT_TRUE(JoinTable(scheme, k, t, InKeyRange(scheme, t, r, fps), threads, &pairs).ok());
      }
      continue;
    }
    std::vector<Buckets> buckets;
    std::vector<TableFingerprints> parts;
    for (int t : scheme.TablesForDistance(k)) buckets.push_back(BucketsOf(scheme, t, r, fps));
    for (size_t i = 0; i < buckets.size(); ++i) parts.push_back({scheme.TablesForDistance(k)[i], buckets[i].pieces});
    EXPECT_TRUE(JoinTables(scheme, k, parts, threads, &pairs).ok());
  }
  return pairs;
}

std::vector<NearestEntry> NearestAllRanges(const IndexReader& index, int k, const std::vector<uint64_t>& batch) {
  std::vector<NearestEntry> found;
  for (int t : index.scheme().TablesForDistance(k)) {
    for (int r = 0; r < kRanges; ++r) {
      const Buckets b = BucketsOf(index.scheme(), t, r, batch);
      Status s = NearestInIndexTable(b.pieces, index, k, t, 1, &found);
      EXPECT_TRUE(s.ok()) << s.ToString();
    }
  }
  ReduceNearest(&found);
  return found;
}

std::vector<std::tuple<uint64_t, uint64_t, int>> BruteForcePairs(const std::vector<uint64_t>& fps, int k) {
  std::vector<uint64_t> distinct = fps;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::vector<std::tuple<uint64_t, uint64_t, int>> want;
  for (size_t i = 0; i < distinct.size(); ++i) {
    for (size_t j = i + 1; j < distinct.size(); ++j) {
      const int d = std::popcount(distinct[i] ^ distinct[j]);
      if (d <= k) want.emplace_back(distinct[i], distinct[j], d);
    }
  }
  return want;
}

using PairKey = std::tuple<uint64_t, uint64_t, int>;

TEST(DedupPartsTest, JoinTablesOverKeyRangesFindEveryPairWithinKExactlyOnce) {
  const std::vector<uint64_t> fps = MixedFingerprints(11);
  for (const char* spec : {"t4", "t10", "t20"}) {
    const Scheme scheme = SchemeOrDie(spec);
    for (int k = 0; k <= scheme.k(); ++k) {
      const std::vector<PairKey> want = BruteForcePairs(fps, k);
      std::vector<PairKey> got;
      for (bool by_table : {false, true}) {
        got.clear();
        for (const NearPair& p : JoinAllRanges(scheme, k, fps, by_table)) got.emplace_back(p.a, p.b, p.distance);
        std::sort(got.begin(), got.end());
        EXPECT_TRUE(std::adjacent_find(got.begin(), got.end()) == got.end()) << spec << " k " << k << ": a pair twice";
        EXPECT_EQ(got, want) << spec << " k " << k << (by_table ? " by table" : " by range");
      }
    }
  }
}

TEST(DedupPartsTest, JoinTablesOnThreadsFindsWhatOneThreadFinds) {
  // Enough fingerprints per range that the join cuts its keys into parts
  // (4,096 each), with clusters whose members share keys across the cuts.
  std::vector<uint64_t> fps = ClusterFingerprints(2000, 6, 41);
  for (size_t i = 0; i < fps.size(); i += 5) fps.push_back(fps[i]);  // repeats in other partitions
  const Scheme scheme = Scheme::Default();
  const std::vector<PairKey> want = BruteForcePairs(fps, 3);
  ASSERT_GT(want.size(), 1000u);
  for (int threads : {1, 3}) {
    std::vector<PairKey> got;
    for (const NearPair& p : JoinAllRanges(scheme, 3, fps, false, threads)) got.emplace_back(p.a, p.b, p.distance);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, want) << threads << " threads";
  }
}

TEST(DedupPartsTest, KeyRangesCutEachTablesKeysEvenlyAndSplitGivesEachBucketInInputOrder) {
  const Scheme custom = SchemeOrDie("60,2,2:1");  // 62-bit keys: the product needs splitting
  for (const Scheme& scheme : {Scheme::Default(), custom}) {
    const int bits = scheme.table(0).key_bits();
    const uint64_t top = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    for (int ranges : {1, 3, 7, 65536}) {
      // Table 0 is the identity: its key is the fingerprint's top bits.
      EXPECT_EQ(KeyRange(scheme, 0, 0, ranges), 0);
      EXPECT_EQ(KeyRange(scheme, 0, ~uint64_t{0}, ranges), ranges - 1) << scheme.Name() << " " << ranges;
      const uint64_t mid_key = top / 2 + 1;  // the first key of the upper half
      const uint64_t mid = bits >= 64 ? mid_key : mid_key << (64 - bits);
      EXPECT_EQ(KeyRange(scheme, 0, mid, ranges), ranges / 2) << scheme.Name() << " " << ranges;
    }
  }
  const std::vector<uint64_t> fps = MixedFingerprints(3);
  std::vector<uint8_t> empty(fps.size());
  for (size_t i = 0; i < fps.size(); i += 7) empty[i] = 1;
  const std::vector<int> tables = {4, 0, 9};
  const size_t nt = tables.size();
  for (bool with_empty : {false, true}) {
    const std::span<const uint8_t> skip = with_empty ? std::span<const uint8_t>(empty) : std::span<const uint8_t>();
    std::vector<uint64_t> counts;
    ASSERT_TRUE(CountKeyRanges(Scheme::Default(), tables, kRanges, fps, skip, &counts).ok());
    ASSERT_EQ(counts.size(), nt * kRanges);
    std::vector<std::vector<uint64_t>> out(kRanges);
    std::vector<uint64_t*> outs;
    for (int r = 0; r < kRanges; ++r) {
      uint64_t size = 0;
      for (size_t i = 0; i < nt; ++i) size += counts[r * nt + i];
      out[r].assign(size, 0);
      outs.push_back(out[r].data());
    }
    ASSERT_TRUE(SplitByKeyRanges(Scheme::Default(), tables, kRanges, fps, skip, counts, outs).ok());
    std::vector<uint64_t> kept;
    for (size_t j = 0; j < fps.size(); ++j) {
      if (!with_empty || empty[j] == 0) kept.push_back(fps[j]);
    }
    for (int r = 0; r < kRanges; ++r) {
      std::vector<uint64_t> want;
      for (size_t i = 0; i < nt; ++i) {
        const std::vector<uint64_t> bucket = InKeyRange(Scheme::Default(), tables[i], r, kept);
        EXPECT_EQ(counts[r * nt + i], bucket.size()) << "table " << tables[i] << " range " << r;
        want.insert(want.end(), bucket.begin(), bucket.end());
      }
      EXPECT_EQ(out[r], want) << "range " << r << (with_empty ? " without the empty" : "");
    }
  }
  std::vector<uint64_t> counts;
  EXPECT_TRUE(CountKeyRanges(Scheme::Default(), tables, 0, fps, {}, &counts).IsInvalidArgument());
  const std::vector<int> bad = {10};
  EXPECT_TRUE(CountKeyRanges(Scheme::Default(), bad, 2, fps, {}, &counts).IsInvalidArgument());
  EXPECT_TRUE(CountKeyRanges(Scheme::Default(), tables, 2, fps, std::span(empty).first(3), &counts).IsInvalidArgument());
  std::vector<uint64_t*> one(1);
  EXPECT_TRUE(SplitByKeyRanges(Scheme::Default(), tables, 2, fps, {}, counts, one).IsInvalidArgument());
}

TEST(DedupPartsTest, ReducedNearestOfEveryTableAndRangeIsTheNearestEntry) {
  ScopedTempDir tmp;
  std::mt19937_64 rng(5);
  const std::vector<Entry> entries = AssignIds(MixedFingerprints(21), IdStyle::kFullRange, 3);
  std::vector<uint64_t> batch;
  for (size_t i = 0; i < entries.size(); i += 3) batch.push_back(FlipRandomBits(entries[i].fingerprint, i % 5, rng));
  for (uint64_t x : UniformFingerprints(100, 7)) batch.push_back(x);
  for (const char* spec : {"t4", "t10", "t20"}) {
    BuildOptions options;
    options.scheme = SchemeOrDie(spec);
    options.block_size = 64;
    const std::string path = tmp.File(std::string(spec) + ".sdx");
    ASSERT_TRUE(BuildIndex(path, options, entries).ok());
    std::unique_ptr<IndexReader> index;
    ASSERT_TRUE(IndexReader::Open(path, ReaderOptions(), &index).ok());
    for (int k = 0; k <= options.scheme.k(); ++k) {
      std::vector<NearestEntry> want;
      for (uint64_t q : batch) {
        const std::vector<Match> m = BruteForceSearch(entries, q, k);
        if (!m.empty()) want.push_back({q, m[0].id, m[0].distance});
      }
      ReduceNearest(&want);  // the batch's repeats
      EXPECT_EQ(NearestAllRanges(*index, k, batch), want) << spec << " k " << k;
    }
  }
}

TEST(DedupPartsTest, DeduplicatorFedThePiecesGivesTheOracleResultsAndPairs) {
  ScopedTempDir tmp;
  std::mt19937_64 rng(9);
  const std::vector<uint64_t> fps = MixedFingerprints(31);
  std::vector<Doc> docs;
  for (uint64_t f : fps) docs.push_back({false, f, static_cast<double>(rng() % 3)});
  for (int i = 0; i < 30; ++i) docs.insert(docs.begin() + static_cast<long>(rng() % docs.size()), Doc{true, 0, 0});
  std::vector<Entry> stored;
  for (size_t i = 0; i < fps.size(); i += 4) stored.push_back({rng() % 1000, FlipRandomBits(fps[i], i % 4, rng)});
  BuildOptions build;
  ASSERT_TRUE(BuildIndex(tmp.File("old.sdx"), build, stored).ok());
  std::unique_ptr<IndexReader> index;
  ASSERT_TRUE(IndexReader::Open(tmp.File("old.sdx"), ReaderOptions(), &index).ok());

  const int k = 3;
  DedupOptions o;
  o.external_pairs = true;
  o.keep_pairs = true;
  o.tmpdir = tmp.path();
  std::unique_ptr<Deduplicator> dedup;
  ASSERT_TRUE(Deduplicator::Create(o, &dedup).ok());
  for (const Doc& d : docs) ASSERT_TRUE((d.empty ? dedup->AddEmpty() : dedup->Add(d.fingerprint, d.score)).ok());
  const std::vector<NearPair> pairs = JoinAllRanges(o.scheme, k, fps);
  ASSERT_TRUE(dedup->AddNearPairs(std::span(pairs).first(pairs.size() / 2)).ok());
  ASSERT_TRUE(dedup->AddNearPairs(std::span(pairs).subspan(pairs.size() / 2)).ok());
  ASSERT_TRUE(dedup->AddIndexMatches(NearestAllRanges(*index, k, fps)).ok());
  Status s = dedup->Finish();
  ASSERT_TRUE(s.ok()) << s.ToString();

  const Oracle want = ExpectedDedup(docs, k, {&stored});
  for (uint64_t i = 0; i < docs.size(); ++i) {
    const DedupResult got = dedup->Result(i);
    const DedupResult& w = want.results[i];
    EXPECT_EQ(std::tie(got.empty, got.representative, got.distance, got.duplicate, got.against_index),
              std::tie(w.empty, w.representative, w.distance, w.duplicate, w.against_index))
        << "document " << i;
    if (w.against_index >= 0) {
      EXPECT_EQ(std::tie(got.against_id, got.against_distance), std::tie(w.against_id, w.against_distance))
          << "document " << i;
    }
  }
  std::vector<OraclePair> got_pairs;
  ASSERT_TRUE(dedup->ForEachPair([&](uint64_t a, uint64_t b, int d) {
    got_pairs.push_back({a, b, d});
    return Status::OK();
  }).ok());
  EXPECT_TRUE(got_pairs == want.pairs) << got_pairs.size() << " pairs, want " << want.pairs.size();
  EXPECT_EQ(dedup->stats().clusters, want.clusters);
}

TEST(DedupPartsTest, PiecesThatDoNotFitTheBatchAreInvalidArgument) {
  const Scheme t10 = Scheme::Default();
  std::vector<NearPair> pairs;
  EXPECT_TRUE(JoinTable(t10, 4, 0, {}, 1, &pairs).IsInvalidArgument());   // k above the scheme's
  EXPECT_TRUE(JoinTable(t10, 3, 99, {}, 1, &pairs).IsInvalidArgument());  // no such table
  EXPECT_TRUE(JoinTable(t10, 0, 5, {}, 1, &pairs).IsInvalidArgument());   // k 0 uses one table only
  EXPECT_TRUE(JoinTable(t10, 3, 0, {}, 0, &pairs).IsInvalidArgument());   // threads
  {
    // A key range of 3 x 2^31 fingerprints (more than 2^32 - 1, which pairs
    // name in 32 bits), refused before any is read.
    const VirtualZeros<uint64_t> zeros(size_t{1} << 31);
    ASSERT_TRUE(zeros.ok());
    const std::vector<std::span<const uint64_t>> pieces(3, zeros.span());
    const TableFingerprints part{0, pieces};
    const Status s = JoinTables(t10, 3, std::span(&part, 1), 1, &pairs);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.message().find("more than 2^32 - 1 fingerprints"), std::string::npos) << s.ToString();
    EXPECT_TRUE(pairs.empty());
  }

  auto finish = [](bool external_pairs, std::vector<NearPair> near, std::vector<NearestEntry> matches) {
    DedupOptions o;
    o.external_pairs = external_pairs;
    std::unique_ptr<Deduplicator> dedup;
    EXPECT_TRUE(Deduplicator::Create(o, &dedup).ok());
    EXPECT_TRUE(dedup->Add(0x0f).ok());
    EXPECT_TRUE(dedup->Add(0x0e).ok());
    Status s = dedup->AddNearPairs(near);
    if (s.ok()) s = dedup->AddIndexMatches(matches);
    return s.ok() ? dedup->Finish() : s;
  };
  EXPECT_TRUE(finish(true, {{0x0f, 0x0e, 1}}, {{0x0f, 7, 2}}).ok());
  EXPECT_TRUE(finish(false, {{0x0f, 0x0e, 1}}, {}).IsInvalidArgument());  // pairs without external_pairs
  EXPECT_TRUE(finish(true, {{0x0f, 0x0e, 2}}, {}).IsInvalidArgument());   // wrong distance
  EXPECT_TRUE(finish(true, {{0x0f, 0x0f, 0}}, {}).IsInvalidArgument());   // not distinct
  EXPECT_TRUE(finish(true, {{0x0f, 0x1f, 1}}, {}).IsInvalidArgument());   // not in the batch
  EXPECT_TRUE(finish(true, {}, {{0x1f, 7, 1}}).IsInvalidArgument());      // match of no batch fingerprint
  EXPECT_TRUE(finish(true, {}, {{0x0f, 7, 4}}).IsInvalidArgument());      // above k
  EXPECT_TRUE(finish(true, {}, {{0x0f, 7, 1}, {0x0f, 8, 1}}).IsInvalidArgument());  // twice
}

}  // namespace
}  // namespace simdex::testing
