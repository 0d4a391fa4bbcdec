// DeduplicateByMinHash (include/simdex/batch.h): texts in memory decided as
// the same texts in a file; approximate, every record against a
// brute-force oracle of the clusters (connected components of the pairs
// whose estimate passes the filter); exact, every pair reported at or above
// the threshold by the texts' exact Jaccard and the pairs that are missed
// counted against a brute force of every pair; options refused naming their
// field, repeated ids refused.
#include <algorithm>
#include <fstream>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/batch.h"
#include "simdex/confirm.h"
#include "simdex/minhash.h"
#include "tests/index/test_data.h"
#include "tests/pipeline/repeated_ids.h"

namespace simdex {
namespace {

// n texts: bases of 60 words and copies with a few words changed, some
// exact copies and empty texts.
std::vector<std::string> Texts(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> bases, out;
  auto word = [&rng] { return "w" + std::to_string(rng() % 3000); };
  for (int i = 0; i < n; ++i) {
    const uint64_t kind = rng() % 10;
    if (bases.empty() || kind < 4) {
      std::string t;
      for (int w = 0; w < 60; ++w) t += (w ? " " : "") + word();
      bases.push_back(t);
      out.push_back(t);
    } else if (kind < 8) {
      std::string t = bases[rng() % bases.size()];
      std::vector<std::string> words;
      for (size_t at = 0, next; at <= t.size(); at = next + 1) {
        next = std::min(t.find(' ', at), t.size());
        words.push_back(t.substr(at, next - at));
      }
      for (uint64_t e = rng() % 4; e > 0; --e) words[rng() % words.size()] = word();
      out.push_back(std::accumulate(std::next(words.begin()), words.end(), words[0],
                                    [](std::string a, const std::string& b) { return a + " " + b; }));
    } else if (kind < 9) {
      out.push_back(bases[rng() % bases.size()]);
    } else {
      out.push_back("");
    }
  }
  return out;
}

// The oracle: union-find over the pairs of texts sharing a band key whose
// b-bit estimate passes the default filter; the representative is the
// first of each cluster.
std::vector<uint64_t> Oracle(const std::vector<std::string>& texts, const MinHashDedupOptions& o) {
  std::unique_ptr<MinHasher> hasher;
  MinHashOptions mo;
  mo.num_perm = o.num_perm;
  mo.seed = o.seed;
  EXPECT_TRUE(MinHasher::Create(mo, &hasher).ok());
  const LshBands bands = DefaultLshBands(o.threshold, o.num_perm);
  const size_t n = texts.size(), bytes = PackedSignatureBytes(o.num_perm, o.signature_bits);
  std::vector<std::vector<uint64_t>> keys(n, std::vector<uint64_t>(bands.bands));
  std::vector<std::vector<uint8_t>> packed(n, std::vector<uint8_t>(bytes));
  std::vector<bool> has(n);
  std::vector<uint32_t> sig(o.num_perm);
  for (size_t i = 0; i < n; ++i) {
    has[i] = hasher->Sign(texts[i], sig.data()) != ShingleKind::kNone;
    BandKeys(sig.data(), bands, keys[i].data());
    PackSignature(sig.data(), o.num_perm, o.signature_bits, packed[i].data());
  }
  std::vector<uint64_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&parent](uint64_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  const double filter = DefaultEstimateFilter(o.threshold, o.num_perm);
  for (size_t a = 0; a < n; ++a) {
    for (size_t b = a + 1; b < n && has[a]; ++b) {
      if (!has[b]) continue;
      bool shared = false;
      for (int j = 0; j < bands.bands && !shared; ++j) shared = keys[a][j] == keys[b][j];
      const bool same = keys[a] == keys[b] && packed[a] == packed[b];
      if (!shared) continue;
      if (same || EstimateJaccardPacked(packed[a].data(), packed[b].data(), o.num_perm, o.signature_bits) >= filter) {
        const uint64_t ra = find(a), rb = find(b);
        parent[std::max(ra, rb)] = std::min(ra, rb);
      }
    }
  }
  std::vector<uint64_t> rep(n);
  for (size_t i = 0; i < n; ++i) rep[i] = has[i] ? find(i) : i;
  return rep;
}

// The texts written to `path`, one a line.
DocumentFiles FileOf(const std::vector<std::string>& texts, const std::string& path) {
  std::ofstream out(path);
  for (const std::string& t : texts) out << t << "\n";
  DocumentFiles files;
  files.paths = {path};
  return files;
}

TEST(MinHashBatch, ApproximateTextsAreDecidedAsABruteForceOracleAndAsTheSameTextsInAFile) {
  const std::vector<std::string> texts = Texts(400, 3);
  std::vector<std::string_view> views(texts.begin(), texts.end());
  MinHashDedupOptions o;
  o.exact = false;
  o.threads = 2;
  std::unique_ptr<MinHashDedupResult> from_texts;
  ASSERT_TRUE(DeduplicateByMinHash(views, {}, o, nullptr, &from_texts).ok());
  const std::vector<uint64_t> want = Oracle(texts, o);
  ASSERT_EQ(from_texts->size(), texts.size());
  uint64_t duplicates = 0;
  for (uint64_t i = 0; i < texts.size(); ++i) {
    const MinHashDedupRecord r = from_texts->Record(i);
    ASSERT_EQ(r.representative, want[i]) << i;
    ASSERT_EQ(r.empty, texts[i].empty()) << i;
    duplicates += r.duplicate;
    ASSERT_EQ(from_texts->IdNumber(i), i);
  }
  EXPECT_GT(duplicates, 100u);  // 140 of 400 here: the oracle is not checked on singletons alone

  testing::ScopedTempDir dir;
  const std::string path = dir.File("docs.txt");
  // One per line: empty lines are documents too (ids are line numbers).
  const DocumentFiles files = FileOf(texts, path);
  std::unique_ptr<MinHashDedupResult> from_file;
  ASSERT_TRUE(DeduplicateByMinHash(files, o, nullptr, &from_file).ok());
  ASSERT_EQ(from_file->size(), texts.size());
  for (uint64_t i = 0; i < texts.size(); ++i) {
    ASSERT_EQ(from_file->Record(i).representative, from_texts->Record(i).representative) << i;
    ASSERT_EQ(from_file->Record(i).estimate, from_texts->Record(i).estimate) << i;
    ASSERT_EQ(from_file->IdNumber(i), i + 1);
  }
  EXPECT_EQ(from_file->Place(3), path + ":4");
}

TEST(MinHashBatch, ApproximatePairsComeSortedWithTheirEstimatesOnce) {
  const std::vector<std::string> texts = Texts(200, 5);
  std::vector<std::string_view> views(texts.begin(), texts.end());
  MinHashDedupOptions o;
  o.exact = false;
  o.keep_pairs = true;
  std::unique_ptr<MinHashDedupResult> r;
  ASSERT_TRUE(DeduplicateByMinHash(views, {}, o, nullptr, &r).ok());
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  ASSERT_TRUE(r->ForEachPair([&](const MinHashDedupPair& p) {
                 EXPECT_LT(p.a, p.b);
                 EXPECT_GT(p.estimate, 0);
                 EXPECT_EQ(p.similarity, -1);
                 EXPECT_EQ(r->Record(p.a).representative, r->Record(p.b).representative);
                 pairs.emplace_back(p.a, p.b);
                 return Status::OK();
               }).ok());
  EXPECT_EQ(pairs.size(), r->stats().document_pairs);
  EXPECT_TRUE(std::is_sorted(pairs.begin(), pairs.end()));
  EXPECT_TRUE(r->ForEachPair([](const MinHashDedupPair&) { return Status::OK(); }).IsInvalidArgument());
}

// Exact (the default): each pair reported is at or above the threshold by
// the texts' exact Jaccard (the confirmer's, computed here again), and of
// the pairs at or above it (a brute force over every pair) at most one in a
// hundred is missed by the bands and the filter below the threshold.
TEST(MinHashBatch, ExactPairsAreAtOrAboveTheThresholdAndFewAreMissed) {
  std::vector<std::string> texts = Texts(300, 9);
  std::vector<std::string_view> views(texts.begin(), texts.end());
  MinHashDedupOptions o;
  o.keep_pairs = true;
  o.threshold = 0.9;
  std::unique_ptr<MinHashDedupResult> r;
  ASSERT_TRUE(DeduplicateByMinHash(views, {}, o, nullptr, &r).ok());
  ConfirmOptions spec;
  ASSERT_TRUE(ParseConfirmSpec("jaccard-shingles:0.9", &spec).ok());
  std::unique_ptr<Confirmer> confirmer;
  ASSERT_TRUE(Confirmer::Create(spec, &confirmer).ok());
  std::set<std::pair<uint64_t, uint64_t>> reported;
  ASSERT_TRUE(r->ForEachPair([&](const MinHashDedupPair& p) {
                 const double j = confirmer->Similarity(texts[p.a], texts[p.b]);
                 EXPECT_GE(j, 0.9) << p.a << " " << p.b;
                 EXPECT_NEAR(p.similarity, j, 1e-6);
                 reported.emplace(p.a, p.b);
                 return Status::OK();
               }).ok());
  uint64_t truth = 0, missed = 0;
  for (size_t a = 0; a < texts.size(); ++a) {
    for (size_t b = a + 1; b < texts.size(); ++b) {
      if (texts[a].empty() || texts[b].empty() || confirmer->Similarity(texts[a], texts[b]) < 0.9) continue;
      ++truth;
      missed += reported.count({a, b}) == 0;
    }
  }
  EXPECT_GT(truth, 100u);  // 136 here
  EXPECT_LE(missed * 100, truth) << missed << " of " << truth << " missed";
  EXPECT_EQ(r->stats().confirm.confirmed, reported.size());
  EXPECT_GT(r->stats().confirm.candidates, reported.size()) << "nothing below the threshold was a candidate";
}

// The exact check takes the shingle hashes the signing made where they fit
// the memory bound, and reads the texts again where they do not (or where
// the check's shingles are other ones): the same records and pairs, with
// the same similarities, either way.
TEST(MinHashBatch, ExactCheckKeepsTheSigningShinglesWithinTheBoundAndElseReadsTheTexts) {
  const std::vector<std::string> texts = Texts(2000, 13);
  testing::ScopedTempDir dir;
  const DocumentFiles files = FileOf(texts, dir.File("docs.txt"));
  struct Run {
    std::vector<MinHashDedupRecord> records;
    std::vector<MinHashDedupPair> pairs;
    uint64_t texts_read_again = 0;
  };
  auto run = [&](size_t memory_bytes, const std::string& confirm) {
    MinHashDedupOptions o;
    o.keep_pairs = true;
    o.memory_bytes = memory_bytes;
    o.confirm = confirm;
    o.tmpdir = dir.path();
    std::unique_ptr<MinHashDedupResult> r;
    EXPECT_TRUE(DeduplicateByMinHash(files, o, nullptr, &r).ok());
    Run out;
    for (uint64_t i = 0; i < r->size(); ++i) out.records.push_back(r->Record(i));
    EXPECT_TRUE(r->ForEachPair([&](const MinHashDedupPair& p) {
                   out.pairs.push_back(p);
                   return Status::OK();
                 }).ok());
    out.texts_read_again = r->stats().confirm.texts_read_again;
    return out;
  };
  // 2,000 documents of about 56 shingles: 0.9 MB of hashes, past the room
  // of the smallest bound (its band keys spill), well within 1 GiB.
  const Run kept = run(size_t{1} << 30, "");
  const Run named = run(size_t{1} << 30, "jaccard-shingles/word-chars:0.8");  // the default's spec, spelt out
  const Run reread = run(kMinHashMinMemoryBytes, "");
  const Run other = run(size_t{1} << 30, "jaccard-shingles/space-split:0.8");  // not the signing's shingles
  EXPECT_EQ(kept.texts_read_again, 0u);
  EXPECT_EQ(named.texts_read_again, 0u);
  EXPECT_GT(reread.texts_read_again, 100u);
  EXPECT_GT(other.texts_read_again, 100u);
  ASSERT_GT(kept.pairs.size(), 300u);
  for (const Run* r : {&named, &reread, &other}) {
    ASSERT_EQ(r->pairs.size(), kept.pairs.size());
    for (size_t i = 0; i < kept.pairs.size(); ++i) {
      ASSERT_EQ(r->pairs[i].a, kept.pairs[i].a) << i;
      ASSERT_EQ(r->pairs[i].b, kept.pairs[i].b) << i;
      ASSERT_EQ(r->pairs[i].similarity, kept.pairs[i].similarity) << i;
      ASSERT_EQ(r->pairs[i].estimate, kept.pairs[i].estimate) << i;
    }
    ASSERT_EQ(r->records.size(), kept.records.size());
    for (size_t i = 0; i < kept.records.size(); ++i) {
      ASSERT_EQ(r->records[i].representative, kept.records[i].representative) << i;
      ASSERT_EQ(r->records[i].estimate, kept.records[i].estimate) << i;
    }
  }
}

TEST(MinHashBatch, OptionsOutOfRangeAreRefusedNamingTheirField) {
  struct Case {
    const char* name;
    void (*set)(MinHashDedupOptions*);
    const char* message;
  };
  const Case cases[] = {
      {"threshold", [](MinHashDedupOptions* o) { o->threshold = 0; }, "threshold 0 is not in (0, 1]"},
      {"num_perm", [](MinHashDedupOptions* o) { o->num_perm = 2000; }, "num_perm 2000 is not 1..1024"},
      {"bits", [](MinHashDedupOptions* o) { o->signature_bits = 5; }, "signature_bits 5 is not 1, 2, 4, 8, 16 or 32"},
      {"memory", [](MinHashDedupOptions* o) { o->memory_bytes = 10; }, "memory_bytes 10 is below the minimum"},
      {"bands", [](MinHashDedupOptions* o) { o->bands = {4, 0}; }, "bands and rows go together"},
      {"filter", [](MinHashDedupOptions* o) { o->estimate_filter = 2; }, "the estimate filter 2 is not in [0, 1]"},
      {"threads", [](MinHashDedupOptions* o) { o->threads = 0; }, "threads 0 is below 1"},
      {"confirm", [](MinHashDedupOptions* o) { o->confirm = "cosine:1"; }, "cosine:1"},
  };
  const std::string_view text = "one text";
  for (const Case& c : cases) {
    MinHashDedupOptions o;
    c.set(&o);
    std::unique_ptr<MinHashDedupResult> r;
    const Status s = DeduplicateByMinHash(std::span(&text, 1), {}, o, nullptr, &r);
    EXPECT_TRUE(s.IsInvalidArgument()) << c.name << ": " << s.ToString();
    EXPECT_NE(s.message().find(c.message), std::string::npos) << c.name << ": " << s.message();
  }
}

TEST(MinHashBatch, TwoDocumentsWithOneIdAreRefusedUnlessAllowed) {
  testing::ScopedTempDir dir;
  const auto dedup = [](const DocumentFiles& files, const MinHashDedupOptions& o, std::unique_ptr<MinHashDedupResult>* out) {
    return DeduplicateByMinHash(files, o, nullptr, out);
  };
  const auto r = testing::ExpectRepeatedIdRefusedUnlessAllowed<MinHashDedupOptions, MinHashDedupResult>(dir.File("ids.jsonl"), dedup);
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->CheckIdsAreUnique("as you like").IsInvalidArgument());
}

}  // namespace
}  // namespace simdex
