// Package-merge code lengths, canonical code assignment, the decode table
// and the nibble serialization of the code lengths (huffman.h).
#include "format/card/huffman.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <vector>

namespace simdex::format {

namespace {

// One item of a package-merge list: a leaf (a single symbol) or a package
// of two items of the next deeper list.
struct Item {
  uint64_t weight;
  bool is_package;
};

// Canonical codes (DEFLATE, RFC 1951 section 3.2.2): the first code of each
// length follows the last code of the previous length, shifted left.
std::array<uint16_t, kMaxCodeLength + 1> FirstCodes(const HuffmanCodeLengths& lengths) {
  std::array<int, kMaxCodeLength + 1> count{};
  for (uint8_t len : lengths.lengths) {
    assert(len <= kMaxCodeLength);
    if (len > 0) ++count[len];
  }
  std::array<uint16_t, kMaxCodeLength + 1> first{};
  uint32_t code = 0;
  for (int len = 1; len <= kMaxCodeLength; ++len) {
    code = (code + count[len - 1]) << 1;  // count[0] is 0
    first[len] = static_cast<uint16_t>(code);
  }
  return first;
}

}  // namespace

void BuildCodeLengths(const uint64_t* freqs, int nsym, int max_len, uint8_t* lengths) {
  assert(nsym >= 0 && max_len >= 1 && max_len <= 32);
  std::fill(lengths, lengths + nsym, uint8_t{0});
  std::vector<int> used;
  for (int s = 0; s < nsym; ++s) {
    if (freqs[s] > 0) used.push_back(s);
  }
  const size_t m = used.size();
  if (m == 0) return;
  if (m == 1) {
    lengths[used[0]] = 1;
    return;
  }
  assert(max_len >= 32 || (size_t{1} << max_len) >= m);
  // Lightest first; ties by symbol, so the result is deterministic.
  std::stable_sort(used.begin(), used.end(), [&](int a, int b) { return freqs[a] < freqs[b]; });

  // lists[d] is the list for depth max_len - d: lists[0] holds the leaves
  // alone; each shallower list merges the leaves with the pairs of the list
  // below it. Leaves go first on equal weights.
  std::vector<std::vector<Item>> lists(max_len);
  for (int s : used) lists[0].push_back({freqs[s], false});
  for (int d = 1; d < max_len; ++d) {
    const std::vector<Item>& below = lists[d - 1];
    std::vector<Item>& list = lists[d];
    list.reserve(m + below.size() / 2);
    size_t leaf = 0, pair = 0;
    const size_t npairs = below.size() / 2;
    while (leaf < m || pair < npairs) {
      const uint64_t pw = pair < npairs ? below[2 * pair].weight + below[2 * pair + 1].weight : 0;
      if (pair == npairs || (leaf < m && freqs[used[leaf]] <= pw)) {
        list.push_back({freqs[used[leaf++]], false});
      } else {
        list.push_back({pw, true});
        ++pair;
      }
    }
  }

  // Take the 2m - 2 lightest items of the shallowest list. Every leaf taken
  // at any depth adds one to its symbol's length; the packages taken expand
  // into the first 2 * packages items of the list below. The leaves of a
  // prefix are always the lightest symbols, so a count is enough.
  size_t take = 2 * m - 2;
  for (int d = max_len - 1; d >= 0 && take > 0; --d) {
    const std::vector<Item>& list = lists[d];
    assert(take <= list.size());
    size_t packages = 0;
    for (size_t i = 0; i < take; ++i) packages += list[i].is_package;
    const size_t leaves = take - packages;
    for (size_t i = 0; i < leaves; ++i) ++lengths[used[i]];
    take = 2 * packages;
  }
}

HuffmanCodeLengths HuffmanCodeLengths::FromFrequencies(const uint64_t* freqs) {
  HuffmanCodeLengths result;
  BuildCodeLengths(freqs, kHuffmanSymbols, kMaxCodeLength, result.lengths.data());
  return result;
}

void HuffmanCodeLengths::EncodeTo(std::string* dst) const {
  for (int s = 0; s < kHuffmanSymbols; s += 2) {
    const uint8_t low = s + 1 < kHuffmanSymbols ? lengths[s + 1] : 0;
    dst->push_back(static_cast<char>((lengths[s] << 4) | low));
  }
}

Status HuffmanCodeLengths::DecodeFrom(const uint8_t* ptr, const uint8_t* limit) {
  if (limit - ptr < static_cast<std::ptrdiff_t>(kEncodedLength)) {
    return Status::Corruption("truncated Huffman code lengths");
  }
  std::array<uint8_t, kHuffmanSymbols + 1> nibbles;
  for (size_t i = 0; i < kEncodedLength; ++i) {
    nibbles[2 * i] = ptr[i] >> 4;
    nibbles[2 * i + 1] = ptr[i] & 0x0f;
  }
  if (nibbles[kHuffmanSymbols] != 0) {
    return Status::Corruption("nonzero padding in Huffman code lengths");
  }
  for (int s = 0; s < kHuffmanSymbols; ++s) {
    if (nibbles[s] > kMaxCodeLength) {
      return Status::Corruption("Huffman code length " + std::to_string(nibbles[s]) + " of symbol " +
                                std::to_string(s) + " exceeds " + std::to_string(kMaxCodeLength));
    }
  }
  std::copy_n(nibbles.begin(), kHuffmanSymbols, lengths.begin());
  return Status::OK();
}

HuffmanEncoderTable::HuffmanEncoderTable(const HuffmanCodeLengths& lengths) {
  std::array<uint16_t, kMaxCodeLength + 1> next = FirstCodes(lengths);
  for (int s = 0; s < kHuffmanSymbols; ++s) {
    const uint8_t len = lengths.lengths[s];
    if (len > 0) codes_[s] = HuffmanCode{next[len]++, len};
  }
}

HuffmanDecoder::HuffmanDecoder() { table_.fill(Entry{0, 0, 0, 0}); }

Status HuffmanDecoder::Init(const HuffmanCodeLengths& lengths, const uint8_t* extra_bits) {
  table_.fill(Entry{0, 0, 0, 0});
  uint32_t kraft = 0;  // in units of 2^-kTableBits
  int used = 0;
  for (uint8_t len : lengths.lengths) {
    if (len > kMaxCodeLength) return Status::Corruption("invalid Huffman code lengths");
    if (len > 0) {
      kraft += uint32_t{1} << (kTableBits - len);
      ++used;
    }
  }
  const bool complete = kraft == (uint32_t{1} << kTableBits);
  const bool single = used == 1 && kraft == (uint32_t{1} << (kTableBits - 1));
  if (!complete && !single) return Status::Corruption("invalid Huffman code lengths");

  std::array<uint16_t, kMaxCodeLength + 1> next = FirstCodes(lengths);
  for (int s = 0; s < kHuffmanSymbols; ++s) {
    const int len = lengths.lengths[s];
    if (len == 0) continue;
    const uint32_t code = next[len]++;
    const uint32_t first = code << (kTableBits - len);
    const uint32_t span = uint32_t{1} << (kTableBits - len);
    const int total = len + (extra_bits == nullptr ? 0 : extra_bits[s]);
    assert(extra_bits == nullptr || extra_bits[s] <= 64);
    std::fill_n(table_.begin() + first, span,
                Entry{static_cast<uint8_t>(s), static_cast<uint8_t>(len), static_cast<uint8_t>(total), 0});
  }
  return Status::OK();
}

}  // namespace simdex::format
