// MinHash signatures, band keys and b-bit signatures against
// tests/golden/minhash_v1.tsv, which tests/golden/make_minhash_golden.py
// derives from include/simdex/minhash.h with PyICU and python3-xxhash,
// apart from engine/. A change of any of them fails here: signatures are
// stable across machines and versions (docs/minhash.md).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "simdex/minhash.h"

namespace simdex {
namespace {

std::vector<std::string> Split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::stringstream in(line);
  for (std::string field; std::getline(in, field, sep);) out.push_back(field);
  return out;
}

// The JSON string of the vectors file (ensure_ascii off: only \" \\ \t \n
// \r and \uXXXX of control characters are escaped).
std::string Unquote(const std::string& json) {
  std::string out;
  for (size_t i = 1; i + 1 < json.size(); ++i) {
    if (json[i] != '\\') {
      out.push_back(json[i]);
      continue;
    }
    const char c = json[++i];
    if (c == 'n') out.push_back('\n');
    else if (c == 't') out.push_back('\t');
    else if (c == 'r') out.push_back('\r');
    else if (c == 'u') {
      out.push_back(static_cast<char>(std::stoi(json.substr(i + 1, 4), nullptr, 16)));
      i += 4;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string Hex(const std::vector<uint8_t>& bytes) {
  std::string out;
  char b[3];
  for (uint8_t v : bytes) {
    std::snprintf(b, sizeof b, "%02x", v);
    out += b;
  }
  return out;
}

const char* KindName(ShingleKind kind) {
  return kind == ShingleKind::kNone ? "none" : kind == ShingleKind::kWords ? "words" : "chars";
}

TEST(MinHashGolden, SignaturesBandKeysAndPackedSignaturesMatchTheReference) {
  std::ifstream in(std::string(SIMDEX_SOURCE_DIR) + "/tests/golden/minhash_v1.tsv");
  ASSERT_TRUE(in.good());
  int rows = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = Split(line, '\t');
    ASSERT_EQ(f.size(), 9u) << line;
    MinHashOptions o;
    o.num_perm = std::stoi(f[0]);
    o.seed = std::stoull(f[1]);
    ASSERT_TRUE(ParseShingleWords(f[2], &o.shingles.words)) << line;
    f.erase(f.begin() + 2);  // the columns after it as before word definitions
    std::unique_ptr<MinHasher> hasher;
    ASSERT_TRUE(MinHasher::Create(o, &hasher).ok());
    const std::string text = Unquote(f[2]);
    std::vector<uint32_t> sig(o.num_perm);
    EXPECT_STREQ(KindName(hasher->Sign(text, sig.data())), f[3].c_str()) << f[2];
    std::string got;
    char v[20];
    for (uint32_t x : sig) {
      std::snprintf(v, sizeof v, "%s%08x", got.empty() ? "" : ",", x);
      got += v;
    }
    EXPECT_EQ(got, f[4]) << f[2];
    std::vector<uint64_t> keys(o.num_perm / 4);
    BandKeys(sig.data(), {o.num_perm / 4, 4}, keys.data());
    got.clear();
    for (uint64_t k : keys) {
      std::snprintf(v, sizeof v, "%s%016llx", got.empty() ? "" : ",", static_cast<unsigned long long>(k));
      got += v;
    }
    EXPECT_EQ(got, f[5]) << f[2];
    for (const int bits : {4, 8}) {
      std::vector<uint8_t> packed(PackedSignatureBytes(o.num_perm, bits));
      PackSignature(sig.data(), o.num_perm, bits, packed.data());
      EXPECT_EQ(Hex(packed), f[bits == 4 ? 6 : 7]) << f[2] << " bits " << bits;
    }
    ++rows;
  }
  EXPECT_EQ(rows, 32);  // 16 texts, space-split then word-chars
}

}  // namespace
}  // namespace simdex
