#include "format/index_layout.h"

#include <gtest/gtest.h>

#include "format/card/huffman.h"
#include "format/coding.h"

namespace simdex::format {
namespace {

const uint8_t* U(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

// The card codec's parameters: code lengths n % 12 for symbol n, with
// symbol `bad` given `bad_length` instead when bad >= 0.
std::string CardParams(int bad = -1, uint8_t bad_length = 0) {
  HuffmanCodeLengths lengths;
  for (int n = 0; n < kHuffmanSymbols; ++n) lengths.lengths[n] = static_cast<uint8_t>(n % 12);
  if (bad >= 0) lengths.lengths[bad] = bad_length;
  std::string params;
  lengths.EncodeTo(&params);
  return params;
}

IndexMetadata SampleMetadata() {
  IndexMetadata m;
  m.entries = 1000;
  m.distinct_fingerprints = 990;
  m.block_size = 1024;
  m.widths = {16, 16, 16, 16};
  m.k = 3;
  for (int t = 0; t < 4; ++t) {
    TableMetadata tm;
    tm.leading_blocks = {static_cast<uint8_t>(t)};
    tm.blocks_offset = 4096 * (t + 1);
    tm.num_blocks = 7;
    tm.heads_offset = 4096 * (t + 1) + 7 * 1024;
    tm.heads_checksum = 0x1111 * t;
    tm.payload_bits = 44000 + t;
    tm.codec_params = CardParams();
    m.tables.push_back(tm);
  }
  m.rank_offset = 90000;
  m.rank_checksum = 5;
  m.ids_offset = 90056;
  m.ids_length = 1250;
  m.id_width = 10;
  m.id_base = 77;
  m.ids_checksum = 6;
  return m;
}

TEST(IndexLayout, HeaderRoundTripsAndRejectsEveryFlippedByte) {
  std::string enc;
  FileHeader().EncodeTo(&enc);
  ASSERT_EQ(enc.size(), FileHeader::kEncodedLength);
  EXPECT_TRUE(FileHeader().DecodeFrom(U(enc), U(enc) + enc.size()).ok());
  for (size_t i = 0; i < enc.size(); ++i) {
    std::string bad = enc;
    bad[i] ^= 0x20;
    EXPECT_FALSE(FileHeader().DecodeFrom(U(bad), U(bad) + bad.size()).ok()) << "byte " << i;
  }
  EXPECT_TRUE(FileHeader().DecodeFrom(U(enc), U(enc) + 63).IsCorruption());
}

TEST(IndexLayout, DamagedHeaderVersionIsCorruptionNotAnotherVersion) {
  std::string enc;
  FileHeader().EncodeTo(&enc);
  for (int i = 8; i < 12; ++i) {
    std::string bad = enc;
    bad[i] ^= 0x01;
    EXPECT_TRUE(FileHeader().DecodeFrom(U(bad), U(bad) + bad.size()).IsCorruption()) << "byte " << i;
  }
}

TEST(IndexLayout, FooterRoundTripsAndRejectsEveryFlippedByte) {
  Footer f;
  f.metadata_offset = 123456;
  f.metadata_length = 789;
  f.metadata_checksum = 0xDEADBEEFCAFEULL;
  f.file_size = 130000;
  std::string enc;
  f.EncodeTo(&enc);
  ASSERT_EQ(enc.size(), Footer::kEncodedLength);
  Footer g;
  ASSERT_TRUE(g.DecodeFrom(U(enc), U(enc) + enc.size()).ok());
  EXPECT_EQ(g.metadata_offset, f.metadata_offset);
  EXPECT_EQ(g.metadata_length, f.metadata_length);
  EXPECT_EQ(g.metadata_checksum, f.metadata_checksum);
  EXPECT_EQ(g.file_size, f.file_size);
  for (size_t i = 0; i < enc.size(); ++i) {
    std::string bad = enc;
    bad[i] ^= 0x01;
    EXPECT_FALSE(Footer().DecodeFrom(U(bad), U(bad) + bad.size()).ok()) << "byte " << i;
  }
}

TEST(IndexLayout, MetadataRoundTrips) {
  IndexMetadata m = SampleMetadata();
  std::string enc;
  m.EncodeTo(&enc);
  IndexMetadata d;
  Status s = d.DecodeFrom(U(enc), U(enc) + enc.size());
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(d.entries, m.entries);
  EXPECT_EQ(d.widths, m.widths);
  EXPECT_EQ(d.k, m.k);
  ASSERT_EQ(d.tables.size(), 4u);
  for (int t = 0; t < 4; ++t) {
    EXPECT_EQ(d.tables[t].leading_blocks, m.tables[t].leading_blocks);
    EXPECT_EQ(d.tables[t].codec, m.tables[t].codec);
    EXPECT_EQ(d.tables[t].codec_params, m.tables[t].codec_params);
    EXPECT_EQ(d.tables[t].heads_offset, m.tables[t].heads_offset);
    EXPECT_EQ(d.tables[t].payload_bits, m.tables[t].payload_bits);
  }
  EXPECT_EQ(d.id_width, 10);
  EXPECT_EQ(d.id_base, 77u);
  EXPECT_EQ(d.ids_checksum, 6u);
}

// Versions 1 and 2 have no codec tag: their tables are the card codec's,
// the 33 bytes of code lengths where version 3 has tag, length and
// parameters; everything else decodes as before.
TEST(IndexLayout, VersionTwoMetadataReadsAsTheCardCodec) {
  const IndexMetadata m = SampleMetadata();
  std::string v2, v3;
  m.EncodeTo(&v2, 2);
  m.EncodeTo(&v3, 3);
  EXPECT_EQ(v3.size(), v2.size() + 4 * 5);  // per table: a tag byte and a u32 length
  IndexMetadata d;
  Status s = d.DecodeFrom(U(v2), U(v2) + v2.size(), 2);
  ASSERT_TRUE(s.ok()) << s.ToString();
  for (int t = 0; t < 4; ++t) {
    EXPECT_EQ(d.tables[t].codec, static_cast<uint8_t>(CodecTag::kCard));
    EXPECT_EQ(d.tables[t].codec_params, m.tables[t].codec_params);
  }
  std::string again;
  d.EncodeTo(&again, 3);
  EXPECT_EQ(again, v3);
}

TEST(IndexLayout, ACodecThisBuildDoesNotHaveIsNotSupportedNamingTableAndTag) {
  IndexMetadata m = SampleMetadata();
  m.tables[2].codec = 200;
  std::string enc;
  m.EncodeTo(&enc);
  IndexMetadata d;
  Status s = d.DecodeFrom(U(enc), U(enc) + enc.size());
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.message().find("table 2: codec tag 200 (this build has card, ef)"), std::string::npos) << s.ToString();
}

TEST(IndexLayout, CodecParametersOfTheWrongLengthAreCorruption) {
  for (size_t length : {0, 32, 34, 1000}) {
    IndexMetadata m = SampleMetadata();
    m.tables[1].codec_params.resize(length, '\x11');
    std::string enc;
    m.EncodeTo(&enc);
    IndexMetadata d;
    Status s = d.DecodeFrom(U(enc), U(enc) + enc.size());
    EXPECT_TRUE(s.IsCorruption()) << length << ": " << s.ToString();
    EXPECT_NE(s.message().find("table 1"), std::string::npos) << s.ToString();
  }
  // A length that runs past the metadata is truncation, not a huge read.
  IndexMetadata m = SampleMetadata();
  std::string enc;
  m.EncodeTo(&enc);
  // entries, distinct, block size, scheme bytes, widths, table count; then
  // table 0: leading block, five u64 fields, the codec tag.
  const size_t length_at = 8 + 8 + 4 + 3 + 4 + 4 + (1 + 5 * 8 + 1);
  EncodeFixed32(enc.data() + length_at, 0xffffffffu);
  IndexMetadata d;
  Status s = d.DecodeFrom(U(enc), U(enc) + enc.size());
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find("truncated in table 0"), std::string::npos) << s.ToString();
}

// Version 4 ends the metadata with the fingerprint profile; versions 1-3
// have none and read as "" (unrecorded).
TEST(IndexLayout, MetadataCarriesTheProfileFromVersionFourOn) {
  IndexMetadata m = SampleMetadata();
  m.profile = "simdex-fp/3 words nfkc-casefold clean cap-numbers stop:en+zh tf seed:0";
  std::string v4, v3;
  m.EncodeTo(&v4);
  m.EncodeTo(&v3, 3);
  EXPECT_EQ(v4.size(), v3.size() + 4 + m.profile.size());
  IndexMetadata d;
  ASSERT_TRUE(d.DecodeFrom(U(v4), U(v4) + v4.size()).ok());
  EXPECT_EQ(d.profile, m.profile);
  d.profile = "stale";
  ASSERT_TRUE(d.DecodeFrom(U(v3), U(v3) + v3.size(), 3).ok());
  EXPECT_EQ(d.profile, "");
}

TEST(IndexLayout, AProfileLongerThanTheLimitIsCorruptionNotARead) {
  std::string enc;
  SampleMetadata().EncodeTo(&enc);  // ends with a u32 profile length of 0
  ASSERT_GE(enc.size(), 4u);
  std::string bad = enc.substr(0, enc.size() - 4);
  PutFixed32(&bad, kMaxProfileLength + 1);
  bad.append(kMaxProfileLength + 1, 'x');
  IndexMetadata d;
  Status s = d.DecodeFrom(U(bad), U(bad) + bad.size());
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find("profile"), std::string::npos) << s.message();
  // A byte that is not printable ASCII.
  bad = enc.substr(0, enc.size() - 4);
  PutFixed32(&bad, 3);
  bad.append("a\tb");
  s = d.DecodeFrom(U(bad), U(bad) + bad.size());
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find("profile byte 1"), std::string::npos) << s.message();
  // A length past the end is a truncation.
  bad = enc.substr(0, enc.size() - 4);
  PutFixed32(&bad, 100);
  bad.append(99, 'x');
  EXPECT_TRUE(d.DecodeFrom(U(bad), U(bad) + bad.size()).IsCorruption());
}

TEST(IndexLayout, TruncatedOrPaddedMetadataIsCorruption) {
  std::string enc;
  SampleMetadata().EncodeTo(&enc);
  for (size_t len = 0; len < enc.size(); ++len) {
    IndexMetadata d;
    EXPECT_TRUE(d.DecodeFrom(U(enc), U(enc) + len).IsCorruption()) << "length " << len;
  }
  enc.push_back('\0');
  IndexMetadata d;
  EXPECT_TRUE(d.DecodeFrom(U(enc), U(enc) + enc.size()).IsCorruption());
}

TEST(IndexLayout, OutOfRangeMetadataFieldsAreCorruption) {
  auto reject = [](IndexMetadata m, const char* what) {
    std::string enc;
    m.EncodeTo(&enc);
    IndexMetadata d;
    EXPECT_TRUE(d.DecodeFrom(U(enc), U(enc) + enc.size()).IsCorruption()) << what;
  };
  IndexMetadata m = SampleMetadata();
  m.block_size = 1000;
  reject(m, "block size not a power of two");
  m = SampleMetadata();
  m.block_size = 32;
  reject(m, "block size too small");
  m = SampleMetadata();
  m.widths = {16, 16, 16, 15};
  reject(m, "widths sum to 63");
  m = SampleMetadata();
  m.k = 4;
  reject(m, "k >= blocks");
  m = SampleMetadata();
  m.tables.pop_back();
  reject(m, "table count");
  m = SampleMetadata();
  m.tables[2].codec_params = CardParams(5, 12);
  reject(m, "code length > 11");
  m = SampleMetadata();
  m.id_width = 65;
  reject(m, "id width");
}

}  // namespace
}  // namespace simdex::format
