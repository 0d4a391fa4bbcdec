// The sketch section's codec (format/lsh/sketch_section.h): the example of
// docs/format.md encoded by hand, round trips of random sketches, and every
// malformed sketch refused as Corruption without reading past its bytes
// (each decode is given a copy of exactly its bytes, so the sanitizer
// build catches a read past them).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "format/coding.h"
#include "format/lsh/sketch_section.h"

namespace simdex::format {
namespace {

std::string Bytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(static_cast<char>(b));
  return s;
}

Status Decode(const std::string& bytes, uint32_t k, std::vector<uint32_t>* hashes, bool* cut) {
  const std::vector<uint8_t> copy(bytes.begin(), bytes.end());
  return DecodeSketch(copy.data(), copy.data() + copy.size(), k, hashes, cut);
}

TEST(SketchSectionTest, TheExampleOfTheFormatPageEncodesByHand) {
  std::string out;
  EncodeSketch(std::vector<uint32_t>{5, 300, 70000}, false, &out);
  EXPECT_EQ(out, Bytes({0x06, 0x05, 0xa7, 0x02, 0xc4, 0xa0, 0x04}));
  std::vector<uint32_t> hashes;
  bool cut = true;
  ASSERT_TRUE(Decode(out, 3, &hashes, &cut).ok());
  EXPECT_EQ(hashes, (std::vector<uint32_t>{5, 300, 70000}));
  EXPECT_FALSE(cut);
  out.clear();
  EncodeSketch({}, false, &out);
  EXPECT_EQ(out, Bytes({0x00}));  // a document without shingles
}

TEST(SketchSectionTest, RandomSketchesRoundTrip) {
  std::mt19937_64 rng(1);
  for (int round = 0; round < 500; ++round) {
    const uint32_t k = 1 + static_cast<uint32_t>(rng() % 300);
    std::vector<uint32_t> v(rng() % (k + 1));
    for (uint32_t& x : v) x = round % 3 == 0 ? static_cast<uint32_t>(rng() % 1000) : static_cast<uint32_t>(rng());
    if (round % 5 == 0 && !v.empty()) v.back() = 0xFFFFFFFFu;
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    const bool cut = v.size() == k && round % 2 == 0;
    std::string out;
    EncodeSketch(v, cut, &out);
    std::vector<uint32_t> back;
    bool back_cut = false;
    ASSERT_TRUE(Decode(out, k, &back, &back_cut).ok());
    EXPECT_EQ(back, v);
    EXPECT_EQ(back_cut, cut);
  }
}

TEST(SketchSectionTest, MalformedSketchesAreCorruption) {
  std::vector<uint32_t> h;
  bool cut = false;
  const std::pair<std::string, const char*> bad[] = {
      {"", "sketch varint runs past its bytes or past 32 bits"},
      {Bytes({0x80}), "sketch varint runs past its bytes or past 32 bits"},
      {Bytes({0x04, 0x05}), "truncated sketch"},                    // 2 hashes, 1 given
      {Bytes({0x08, 0x01, 0x01, 0x01, 0x01}), "sketch of 4 hashes for k = 3"},
      {Bytes({0x05, 0x01, 0x01}), "sketch of 2 hashes, cut, for k = 3"},  // cut below k
      {Bytes({0x04, 0x05, 0x00}), "sketch hashes not increasing"},
      {Bytes({0x04, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01}), "sketch hash passes 2^32 - 1"},
      {Bytes({0x02, 0xff, 0xff, 0xff, 0xff, 0x1f}), "sketch varint runs past its bytes or past 32 bits"},  // 33 bits
      {Bytes({0x02, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}), "sketch varint runs past its bytes or past 32 bits"},
      {Bytes({0x02, 0x05, 0x00}), "sketch has trailing bytes"},
  };
  for (const auto& [bytes, message] : bad) {
    const Status s = Decode(bytes, 3, &h, &cut);
    EXPECT_TRUE(s.IsCorruption()) << message;
    EXPECT_EQ(s.message(), message);
  }
}

TEST(SketchSectionTest, OffsetsOutsideTheDataNameTheDocument) {
  // Two documents, offsets 0, 3, 9 of 4 bytes, then 5 bytes of data.
  std::string section;
  for (uint32_t o : {0u, 3u, 9u}) PutFixed32(&section, o);
  section += std::string(5, '\0');
  const auto* p = reinterpret_cast<const uint8_t*>(section.data());
  const uint8_t *begin = nullptr, *end = nullptr;
  ASSERT_TRUE(SketchBytes(p, section.size(), 2, 4, 0, &begin, &end).ok());
  EXPECT_EQ(end - begin, 3);
  const Status s = SketchBytes(p, section.size(), 2, 4, 1, &begin, &end);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_EQ(s.message(), "sketch section: document 1: offsets 3..9 outside its 5 bytes of sketches");
}

}  // namespace
}  // namespace simdex::format
