// Deduplicator against a brute-force oracle: every document's cluster,
// representative, distance, duplicate flag and nearest index entry, and
// every pair, for every scheme and k, on one and two threads, in memory and
// with every sort spilled, with and without scores, and against indexes by
// both strategies.
#include "simdex/dedup.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "engine/simhash/dedup/against.h"
#include "tests/dedup/dedup_oracle.h"
#include "tests/index/test_data.h"

namespace simdex::testing {
namespace {

// An index built for a test, with the entries it holds.
struct Stored {
  std::vector<Entry> entries;
  std::unique_ptr<IndexReader> reader;
};

std::string Describe(const DedupResult& r) {
  return "{empty " + std::to_string(r.empty) + ", rep " + std::to_string(r.representative) + ", d " +
         std::to_string(r.distance) + ", dup " + std::to_string(r.duplicate) + ", against " +
         std::to_string(r.against_index) + "/" + std::to_string(r.against_id) + "/" + std::to_string(r.against_distance) +
         "}";
}

bool Same(const DedupResult& a, const DedupResult& b) {
  return a.empty == b.empty && a.representative == b.representative && a.distance == b.distance &&
         a.duplicate == b.duplicate && a.against_index == b.against_index &&
         (a.against_index < 0 || (a.against_id == b.against_id && a.against_distance == b.against_distance));
}

// A batch with planted clusters (members 0-4 bits from their centre), exact
// duplicates, uniform fingerprints and empty documents, shuffled; scores
// (when wanted) with many ties.
std::vector<Doc> MakeBatch(size_t scale, bool scores, uint64_t seed) {
  std::vector<uint64_t> fps = ClusterFingerprints(scale / 10, 6, seed);
  const size_t runs[] = {5, 3, 2};
  for (uint64_t x : RepeatedFingerprints(runs, scale / 4, seed + 1)) fps.push_back(x);
  for (uint64_t x : LowBitsFingerprints(scale / 10, 10, seed + 2)) fps.push_back(x);
  std::mt19937_64 rng(seed);
  std::vector<Doc> docs;
  for (uint64_t x : fps) docs.push_back({false, x, scores ? static_cast<double>(rng() % 5) : 0.0});
  for (size_t i = 0; i < scale / 20; ++i) docs.push_back({true, 0, 0});
  for (size_t i = docs.size(); i > 1; --i) std::swap(docs[i - 1], docs[rng() % i]);
  return docs;
}

struct RunOptions {
  std::string scheme = "t10";
  int k = 3;
  int against_k = -1;
  size_t memory_bytes = size_t{64} << 20;
  int threads = 1;
  bool force_plain = false;
  AgainstStrategy strategy = AgainstStrategy::kAuto;
};

void CheckRun(const std::vector<Doc>& docs, const RunOptions& ro, const std::vector<Stored*>& indexes,
              const std::string& what) {
  ScopedTempDir tmp;
  DedupOptions o;
  o.scheme = SchemeOrDie(ro.scheme);
  o.k = ro.k;
  o.against_k = ro.against_k;
  o.memory_bytes = ro.memory_bytes;
  o.tmpdir = tmp.path();
  o.threads = ro.threads;
  o.keep_pairs = true;
  o.force_plain_groups = ro.force_plain;
  o.against_strategy = ro.strategy;
  std::unique_ptr<Deduplicator> dedup;
  ASSERT_TRUE(Deduplicator::Create(o, &dedup).ok());
  for (const Doc& d : docs) ASSERT_TRUE((d.empty ? dedup->AddEmpty() : dedup->Add(d.fingerprint, d.score)).ok());
  std::vector<const std::vector<Entry>*> stored;
  for (Stored* s : indexes) {
    ASSERT_TRUE(dedup->AddIndex(s->reader.get()).ok());
    stored.push_back(&s->entries);
  }
  Status s = dedup->Finish();
  ASSERT_TRUE(s.ok()) << s.ToString();
  const Oracle want = ExpectedDedup(docs, ro.k, stored, ro.against_k);
  uint64_t duplicates = 0;
  for (uint64_t i = 0; i < docs.size(); ++i) {
    const DedupResult got = dedup->Result(i);
    duplicates += got.duplicate;
    ASSERT_TRUE(Same(got, want.results[i])) << what << " document " << i << ": got " << Describe(got) << ", want "
                                            << Describe(want.results[i]);
  }
  std::vector<OraclePair> pairs;
  ASSERT_TRUE(dedup->ForEachPair([&](uint64_t a, uint64_t b, int d) {
    pairs.push_back({a, b, d});
    return Status::OK();
  }).ok());
  EXPECT_TRUE(pairs == want.pairs) << what << ": " << pairs.size() << " pairs, want " << want.pairs.size();
  const DedupStats& st = dedup->stats();
  EXPECT_EQ(st.pairs, want.pairs.size()) << what;
  EXPECT_EQ(st.clusters, want.clusters) << what;
  EXPECT_EQ(st.duplicates, duplicates) << what;
  EXPECT_EQ(st.documents, docs.size()) << what;
  if (ro.memory_bytes <= (size_t{256} << 10) && docs.size() > 5000) {
    EXPECT_GT(st.spilled_runs, 0u) << what;
  }
  dedup.reset();
  EXPECT_TRUE(tmp.List().empty()) << what << ": temporary files left";
}

// In memory on a small batch, and with a 64 KiB budget on one large enough
// that every sort spills (CheckRun then requires spilled runs).
TEST(DeduplicatorTest, EveryResultAndPairEqualsTheOracleForEverySchemeAndK) {
  const std::vector<Doc> small = MakeBatch(400, false, 1);
  const std::vector<Doc> large = MakeBatch(6000, true, 4);
  for (const char* scheme : {"t4", "t10", "t20", "32,32:1", "8,8,8,8,8,8,8,8:4", "64:0"}) {
    const int max_k = SchemeOrDie(scheme).k();
    for (int k = 0; k <= max_k; ++k) {
      RunOptions ro;
      ro.scheme = scheme;
      ro.k = k;
      CheckRun(small, ro, {}, std::string(scheme) + " k=" + std::to_string(k));
      ro.memory_bytes = size_t{64} << 10;
      CheckRun(large, ro, {}, std::string(scheme) + " k=" + std::to_string(k) + " spilled");
    }
  }
}

TEST(DeduplicatorTest, SpilledThreadedAndPlainRunsGiveTheSameResults) {
  const std::vector<Doc> docs = MakeBatch(20000, true, 2);
  for (size_t memory : {size_t{64} << 20, size_t{64} << 10}) {
    for (int threads : {1, 2}) {
      for (bool plain : {false, true}) {
        RunOptions ro;
        ro.memory_bytes = memory;
        ro.threads = threads;
        ro.force_plain = plain;
        CheckRun(docs, ro, {},
                 "memory " + std::to_string(memory) + " threads " + std::to_string(threads) + " plain " +
                     std::to_string(plain));
      }
    }
  }
}

// Without exact duplicates the document pairs are made from each
// fingerprint's one document, not from lists of them; empty documents in
// the batch shift the ordinals.
TEST(DeduplicatorTest, PairsOfABatchWithoutExactDuplicatesEqualTheOracle) {
  std::vector<uint64_t> fps = ClusterFingerprints(300, 6, 7);
  for (uint64_t x : LowBitsFingerprints(300, 10, 8)) fps.push_back(x);
  std::sort(fps.begin(), fps.end());
  fps.erase(std::unique(fps.begin(), fps.end()), fps.end());
  std::vector<Doc> docs;
  for (uint64_t x : fps) docs.push_back({false, x, 0.0});
  for (int i = 0; i < 40; ++i) docs.push_back({true, 0, 0});
  std::mt19937_64 rng(9);
  for (size_t i = docs.size(); i > 1; --i) std::swap(docs[i - 1], docs[rng() % i]);
  for (size_t memory : {size_t{64} << 20, size_t{64} << 10}) {
    RunOptions ro;
    ro.memory_bytes = memory;
    CheckRun(docs, ro, {}, "distinct, memory " + std::to_string(memory));
  }
}

// The first document's score counts (it was dropped: the scores stayed
// empty until a later non-zero one, so document 0 scored 0).
TEST(DeduplicatorTest, TheFirstDocumentsScoreCounts) {
  std::unique_ptr<Deduplicator> dedup;
  ASSERT_TRUE(Deduplicator::Create(DedupOptions(), &dedup).ok());
  ASSERT_TRUE(dedup->Add(0xabc, 9).ok());
  ASSERT_TRUE(dedup->Add(0xabc, 1).ok());
  ASSERT_TRUE(dedup->Finish().ok());
  EXPECT_EQ(dedup->Result(1).representative, 0u);
  EXPECT_FALSE(dedup->Result(0).duplicate);
  EXPECT_TRUE(dedup->Result(1).duplicate);
}

TEST(DeduplicatorTest, ScoresChooseTheRepresentativeAndTiesGoToTheFirst) {
  const std::vector<Doc> docs = MakeBatch(2000, true, 3);
  CheckRun(docs, RunOptions(), {}, "scores");
  // Two identical documents, the second with the larger score: it wins.
  std::unique_ptr<Deduplicator> dedup;
  ASSERT_TRUE(Deduplicator::Create(DedupOptions(), &dedup).ok());
  ASSERT_TRUE(dedup->Add(0xabc, 1).ok());
  ASSERT_TRUE(dedup->AddEmpty().ok());
  ASSERT_TRUE(dedup->Add(0xabd, 7).ok());
  ASSERT_TRUE(dedup->Add(0xabd, 7).ok());
  ASSERT_TRUE(dedup->AddEmpty().ok());
  ASSERT_TRUE(dedup->Finish().ok());
  EXPECT_EQ(dedup->Result(0).representative, 2u);
  EXPECT_EQ(dedup->Result(0).distance, 1);
  EXPECT_TRUE(dedup->Result(0).duplicate);
  EXPECT_FALSE(dedup->Result(2).duplicate);
  EXPECT_TRUE(dedup->Result(3).duplicate);
  EXPECT_TRUE(dedup->Result(1).empty);
  EXPECT_FALSE(dedup->Result(1).duplicate);
  EXPECT_EQ(dedup->stats().clusters, 1u);
  EXPECT_EQ(dedup->stats().empty, 2u);
}

Stored MakeIndex(const ScopedTempDir& dir, const std::string& name, const std::vector<Doc>& batch,
                 const std::string& scheme, uint32_t block_size, uint64_t seed) {
  // Entries near some of the batch's documents (0-3 bits), copies of others,
  // and unrelated ones; several entries share fingerprints under other ids.
  std::mt19937_64 rng(seed);
  Stored s;
  uint64_t id = 1000 * seed;
  for (size_t i = 0; i < batch.size(); i += 3) {
    if (batch[i].empty) continue;
    s.entries.push_back({id += 1 + rng() % 3, FlipRandomBits(batch[i].fingerprint, static_cast<int>(rng() % 5), rng)});
    if (i % 7 == 0) s.entries.push_back({id += 1 + rng() % 3, s.entries.back().fingerprint});
  }
  for (uint64_t x : UniformFingerprints(3000, seed)) s.entries.push_back({id += 1 + rng() % 3, x});
  Shuffle(&s.entries, rng);
  BuildOptions options;
  options.scheme = SchemeOrDie(scheme);
  options.block_size = block_size;
  const std::string path = dir.File(name);
  EXPECT_TRUE(BuildIndex(path, options, s.entries).ok());
  EXPECT_TRUE(IndexReader::Open(path, ReaderOptions(), &s.reader).ok());
  return s;
}

TEST(DeduplicatorTest, AgainstIndexesEqualsBruteForceInBothStrategies) {
  ScopedTempDir dir;
  const std::vector<Doc> docs = MakeBatch(3000, false, 4);
  Stored a = MakeIndex(dir, "a.sdx", docs, "t10", 64, 1);
  Stored b = MakeIndex(dir, "b.sdx", docs, "t4", 4096, 2);
  for (AgainstStrategy strategy : {AgainstStrategy::kProbe, AgainstStrategy::kMergeJoin, AgainstStrategy::kAuto}) {
    for (int k : {0, 2, 3}) {
      for (size_t memory : {size_t{64} << 20, size_t{64} << 10}) {
        RunOptions ro;
        ro.k = k;
        ro.strategy = strategy;
        ro.memory_bytes = memory;
        ro.threads = k == 2 ? 2 : 1;
        CheckRun(docs, ro, {&a, &b},
                 std::string(AgainstStrategyName(strategy)) + " k=" + std::to_string(k) + " memory " +
                     std::to_string(memory));
      }
    }
  }
}

// The cost model behind AgainstStrategy::kAuto: a probe decodes every block
// its key's range spans, which short keys make many (t4 at 10^8 entries: two
// blocks of 4 KiB per probe; here 8-bit keys over 20,000 entries in 64-byte
// blocks: about nine); long keys keep a probe to one restart segment. An
// index read from the disk (larger than memory) makes each probe wait.
TEST(DeduplicatorTest, AutoCountsTheBlocksAProbesKeyRangeSpans) {
  ScopedTempDir dir;
  std::vector<Entry> entries;
  uint64_t id = 0;
  for (uint64_t x : UniformFingerprints(20000, 9)) entries.push_back({id++, x});
  for (const std::string scheme : {"t10", "8,8,8,8,8,8,8,8:7"}) {
    BuildOptions options;
    options.scheme = SchemeOrDie(scheme);
    options.block_size = 64;
    const std::string path = dir.File(scheme == "t10" ? "long-keys.sdx" : "short-keys.sdx");
    ASSERT_TRUE(BuildIndex(path, options, entries).ok());
    std::unique_ptr<IndexReader> reader;
    ASSERT_TRUE(IndexReader::Open(path, ReaderOptions(), &reader).ok());
    const IndexInfo info = reader->Info();
    const uint64_t blocks = info.tables[0].blocks;
    const uint64_t keys = uint64_t{1} << info.tables[0].key_bits;
    ASSERT_GT(blocks, 1000u) << scheme;
    // A batch of one key per ten blocks, and one of a hundred keys per block.
    const AgainstStrategy few = simhash::ChooseStrategy(blocks / 10, *reader, options.scheme.k());
    const AgainstStrategy many = simhash::ChooseStrategy(blocks * 100, *reader, options.scheme.k());
    EXPECT_EQ(many, AgainstStrategy::kMergeJoin) << scheme;
    if (keys > blocks) {
      EXPECT_EQ(few, AgainstStrategy::kProbe) << scheme;
    } else {
      EXPECT_EQ(few, AgainstStrategy::kMergeJoin) << scheme << ": " << blocks / keys << " blocks per key";
    }
    // A key per two blocks: probes from memory, but each probe waiting for
    // the disk costs more than reading every block in sequence.
    EXPECT_EQ(simhash::ChooseStrategy(blocks / 2, *reader, options.scheme.k(), /*from_disk=*/false),
              keys > blocks ? AgainstStrategy::kProbe : AgainstStrategy::kMergeJoin)
        << scheme;
    EXPECT_EQ(simhash::ChooseStrategy(blocks / 2, *reader, options.scheme.k(), /*from_disk=*/true),
              AgainstStrategy::kMergeJoin)
        << scheme;
  }
}

TEST(DeduplicatorTest, AgainstKBoundsTheIndexMatchesApartFromThePairs) {
  // Pairs within 6 (a scheme covering it), index matches within 0, 2 or 3:
  // the indexes only guarantee 3, which the pairs' k alone would exceed.
  ScopedTempDir dir;
  const std::vector<Doc> docs = MakeBatch(3000, false, 5);
  Stored a = MakeIndex(dir, "a.sdx", docs, "t10", 64, 1);
  for (AgainstStrategy strategy : {AgainstStrategy::kProbe, AgainstStrategy::kMergeJoin}) {
    for (int against_k : {0, 2, 3}) {
      RunOptions ro;
      ro.scheme = "7,7,7,7,7,7,7,7,8:6";
      ro.k = 6;
      ro.against_k = against_k;
      ro.strategy = strategy;
      CheckRun(docs, ro, {&a},
               std::string(AgainstStrategyName(strategy)) + " against_k=" + std::to_string(against_k));
    }
  }
}

TEST(DeduplicatorTest, BadOptionsAndOrderAreInvalidArgument) {
  std::unique_ptr<Deduplicator> dedup;
  DedupOptions o;
  o.k = 4;  // t10 guarantees 3
  EXPECT_TRUE(Deduplicator::Create(o, &dedup).IsInvalidArgument());
  o.k = 3;
  o.against_k = 65;
  EXPECT_TRUE(Deduplicator::Create(o, &dedup).IsInvalidArgument());
  o.against_k = -2;
  EXPECT_TRUE(Deduplicator::Create(o, &dedup).IsInvalidArgument());
  o.against_k = -1;
  o.threads = 0;
  EXPECT_TRUE(Deduplicator::Create(o, &dedup).IsInvalidArgument());
  o.threads = 1;
  o.memory_bytes = 1000;
  EXPECT_TRUE(Deduplicator::Create(o, &dedup).IsInvalidArgument());
  o.memory_bytes = size_t{1} << 20;
  o.tmpdir = "/nonexistent/simdex";
  EXPECT_FALSE(Deduplicator::Create(o, &dedup).ok());
  o.tmpdir = "";
  o.max_documents = kMaxBatchDocuments + 1;  // document numbers are 32-bit
  EXPECT_TRUE(Deduplicator::Create(o, &dedup).IsInvalidArgument());
  o.max_documents = kMaxBatchDocuments;
  ASSERT_TRUE(Deduplicator::Create(o, &dedup).ok());
  ScopedTempDir dir;
  std::vector<Doc> none;
  Stored t4 = MakeIndex(dir, "t4.sdx", none, "16,16,16,16:2", 64, 3);
  EXPECT_TRUE(dedup->AddIndex(t4.reader.get()).IsInvalidArgument());  // k 3 > the index's 2
  ASSERT_TRUE(dedup->Finish().ok());
  EXPECT_TRUE(dedup->Add(1).IsInvalidArgument());
  EXPECT_TRUE(dedup->Finish().IsInvalidArgument());
  EXPECT_TRUE(dedup->ForEachPair([](uint64_t, uint64_t, int) { return Status::OK(); }).IsInvalidArgument());
}

TEST(DeduplicatorTest, ADocumentPastABatchsMostIsRefusedAndTheErrorSticks) {
  // The path of the 2^32 - 1-th document (kMaxBatchDocuments), at 5.
  EXPECT_TRUE(CheckBatchRoom(kMaxBatchDocuments - 1, 1).ok());
  EXPECT_TRUE(CheckBatchRoom(kMaxBatchDocuments, 1).IsInvalidArgument());
  EXPECT_TRUE(CheckBatchRoom(0, kMaxBatchDocuments + 1).IsInvalidArgument());
  EXPECT_TRUE(CheckBatchRoom(10, ~uint64_t{0} - 5).IsInvalidArgument());  // no wrap-around
  DedupOptions o;
  o.max_documents = 5;
  for (bool empty_last : {false, true}) {
    std::unique_ptr<Deduplicator> dedup;
    ASSERT_TRUE(Deduplicator::Create(o, &dedup).ok());
    for (uint64_t fp : {1, 3, 1, 7}) ASSERT_TRUE(dedup->Add(fp).ok());
    ASSERT_TRUE(dedup->AddEmpty().ok());
    Status s = empty_last ? dedup->AddEmpty() : dedup->Add(9);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.ToString().find("a batch holds at most 5 documents"), std::string::npos) << s.ToString();
    EXPECT_TRUE(dedup->Finish().IsInvalidArgument());  // the error sticks: no partial result
  }
}

}  // namespace
}  // namespace simdex::testing
