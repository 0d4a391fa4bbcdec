// The sketch section of MinHash-LSH indexes (format version 6): queries
// with their shingles decide on the bottom-k estimate, checked against the
// estimator written plainly over the documents' whole shingle sets (short
// documents, duplicates, k of 1, 16 and 256); the file depends only on the
// documents (order, memory budget); merges carry sketches; files without
// (version 5) read as before; damage to the section is Corruption naming
// the section and the document; `merge --only-new` decides on sketches where
// the batch comes with its shingles.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "format/coding.h"
#include "format/index_layout.h"
#include "format/lsh/lsh_layout.h"
#include "simdex/lsh_index.h"
#include "tests/index/test_data.h"
#include "tests/lsh/lsh_data.h"

namespace simdex {
namespace {

using testing::ReadFileOrDie;
using testing::ScopedTempDir;

struct Doc {
  uint64_t id = 0;
  std::vector<uint64_t> shingles;  // random 64-bit hashes, as ShingleMaker's
  std::vector<uint32_t> signature;
};

// n documents: clusters of a base set (0 to 1,000 shingles: many short
// ones) and copies with a share of it replaced, some exact copies, some
// without shingles; ids distinct.
std::vector<Doc> Documents(size_t n, const MinHashOptions& minhash, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::unique_ptr<MinHasher> hasher;
  EXPECT_TRUE(MinHasher::Create(minhash, &hasher).ok());
  const size_t sizes[] = {0, 1, 2, 3, 5, 8, 15, 16, 17, 40, 255, 256, 257, 600, 1000};
  std::vector<Doc> docs;
  std::vector<uint64_t> base;
  while (docs.size() < n) {
    base.resize(sizes[rng() % std::size(sizes)]);
    for (uint64_t& h : base) h = rng();
    const size_t copies = 1 + rng() % 5;
    for (size_t c = 0; c < copies && docs.size() < n; ++c) {
      Doc d;
      d.id = docs.size() * 3 + 1;
      d.shingles = base;
      const int replace = c == 0 || rng() % 4 == 0 ? 0 : static_cast<int>(rng() % 40);
      for (uint64_t& h : d.shingles) {
        if (static_cast<int>(rng() % 100) < replace) h = rng();
      }
      d.signature.resize(static_cast<size_t>(minhash.num_perm));
      hasher->SignShingles(d.shingles, d.signature.data());
      docs.push_back(std::move(d));
    }
  }
  return docs;
}

// The estimate, plainly: the low 32 bits of each whole set; J of the two
// when each has at most k, else the share of the k smallest of their union
// that are in both.
double PlainEstimate(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, int k) {
  std::set<uint32_t> x, y, all;
  for (uint64_t h : a) x.insert(static_cast<uint32_t>(h));
  for (uint64_t h : b) y.insert(static_cast<uint32_t>(h));
  if (x.empty() || y.empty()) return 0;
  all = x;
  all.insert(y.begin(), y.end());
  const bool whole = x.size() <= static_cast<size_t>(k) && y.size() <= static_cast<size_t>(k);
  size_t taken = 0, both = 0;
  for (uint32_t h : all) {
    if (!whole && taken == static_cast<size_t>(k)) break;
    ++taken;
    both += x.count(h) > 0 && y.count(h) > 0;
  }
  return static_cast<double>(both) / static_cast<double>(taken);
}

Status Build(const std::string& path, const LshBuildOptions& options, const std::vector<Doc>& docs,
             bool with_shingles = true, LshBuildStats* stats = nullptr) {
  std::unique_ptr<LshIndexBuilder> builder;
  SIMDEX_RETURN_IF_ERROR(LshIndexBuilder::Create(path, options, &builder));
  for (const Doc& d : docs) {
    SIMDEX_RETURN_IF_ERROR(with_shingles ? builder->Add(d.id, d.signature.data(), d.shingles)
                                         : builder->Add(d.id, d.signature.data()));
  }
  SIMDEX_RETURN_IF_ERROR(builder->Finish());
  if (stats != nullptr) *stats = builder->stats();
  return Status::OK();
}

LshBuildOptions Options(int k) {
  LshBuildOptions o;
  o.minhash.num_perm = 32;
  o.threshold = 0.5;
  o.bands = {16, 2};
  o.signature_bits = 8;
  o.sketch_k = k;
  return o;
}

class SketchOracleTest : public ::testing::TestWithParam<int> {};

TEST_P(SketchOracleTest, QueriesWithShinglesDecideOnTheBottomKEstimate) {
  const int k = GetParam();
  ScopedTempDir dir;
  const LshBuildOptions options = Options(k);
  const std::vector<Doc> docs = Documents(300, options.minhash, 40 + static_cast<uint64_t>(k));
  LshBuildStats stats;
  ASSERT_TRUE(Build(dir.File("x.sdx"), options, docs, true, &stats).ok());
  EXPECT_EQ(stats.sketch_k, k);
  std::unique_ptr<LshIndexReader> reader;
  ASSERT_TRUE(LshIndexReader::Open(dir.File("x.sdx"), ReaderOptions(), &reader).ok());
  ASSERT_TRUE(reader->Verify().ok());
  EXPECT_EQ(reader->sketch_k(), k);
  EXPECT_EQ(reader->Info().format_version, 6u);
  std::map<uint64_t, const Doc*> by_id;
  for (const Doc& d : docs) by_id[d.id] = &d;

  LshQueryOptions all;
  all.min_estimate = 0;
  LshQueryOptions levels;
  levels.thresholds = {0.5, 0.8, 1.0};
  std::vector<LshMatch> sketched, signed_only, passed;
  size_t compared = 0;
  for (const Doc& q : docs) {
    ASSERT_TRUE(reader->Query(q.signature.data(), q.shingles, all, &sketched).ok());
    ASSERT_TRUE(reader->Query(q.signature.data(), all, &signed_only).ok());
    ASSERT_EQ(sketched.size(), signed_only.size());  // the same candidates
    std::vector<LshMatch> want;
    for (size_t i = 0; i < sketched.size(); ++i) {
      ASSERT_EQ(sketched[i].id, signed_only[i].id);
      const double e = PlainEstimate(q.shingles, by_id.at(sketched[i].id)->shingles, k);
      EXPECT_DOUBLE_EQ(sketched[i].estimate, e) << "query " << q.id << " match " << sketched[i].id;
      ++compared;
      // A threshold T passes when the estimate is at least T.
      double highest = 0;
      for (double t : levels.thresholds) {
        if (e >= t) highest = t;
      }
      if (highest > 0) want.push_back({sketched[i].id, e, highest});
    }
    ASSERT_TRUE(reader->Query(q.signature.data(), q.shingles, levels, &passed).ok());
    EXPECT_EQ(passed, want) << "query " << q.id;
    // The index's threshold (0.5) is the default filter on sketches.
    ASSERT_TRUE(reader->Query(q.signature.data(), q.shingles, LshQueryOptions(), &passed).ok());
    for (LshMatch& m : want) m.threshold = 0;
    EXPECT_EQ(passed, want) << "query " << q.id;
  }
  EXPECT_GT(compared, docs.size());
}

// LshNewDocumentFilter with the batch's shingles, against an oracle written
// plainly: a batch document is left out when a document of the old index
// sharing one of its kept band keys (BruteForceLsh's candidates), or an
// earlier batch document sharing a whole band key, has a plain sketch
// estimate at least the threshold.
TEST_P(SketchOracleTest, OnlyNewWithShinglesDecidesOnTheBottomKEstimate) {
  const int k = GetParam();
  ScopedTempDir dir;
  const LshBuildOptions options = Options(k);
  std::vector<Doc> all = Documents(500, options.minhash, 70 + static_cast<uint64_t>(k));
  std::shuffle(all.begin(), all.end(), std::mt19937_64(k));  // clusters straddle the index and the batch
  const std::vector<Doc> old_docs(all.begin(), all.begin() + 250), batch(all.begin() + 250, all.end());
  ASSERT_TRUE(Build(dir.File("old.sdx"), options, old_docs).ok());
  std::unique_ptr<LshIndexReader> old;
  ASSERT_TRUE(LshIndexReader::Open(dir.File("old.sdx"), ReaderOptions(), &old).ok());
  std::vector<testing::LshDocument> plain;
  std::map<uint64_t, const Doc*> by_id;
  for (const Doc& d : old_docs) {
    plain.push_back({d.id, "", d.signature});
    by_id[d.id] = &d;
  }
  const testing::BruteForceLsh oracle(plain, options, /*string_ids=*/false);

  LshNewDocumentFilter with_shingles(old.get()), signatures_only(old.get());
  const size_t n = options.bands.bands;
  std::vector<uint64_t> keys(n), other(n);
  uint64_t left_out = 0, decided_otherwise = 0;
  for (size_t i = 0; i < batch.size(); ++i) {
    const Doc& q = batch[i];
    bool expected = true;
    if (!IsEmptySignature(q.signature.data(), options.minhash.num_perm)) {
      for (const LshMatch& m : oracle.Query(q.signature.data(), 0)) {
        expected = expected && PlainEstimate(q.shingles, by_id.at(m.id)->shingles, k) < options.threshold;
      }
      BandKeys(q.signature.data(), options.bands, keys.data());
      for (size_t j = 0; j < i && expected; ++j) {
        if (IsEmptySignature(batch[j].signature.data(), options.minhash.num_perm)) continue;
        BandKeys(batch[j].signature.data(), options.bands, other.data());
        bool shares = false;
        for (size_t b = 0; b < n; ++b) shares = shares || keys[b] == other[b];
        expected = !shares || PlainEstimate(q.shingles, batch[j].shingles, k) < options.threshold;
      }
    }
    bool is_new = false, by_signature = false;
    ASSERT_TRUE(with_shingles.Check(q.signature.data(), q.shingles, &is_new).ok());
    ASSERT_TRUE(signatures_only.Check(q.signature.data(), &by_signature).ok());
    EXPECT_EQ(is_new, expected) << "batch document " << i;
    left_out += is_new ? 0 : 1;
    decided_otherwise += is_new != by_signature ? 1 : 0;
  }
  EXPECT_EQ(with_shingles.left_out(), left_out);
  EXPECT_GT(left_out, 10u);  // both answers occur
  EXPECT_GT(batch.size() - left_out, 10u);
  if (k > 1) {
    EXPECT_GT(decided_otherwise, 0u);  // the sketches decide some documents the signatures would not
  }
}

INSTANTIATE_TEST_SUITE_P(K, SketchOracleTest, ::testing::Values(1, 16, 256));

TEST(LshSketchTest, TwoWholeDocumentsAreDecidedExactly) {
  std::vector<uint32_t> x = {1, 2, 3, 4, 5, 6}, y = {4, 5, 6, 7, 8, 9, 10, 11};
  // Both whole at k = 8: J = 3 / 11, though the union has more than k.
  EXPECT_DOUBLE_EQ(EstimateJaccardSketches(x, true, y, true, 8), 3.0 / 11);
  // y cut at 8: the 8 smallest of the union, 1..8, hold 4, 5, 6 in both.
  EXPECT_DOUBLE_EQ(EstimateJaccardSketches(x, true, y, false, 8), 3.0 / 8);
  EXPECT_EQ(EstimateJaccardSketches({}, true, y, true, 8), 0);
  BottomKSketch s;
  MakeBottomKSketch(std::vector<uint64_t>{0x1'0000'0007, 7, 3, 0xFFFF'0000'0001, 9}, 3, &s);
  EXPECT_EQ(s.hashes, (std::vector<uint32_t>{1, 3, 7}));  // low 32 bits, distinct
  EXPECT_FALSE(s.whole);
  MakeBottomKSketch(std::vector<uint64_t>{5, 5, 0x1'0000'0005}, 1, &s);
  EXPECT_EQ(s.hashes, (std::vector<uint32_t>{5}));
  EXPECT_TRUE(s.whole);  // one distinct 32-bit hash
  // Longer than 2k, with 32-bit collisions among the smallest.
  const uint64_t high = uint64_t{1} << 32;
  MakeBottomKSketch(std::vector<uint64_t>{5, high + 5, 2 * high + 5, 3 * high + 5, 9, 11}, 2, &s);
  EXPECT_EQ(s.hashes, (std::vector<uint32_t>{5, 9}));
  EXPECT_FALSE(s.whole);
  MakeBottomKSketch(std::vector<uint64_t>{5, high + 5, 2 * high + 5, 9}, 1, &s);
  EXPECT_EQ(s.hashes, (std::vector<uint32_t>{5}));
  EXPECT_FALSE(s.whole);
  MakeBottomKSketch(std::vector<uint64_t>{9, high + 5, 2 * high + 5, 3 * high + 5, 4 * high + 9}, 2, &s);
  EXPECT_EQ(s.hashes, (std::vector<uint32_t>{5, 9}));
  EXPECT_TRUE(s.whole);  // 5 and 9 only
}

TEST(LshSketchTest, ASketchFilterAboveOneOrBesideThresholdsIsRefused) {
  LshQueryOptions o;
  o.min_sketch_estimate = 1.5;
  EXPECT_TRUE(o.Validate().IsInvalidArgument());
  o.min_sketch_estimate = 0.9;
  EXPECT_TRUE(o.Validate().ok());
  o.thresholds = {0.9};
  const Status s = o.Validate();
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("min_sketch_estimate and thresholds are two filters"), std::string::npos) << s.ToString();
}

TEST(LshSketchTest, QueryTextsDecideOnSketchesAndApproximateOnSignatures) {
  ScopedTempDir dir;
  LshBuildOptions options;
  options.threshold = 0.5;
  std::unique_ptr<MinHasher> hasher;
  ASSERT_TRUE(MinHasher::Create(options.minhash, &hasher).ok());
  std::vector<std::string> texts;
  for (int i = 0; i < 40; ++i) {
    std::string t;
    for (int w = 0; w < 30; ++w) t += "w" + std::to_string((w * 7 + (w % 5 == 0 ? i : 0)) % 50) + " ";
    texts.push_back(t);
  }
  std::unique_ptr<LshIndexBuilder> builder;
  ASSERT_TRUE(LshIndexBuilder::Create(dir.File("x.sdx"), options, &builder).ok());
  std::vector<uint32_t> sig(128);
  std::vector<uint64_t> shingles;
  for (size_t i = 0; i < texts.size(); ++i) {
    hasher->Sign(texts[i], sig.data(), &shingles);
    ASSERT_TRUE(builder->Add(i, sig.data(), shingles).ok());
  }
  ASSERT_TRUE(builder->Finish().ok());
  std::unique_ptr<LshIndexReader> reader;
  ASSERT_TRUE(LshIndexReader::Open(dir.File("x.sdx"), ReaderOptions(), &reader).ok());
  std::vector<std::string_view> views(texts.begin(), texts.end());
  LshQueryOptions o;
  o.min_estimate = 0;
  for (bool approximate : {false, true}) {
    o.approximate = approximate;
    LshQueryResults batch;
    LshQueryStats stats;
    ASSERT_TRUE(reader->QueryTexts(views, o, &batch, 2, &stats).ok());
    EXPECT_EQ(stats.sketched, approximate ? 0u : stats.candidates);
    for (size_t i = 0; i < texts.size(); ++i) {
      hasher->Sign(texts[i], sig.data(), &shingles);
      std::vector<LshMatch> one;
      ASSERT_TRUE(reader->Query(sig.data(), shingles, o, &one).ok());
      EXPECT_EQ(std::vector<LshMatch>(batch.matches.begin() + batch.lims[i], batch.matches.begin() + batch.lims[i + 1]),
                one);
    }
  }
}

TEST(LshSketchTest, TheFileDependsOnlyOnTheDocumentsNotTheirOrderOrTheBudget) {
  ScopedTempDir dir;
  LshBuildOptions options = Options(16);
  options.bands = {4, 8};
  std::vector<Doc> docs = Documents(1500, options.minhash, 5);
  for (size_t i = 0; i < 30; ++i) docs.push_back(docs[i * 7]);  // same id and document again
  docs.push_back(docs[3]);
  docs.back().shingles.push_back(12345);  // same id, another sketch
  ASSERT_TRUE(Build(dir.File("a.sdx"), options, docs).ok());
  std::shuffle(docs.begin(), docs.end(), std::mt19937_64(9));
  options.memory_bytes = size_t{512} << 10;  // holds about 830 documents: the rest spill
  LshBuildStats stats;
  ASSERT_TRUE(Build(dir.File("b.sdx"), options, docs, true, &stats).ok());
  EXPECT_GT(stats.spilled_bytes, 0u);
  EXPECT_EQ(ReadFileOrDie(dir.File("a.sdx")), ReadFileOrDie(dir.File("b.sdx")));
}

TEST(LshSketchTest, WithoutShinglesOrWithKZeroTheFileIsVersion5AsBefore) {
  ScopedTempDir dir;
  const std::vector<Doc> docs = Documents(200, Options(16).minhash, 6);
  ASSERT_TRUE(Build(dir.File("a.sdx"), Options(16), docs, /*with_shingles=*/false).ok());
  ASSERT_TRUE(Build(dir.File("b.sdx"), Options(0), docs, /*with_shingles=*/true).ok());
  const std::string a = ReadFileOrDie(dir.File("a.sdx"));
  EXPECT_EQ(a, ReadFileOrDie(dir.File("b.sdx")));
  EXPECT_EQ(format::DecodeFixed32(a.data() + 8), 5u);
  std::unique_ptr<LshIndexReader> reader;
  ASSERT_TRUE(LshIndexReader::Open(dir.File("a.sdx"), ReaderOptions(), &reader).ok());
  EXPECT_EQ(reader->sketch_k(), 0);
  EXPECT_EQ(reader->Info().format_version, 5u);
  // No documents: no sketches either.
  LshBuildStats stats;
  ASSERT_TRUE(Build(dir.File("empty.sdx"), Options(16), {}, true, &stats).ok());
  EXPECT_EQ(stats.sketch_k, 0);
  EXPECT_EQ(format::DecodeFixed32(ReadFileOrDie(dir.File("empty.sdx")).data() + 8), 5u);
  // Queries with shingles decide on the signatures, as before.
  std::vector<LshMatch> with, without;
  for (size_t i = 0; i < docs.size(); i += 7) {
    ASSERT_TRUE(reader->Query(docs[i].signature.data(), docs[i].shingles, LshQueryOptions(), &with).ok());
    ASSERT_TRUE(reader->Query(docs[i].signature.data(), LshQueryOptions(), &without).ok());
    EXPECT_EQ(with, without);
  }
}

TEST(LshSketchTest, DocumentsAddedBothWaysAreRefusedNamingTheDocument) {
  ScopedTempDir dir;
  const std::vector<Doc> docs = Documents(4, Options(16).minhash, 7);
  std::unique_ptr<LshIndexBuilder> builder;
  ASSERT_TRUE(LshIndexBuilder::Create(dir.File("x.sdx"), Options(16), &builder).ok());
  ASSERT_TRUE(builder->Add(docs[0].id, docs[0].signature.data(), docs[0].shingles).ok());
  const Status s = builder->Add(docs[1].id, docs[1].signature.data());
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("document 1 comes without its shingles"), std::string::npos) << s.ToString();
  builder->Abandon();
  ASSERT_TRUE(LshIndexBuilder::Create(dir.File("x.sdx"), Options(16), &builder).ok());
  ASSERT_TRUE(builder->Add(docs[0].id, docs[0].signature.data()).ok());
  EXPECT_TRUE(builder->Add(docs[1].id, docs[1].signature.data(), docs[1].shingles).IsInvalidArgument());
}

TEST(LshSketchTest, AMergeCarriesSketchesAsAFreshBuildWrites) {
  ScopedTempDir dir;
  const LshBuildOptions options = Options(16);
  const std::vector<Doc> docs = Documents(400, options.minhash, 8);
  const std::vector<Doc> old(docs.begin(), docs.begin() + 150), other(docs.begin() + 150, docs.begin() + 300),
      batch(docs.begin() + 300, docs.end());
  ASSERT_TRUE(Build(dir.File("all.sdx"), options, docs).ok());
  ASSERT_TRUE(Build(dir.File("old.sdx"), options, old).ok());
  ASSERT_TRUE(Build(dir.File("other.sdx"), options, other).ok());
  std::unique_ptr<LshIndexReader> o, x;
  ASSERT_TRUE(LshIndexReader::Open(dir.File("old.sdx"), ReaderOptions(), &o).ok());
  ASSERT_TRUE(LshIndexReader::Open(dir.File("other.sdx"), ReaderOptions(), &x).ok());
  std::unique_ptr<LshIndexMerger> merger;
  ASSERT_TRUE(LshIndexMerger::Create(o.get(), dir.File("merged.sdx"), &merger).ok());
  ASSERT_TRUE(merger->AddIndex(x.get()).ok());
  for (const Doc& d : batch) ASSERT_TRUE(merger->Add(d.id, d.signature.data(), d.shingles).ok());
  ASSERT_TRUE(merger->Finish().ok());
  EXPECT_EQ(ReadFileOrDie(dir.File("merged.sdx")), ReadFileOrDie(dir.File("all.sdx")));

  // A batch document without shingles, and an index of another k, are refused.
  ASSERT_TRUE(LshIndexMerger::Create(o.get(), dir.File("m2.sdx"), &merger).ok());
  EXPECT_TRUE(merger->Add(batch[0].id, batch[0].signature.data()).IsInvalidArgument());
  merger->Abandon();
  ASSERT_TRUE(Build(dir.File("k1.sdx"), Options(1), other).ok());
  std::unique_ptr<LshIndexReader> k1;
  ASSERT_TRUE(LshIndexReader::Open(dir.File("k1.sdx"), ReaderOptions(), &k1).ok());
  ASSERT_TRUE(LshIndexMerger::Create(o.get(), dir.File("m3.sdx"), &merger).ok());
  const Status s = merger->AddIndex(k1.get());
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("sketches of 1 where the old one has sketches of 16"), std::string::npos) << s.ToString();
}

// The file with its sketch section's bytes [at, at + n) replaced and the
// section's checksum, the metadata's and the footer's made right again, so
// that only the section's own rules can find the damage.
std::string WithSketchBytes(std::string file, uint64_t at, const std::string& bytes) {
  const auto* base = reinterpret_cast<const uint8_t*>(file.data());
  format::Envelope env;
  EXPECT_TRUE(format::OpenEnvelope(base, file.size(), &env).ok());
  format::LshMetadata m;
  EXPECT_TRUE(m.DecodeFrom(env.metadata, env.metadata + env.metadata_length, 6).ok());
  file.replace(m.sketches_offset + at, bytes.size(), bytes);
  m.sketches_checksum = format::SectionChecksum(file.data() + m.sketches_offset, m.sketches_length);
  std::string meta;
  m.EncodeTo(&meta);
  file.replace(env.metadata_offset, meta.size(), meta);
  format::Footer footer;
  EXPECT_TRUE(footer.DecodeFrom(base + file.size() - format::Footer::kEncodedLength, base + file.size()).ok());
  footer.metadata_checksum = format::SectionChecksum(meta.data(), meta.size());
  std::string f;
  footer.EncodeTo(&f);
  file.replace(file.size() - f.size(), f.size(), f);
  return file;
}

TEST(LshSketchTest, DamagedSketchesAreCorruptionNamingTheSectionAndDocument) {
  ScopedTempDir dir;
  const LshBuildOptions options = Options(16);
  const std::vector<Doc> docs = Documents(60, options.minhash, 11);
  ASSERT_TRUE(Build(dir.File("x.sdx"), options, docs).ok());
  const std::string file = ReadFileOrDie(dir.File("x.sdx"));
  auto query_all = [&](const std::string& bytes, Status* verify) {
    std::unique_ptr<LshIndexReader> reader;
    Status s = LshIndexReader::Open(NewMemoryFile(bytes), ReaderOptions(), &reader);
    if (!s.ok()) return s;
    *verify = reader->Verify();
    std::vector<LshMatch> got;
    for (const Doc& d : docs) {
      s = reader->Query(d.signature.data(), d.shingles, LshQueryOptions(), &got);
      if (!s.ok()) return s;
    }
    return s;
  };
  Status verify;
  ASSERT_TRUE(query_all(file, &verify).ok());
  ASSERT_TRUE(verify.ok());
  // Document 3's end offset past the data (offsets are 4 bytes here).
  std::string offset;
  format::PutFixed32(&offset, 0x7FFFFFFF);
  Status s = query_all(WithSketchBytes(file, 4 * 4, offset), &verify);
  EXPECT_TRUE(verify.IsCorruption());
  EXPECT_NE(verify.message().find("sketch section: document 3: offsets"), std::string::npos) << verify.ToString();
  EXPECT_TRUE(s.ok() || s.IsCorruption()) << s.ToString();
  // A hash count above k in document 0's sketch (its first byte: 2 c + t).
  s = query_all(WithSketchBytes(file, (docs.size() + 1) * 4, std::string(1, static_cast<char>(2 * 17))), &verify);
  EXPECT_TRUE(verify.IsCorruption());
  EXPECT_NE(verify.message().find("sketch section: document 0: "), std::string::npos) << verify.ToString();
  // A byte changed under its checksum.
  std::string bad = file;
  format::Envelope env;
  ASSERT_TRUE(format::OpenEnvelope(reinterpret_cast<const uint8_t*>(file.data()), file.size(), &env).ok());
  format::LshMetadata m;
  ASSERT_TRUE(m.DecodeFrom(env.metadata, env.metadata + env.metadata_length, 6).ok());
  bad[m.sketches_offset + m.sketches_length - 1] ^= 1;
  s = query_all(bad, &verify);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(s.message().find("sketch section (byte offset"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("checksum mismatch"), std::string::npos) << s.ToString();
}

TEST(LshSketchTest, EveryFlippedByteOfAFileWithSketchesIsFound) {
  ScopedTempDir dir;
  LshBuildOptions options = Options(4);
  options.bands = {4, 8};
  options.block_size = 64;
  const std::vector<Doc> docs = Documents(24, options.minhash, 12);
  ASSERT_TRUE(Build(dir.File("x.sdx"), options, docs).ok());
  const std::string file = ReadFileOrDie(dir.File("x.sdx"));
  for (size_t i = 0; i < file.size(); ++i) {
    std::string bad = file;
    bad[i] = static_cast<char>(bad[i] ^ 0x01);
    std::unique_ptr<LshIndexReader> reader;
    const Status open = LshIndexReader::Open(NewMemoryFile(bad), ReaderOptions(), &reader);
    if (!open.ok()) {
      EXPECT_TRUE(open.IsCorruption() || open.IsNotSupported()) << "byte " << i << ": " << open.ToString();
      continue;
    }
    std::vector<LshMatch> got;
    for (const Doc& d : docs) {
      const Status q = reader->Query(d.signature.data(), d.shingles, LshQueryOptions(), &got);
      EXPECT_TRUE(q.ok() || q.IsCorruption()) << "byte " << i << ": " << q.ToString();
    }
    EXPECT_TRUE(reader->Verify().IsCorruption()) << "byte " << i;
  }
}

}  // namespace
}  // namespace simdex
