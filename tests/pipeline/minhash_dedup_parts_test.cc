// The pieces of include/simdex/minhash_dedup_parts.h, run as simdex.dask
// runs them (the batch cut into partitions, each shuffle by range, the
// assembly on one process), give exactly DeduplicateByMinHash's result on
// one machine: every record, every document pair with its estimate, and
// the counts, for random corpora and adversarial ones (many identical
// texts across partitions, documents without shingles, bands of one row
// that nearly every pair shares), over several partition and range counts;
// and the pieces refuse keys of another partition.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/batch.h"
#include "simdex/document_reader.h"
#include "simdex/minhash.h"
#include "simdex/minhash_dedup_parts.h"

namespace simdex {
namespace {

// n texts over a vocabulary of `words` words: bases, copies with a few
// words changed, exact copies (up to `copies` of one), empty and
// punctuation-only texts (no shingles).
std::vector<std::string> Corpus(int n, int words, int copies, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::string>> bases;
  std::vector<std::string> out;
  auto join = [](const std::vector<std::string>& w) {
    std::string t;
    for (const std::string& x : w) t += (t.empty() ? "" : " ") + x;
    return t;
  };
  while (static_cast<int>(out.size()) < n) {
    const uint64_t kind = rng() % 10;
    if (bases.empty() || kind < 3) {
      std::vector<std::string> base;
      for (uint64_t w = 20 + rng() % 30; w > 0; --w) base.push_back("w" + std::to_string(rng() % words));
      bases.push_back(base);
      out.push_back(join(base));
    } else if (kind < 6) {
      std::vector<std::string> copy = bases[rng() % bases.size()];
      for (uint64_t e = rng() % 3; e > 0; --e) copy[rng() % copy.size()] = "w" + std::to_string(rng() % words);
      out.push_back(join(copy));
    } else if (kind < 9) {
      const std::string text = join(bases[rng() % bases.size()]);
      for (uint64_t c = 1 + rng() % copies; c > 0; --c) out.push_back(text);
    } else {
      out.push_back(rng() % 2 ? "" : "  !! ... ");
    }
  }
  out.resize(static_cast<size_t>(n));
  std::shuffle(out.begin(), out.end(), rng);
  return out;
}

// An estimate as `simdex dedup --pairs` prints it ("%.6g").
float AsPrinted(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return static_cast<float>(std::strtod(text, nullptr));
}

// One partition as a signing task holds it.
struct Part {
  std::vector<uint64_t> keys, digests;
  std::vector<uint8_t> packed, empty;
};

struct Run {
  int partitions, ranges;
};

// The parts' result: records as (representative, empty, estimate), the
// document pairs, and the counts.
struct PartsResult {
  std::vector<std::tuple<uint64_t, bool, float>> records;
  EstimatedPairs pairs;
  std::vector<double> similarities;  // with a confirm spec
  MinHashDedupStats stats;
};

// Step 5: the document pairs confirmed by o.confirm where the texts are
// (each partition's documents are texts[cuts[p]...]); *clusters of the
// accepted pairs, which go to result->pairs.
void ConfirmAsParts(const std::vector<std::string>& texts, const std::vector<size_t>& cuts, const std::string& spec,
                    const MinHashItems& items, std::span<const double> scores, MinHashClusters* clusters,
                    PartsResult* result) {
  ConfirmOptions options;
  ASSERT_TRUE(ParseConfirmSpec(spec, &options).ok());
  std::unique_ptr<Confirmer> confirmer;
  ASSERT_TRUE(Confirmer::Create(options, &confirmer).ok());
  ConfirmCandidates candidates;
  CutConfirmCandidates(items.View(), &candidates);
  const size_t parts = candidates.pieces.size();
  std::vector<std::vector<ConfirmRows>> sent(parts);  // [p][q]
  std::vector<uint64_t> hashes;
  for (size_t p = 0; p < parts; ++p) {
    std::vector<uint32_t> positions;  // what partition p reads again
    std::vector<std::span<const uint32_t>> wanted;
    for (const std::vector<uint32_t>& w : candidates.wanted[p]) {
      positions.insert(positions.end(), w.begin(), w.end());
      wanted.push_back(w);
    }
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    ConfirmRows read;
    read.lims.assign(1, 0);
    for (uint32_t position : positions) {
      const std::string& text = texts[cuts[p] + position];
      if (options.measure == ConfirmMeasure::kJaccard) {
        confirmer->Shingles(text, &hashes);
        read.hashes.insert(read.hashes.end(), hashes.begin(), hashes.end());
      } else {
        read.bytes.insert(read.bytes.end(), text.begin(), text.end());
      }
      read.lims.push_back(read.hashes.size() + read.bytes.size());
    }
    ASSERT_TRUE(PickConfirmRows(static_cast<uint32_t>(p), positions, read.View(), wanted, &sent[p]).ok());
  }
  std::vector<ConfirmedPairs> checked(parts);
  std::vector<ConfirmedPairsView> views;
  for (size_t q = 0; q < parts; ++q) {
    std::vector<ConfirmRowsView> rows;
    for (size_t p = 0; p < parts; ++p) rows.push_back(sent[p][q].View());
    const EstimatedPairs& piece = candidates.pieces[q];
    ASSERT_TRUE(ConfirmPieces(confirmer.get(), {piece.a, piece.b, piece.estimates}, rows, &checked[q]).ok());
    const EstimatedPairs& c = checked[q].pairs;
    views.push_back({{c.a, c.b, c.estimates}, checked[q].similarities});
  }
  ConfirmedPairs accepted;
  ASSERT_TRUE(ClusterConfirmed(items.View(), scores, views, true, clusters, &accepted).ok());
  result->pairs = std::move(accepted.pairs);
  result->similarities = std::move(accepted.similarities);
}

// Runs the pieces over `texts` cut into run.partitions consecutive
// partitions (random sizes, some empty) and run.ranges ranges.
PartsResult RunParts(const std::vector<std::string>& texts, const std::vector<double>& scores,
                     const MinHashDedupOptions& o, double min_estimate, Run run, uint64_t seed) {
  std::unique_ptr<MinHasher> hasher;
  EXPECT_TRUE(MinHasher::Create(o.Signing(), &hasher).ok());
  const size_t nb = static_cast<size_t>(o.bands.bands), bytes = PackedSignatureBytes(o.num_perm, o.signature_bits);
  std::mt19937_64 rng(seed);
  std::vector<size_t> cuts = {0, texts.size()};
  for (int p = 1; p < run.partitions; ++p) cuts.push_back(rng() % (texts.size() + 1));
  std::sort(cuts.begin(), cuts.end());
  const uint32_t parts = static_cast<uint32_t>(run.partitions);
  std::vector<Part> part(parts);
  std::vector<uint64_t> sizes;
  std::vector<uint8_t> all_empty;
  std::vector<double> all_scores;
  std::vector<uint32_t> sig(static_cast<size_t>(o.num_perm));
  for (uint32_t p = 0; p < parts; ++p) {
    Part& x = part[p];
    for (size_t i = cuts[p]; i < cuts[p + 1]; ++i) {
      const bool has = hasher->Sign(texts[i], sig.data()) != ShingleKind::kNone;
      x.keys.resize(x.keys.size() + nb);
      x.packed.resize(x.packed.size() + bytes);
      BandKeys(sig.data(), o.bands, &x.keys[x.keys.size() - nb]);
      PackSignature(sig.data(), o.num_perm, o.signature_bits, &x.packed[x.packed.size() - bytes]);
      x.digests.push_back(has ? SignatureDigest(&x.keys[x.keys.size() - nb], nb, &x.packed[x.packed.size() - bytes], bytes)
                              : 0);
      x.empty.push_back(!has);
      all_scores.push_back(has ? scores[i] : 0);  // as the signing tasks keep them
    }
    sizes.push_back(x.digests.size());
    all_empty.insert(all_empty.end(), x.empty.begin(), x.empty.end());
  }
  const size_t ranges = static_cast<size_t>(run.ranges);
  // 1. Identical signatures.
  std::vector<std::vector<DigestPiece>> dsplit(parts);
  for (uint32_t p = 0; p < parts; ++p) {
    EXPECT_TRUE(SplitDigests(p, part[p].digests, part[p].empty, run.ranges, &dsplit[p]).ok());
  }
  std::vector<std::vector<Followers>> followers(ranges);  // [range][partition]
  for (size_t r = 0; r < ranges; ++r) {
    std::vector<DigestPieceView> pieces;
    for (uint32_t p = 0; p < parts; ++p) pieces.push_back({dsplit[p][r].digests, dsplit[p][r].keys});
    EXPECT_TRUE(FindFollowers(pieces, parts, &followers[r]).ok());
  }
  // 2. The band join.
  std::vector<std::vector<BandPiece>> bsplit(parts);
  for (uint32_t p = 0; p < parts; ++p) {
    std::vector<std::span<const uint32_t>> mine;
    for (size_t r = 0; r < ranges; ++r) mine.push_back(followers[r][p].positions);
    EXPECT_TRUE(SplitBandKeys(p, part[p].keys, o.bands.bands, part[p].empty, mine, run.ranges, &bsplit[p]).ok());
  }
  std::vector<std::vector<KeyPairs>> joined(ranges);  // [range][partition of a]
  for (size_t r = 0; r < ranges; ++r) {
    std::vector<BandPieceView> pieces;
    for (uint32_t p = 0; p < parts; ++p) pieces.push_back({bsplit[p][r].keys, bsplit[p][r].items, bsplit[p][r].lims});
    EXPECT_TRUE(JoinBandRange(pieces, parts, 2, &joined[r]).ok());
  }
  // 3. The estimate filter, through both halves; pairs by the partition of a.
  auto estimate = [&](const std::vector<std::vector<KeyPairsView>>& by_first, double filter,
                      std::vector<EstimatedPairs>* out) {
    std::vector<std::vector<SignedPairs>> attached(parts);
    for (uint32_t p = 0; p < parts; ++p) {
      EXPECT_TRUE(AttachFirstSignatures(p, by_first[p], part[p].packed, bytes, parts, &attached[p]).ok());
    }
    uint64_t candidates = 0;
    out->assign(parts, EstimatedPairs());
    for (uint32_t q = 0; q < parts; ++q) {
      std::vector<SignedPairsView> pieces;
      for (uint32_t p = 0; p < parts; ++p) {
        pieces.push_back({attached[p][q].a, attached[p][q].b, attached[p][q].signatures});
      }
      uint64_t c = 0;
      EXPECT_TRUE(EstimateSecond(q, pieces, part[q].packed, o.num_perm, o.signature_bits, filter, &(*out)[q], &c).ok());
      candidates += c;
    }
    return candidates;
  };
  std::vector<std::vector<KeyPairsView>> by_first(parts);
  for (uint32_t p = 0; p < parts; ++p) {
    for (size_t r = 0; r < ranges; ++r) by_first[p].push_back({joined[r][p].a, joined[r][p].b});
  }
  std::vector<EstimatedPairs> kept;
  const uint64_t candidates = estimate(by_first, min_estimate, &kept);
  // 4. The assembly.
  std::vector<FollowersView> fviews;
  for (size_t r = 0; r < ranges; ++r) {
    for (uint32_t p = 0; p < parts; ++p) fviews.push_back({p, followers[r][p].positions, followers[r][p].firsts});
  }
  std::vector<EstimatedPairsView> kviews;
  for (const EstimatedPairs& k : kept) kviews.push_back({k.a, k.b, k.estimates});
  MinHashItems items;
  EXPECT_TRUE(AssembleItems(sizes, all_empty, fviews, kviews, &items).ok());
  PartsResult result;
  MinHashClusters clusters;
  if (o.confirm.empty()) {
    DocumentPairs(items.View(), &result.pairs);
    EXPECT_TRUE(ClusterItems(items.View(), all_scores, &clusters).ok());
  } else {
    ConfirmAsParts(texts, cuts, o.confirm, items, all_scores, &clusters, &result);
  }
  std::vector<std::vector<KeyPairsView>> requests(parts);
  for (uint32_t p = 0; p < parts; ++p) requests[p].push_back({clusters.requests[p].a, clusters.requests[p].b});
  std::vector<EstimatedPairs> answers;
  estimate(requests, -1, &answers);
  std::vector<EstimatedPairsView> aviews;
  for (const EstimatedPairs& a : answers) aviews.push_back({a.a, a.b, a.estimates});
  std::vector<float> estimates;
  EXPECT_TRUE(FinishEstimates(items.View(), clusters.other, clusters.slot, aviews, &estimates).ok());
  for (size_t o2 = 0; o2 < estimates.size(); ++o2) {
    result.records.emplace_back(clusters.representative[o2], all_empty[o2] != 0, estimates[o2]);
  }
  result.stats = items.stats;
  result.stats.candidates = candidates;
  result.stats.clusters = clusters.clusters;
  result.stats.clustered_documents = clusters.clustered_documents;
  return result;
}

struct Case {
  const char* name;
  int n, words, copies;
  LshBands bands;
  int num_perm;
  double filter;  // the estimate filter; 0 keeps every candidate
};

// Runs the batch on one machine (DeduplicateByMinHash) and as parts, and
// expects every record, document pair and count to be equal; returns the
// one machine's counts and duplicates.
void ExpectPartsGiveTheOneMachineRun(const std::vector<std::string>& texts, const std::vector<double>& scores,
                                     const MinHashDedupOptions& o, Run run, uint64_t seed, MinHashDedupStats* stats,
                                     uint64_t* duplicates) {
  const std::vector<std::string_view> views(texts.begin(), texts.end());
  std::unique_ptr<MinHashDedupResult> one;
  ASSERT_TRUE(DeduplicateByMinHash(views, scores, o, nullptr, &one).ok());
  const PartsResult got = RunParts(texts, scores, o, o.estimate_filter, run, seed);

  ASSERT_EQ(got.records.size(), one->size());
  *duplicates = 0;
  for (uint64_t i = 0; i < one->size(); ++i) {
    const MinHashDedupRecord r = one->Record(i);
    ASSERT_EQ(std::get<0>(got.records[i]), r.representative) << i;
    ASSERT_EQ(std::get<1>(got.records[i]), r.empty) << i;
    ASSERT_EQ(std::get<2>(got.records[i]), r.estimate) << i;
    *duplicates += r.duplicate;
  }
  std::vector<std::tuple<uint64_t, uint64_t, float, float>> want;
  ASSERT_TRUE(one->ForEachPair([&](const MinHashDedupPair& p) {
                 want.emplace_back(p.a, p.b, p.estimate, p.similarity);
                 return Status::OK();
               }).ok());
  ASSERT_EQ(got.pairs.a.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    // The one-machine pairs keep their estimates and similarities as
    // printed (six digits).
    const float similarity = got.similarities.empty() ? -1 : AsPrinted(got.similarities[i]);
    ASSERT_EQ(std::make_tuple(got.pairs.a[i], got.pairs.b[i], AsPrinted(got.pairs.estimates[i]), similarity), want[i])
        << i;
  }
  const MinHashDedupStats& s = one->stats();
  EXPECT_EQ(got.stats.documents, s.documents);
  EXPECT_EQ(got.stats.empty, s.empty);
  EXPECT_EQ(got.stats.distinct_signatures, s.distinct_signatures);
  EXPECT_EQ(got.stats.candidates, s.candidates);
  EXPECT_EQ(got.stats.kept, s.kept);
  EXPECT_EQ(got.stats.document_pairs, s.document_pairs);
  EXPECT_EQ(got.stats.clusters, s.clusters);
  EXPECT_EQ(got.stats.clustered_documents, s.clustered_documents);
  *stats = s;
}

class MinHashDedupParts : public testing::TestWithParam<std::tuple<Case, Run>> {};

TEST_P(MinHashDedupParts, GiveExactlyTheOneMachineRun) {
  const auto& [c, run] = GetParam();
  const uint64_t seed = static_cast<uint64_t>(c.n) * 31 + static_cast<uint64_t>(run.partitions * 7 + run.ranges);
  const std::vector<std::string> texts = Corpus(c.n, c.words, c.copies, seed);
  std::vector<double> scores(texts.size());
  std::mt19937_64 rng(seed + 1);
  for (double& s : scores) s = static_cast<double>(rng() % 3);  // ties
  MinHashDedupOptions o;
  o.exact = false;
  o.num_perm = c.num_perm;
  o.bands = c.bands;
  o.estimate_filter = c.filter;
  o.keep = KeepRule::kField;
  o.keep_pairs = true;
  MinHashDedupStats s;
  uint64_t duplicates = 0;
  ExpectPartsGiveTheOneMachineRun(texts, scores, o, run, seed + 2, &s, &duplicates);
  // The case is not trivial: copies, empties and pairs of distinct signatures.
  EXPECT_GT(s.empty, 0u);
  EXPECT_LT(s.distinct_signatures + s.empty, s.documents);
  EXPECT_GT(s.kept, 0u) << s.distinct_signatures << " distinct signatures, " << s.candidates << " candidates";
  EXPECT_GT(duplicates, s.documents / 10);
}

const Case kCases[] = {
    {"random", 500, 3000, 3, {16, 8}, 128, 0.729},
    {"identical", 300, 3000, 12, {16, 8}, 128, 0.729},  // runs of up to 12 copies across partitions
    {"one_row_bands", 250, 60, 2, {32, 1}, 32, 0.0},     // nearly every pair shares some band's key
    {"filter_half", 300, 200, 4, {8, 2}, 16, 0.5},
};
const Run kRuns[] = {{1, 1}, {3, 2}, {5, 7}};

std::string CaseName(const testing::TestParamInfo<std::tuple<Case, Run>>& param) {
  const Case& c = std::get<0>(param.param);
  const Run& run = std::get<1>(param.param);
  return std::string(c.name) + "_" + std::to_string(run.partitions) + "parts_" + std::to_string(run.ranges) + "ranges";
}

INSTANTIATE_TEST_SUITE_P(Corpora, MinHashDedupParts, testing::Combine(testing::ValuesIn(kCases), testing::ValuesIn(kRuns)),
                         CaseName);

TEST(MinHashDedupPartsErrors, KeysOfAnotherPartitionAreRefusedNamingThem) {
  const std::vector<uint8_t> packed(4 * 16, 0);
  const std::vector<uint64_t> a = {PartKey(1, 0)}, b = {PartKey(2, 0)};
  const KeyPairsView pieces[] = {{a, b}};
  std::vector<SignedPairs> out;
  Status s = AttachFirstSignatures(0, pieces, packed, 16, 3, &out);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("partition 1"), std::string::npos) << s.ToString();
  EXPECT_TRUE(AttachFirstSignatures(1, pieces, packed, 16, 2, &out).IsInvalidArgument());  // b of no partition
  const std::vector<uint64_t> sizes = {2, 1};
  const std::vector<uint8_t> empty = {0, 0, 0};
  const std::vector<uint32_t> positions = {0};
  const std::vector<uint64_t> firsts = {PartKey(1, 0)};  // a first document after its follower
  const FollowersView followers[] = {{0, positions, firsts}};
  MinHashItems items;
  s = AssembleItems(sizes, empty, followers, {}, &items);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("before its first"), std::string::npos) << s.ToString();
  std::vector<DigestPiece> split;
  EXPECT_TRUE(SplitDigests(0, sizes, empty, 1, &split).IsInvalidArgument());  // 2 digests, 3 flags
  EXPECT_TRUE(SplitDigests(0, sizes, {}, 0, &split).IsInvalidArgument());
}

__extension__ typedef unsigned __int128 Wide;

TEST(MinHashDedupPartsErrors, ConfirmRowsNotReadOrMissingAreRefusedNamingThem) {
  ConfirmRows read;  // partition 2's documents 3 and 5: two hashes, one
  read.lims = {0, 2, 3};
  read.hashes = {10, 20, 10};
  const std::vector<uint32_t> positions = {3, 5}, wanted = {5}, unread = {4};
  std::vector<ConfirmRows> picked;
  const std::span<const uint32_t> good[] = {wanted};
  ASSERT_TRUE(PickConfirmRows(2, positions, read.View(), good, &picked).ok());
  ASSERT_EQ(picked.size(), 1u);
  EXPECT_EQ(picked[0].keys, std::vector<uint64_t>{PartKey(2, 5)});
  EXPECT_EQ(picked[0].lims, (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(picked[0].hashes, std::vector<uint64_t>{10});
  const std::span<const uint32_t> bad[] = {unread};
  std::vector<ConfirmRows> none;
  Status s = PickConfirmRows(2, positions, read.View(), bad, &none);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("position 4 of partition 2"), std::string::npos) << s.ToString();
  ConfirmOptions options;
  ASSERT_TRUE(ParseConfirmSpec("jaccard:0.5", &options).ok());
  std::unique_ptr<Confirmer> confirmer;
  ASSERT_TRUE(Confirmer::Create(options, &confirmer).ok());
  const std::vector<uint64_t> a = {PartKey(2, 5)}, b = {PartKey(3, 0)};
  const std::vector<double> estimates = {0.9};
  const ConfirmRowsView rows[] = {picked[0].View()};
  ConfirmedPairs confirmed;
  s = ConfirmPieces(confirmer.get(), {a, b, estimates}, rows, &confirmed);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("partition 3, position 0) has no rows"), std::string::npos) << s.ToString();
}

TEST(MinHashDedupPartsRanges, HashRangeIsFloorOfValueTimesRangesOver2To64) {
  for (int ranges : {1, 3, 7, 1000, 1 << 16}) {
    for (uint64_t v : {uint64_t{0}, uint64_t{1}, (uint64_t{1} << 63) - 1, uint64_t{1} << 63, ~uint64_t{0},
                       uint64_t{0x9E3779B97F4A7C15}}) {
      const uint64_t want = static_cast<uint64_t>((Wide{v} * static_cast<unsigned>(ranges)) >> 64);
      EXPECT_EQ(static_cast<uint64_t>(HashRange(v, ranges)), want) << v << " " << ranges;
    }
  }
}

// With a confirm spec (code point 3-grams, and edit, whose rows are the
// texts), the pairs are confirmed where the texts are, at the partition of
// their second document, and the accepted ones alone make the clusters.
class MinHashDedupPartsConfirm : public testing::TestWithParam<std::tuple<const char*, Run>> {};

TEST_P(MinHashDedupPartsConfirm, ConfirmedWhereTheTextsAreGiveExactlyTheOneMachineRun) {
  const auto& [spec, run] = GetParam();
  const uint64_t seed = 17 + static_cast<uint64_t>(run.partitions * 7 + run.ranges);
  const std::vector<std::string> texts = Corpus(300, 300, 4, seed);
  std::vector<double> scores(texts.size());
  std::mt19937_64 rng(seed + 1);
  for (double& s : scores) s = static_cast<double>(rng() % 3);
  MinHashDedupOptions o;
  o.exact = false;
  o.num_perm = 64;
  o.bands = {16, 4};
  o.estimate_filter = 0.3;
  o.confirm = spec;
  o.keep = KeepRule::kField;
  o.keep_pairs = true;
  MinHashDedupStats s;
  uint64_t duplicates = 0;
  ExpectPartsGiveTheOneMachineRun(texts, scores, o, run, seed + 2, &s, &duplicates);
  // The confirmation accepted some pairs and rejected others.
  EXPECT_GT(s.confirm.confirmed, 0u);
  EXPECT_LT(s.confirm.confirmed, s.document_pairs);
}

INSTANTIATE_TEST_SUITE_P(Specs, MinHashDedupPartsConfirm,
                         testing::Combine(testing::Values("jaccard:0.85", "edit:0.97"), testing::ValuesIn(kRuns)),
                         [](const testing::TestParamInfo<std::tuple<const char*, Run>>& param) {
                           const std::string spec = std::get<0>(param.param);
                           const Run& run = std::get<1>(param.param);
                           return spec.substr(0, spec.find(':')) + "_" + std::to_string(run.partitions) + "parts_" +
                                  std::to_string(run.ranges) + "ranges";
                         });

// The bundled sample (tests/data/sample/docs.jsonl: licences, their
// paragraphs and copies) at the command's defaults, scored by length as
// --keep longest scores it.
TEST(MinHashDedupPartsSample, GiveExactlyTheOneMachineRunOnTheSample) {
  DocumentReaderOptions read;
  std::unique_ptr<DocumentReader> reader;
  ASSERT_TRUE(DocumentReader::Open(SIMDEX_SOURCE_DIR "/tests/data/sample/docs.jsonl", read, &reader).ok());
  std::vector<std::string> texts;
  std::vector<double> scores;
  Document doc;
  for (bool eof = false;;) {
    ASSERT_TRUE(reader->Next(&doc, &eof).ok());
    if (eof) break;
    texts.push_back(doc.text);
    scores.push_back(static_cast<double>(CodePointLength(doc.text)));
  }
  MinHashDedupOptions o;
  o.exact = false;
  o.bands = DefaultLshBands(o.threshold, o.num_perm);
  o.estimate_filter = DefaultEstimateFilter(o.threshold, o.num_perm);
  o.keep = KeepRule::kField;
  o.keep_pairs = true;
  for (const simdex::Run run : {simdex::Run{1, 1}, simdex::Run{4, 3}}) {  // not the Test::Run of TEST
    SCOPED_TRACE(std::to_string(run.partitions) + " partitions, " + std::to_string(run.ranges) + " ranges");
    MinHashDedupStats s;
    uint64_t duplicates = 0;
    ExpectPartsGiveTheOneMachineRun(texts, scores, o, run, 7, &s, &duplicates);
    EXPECT_EQ(s.documents, 3183u);
    EXPECT_GT(s.kept, 100u);
    EXPECT_GT(duplicates, 300u);
  }
}

}  // namespace
}  // namespace simdex
