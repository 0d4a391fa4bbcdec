#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "format/bit_reader.h"
#include "format/bit_writer.h"
#include "format/card/huffman.h"

namespace simdex::format {
namespace {

using Freqs = std::array<uint64_t, kHuffmanSymbols>;

// Unrestricted Huffman code lengths (the textbook heap construction).
std::vector<int> HuffmanLengths(const std::vector<uint64_t>& freqs) {
  struct Node { uint64_t w; int left, right; };
  std::vector<Node> nodes;
  using Entry = std::pair<uint64_t, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  for (size_t s = 0; s < freqs.size(); ++s) {
    nodes.push_back({freqs[s], -1, -1});
    if (freqs[s] > 0) heap.push({freqs[s], static_cast<int>(s)});
  }
  std::vector<int> lengths(freqs.size(), 0);
  if (heap.size() == 1) lengths[heap.top().second] = 1;
  while (heap.size() > 1) {
    const Entry a = heap.top(); heap.pop();
    const Entry b = heap.top(); heap.pop();
    nodes.push_back({a.first + b.first, a.second, b.second});
    heap.push({a.first + b.first, static_cast<int>(nodes.size() - 1)});
  }
  std::function<void(int, int)> walk = [&](int node, int depth) {
    if (nodes[node].left < 0) { lengths[node] = depth; return; }
    walk(nodes[node].left, depth + 1);
    walk(nodes[node].right, depth + 1);
  };
  if (heap.size() == 1 && nodes[heap.top().second].left >= 0) walk(heap.top().second, 0);
  return lengths;
}

template <typename Lengths>
uint64_t Cost(const std::vector<uint64_t>& freqs, const Lengths& lengths) {
  uint64_t c = 0;
  for (size_t s = 0; s < freqs.size(); ++s) c += freqs[s] * lengths[s];
  return c;
}

// Kraft sum in units of 2^-32.
template <typename Lengths>
uint64_t Kraft(const Lengths& lengths, size_t n) {
  uint64_t k = 0;
  for (size_t s = 0; s < n; ++s) {
    if (lengths[s] > 0) k += uint64_t{1} << (32 - lengths[s]);
  }
  return k;
}

std::vector<uint8_t> Build(const std::vector<uint64_t>& freqs, int max_len) {
  std::vector<uint8_t> lengths(freqs.size());
  BuildCodeLengths(freqs.data(), static_cast<int>(freqs.size()), max_len, lengths.data());
  return lengths;
}

TEST(BuildCodeLengths, NoUsedSymbolGivesAllZero) {
  const auto lengths = Build(std::vector<uint64_t>(65, 0), kMaxCodeLength);
  EXPECT_EQ(std::count(lengths.begin(), lengths.end(), 0), 65);
}

TEST(BuildCodeLengths, SingleSymbolGetsLengthOne) {
  std::vector<uint64_t> freqs(65, 0);
  freqs[64] = 1000;
  const auto lengths = Build(freqs, kMaxCodeLength);
  EXPECT_EQ(lengths[64], 1);
  EXPECT_EQ(std::count(lengths.begin(), lengths.end(), 0), 64);
}

TEST(BuildCodeLengths, TwoSymbolsGetOneBitEach) {
  std::vector<uint64_t> freqs(65, 0);
  freqs[3] = 1;
  freqs[40] = 1000000;
  const auto lengths = Build(freqs, kMaxCodeLength);
  EXPECT_EQ(lengths[3], 1);
  EXPECT_EQ(lengths[40], 1);
}

TEST(BuildCodeLengths, AllSixtyFiveEqualSymbolsUseSixAndSevenBits) {
  const auto lengths = Build(std::vector<uint64_t>(65, 7), kMaxCodeLength);
  EXPECT_EQ(std::count(lengths.begin(), lengths.end(), 6), 63);
  EXPECT_EQ(std::count(lengths.begin(), lengths.end(), 7), 2);
  EXPECT_EQ(Kraft(lengths, 65), uint64_t{1} << 32);
}

// Where the unrestricted Huffman code already respects the limit, the
// limited code must cost exactly as much; it is never cheaper.
TEST(BuildCodeLengths, MatchesHuffmanCostWhenTheLimitDoesNotBind) {
  std::mt19937_64 rng(3);
  int compared = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const size_t nsym = 2 + rng() % 64;
    std::vector<uint64_t> freqs(nsym);
    const int shape = trial % 3;
    for (auto& f : freqs) {
      if (shape == 0) f = rng() % 1000;
      if (shape == 1) f = rng() % 4 == 0 ? 0 : 1 + (rng() % (uint64_t{1} << (rng() % 30)));
      if (shape == 2) f = uint64_t{1} << (rng() % 12);
    }
    const std::vector<int> huffman = HuffmanLengths(freqs);
    const int longest = *std::max_element(huffman.begin(), huffman.end());
    for (int max_len : {kMaxCodeLength, 15, 32}) {
      const auto limited = Build(freqs, max_len);
      ASSERT_LE(*std::max_element(limited.begin(), limited.end()), max_len);
      ASSERT_GE(Cost(freqs, limited), Cost(freqs, huffman));
      for (size_t s = 0; s < nsym; ++s) ASSERT_EQ(limited[s] == 0, freqs[s] == 0);
      if (longest <= max_len) {
        ASSERT_EQ(Cost(freqs, limited), Cost(freqs, huffman)) << "trial " << trial;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 3000);
}

// Fibonacci weights make the deepest possible Huffman tree (depth 64 for
// 65 symbols): the limit must hold and the code must stay complete.
TEST(BuildCodeLengths, LimitHoldsForFibonacciFrequencies) {
  std::vector<uint64_t> freqs(kHuffmanSymbols);
  uint64_t a = 1, b = 1;
  for (auto& f : freqs) {
    f = a;
    const uint64_t c = a + b;
    a = b;
    b = std::min<uint64_t>(c, uint64_t{1} << 50);
  }
  const std::vector<int> unlimited = HuffmanLengths(freqs);
  EXPECT_GT(*std::max_element(unlimited.begin(), unlimited.end()), 40);
  for (int max_len = 7; max_len <= kMaxCodeLength; ++max_len) {
    const auto lengths = Build(freqs, max_len);
    EXPECT_EQ(*std::max_element(lengths.begin(), lengths.end()), max_len);
    EXPECT_EQ(Kraft(lengths, lengths.size()), uint64_t{1} << 32);
  }
}

// Optimality where the limit binds, against exhaustive search: for small
// alphabets, try every length assignment with a Kraft sum <= 1.
TEST(BuildCodeLengths, IsOptimalUnderTheLimitForSmallAlphabets) {
  std::mt19937_64 rng(4);
  for (int trial = 0; trial < 300; ++trial) {
    const size_t nsym = 2 + rng() % 5;
    const int max_len = 2 + static_cast<int>(rng() % 3);
    if ((size_t{1} << max_len) < nsym) continue;
    std::vector<uint64_t> freqs(nsym);
    for (auto& f : freqs) f = 1 + (rng() % (uint64_t{1} << (rng() % 20)));
    uint64_t best = ~uint64_t{0};
    std::vector<int> lens(nsym, 1);
    for (;;) {
      if (Kraft(lens, nsym) <= (uint64_t{1} << 32)) best = std::min(best, Cost(freqs, lens));
      size_t i = 0;
      while (i < nsym && lens[i] == max_len) lens[i++] = 1;
      if (i == nsym) break;
      ++lens[i];
    }
    EXPECT_EQ(Cost(freqs, Build(freqs, max_len)), best) << "trial " << trial;
  }
}

HuffmanCodeLengths RandomLengths(std::mt19937_64& rng) {
  Freqs freqs{};
  const int used = 1 + static_cast<int>(rng() % kHuffmanSymbols);
  for (int i = 0; i < used; ++i) freqs[rng() % kHuffmanSymbols] = 1 + (rng() % (uint64_t{1} << (rng() % 40)));
  return HuffmanCodeLengths::FromFrequencies(freqs.data());
}

TEST(HuffmanEncoderTable, CanonicalCodesArePrefixFreeAndOrdered) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const HuffmanCodeLengths lengths = RandomLengths(rng);
    const HuffmanEncoderTable code(lengths);
    // Left-aligned in 11 bits, canonical codes increase with (length, symbol)
    // and no code's interval overlaps the next one's.
    std::vector<std::pair<int, int>> order;
    for (int s = 0; s < kHuffmanSymbols; ++s) {
      ASSERT_EQ(code[s].length, lengths.lengths[s]);
      if (lengths.lengths[s] > 0) order.push_back({lengths.lengths[s], s});
    }
    std::sort(order.begin(), order.end());
    uint32_t next_free = 0;
    for (const auto& [len, s] : order) {
      const uint32_t start = uint32_t{code[s].code} << (kMaxCodeLength - len);
      ASSERT_GE(start, next_free) << "symbol " << s;
      next_free = start + (uint32_t{1} << (kMaxCodeLength - len));
    }
  }
}

TEST(HuffmanDecoder, DecodesEveryCodewordWithAnyFollowingBits) {
  std::mt19937_64 rng(6);
  for (int trial = 0; trial < 200; ++trial) {
    const HuffmanCodeLengths lengths = RandomLengths(rng);
    const HuffmanEncoderTable code(lengths);
    HuffmanDecoder decoder;
    ASSERT_TRUE(decoder.Init(lengths).ok());
    for (int s = 0; s < kHuffmanSymbols; ++s) {
      const int len = code[s].length;
      if (len == 0) continue;
      const uint32_t tail = static_cast<uint32_t>(rng()) & ((1u << (kMaxCodeLength - len)) - 1);
      const auto e = decoder.Lookup((uint32_t{code[s].code} << (kMaxCodeLength - len)) | tail);
      ASSERT_EQ(e.symbol, s);
      ASSERT_EQ(e.length, len);
    }
  }
}

TEST(HuffmanDecoder, RoundTripsASymbolStream) {
  std::mt19937_64 rng(7);
  Freqs freqs{};
  for (int s = 0; s < kHuffmanSymbols; ++s) freqs[s] = 1 + 1000 / (1 + (s - 23) * (s - 23));
  const HuffmanCodeLengths lengths = HuffmanCodeLengths::FromFrequencies(freqs.data());
  const HuffmanEncoderTable code(lengths);
  HuffmanDecoder decoder;
  ASSERT_TRUE(decoder.Init(lengths).ok());
  std::vector<int> symbols(5000);
  std::string bytes;
  BitWriter w(&bytes);
  for (int& s : symbols) {
    s = static_cast<int>(rng() % kHuffmanSymbols);
    w.Write(code[s].code, code[s].length);
  }
  w.Finish();
  for (bool plain : {false, true}) {
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    BitReader r(p, p + bytes.size(), plain);
    for (int s : symbols) {
      const auto e = decoder.Lookup(static_cast<uint32_t>(r.Peek(kMaxCodeLength)));
      ASSERT_EQ(e.symbol, s);
      r.Skip(e.length);
    }
    EXPECT_FALSE(r.overflowed());
  }
}

TEST(HuffmanDecoder, SingleSymbolCodeLeavesTheOtherHalfInvalid) {
  HuffmanCodeLengths lengths;
  lengths.lengths[64] = 1;
  HuffmanDecoder decoder;
  ASSERT_TRUE(decoder.Init(lengths).ok());
  EXPECT_EQ(decoder.Lookup(0).symbol, 64);
  EXPECT_EQ(decoder.Lookup(0).length, 1);
  EXPECT_EQ(decoder.Lookup(1023).length, 1);
  EXPECT_EQ(decoder.Lookup(1024).length, 0);
  EXPECT_EQ(decoder.Lookup(2047).length, 0);
}

TEST(HuffmanDecoder, RejectsInvalidLengthSets) {
  HuffmanDecoder decoder;
  HuffmanCodeLengths none;
  EXPECT_TRUE(decoder.Init(none).IsCorruption());

  HuffmanCodeLengths single_long;  // one symbol, but of length 2
  single_long.lengths[5] = 2;
  EXPECT_TRUE(decoder.Init(single_long).IsCorruption());

  HuffmanCodeLengths oversubscribed;  // 1/2 + 1/2 + 1/4
  oversubscribed.lengths[0] = 1;
  oversubscribed.lengths[1] = 1;
  oversubscribed.lengths[2] = 2;
  const Status s = decoder.Init(oversubscribed);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_EQ(s.message(), "invalid Huffman code lengths");

  HuffmanCodeLengths incomplete;  // 1/2 + 1/4
  incomplete.lengths[0] = 1;
  incomplete.lengths[1] = 2;
  EXPECT_TRUE(decoder.Init(incomplete).IsCorruption());

  HuffmanCodeLengths too_long;  // complete, but a length of 12
  too_long.lengths[0] = 1;
  too_long.lengths[1] = 2;
  for (int s2 = 2; s2 < 12; ++s2) too_long.lengths[s2] = static_cast<uint8_t>(s2 + 1);
  too_long.lengths[12] = 12;
  too_long.lengths[13] = 12;
  EXPECT_TRUE(decoder.Init(too_long).IsCorruption());
  // A failed Init leaves every entry invalid.
  EXPECT_EQ(decoder.Lookup(0).length, 0);
}

TEST(HuffmanCodeLengths, NibbleEncodingRoundTrips) {
  std::mt19937_64 rng(8);
  for (int trial = 0; trial < 100; ++trial) {
    const HuffmanCodeLengths lengths = RandomLengths(rng);
    std::string s = "prefix";
    lengths.EncodeTo(&s);
    ASSERT_EQ(s.size(), 6 + HuffmanCodeLengths::kEncodedLength);
    ASSERT_EQ(HuffmanCodeLengths::kEncodedLength, 33u);
    const auto* p = reinterpret_cast<const uint8_t*>(s.data()) + 6;
    HuffmanCodeLengths decoded;
    ASSERT_TRUE(decoded.DecodeFrom(p, p + 33).ok());
    EXPECT_EQ(decoded.lengths, lengths.lengths);
  }
}

TEST(HuffmanCodeLengths, NibblesAreHighFirst) {
  HuffmanCodeLengths lengths;
  lengths.lengths[0] = 1;
  lengths.lengths[1] = 2;
  lengths.lengths[64] = 3;
  std::string s;
  lengths.EncodeTo(&s);
  EXPECT_EQ(static_cast<uint8_t>(s[0]), 0x12);
  EXPECT_EQ(static_cast<uint8_t>(s[32]), 0x30);
}

TEST(HuffmanCodeLengths, DecodeRejectsTruncationBadLengthsAndPadding) {
  std::string s(33, '\0');
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  HuffmanCodeLengths lengths;
  EXPECT_EQ(lengths.DecodeFrom(p, p + 32).message(), "truncated Huffman code lengths");
  s[32] = 0x01;
  EXPECT_EQ(lengths.DecodeFrom(p, p + 33).message(), "nonzero padding in Huffman code lengths");
  s[32] = 0;
  s[3] = static_cast<char>(0xc0);
  EXPECT_EQ(lengths.DecodeFrom(p, p + 33).message(), "Huffman code length 12 of symbol 6 exceeds 11");
}

}  // namespace
}  // namespace simdex::format
