#include "engine/compat/python_text.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/compat/python_vectors.h"

namespace simdex::compat {
namespace {

constexpr char32_t kMaxCodePoint = 0x10FFFF;

bool IsSurrogate(char32_t c) { return c >= 0xD800 && c <= 0xDFFF; }

// Code points assigned in Unicode 15.0 (ICU 72) and unassigned in 14.0
// (Python 3.11) that \w matches only under 15.0: the exceptions listed in
// engine/compat/python_text.h.
bool IsUnicode15TokenAddition(char32_t c) {
  static constexpr char32_t kRanges[][2] = {
      {0x1123F, 0x11240}, {0x11F02, 0x11F02}, {0x11F04, 0x11F10}, {0x11F12, 0x11F33},
      {0x11F50, 0x11F59}, {0x1342F, 0x1342F}, {0x13441, 0x13446}, {0x1B132, 0x1B132},
      {0x1B155, 0x1B155}, {0x1D2C0, 0x1D2D3}, {0x1DF25, 0x1DF2A}, {0x1E030, 0x1E06D},
      {0x1E4D0, 0x1E4EB}, {0x1E4F0, 0x1E4F9}, {0x2B739, 0x2B739}, {0x31350, 0x323AF},
  };
  for (const auto& r : kRanges) {
    if (c >= r[0] && c <= r[1]) return true;
  }
  return false;
}

// Code points assigned in Unicode 15.0 and unassigned in 14.0 that are
// cased or case-ignorable only under 15.0, so a Σ next to them may lower
// differently (also listed in engine/compat/python_text.h).
bool IsUnicode15CaseAddition(char32_t c) {
  static constexpr char32_t kRanges[][2] = {
      {0x0ECE, 0x0ECE},   {0x10EFD, 0x10EFF}, {0x11241, 0x11241}, {0x11F00, 0x11F01},
      {0x11F36, 0x11F3A}, {0x11F40, 0x11F40}, {0x11F42, 0x11F42}, {0x13439, 0x13440},
      {0x13447, 0x13455}, {0x1DF25, 0x1DF2A}, {0x1E030, 0x1E06D}, {0x1E08F, 0x1E08F},
      {0x1E4EB, 0x1E4EF},
  };
  for (const auto& r : kRanges) {
    if (c >= r[0] && c <= r[1]) return true;
  }
  return false;
}

struct PythonTables {
  std::vector<bool> token;                    // indexed by code point
  std::map<char32_t, std::u32string> lower;   // where str.lower() changes it
  // Final_Sigma flags by first code point of a range: {last, flags}.
  std::map<char32_t, std::pair<char32_t, std::string>> sigma;

  std::string SigmaFlags(char32_t c) const {
    auto it = sigma.upper_bound(c);
    if (it == sigma.begin()) return "nnff";
    --it;
    return c <= it->second.first ? it->second.second : "nnff";
  }
};

PythonTables LoadTables() {
  PythonTables t;
  t.token.assign(kMaxCodePoint + 1, false);
  const std::string path = std::string(SIMDEX_SOURCE_DIR) + "/tests/compat/python_unicode_tables.tsv";
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string kind;
    unsigned long a = 0, b = 0;
    fields >> kind >> std::hex >> a;
    if (kind == "W") {
      fields >> b;
      for (unsigned long c = a; c <= b; ++c) t.token[c] = true;
    } else if (kind == "S") {
      std::string flags;
      fields >> b >> flags;
      t.sigma[static_cast<char32_t>(a)] = {static_cast<char32_t>(b), flags};
    } else {
      std::u32string& mapped = t.lower[static_cast<char32_t>(a)];
      while (fields >> b) mapped.push_back(static_cast<char32_t>(b));
    }
  }
  return t;
}

std::u16string Utf16(char32_t c) {
  if (c < 0x10000) return std::u16string(1, static_cast<char16_t>(c));
  return {static_cast<char16_t>(0xD7C0 + (c >> 10)), static_cast<char16_t>(0xDC00 | (c & 0x3FF))};
}

std::u32string Utf32(const std::u16string& s) {
  std::u32string out;
  for (size_t i = 0; i < s.size(); ++i) {
    char32_t c = s[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < s.size()) c = 0x10000 + ((c - 0xD800) << 10) + (s[++i] - 0xDC00);
    out.push_back(c);
  }
  return out;
}

std::string Kept(std::string_view utf8, PieceSizes pieces = PieceSizes(), uint64_t* substitutions = nullptr) {
  std::string kept;
  const uint64_t n = KeepPythonTokenChars(utf8, &kept, pieces);
  if (substitutions != nullptr) *substitutions = n;
  return kept;
}

TEST(PythonText, TokenCharsMatchPython311OnEveryCodePoint) {
  const PythonTables tables = LoadTables();
  int mismatches = 0;
  for (char32_t c = 0; c <= kMaxCodePoint; ++c) {
    if (IsSurrogate(c) || IsUnicode15TokenAddition(c)) continue;
    if (IsPythonSimhashTokenChar(c) != tables.token[c] && ++mismatches <= 20) {
      ADD_FAILURE() << "U+" << std::hex << static_cast<uint32_t>(c) << ": python says " << tables.token[c];
    }
  }
  EXPECT_EQ(mismatches, 0);
  for (char32_t c = 0x10000; c <= kMaxCodePoint; ++c) {
    if (IsUnicode15TokenAddition(c)) {
      EXPECT_TRUE(IsPythonSimhashTokenChar(c)) << std::hex << static_cast<uint32_t>(c);
    }
  }
}

TEST(PythonText, LowercaseMatchesPython311OnEveryCodePoint) {
  const PythonTables tables = LoadTables();
  ASSERT_GT(tables.lower.size(), 1000u);
  std::u16string lowered;
  int mismatches = 0;
  for (char32_t c = 0; c <= kMaxCodePoint; ++c) {
    if (IsSurrogate(c)) continue;
    PythonLower(Utf16(c), &lowered);
    const auto it = tables.lower.find(c);
    const std::u32string expected = it == tables.lower.end() ? std::u32string(1, c) : it->second;
    if (Utf32(lowered) != expected && ++mismatches <= 20) {
      ADD_FAILURE() << "lower(U+" << std::hex << static_cast<uint32_t>(c) << ") differs";
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(PythonText, FinalSigmaMatchesPython311OnEveryCodePoint) {
  const PythonTables tables = LoadTables();
  ASSERT_GT(tables.sigma.size(), 500u);
  // The four contexts A c Σ, c Σ, A Σ c and A Σ c B are views of two strings.
  std::u16string before, after, lowered;
  int mismatches = 0;
  for (char32_t c = 0; c <= kMaxCodePoint; ++c) {
    if (IsSurrogate(c) || IsUnicode15CaseAddition(c)) continue;
    before.assign(u"A").append(Utf16(c)).append(u"\u03a3");
    after.assign(u"A\u03a3").append(Utf16(c)).append(u"B");
    const std::u16string_view contexts[] = {before, std::u16string_view(before).substr(1),
                                            std::u16string_view(after).substr(0, after.size() - 1),
                                            after};
    std::string flags;
    for (std::u16string_view text : contexts) {
      PythonLower(text, &lowered);
      flags += lowered.find(u'\u03c2') != std::u16string::npos ? 'f' : 'n';
    }
    if (flags != tables.SigmaFlags(c) && ++mismatches <= 20) {
      ADD_FAILURE() << "U+" << std::hex << static_cast<uint32_t>(c) << ": " << flags << ", python "
                    << tables.SigmaFlags(c);
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(PythonText, FinalSigmaFollowsPythonContext) {
  // Python: Σ lowers to ς when a cased letter precedes it and none follows,
  // skipping case-ignorable code points (', U+00AD, ʰ) in both directions.
  EXPECT_EQ(Kept("\xce\x9f\xce\x94\xce\x9f\xce\xa3"), "\xce\xbf\xce\xb4\xce\xbf\xcf\x82");  // ΟΔΟΣ -> οδος
  EXPECT_EQ(Kept("\xce\xa3"), "\xcf\x83");                                                  // Σ -> σ
  EXPECT_EQ(Kept("A\xce\xa3'B"), "a\xcf\x83" "b");                                          // AΣ'B -> aσb
  EXPECT_EQ(Kept("A\xc2\xad\xce\xa3\xc2\xad"), "a\xcf\x82");                                // A­Σ­ -> aς
  EXPECT_EQ(Kept("\xca\xb0\xce\xa3"), "\xca\xb0\xcf\x83");                                  // ʰΣ -> ʰσ
  EXPECT_EQ(Kept("A\xca\xb0\xce\xa3"), "a\xca\xb0\xcf\x82");                                // AʰΣ -> aʰς
}

TEST(PythonText, PieceSizeDoesNotChangeTheResult) {
  const std::vector<PythonVector> rows = LoadPythonVectors();
  ASSERT_FALSE(rows.empty());
  for (const PythonVector& row : rows) {
    uint64_t whole_subs = 0;
    const std::string whole = Kept(row.utf8, PieceSizes(), &whole_subs);
    EXPECT_EQ(whole_subs, row.substitutions) << row.label;
    for (size_t target : {4, 5, 6, 7, 11}) {
      uint64_t subs = 0;
      EXPECT_EQ(Kept(row.utf8, PieceSizes{target, size_t{1} << 28}, &subs), whole) << row.label << " " << target;
      EXPECT_EQ(subs, whole_subs) << row.label << " " << target;
    }
  }
}

std::string FoldFinalSigma(std::string s) {
  for (size_t at; (at = s.find("\xcf\x82")) != std::string::npos;) s.replace(at, 2, "\xcf\x83");
  return s;
}

TEST(PythonText, ForcedCutsChangeOnlyFinalSigma) {
  // Greek without spaces has no code point that is neither cased nor
  // case-ignorable, so a small limit forces cuts inside words.
  std::string greek;
  for (int i = 0; i < 200; ++i) greek += "\xce\x9f\xce\x94\xce\x9f\xce\xa3'";
  EXPECT_EQ(FoldFinalSigma(Kept(greek, PieceSizes{4, 9})), FoldFinalSigma(Kept(greek)));

  // Random bytes cut at every limit: the same substitutions and characters.
  std::mt19937 rng(11);
  for (int iter = 0; iter < 300; ++iter) {
    std::string bytes(rng() % 80, '\0');
    for (char& b : bytes) b = static_cast<char>(0x80 | rng() % 0x80 | (rng() % 4 == 0 ? 0 : 0x40));
    for (size_t limit : {4, 5, 6, 9}) {
      uint64_t cut_subs = 0, whole_subs = 0;
      const std::string cut = Kept(bytes, PieceSizes{4, limit}, &cut_subs);
      EXPECT_EQ(FoldFinalSigma(cut), FoldFinalSigma(Kept(bytes, PieceSizes(), &whole_subs)));
      EXPECT_EQ(cut_subs, whole_subs);
    }
  }
}

}  // namespace
}  // namespace simdex::compat
