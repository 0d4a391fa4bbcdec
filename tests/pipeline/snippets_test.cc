// ClusterSnippets: the snippets of a templated cluster start where its
// members begin to differ, against a brute-force oracle that holds every
// text whole, and by hand on the cases a person reads: a template, texts
// that are the same, Chinese without spaces, a member shorter than what
// the others share, a difference inside a character.
#include "engine/pipeline/snippets.h"

#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace simdex::pipeline {
namespace {

struct Shown {
  std::vector<std::vector<std::string>> snippets;  // by cluster, then member
  std::vector<uint64_t> skipped;                   // by cluster
};

// The clusters' texts given to ClusterSnippets, member j of cluster c
// being ordinal c + j * clusters.size(), so that the clusters' members
// come interleaved (the first member of each before the second of any).
Shown Show(const std::vector<std::vector<std::string>>& clusters, int words) {
  std::vector<std::pair<uint32_t, uint32_t>> members;
  std::vector<uint32_t> ordinals;
  const uint32_t n = static_cast<uint32_t>(clusters.size());
  for (uint32_t c = 0; c < n; ++c) {
    for (uint32_t j = 0; j < clusters[c].size(); ++j) members.emplace_back(c, c + j * n);
  }
  for (const auto& m : members) ordinals.push_back(m.second);
  std::sort(ordinals.begin(), ordinals.end());
  ClusterSnippets snippets(members, ordinals, words);
  for (size_t i = 0; i < ordinals.size(); ++i) snippets.Add(i, clusters[ordinals[i] % n][ordinals[i] / n]);
  snippets.Finish();
  Shown shown;
  for (uint32_t c = 0; c < n; ++c) {
    shown.skipped.push_back(snippets.SkippedCharacters(c));
    shown.snippets.emplace_back();
    for (uint32_t j = 0; j < clusters[c].size(); ++j) {
      const size_t i = std::lower_bound(ordinals.begin(), ordinals.end(), c + j * n) - ordinals.begin();
      shown.snippets.back().push_back(snippets.Snippet(i));
    }
  }
  return shown;
}

Shown ShowOne(const std::vector<std::string>& texts, int words) { return Show({texts}, words); }

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

// The text's characters (UTF-8 sequences), white space collapsed.
std::vector<std::string> Characters(const std::string& text) {
  std::vector<std::string> out;
  bool space = false;
  for (size_t i = 0; i < text.size();) {
    if (IsSpace(text[i])) {
      space = !out.empty();
      ++i;
      continue;
    }
    if (space) out.push_back(" ");
    space = false;
    const unsigned char lead = static_cast<unsigned char>(text[i]);
    const size_t n = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    out.push_back(text.substr(i, n));
    i += n;
  }
  return out;
}

std::string Join(const std::vector<std::string>& chars, size_t from) {
  std::string out;
  for (size_t i = from; i < chars.size(); ++i) out += chars[i];
  return out;
}

// The rule of snippets.h, on whole texts: the characters every member
// shares, counted in bytes up to kSharedBytes; the snippets skip them when
// the texts differ and their first words do not show it.
Shown Oracle(const std::vector<std::vector<std::string>>& clusters, int words) {
  Shown shown;
  for (const auto& texts : clusters) {
    std::vector<std::vector<std::string>> chars;
    std::vector<std::string> collapsed;
    for (const std::string& t : texts) {
      chars.push_back(Characters(t));
      collapsed.push_back(Join(chars.back(), 0));
    }
    size_t shared = 0;  // characters
    for (;; ++shared) {
      bool all = shared < chars[0].size();
      for (const auto& c : chars) all = all && shared < c.size() && c[shared] == chars[0][shared];
      if (!all) break;
    }
    size_t shared_bytes = 0;  // bytes, a character's first ones too
    for (;; ++shared_bytes) {
      bool all = shared_bytes < collapsed[0].size();
      for (const std::string& t : collapsed) {
        all = all && shared_bytes < t.size() && t[shared_bytes] == collapsed[0][shared_bytes];
      }
      if (!all) break;
    }
    bool same_text = true, same_words = true;
    for (const std::string& t : collapsed) {
      same_text = same_text && t == collapsed[0];
      same_words = same_words && Snippet(t, words) == Snippet(collapsed[0], words);
    }
    size_t start = 0;
    if (!same_text && same_words && shared_bytes < ClusterSnippets::kSharedBytes && words > 0) {
      start = shared;
      for (int back = 0; start > 0 && chars[0][start - 1] != " " && back < ClusterSnippets::kBackCharacters; ++back) {
        --start;
      }
    }
    shown.skipped.push_back(start);
    shown.snippets.emplace_back();
    for (const auto& c : chars) {
      const std::string words_shown = Snippet(Join(c, start), words);
      shown.snippets.back().push_back(start == 0 ? words_shown
                                                 : (c[start - 1] == " " ? "\u2026 " : "\u2026") + words_shown);
    }
  }
  return shown;
}

bool IsWholeCharacters(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char lead = static_cast<unsigned char>(s[i]);
    if (lead >= 0x80 && lead < 0xC0) return false;
    const size_t n = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    if (i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

const std::string kTemplate =
    "Dear customer, thank you for your order at our shop. We are happy to tell you that your parcel "
    "has been sent today and will arrive within three days. Your order number is ";

TEST(ClusterSnippetsTest, TemplatedClusterShowsTheWordsWhereTheMembersDiffer) {
  const Shown shown = ShowOne({kTemplate + "12345, tracking AB99.", "  " + kTemplate + "67890, tracking CD42.",
                              kTemplate + "12399, tracking EF17."},
                             4);
  EXPECT_EQ(shown.snippets[0], (std::vector<std::string>{"\u2026 12345, tracking AB99.", "\u2026 67890, tracking CD42.",
                                                          "\u2026 12399, tracking EF17."}));
  EXPECT_EQ(shown.skipped[0], kTemplate.size());
}

TEST(ClusterSnippetsTest, FirstWordsThatDifferAlreadySkipNothing) {
  const Shown shown = ShowOne({"Dear John, " + kTemplate + "1.", "Dear Mary, " + kTemplate + "1."}, 3);
  EXPECT_EQ(shown.snippets[0], (std::vector<std::string>{"Dear John, Dear", "Dear Mary, Dear"}));
  EXPECT_EQ(shown.skipped[0], 0u);
}

TEST(ClusterSnippetsTest, IdenticalTextsSkipNothing) {
  for (const std::string& text : {kTemplate + "12345.", std::string(3000, 'x'), std::string()}) {
    const Shown shown = ShowOne({text, "\t" + text + "\n", text}, 3);
    const std::string first = Snippet(text, 3);
    EXPECT_EQ(shown.snippets[0], (std::vector<std::string>{first, first, first}));
    EXPECT_EQ(shown.skipped[0], 0u);
  }
}

TEST(ClusterSnippetsTest, ChineseTextWithoutSpacesStartsTenCharactersBeforeTheDifference) {
  const std::string shared = "尊敬的客户您好感谢您在本店购物您的包裹已于今日发出预计三天内送达您的订单号是";
  const Shown shown = ShowOne({shared + "甲乙丙丁", shared + "戊己庚辛"}, 8);
  // Ten characters of what they share, then where they differ; no space
  // to start at, so "…" alone.
  EXPECT_EQ(shown.snippets[0], (std::vector<std::string>{"\u2026天内送达您的订单号是甲乙丙丁", "\u2026天内送达您的订单号是戊己庚辛"}));
  EXPECT_EQ(shown.skipped[0], Characters(shared).size() - 10);
}

TEST(ClusterSnippetsTest, MemberShorterThanTheSharedPrefixShowsItsLastWords) {
  const std::string head = kTemplate.substr(0, kTemplate.find(" today"));  // "... has been sent"
  const Shown shown = ShowOne({kTemplate + "12345.", head, kTemplate + "67890."}, 5);
  // What all three share ends with the short member: the snippets start at
  // its last word, and the others go on where it stops.
  EXPECT_EQ(shown.snippets[0], (std::vector<std::string>{"\u2026 sent today and will arrive", "\u2026 sent",
                                                          "\u2026 sent today and will arrive"}));
  EXPECT_EQ(shown.skipped[0], head.size() - 4);
}

TEST(ClusterSnippetsTest, DifferenceInsideACharacterNeverCutsIt) {
  // 中 (E4 B8 AD) and 丰 (E4 B8 B0) share their first two bytes.
  const std::string shared = kTemplate + "号码";
  const Shown shown = ShowOne({shared + "中一", shared + "丰二"}, 2);
  EXPECT_EQ(shown.snippets[0], (std::vector<std::string>{"\u2026 号码中一", "\u2026 号码丰二"}));
  for (const std::string& s : shown.snippets[0]) EXPECT_TRUE(IsWholeCharacters(s)) << s;
}

TEST(ClusterSnippetsTest, TextsSharingTheirFirstKilobyteShowTheirFirstWords) {
  std::string shared;
  while (shared.size() < ClusterSnippets::kSharedBytes) shared += "lorem ipsum ";
  const Shown shown = ShowOne({shared + "one", shared + "two"}, 2);
  EXPECT_EQ(shown.snippets[0], (std::vector<std::string>{"lorem ipsum", "lorem ipsum"}));
  EXPECT_EQ(shown.skipped[0], 0u);
}

TEST(ClusterSnippetsTest, ZeroWordsShowNothing) {
  const Shown shown = ShowOne({kTemplate + "1", kTemplate + "2"}, 0);
  EXPECT_EQ(shown.snippets[0], (std::vector<std::string>{"", ""}));
  EXPECT_EQ(shown.skipped[0], 0u);
}

// The first `bytes` bytes of text, less the part of a character at their end.
std::string Cut(const std::string& text, size_t bytes) {
  while (bytes > 0 && bytes < text.size() && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) --bytes;
  return text.substr(0, bytes);
}

// Random templated clusters, interleaved: a shared start of 0 to ~1,400
// bytes of ASCII, Latin and Chinese words (some runs without spaces),
// then each member's own words, or nothing, or a cut of the shared start.
TEST(ClusterSnippetsTest, MatchesABruteForceOracle) {
  const std::vector<std::string> vocabulary = {"a", "order", "Straße", "café", "订单", "号码是", "包裹已于今日发出",
                                               "😀", "x", "number", "12345", "ünïcödé"};
  std::mt19937_64 rng(37);
  auto words_of = [&](size_t bytes) {
    std::string out;
    while (out.size() < bytes) {
      out += vocabulary[rng() % vocabulary.size()];
      const int gap = static_cast<int>(rng() % 8);
      out += gap == 0 ? "" : gap == 1 ? "\t\n " : " ";
    }
    return out;
  };
  size_t skipping = 0, clusters_seen = 0;  // the rule's cases all occur
  for (int round = 0; round < 200; ++round) {
    std::vector<std::vector<std::string>> clusters(1 + rng() % 4);
    for (auto& texts : clusters) {
      const size_t shared_bytes = rng() % 3 == 0 ? rng() % 200 : rng() % 1400;
      const std::string shared = words_of(shared_bytes);
      const size_t members = 2 + rng() % 4;
      for (size_t m = 0; m < members; ++m) {
        const int kind = static_cast<int>(rng() % 6);
        if (kind == 0) texts.push_back(shared);
        else if (kind == 1) texts.push_back(Cut(shared, rng() % (shared.size() + 1)));
        else texts.push_back(shared + words_of(rng() % 300));
      }
    }
    for (int words : {1, 3, 8, 40}) {
      const Shown got = Show(clusters, words);
      const Shown want = Oracle(clusters, words);
      for (size_t c = 0; c < clusters.size(); ++c) {
        SCOPED_TRACE("round " + std::to_string(round) + ", words " + std::to_string(words) + ", cluster " +
                     std::to_string(c));
        EXPECT_EQ(got.skipped[c], want.skipped[c]);
        skipping += want.skipped[c] > 0;
        ++clusters_seen;
        EXPECT_EQ(got.snippets[c], want.snippets[c]);
        for (const std::string& s : got.snippets[c]) EXPECT_TRUE(IsWholeCharacters(s)) << s;
      }
    }
  }
  EXPECT_GT(skipping, clusters_seen / 5);
  EXPECT_LT(skipping, clusters_seen * 9 / 10);
}

}  // namespace
}  // namespace simdex::pipeline
