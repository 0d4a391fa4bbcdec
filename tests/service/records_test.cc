// The service's records: docId mixing, keys, and record bytes, including
// damaged values.
#include "engine/service/records.h"

#include <random>

#include <gtest/gtest.h>

namespace simdex::service {
namespace {

TEST(Records, MixSeqIsABijectionAndUnmixInvertsIt) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t x = i < 1000 ? static_cast<uint64_t>(i) : rng();
    ASSERT_EQ(UnmixDocId(MixSeq(x)), x);
    ASSERT_EQ(MixSeq(UnmixDocId(x)), x);
  }
  EXPECT_NE(MixSeq(0), 0u);
  EXPECT_NE(MixSeq(1), 1u);  // consecutive seqs spread
  EXPECT_GT(std::popcount(MixSeq(1) ^ MixSeq(2)), 10);
}

TEST(Records, KeysSortNumerically) {
  EXPECT_LT(SeqKey(255), SeqKey(256));
  EXPECT_LT(SecondKey(-5), SecondKey(3));
  EXPECT_LT(SecondKey(3), SecondKey(1700000000));
  int64_t s;
  ASSERT_TRUE(DecodeSecondKey(SecondKey(-42), &s));
  EXPECT_EQ(s, -42);
  uint64_t q;
  EXPECT_FALSE(DecodeSeqKey("short", &q));
}

TEST(Records, RecordsRoundTripAndDamagedOnesAreCorruption) {
  ArticleRecord a;
  a.doc_seq = 77;
  a.reason = 3;
  a.distance = 2;
  a.second = 1700000000;
  a.id_json = "\"a-1\"";
  a.url = "https://news.example/\xe8\xa8\x88";
  std::string bytes;
  a.EncodeTo(&bytes);
  ArticleRecord b;
  ASSERT_TRUE(b.DecodeFrom(bytes).ok());
  EXPECT_EQ(b.doc_seq, 77u);
  EXPECT_EQ(b.reason, 3);
  EXPECT_EQ(b.distance, 2);
  EXPECT_EQ(b.second, 1700000000);
  EXPECT_EQ(b.id_json, a.id_json);
  EXPECT_EQ(b.url, a.url);
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    EXPECT_TRUE(b.DecodeFrom(bytes.substr(0, cut)).IsCorruption()) << cut;
  }
  EXPECT_TRUE(b.DecodeFrom(bytes + "x").IsCorruption());
  // A MinHash content match keeps its estimate.
  a.similarity = 0.875;
  bytes.clear();
  a.EncodeTo(&bytes);
  ASSERT_TRUE(b.DecodeFrom(bytes).ok());
  EXPECT_EQ(b.similarity, 0.875);
  EXPECT_EQ(b.url, a.url);

  DocRecord d;
  d.second = 5;
  d.has_content = true;
  d.content_fp = 0xdeadbeef;
  d.score = 2.5;
  d.rep_seq = 9;
  d.id_json = "42";
  bytes.clear();
  d.EncodeTo(&bytes);
  DocRecord e;
  ASSERT_TRUE(e.DecodeFrom(bytes).ok());
  EXPECT_TRUE(e.has_content && !e.has_title && !e.has_rep);
  EXPECT_EQ(e.content_fp, 0xdeadbeefu);
  EXPECT_EQ(e.score, 2.5);
  EXPECT_EQ(e.id_json, "42");
  EXPECT_TRUE(e.DecodeFrom(bytes.substr(0, 20)).IsCorruption());
  EXPECT_FALSE(e.has_bands);
  d.has_content = false;
  d.has_bands = true;
  d.bands = std::string(192, '\x5a');
  bytes.clear();
  d.EncodeTo(&bytes);
  ASSERT_TRUE(e.DecodeFrom(bytes).ok());
  EXPECT_TRUE(e.has_bands && !e.has_content);
  EXPECT_EQ(e.bands, d.bands);
  EXPECT_TRUE(e.DecodeFrom(bytes.substr(0, bytes.size() - 1)).IsCorruption());

  Manifest m;
  m.compacted_seq = 10;
  m.next_file = 3;
  m.content_scheme = "t10";
  m.title_scheme = "16,16,16,16:0";
  m.files.push_back({1, "content-1.sdx", 0, 9, 8});
  m.files.push_back({0, "title-2.sdx", 2, 9, 4});
  m.files.push_back({kBandField, "content-lsh-3.sdx", 0, 9, 8});
  m.profile = "simdex-fp/3 words seed:0";
  m.content_method = 1;
  m.minhash_profile = "simdex-minhash/1 perm:128 seed:1";
  m.bands = 16;
  m.rows = 8;
  m.signature_bits = 4;
  bytes.clear();
  m.EncodeTo(&bytes);
  Manifest n;
  ASSERT_TRUE(n.DecodeFrom(bytes).ok());
  ASSERT_EQ(n.files.size(), 3u);
  EXPECT_EQ(n.files[1].name, "title-2.sdx");
  EXPECT_EQ(n.files[2].field, kBandField);
  EXPECT_EQ(n.title_scheme, "16,16,16,16:0");
  EXPECT_EQ(n.profile, m.profile);
  EXPECT_EQ(n.content_method, 1);
  EXPECT_EQ(n.minhash_profile, m.minhash_profile);
  EXPECT_EQ(n.bands * 100 + n.rows, 1608u);
  EXPECT_EQ(n.signature_bits, 4);
  // Version 3 (before content methods): SimHash contents.
  std::string v3 = bytes.substr(0, bytes.size() - 14 - m.minhash_profile.size());
  v3[0] = 3;
  ASSERT_TRUE(n.DecodeFrom(v3).ok());
  EXPECT_EQ(n.content_method, 0);
  EXPECT_EQ(n.minhash_profile, "");
  // Version 2 (before profiles): the same fields without the profile at the end.
  std::string v2 = v3.substr(0, v3.size() - 4 - m.profile.size());
  v2[0] = 2;
  ASSERT_TRUE(n.DecodeFrom(v2).ok());
  EXPECT_EQ(n.profile, "");
  EXPECT_EQ(n.files.size(), 3u);
  for (size_t cut = 0; cut < bytes.size(); ++cut) EXPECT_FALSE(n.DecodeFrom(bytes.substr(0, cut)).ok()) << cut;
  m.files[0].name = "../escape.sdx";
  bytes.clear();
  m.EncodeTo(&bytes);
  EXPECT_TRUE(n.DecodeFrom(bytes).IsCorruption());
}

}  // namespace
}  // namespace simdex::service
