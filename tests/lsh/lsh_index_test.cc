// MinHash-LSH index files (include/simdex/lsh_index.h): queries equal the
// brute-force oracle over band layouts, block sizes, codecs, signature
// widths and id kinds; the file depends only on the documents; the other
// index kind is refused naming both; Info and the signature profile.
#include <gtest/gtest.h>

#include <random>

#include "tests/index/test_data.h"
#include "tests/lsh/lsh_data.h"

namespace simdex {
namespace {

using testing::BruteForceLsh;
using testing::BuildLshIndex;
using testing::ClusteredDocuments;
using testing::LshDocument;
using testing::ReadFileOrDie;
using testing::ScopedTempDir;

// Queries every 7th document's signature, a few fresh ones and an empty
// one, with the default filter and with none, against the oracle.
void ExpectOracleAnswers(const std::string& path, const LshBuildOptions& options, const std::vector<LshDocument>& docs,
                         bool string_ids) {
  std::unique_ptr<LshIndexReader> reader;
  Status s = LshIndexReader::Open(path, ReaderOptions(), &reader);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_TRUE(reader->Verify().ok());
  std::vector<std::vector<uint32_t>> queries;
  for (size_t i = 0; i < docs.size(); i += 7) queries.push_back(docs[i].signature);
  std::mt19937 rng(5);
  for (int i = 0; i < 3; ++i) {
    std::vector<uint32_t> q(options.minhash.num_perm);
    for (auto& v : q) v = static_cast<uint32_t>(rng());
    queries.push_back(q);
  }
  queries.push_back(std::vector<uint32_t>(options.minhash.num_perm, kEmptyMinimum));
  const double default_filter = DefaultEstimateFilter(options.threshold, options.minhash.num_perm);
  const BruteForceLsh oracle(docs, options, string_ids);
  std::vector<uint32_t> batch;  // every query, one after another, twice: 2 threads take a chunk each
  for (int copy = 0; copy < 2; ++copy) {
    for (size_t c = 0; c < 64; ++c) batch.insert(batch.end(), queries[c % queries.size()].begin(), queries[c % queries.size()].end());
  }
  const size_t batch_n = batch.size() / static_cast<size_t>(options.minhash.num_perm);
  size_t found = 0;
  for (double filter : {-1.0, 0.0, 0.5}) {
    LshQueryOptions qo;
    qo.min_estimate = filter;
    std::vector<std::vector<LshMatch>> want;
    for (const auto& q : queries) {
      std::vector<LshMatch> got;
      s = reader->Query(q.data(), qo, &got);
      ASSERT_TRUE(s.ok()) << s.ToString();
      want.push_back(oracle.Query(q.data(), filter < 0 ? default_filter : filter));
      EXPECT_EQ(got, want.back());
      found += got.size();
    }
    for (int threads : {1, 2}) {
      LshQueryResults results;
      s = reader->Query(batch, qo, &results, threads);
      ASSERT_TRUE(s.ok()) << s.ToString();
      ASSERT_EQ(results.lims.size(), batch_n + 1);
      ASSERT_EQ(results.lims.back(), results.matches.size());
      for (size_t i = 0; i < batch_n; ++i) {
        const std::vector<LshMatch> got(results.matches.begin() + results.lims[i],
                                        results.matches.begin() + results.lims[i + 1]);
        EXPECT_EQ(got, want[(i % 64) % queries.size()]) << "batch query " << i << ", threads " << threads;
      }
    }
  }
  EXPECT_GT(found, 3 * (docs.size() / 7));  // every document's own signature finds at least itself
}

TEST(LshIndexTest, QueriesEqualTheOracleOverBandsBlockSizesCodecsAndSignatureWidths) {
  ScopedTempDir dir;
  const std::vector<LshDocument> docs = ClusteredDocuments(700, 128, 1);
  const LshBands layouts[] = {{16, 8}, {9, 13}, {1, 1}, {32, 4}};
  int i = 0;
  for (LshBands bands : layouts) {
    for (uint32_t block_size : {64u, 512u, 4096u}) {
      for (const char* codec : {"card", "ef", "auto"}) {
        LshBuildOptions options;
        options.bands = bands;
        options.block_size = block_size;
        options.codec = codec;
        options.signature_bits = (i % 3 == 0) ? 1 : (i % 3 == 1) ? 4 : 32;
        const bool string_ids = i % 4 == 3;
        const std::string path = dir.File("x" + std::to_string(i++) + ".sdx");
        SCOPED_TRACE(path + " " + codec + " bands " + std::to_string(bands.bands) + "x" + std::to_string(bands.rows) +
                     " block " + std::to_string(block_size));
        ASSERT_TRUE(BuildLshIndex(path, options, docs, string_ids).ok());
        ExpectOracleAnswers(path, options, docs, string_ids);
      }
    }
  }
}

TEST(LshIndexTest, FindsEveryCopyOfADocumentAndItself) {
  ScopedTempDir dir;
  std::vector<LshDocument> docs = ClusteredDocuments(300, 64, 2);
  LshBuildOptions options;
  options.minhash.num_perm = 64;
  ASSERT_TRUE(BuildLshIndex(dir.File("a.sdx"), options, docs).ok());
  std::unique_ptr<LshIndexReader> reader;
  ASSERT_TRUE(LshIndexReader::Open(dir.File("a.sdx"), ReaderOptions(), &reader).ok());
  for (const auto& d : docs) {
    if (IsEmptySignature(d.signature.data(), 64)) continue;
    std::vector<LshMatch> got;
    ASSERT_TRUE(reader->Query(d.signature.data(), LshQueryOptions(), &got).ok());
    const bool found = std::any_of(got.begin(), got.end(), [&](const LshMatch& m) { return m.id == d.id && m.estimate == 1; });
    EXPECT_TRUE(found) << "document " << d.id;
  }
}

// The batch query of texts signs each as the index's documents were and
// answers as Query() of that signature; an empty text finds nothing; a
// batch of signatures must be whole signatures; damage is reported as the
// first failing query's, whatever the threads.
TEST(LshIndexTest, BatchQueriesOfTextsAndSignaturesEqualSingleQueries) {
  ScopedTempDir dir;
  LshBuildOptions options;
  options.minhash.num_perm = 32;
  options.minhash.seed = 9;
  options.block_size = 64;
  std::unique_ptr<MinHasher> hasher;
  ASSERT_TRUE(MinHasher::Create(options.minhash, &hasher).ok());
  std::vector<std::string> texts;
  std::vector<LshDocument> docs;
  for (int i = 0; i < 150; ++i) {
    std::string text = "document " + std::to_string(i % 40) + " says the same five words again";
    if (i % 3 == 0) text += " and then some more of its own " + std::to_string(i);
    texts.push_back(i % 50 == 7 ? "" : text);
    LshDocument d;
    d.id = 1000 + i;
    d.signature.resize(32);
    hasher->Sign(texts.back(), d.signature.data());
    docs.push_back(d);
  }
  const std::string path = dir.File("texts.sdx");
  ASSERT_TRUE(BuildLshIndex(path, options, docs).ok());
  std::unique_ptr<LshIndexReader> reader;
  ASSERT_TRUE(LshIndexReader::Open(path, ReaderOptions(), &reader).ok());
  const std::vector<std::string_view> views(texts.begin(), texts.end());
  LshQueryOptions qo;
  qo.min_estimate = 0.3;
  size_t matches = 0;
  for (int threads : {1, 3}) {
    LshQueryResults results;
    LshQueryStats stats;
    Status s = reader->QueryTexts(views, qo, &results, threads, &stats);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(results.lims.size(), texts.size() + 1);
    EXPECT_EQ(stats.queries, texts.size());
    for (size_t i = 0; i < texts.size(); ++i) {
      std::vector<LshMatch> want;
      ASSERT_TRUE(reader->Query(docs[i].signature.data(), qo, &want).ok());
      const std::vector<LshMatch> got(results.matches.begin() + results.lims[i],
                                      results.matches.begin() + results.lims[i + 1]);
      EXPECT_EQ(got, want) << "text " << i << ", threads " << threads;
      if (texts[i].empty()) {
        EXPECT_TRUE(got.empty());
      }
    }
    matches = results.matches.size();
  }
  EXPECT_GT(matches, texts.size());  // each text finds itself, most find others

  LshQueryResults results;
  std::vector<uint32_t> ragged(32 * 2 + 5);
  Status s = reader->Query(ragged, qo, &results);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = reader->QueryTexts({}, qo, &results, 4);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(results.lims, std::vector<size_t>{0});
  EXPECT_TRUE(results.matches.empty());

  // A damaged band-table block: the error of the first query that reads it.
  std::string bytes = ReadFileOrDie(path);
  std::unique_ptr<LshIndexReader> probe;
  ASSERT_TRUE(LshIndexReader::Open(path, ReaderOptions(), &probe).ok());
  const std::string damaged_path = dir.File("damaged.sdx");
  bool reported = false;
  for (size_t at = 64; at < bytes.size() && !reported; at += 97) {
    std::string damaged = bytes;
    damaged[at] ^= 0x10;
    testing::WriteFileOrDie(damaged_path, damaged);
    std::unique_ptr<LshIndexReader> broken;
    if (!LshIndexReader::Open(damaged_path, ReaderOptions(), &broken).ok()) continue;
    size_t first = texts.size();
    Status first_error;
    for (size_t i = 0; i < texts.size() && first == texts.size(); ++i) {
      std::unique_ptr<LshIndexReader> fresh;  // every block unchecked, as the batch's reader
      ASSERT_TRUE(LshIndexReader::Open(damaged_path, ReaderOptions(), &fresh).ok());
      std::vector<LshMatch> found;
      first_error = fresh->Query(docs[i].signature.data(), qo, &found);
      if (!first_error.ok()) first = i;
    }
    if (first == texts.size()) continue;
    for (int threads : {1, 3}) {
      std::unique_ptr<LshIndexReader> fresh;
      ASSERT_TRUE(LshIndexReader::Open(damaged_path, ReaderOptions(), &fresh).ok());
      s = fresh->QueryTexts(views, qo, &results, threads);
      EXPECT_EQ(s.code(), first_error.code());
      EXPECT_NE(s.message().find("query " + std::to_string(first) + ": "), std::string::npos) << s.ToString();
      EXPECT_EQ(s.message().find(damaged_path + ": "), 0u) << s.ToString();
    }
    reported = true;
  }
  EXPECT_TRUE(reported) << "no damaged byte failed a query";
}

// QueryBestMatch over two indexes that share some documents: the highest
// estimate of the indexes' answers, the first index given among equal ones
// (so the shared documents are found in whichever index comes first), the
// first in id order within an index; -1 for a signature nothing matches.
TEST(LshIndexTest, BestMatchTakesTheHighestEstimateThenTheFirstIndexThenTheFirstId) {
  ScopedTempDir dir;
  const std::vector<LshDocument> docs = ClusteredDocuments(300, 64, 4);
  const std::vector<LshDocument> first(docs.begin(), docs.begin() + 150), second(docs.begin() + 100, docs.end());
  LshBuildOptions options;
  options.minhash.num_perm = 64;
  ASSERT_TRUE(BuildLshIndex(dir.File("a.sdx"), options, first).ok());
  ASSERT_TRUE(BuildLshIndex(dir.File("b.sdx"), options, second).ok());
  std::unique_ptr<LshIndexReader> a, b;
  ASSERT_TRUE(LshIndexReader::Open(dir.File("a.sdx"), ReaderOptions(), &a).ok());
  ASSERT_TRUE(LshIndexReader::Open(dir.File("b.sdx"), ReaderOptions(), &b).ok());
  const BruteForceLsh oracles[2] = {BruteForceLsh(first, options, false), BruteForceLsh(second, options, false)};
  LshQueryOptions query;
  query.min_estimate = 0.3;
  std::vector<LshMatch> found;
  size_t shared = 0, in_second = 0;
  for (bool reversed : {false, true}) {
    const std::vector<const LshIndexReader*> indexes =
        reversed ? std::vector<const LshIndexReader*>{b.get(), a.get()} : std::vector<const LshIndexReader*>{a.get(), b.get()};
    for (size_t i = 0; i < docs.size(); i += 3) {
      const uint32_t* signature = docs[i].signature.data();
      LshBestMatch expected;
      for (int x = 0; x < 2; ++x) {
        for (const LshMatch& m : oracles[reversed ? 1 - x : x].Query(signature, query.min_estimate)) {
          if (expected.index < 0 || m.estimate > expected.estimate) expected = {x, m.id, m.estimate};
        }
      }
      LshBestMatch got;
      ASSERT_TRUE(QueryBestMatch(indexes, signature, query, &found, &got).ok());
      EXPECT_EQ(got.index, expected.index) << "document " << i << (reversed ? ", reversed" : "");
      EXPECT_EQ(got.id, expected.id) << "document " << i;
      EXPECT_EQ(got.estimate, expected.estimate) << "document " << i;
      if (IsEmptySignature(signature, 64)) {
        EXPECT_EQ(got.index, -1) << "document " << i;
      } else if (i >= 100 && i < 150) {
        EXPECT_EQ(got.index, 0) << "document " << i << ": in both, found in the first given";
        EXPECT_EQ(got.estimate, 1);
        ++shared;
      } else if (i >= 150 && !reversed && got.index == 1) {
        ++in_second;
      }
    }
  }
  EXPECT_GT(shared, 20u);
  EXPECT_GT(in_second, 20u);
}

TEST(LshIndexTest, TheFileDependsOnlyOnTheDocumentsNotTheirOrder) {
  ScopedTempDir dir;
  std::vector<LshDocument> docs = ClusteredDocuments(500, 128, 3);
  LshBuildOptions options;
  ASSERT_TRUE(BuildLshIndex(dir.File("a.sdx"), options, docs).ok());
  std::mt19937 rng(9);
  std::shuffle(docs.begin(), docs.end(), rng);
  ASSERT_TRUE(BuildLshIndex(dir.File("b.sdx"), options, docs).ok());
  EXPECT_EQ(ReadFileOrDie(dir.File("a.sdx")), ReadFileOrDie(dir.File("b.sdx")));
  ASSERT_TRUE(BuildLshIndex(dir.File("c.sdx"), options, docs, true).ok());
  std::reverse(docs.begin(), docs.end());
  ASSERT_TRUE(BuildLshIndex(dir.File("d.sdx"), options, docs, true).ok());
  EXPECT_EQ(ReadFileOrDie(dir.File("c.sdx")), ReadFileOrDie(dir.File("d.sdx")));
}

TEST(LshIndexTest, EmptyAndTinyIndexesOpenVerifyAndAnswer) {
  ScopedTempDir dir;
  LshBuildOptions options;
  std::vector<uint32_t> sig(128, 7);
  for (size_t n : {0, 1, 2}) {
    std::vector<LshDocument> docs;
    for (size_t i = 0; i < n; ++i) docs.push_back({i, "d" + std::to_string(i), sig});
    const std::string path = dir.File("n" + std::to_string(n) + ".sdx");
    ASSERT_TRUE(BuildLshIndex(path, options, docs).ok());
    std::unique_ptr<LshIndexReader> reader;
    Status s = LshIndexReader::Open(path, ReaderOptions(), &reader);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_TRUE(reader->Verify().ok());
    EXPECT_EQ(reader->documents(), n);
    std::vector<LshMatch> got;
    ASSERT_TRUE(reader->Query(sig.data(), LshQueryOptions(), &got).ok());
    EXPECT_EQ(got.size(), n);
  }
  // Only empty signatures: kept with their ids, in no band table.
  std::vector<LshDocument> empty = {{1, "a", std::vector<uint32_t>(128, kEmptyMinimum)},
                                    {2, "b", std::vector<uint32_t>(128, kEmptyMinimum)}};
  ASSERT_TRUE(BuildLshIndex(dir.File("e.sdx"), options, empty).ok());
  std::unique_ptr<LshIndexReader> reader;
  ASSERT_TRUE(LshIndexReader::Open(dir.File("e.sdx"), ReaderOptions(), &reader).ok());
  EXPECT_TRUE(reader->Verify().ok());
  EXPECT_EQ(reader->Info().documents, 2u);
  EXPECT_EQ(reader->Info().banded, 0u);
  std::vector<LshMatch> got;
  ASSERT_TRUE(reader->Query(empty[0].signature.data(), LshQueryOptions(), &got).ok());
  EXPECT_TRUE(got.empty());
}

TEST(LshIndexTest, StringIdsAreNumberedByRankAndReadBack) {
  ScopedTempDir dir;
  std::vector<uint32_t> sig(128, 11);
  std::vector<LshDocument> docs = {{0, "zeta", sig}, {0, "alpha", sig}, {0, "mid", sig}};
  LshBuildOptions options;
  ASSERT_TRUE(BuildLshIndex(dir.File("s.sdx"), options, docs, true).ok());
  std::unique_ptr<LshIndexReader> reader;
  ASSERT_TRUE(LshIndexReader::Open(dir.File("s.sdx"), ReaderOptions(), &reader).ok());
  ASSERT_TRUE(reader->has_string_ids());
  std::vector<LshMatch> got;
  ASSERT_TRUE(reader->Query(sig.data(), LshQueryOptions(), &got).ok());
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(reader->IdString(got[0].id), "alpha");
  EXPECT_EQ(reader->IdString(got[1].id), "mid");
  EXPECT_EQ(reader->IdString(got[2].id), "zeta");
}

TEST(LshIndexTest, EachReaderRefusesTheOtherKindNamingBoth) {
  ScopedTempDir dir;
  LshBuildOptions options;
  ASSERT_TRUE(BuildLshIndex(dir.File("lsh.sdx"), options, ClusteredDocuments(50, 128, 4)).ok());
  std::vector<testing::Entry> entries = {{1, 0x1234}, {2, 0x5678}};
  ASSERT_TRUE(testing::BuildIndex(dir.File("sim.sdx"), BuildOptions(), entries).ok());

  std::unique_ptr<IndexReader> simhash;
  Status s = IndexReader::Open(dir.File("lsh.sdx"), ReaderOptions(), &simhash);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("a MinHash-LSH index where a SimHash index is needed"), std::string::npos) << s.ToString();
  EXPECT_NE(s.ToString().find("lsh.sdx"), std::string::npos);
  std::unique_ptr<LshIndexReader> lsh;
  s = LshIndexReader::Open(dir.File("sim.sdx"), ReaderOptions(), &lsh);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("a SimHash index where a MinHash-LSH index is needed"), std::string::npos) << s.ToString();

  IndexKind kind;
  ASSERT_TRUE(ReadIndexKind(dir.File("lsh.sdx"), &kind).ok());
  EXPECT_EQ(kind, IndexKind::kMinHashLsh);
  ASSERT_TRUE(ReadIndexKind(dir.File("sim.sdx"), &kind).ok());
  EXPECT_EQ(kind, IndexKind::kSimHash);
}

TEST(LshIndexTest, InfoDescribesTheFile) {
  ScopedTempDir dir;
  LshBuildOptions options;
  options.minhash.seed = 42;
  const auto docs = ClusteredDocuments(1000, 128, 6);
  ASSERT_TRUE(BuildLshIndex(dir.File("i.sdx"), options, docs).ok());
  std::unique_ptr<LshIndexReader> reader;
  ASSERT_TRUE(LshIndexReader::Open(dir.File("i.sdx"), ReaderOptions(), &reader).ok());
  const LshIndexInfo info = reader->Info();
  EXPECT_EQ(info.documents, 1000u);
  EXPECT_EQ(info.num_perm, 128);
  EXPECT_EQ(info.seed, 42u);
  EXPECT_EQ(info.bands, 16);
  EXPECT_EQ(info.rows, 8);
  EXPECT_EQ(info.signature_bits, 4);
  EXPECT_DOUBLE_EQ(info.threshold, 0.8);
  EXPECT_EQ(info.ordinal_bits, 10);
  EXPECT_EQ(info.signature_bytes, 1000u * 64);
  EXPECT_EQ(info.tables.size(), 16u);
  EXPECT_EQ(info.profile, MinHashProfile(options.minhash));
  EXPECT_EQ(info.total_bytes, ReadFileOrDie(dir.File("i.sdx")).size());
  EXPECT_EQ(reader->minhash_options().seed, 42u);
  EXPECT_EQ(reader->minhash_options().num_perm, 128);
}

TEST(LshIndexTest, BadOptionsAreRefusedNamingTheOption) {
  ScopedTempDir dir;
  std::unique_ptr<LshIndexBuilder> builder;
  LshBuildOptions o;
  o.threshold = 1.5;
  EXPECT_TRUE(LshIndexBuilder::Create(dir.File("x.sdx"), o, &builder).IsInvalidArgument());
  o = LshBuildOptions();
  o.bands = {20, 8};  // 160 rows of 128 values
  EXPECT_TRUE(LshIndexBuilder::Create(dir.File("x.sdx"), o, &builder).IsInvalidArgument());
  o = LshBuildOptions();
  o.signature_bits = 3;
  EXPECT_TRUE(LshIndexBuilder::Create(dir.File("x.sdx"), o, &builder).IsInvalidArgument());
  o = LshBuildOptions();
  o.codec = "zip";
  EXPECT_TRUE(LshIndexBuilder::Create(dir.File("x.sdx"), o, &builder).IsInvalidArgument());
  o = LshBuildOptions();
  o.minhash.num_perm = 0;
  EXPECT_TRUE(LshIndexBuilder::Create(dir.File("x.sdx"), o, &builder).IsInvalidArgument());
  EXPECT_TRUE(dir.List().empty());
}

TEST(LshIndexTest, AnAbandonedBuildLeavesNoFile) {
  ScopedTempDir dir;
  std::unique_ptr<LshIndexBuilder> builder;
  ASSERT_TRUE(LshIndexBuilder::Create(dir.File("x.sdx"), LshBuildOptions(), &builder).ok());
  std::vector<uint32_t> sig(128, 3);
  ASSERT_TRUE(builder->Add(1, sig.data()).ok());
  builder->Abandon();
  EXPECT_FALSE(builder->Finish().ok());
  EXPECT_TRUE(dir.List().empty());
}

TEST(MinHashProfileTest, RoundTripsAndRefusesOtherText) {
  MinHashOptions o;
  o.num_perm = 256;
  o.seed = 123456789012345ULL;
  o.shingles.word_n = 3;
  o.shingles.char_n = 4;
  o.shingles.unspaced_share = 0.3;
  o.shingles.words = ShingleWords::kSpaceSplit;
  const std::string profile = MinHashProfile(o);
  EXPECT_EQ(profile, "simdex-minhash/1 words:3 chars:4 unspaced:0.3 nfkc-casefold perm:256 seed:123456789012345");
  MinHashOptions back;
  ASSERT_TRUE(ParseMinHashProfile(profile, &back).ok());
  EXPECT_EQ(MinHashProfile(back), profile);
  EXPECT_EQ(back.num_perm, 256);
  EXPECT_EQ(back.seed, o.seed);
  for (const char* bad : {"", "simdex-minhash/2 words:3 chars:4 unspaced:0.3 nfkc-casefold perm:256 seed:1",
                          "simdex-minhash/1 words:3 chars:4 unspaced:0.3 nfkc-casefold perm:256",
                          "simdex-minhash/1 words:3 chars:4 unspaced:0.3 nfkc-casefold perm:256 seed:1 extra",
                          "simdex-minhash/1 words:x chars:4 unspaced:0.3 nfkc-casefold perm:256 seed:1",
                          "simdex-minhash/1 words:03 chars:4 unspaced:0.3 nfkc-casefold perm:256 seed:1"}) {
    EXPECT_TRUE(ParseMinHashProfile(bad, &back).IsInvalidArgument()) << bad;
  }
}

TEST(MinHashProfileTest, WordCharsIsNamedAndSpaceSplitReadsAsTheProfilesBeforeIt) {
  MinHashOptions o;
  o.shingles.words = ShingleWords::kSpaceSplit;
  // Every profile recorded before word definitions existed: space-split.
  const std::string old = "simdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold perm:128 seed:1";
  EXPECT_EQ(MinHashProfile(o), old);
  o.shingles.words = ShingleWords::kWordChars;
  const std::string word_chars = "simdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold word-chars perm:128 seed:1";
  EXPECT_EQ(MinHashProfile(o), word_chars);
  MinHashOptions back;
  ASSERT_TRUE(ParseMinHashProfile(old, &back).ok());
  EXPECT_EQ(back.shingles.words, ShingleWords::kSpaceSplit);
  ASSERT_TRUE(ParseMinHashProfile(word_chars, &back).ok());
  EXPECT_EQ(back.shingles.words, ShingleWords::kWordChars);
  EXPECT_EQ(back.num_perm, 128);
  // space-split is never written, so it is never read; nor another name or place.
  for (const char* bad : {"simdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold space-split perm:128 seed:1",
                          "simdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold words-w perm:128 seed:1",
                          "simdex-minhash/1 word-chars words:5 chars:5 unspaced:0.5 nfkc-casefold perm:128 seed:1",
                          "simdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold perm:128 seed:1 word-chars",
                          "simdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold word-chars word-chars perm:128 "
                          "seed:1"}) {
    EXPECT_TRUE(ParseMinHashProfile(bad, &back).IsInvalidArgument()) << bad;
  }
}

}  // namespace
}  // namespace simdex
