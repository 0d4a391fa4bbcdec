// What the result files show of a document's text
// (engine/pipeline/snippets.h).
#include "engine/pipeline/snippets.h"

#include <algorithm>

namespace simdex::pipeline {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

bool ContinuesCharacter(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Where the snippets of a cluster start, for members that share the first
// `shared` bytes of t (collapsed): at the start of the word holding byte
// `shared`, but at most kBackCharacters characters before it.
size_t StartOfDifference(const std::string& t, size_t shared) {
  size_t p = shared;
  while (p > 0 && p < t.size() && ContinuesCharacter(t[p])) --p;
  for (int back = 0; p > 0 && t[p - 1] != ' ' && back < ClusterSnippets::kBackCharacters; ++back) {
    do {
      --p;
    } while (p > 0 && ContinuesCharacter(t[p]));
  }
  return p;
}

// text with each run of white space (space, tab, '\n', '\r') made one
// space and none at either end, cut to at most `limit` bytes at a
// character boundary; *cut says whether anything was left out.
std::string Collapsed(std::string_view text, size_t limit, bool* cut) {
  std::string out;
  bool space = false;
  *cut = false;
  for (char c : text) {
    if (IsSpace(c)) {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
    if (out.size() > limit) {
      *cut = true;
      break;
    }
  }
  if (!*cut) return out;
  size_t end = limit;  // out[end] is the first byte left out: never keep half a character
  while (end > 0 && ContinuesCharacter(out[end])) --end;
  out.resize(end);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

std::string Snippet(std::string_view text, int words) {
  std::string out;
  int taken = 0;
  bool in_word = false;
  for (char c : text) {
    if (IsSpace(c)) {
      in_word = false;
      continue;
    }
    if (!ContinuesCharacter(c) && out.size() >= kSnippetBytes - 4) break;
    if (!in_word) {
      if (taken == words) break;
      if (!out.empty()) out.push_back(' ');
      ++taken;
      in_word = true;
    }
    out.push_back(c);
  }
  return out;
}

std::string Title(std::string_view text) {
  bool cut = false;
  std::string title = Collapsed(text, kTitleBytes, &cut);
  if (cut) title += "\u2026";
  return title;
}

ClusterSnippets::ClusterSnippets(const std::vector<std::pair<uint32_t, uint32_t>>& members,
                                 const std::vector<uint32_t>& ordinals, int words)
    : words_(words), members_(ordinals.size()) {
  for (size_t m = 0; m < members.size(); ++m) {
    if (m == 0 || members[m].first != members[m - 1].first) clusters_.emplace_back();
    const auto at = std::lower_bound(ordinals.begin(), ordinals.end(), members[m].second);
    members_[static_cast<size_t>(at - ordinals.begin())].cluster = static_cast<uint32_t>(clusters_.size() - 1);
  }
}

void ClusterSnippets::Add(size_t i, std::string_view text) {
  if (words_ == 0) return;
  Member& member = members_[i];
  Cluster& c = clusters_[member.cluster];
  bool cut = false;
  std::string collapsed = Collapsed(text, kSharedBytes + kSnippetBytes, &cut);
  if (!c.started) {
    c.started = true;
    c.shared = std::min(collapsed.size(), kSharedBytes);
    member.common = static_cast<uint32_t>(collapsed.size());
    c.first = std::move(collapsed);
    return;
  }
  const size_t limit = std::min(collapsed.size(), c.first.size());
  size_t n = 0;
  while (n < limit && collapsed[n] == c.first[n]) ++n;
  member.common = static_cast<uint32_t>(n);
  member.tail = collapsed.substr(n, kSnippetBytes);
  c.shared = std::min(c.shared, n);
  // The snippets never start after P: what follows P + kSnippetBytes is
  // never shown.
  if (c.first.size() > c.shared + kSnippetBytes) {
    c.first.resize(c.shared + kSnippetBytes);
    c.first.shrink_to_fit();
  }
}

void ClusterSnippets::Finish() {
  if (words_ == 0) return;
  // A cluster's snippets skip nothing unless its members differ and their
  // first words are all the first member's.
  std::vector<std::string> plain(clusters_.size());
  std::vector<char> differ(clusters_.size(), 0), same(clusters_.size(), 1);
  for (size_t c = 0; c < clusters_.size(); ++c) plain[c] = pipeline::Snippet(clusters_[c].first, words_);
  for (const Member& m : members_) {
    const Cluster& c = clusters_[m.cluster];
    differ[m.cluster] |= m.common > c.shared || !m.tail.empty();
    if (same[m.cluster]) same[m.cluster] = pipeline::Snippet(TextFrom(m, 0), words_) == plain[m.cluster];
  }
  for (size_t c = 0; c < clusters_.size(); ++c) {
    Cluster& cluster = clusters_[c];
    if (differ[c] && same[c] && cluster.shared < kSharedBytes) {
      cluster.skip = StartOfDifference(cluster.first, cluster.shared);
    }
  }
}

uint64_t ClusterSnippets::SkippedCharacters(size_t c) const {
  const Cluster& cluster = clusters_[c];
  return static_cast<uint64_t>(std::count_if(cluster.first.begin(), cluster.first.begin() + cluster.skip,
                                             [](char ch) { return !ContinuesCharacter(ch); }));
}

std::string ClusterSnippets::TextFrom(const Member& m, size_t from) const {
  const Cluster& c = clusters_[m.cluster];
  // m shares c.first[0, m.common) (all of c.first that is kept, when
  // c.first was cut), then goes on with m.tail.
  const size_t end = std::max(from, std::min<size_t>(m.common, from + kSnippetBytes));
  std::string text = c.first.substr(from, end - from);
  if (end < from + kSnippetBytes) text += m.tail;
  return text;
}

std::string ClusterSnippets::Snippet(size_t i) const {
  const Member& m = members_[i];
  const Cluster& c = clusters_[m.cluster];
  if (words_ == 0 || !c.started) return "";
  const std::string words = pipeline::Snippet(TextFrom(m, c.skip), words_);
  if (c.skip == 0) return words;
  return (c.first[c.skip - 1] == ' ' ? "\u2026 " : "\u2026") + words;
}

}  // namespace simdex::pipeline
