// What the result files of `simdex dedup` show of a document's text
// (docs/dedup.md, "Output"): its title, its first words, and in a cluster
// the words from where its members begin to differ.
#ifndef SIMDEX_ENGINE_PIPELINE_SNIPPETS_H_
#define SIMDEX_ENGINE_PIPELINE_SNIPPETS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace simdex::pipeline {

// The first `words` words of text, white space collapsed, cut before
// kSnippetBytes bytes at a character boundary (CJK text has no spaces to
// stop at).
inline constexpr size_t kSnippetBytes = 100;
std::string Snippet(std::string_view text, int words);

// A document's title as the result files show it: white space collapsed
// (runs of spaces, tabs and line breaks made one space, none at either
// end), cut to at most kTitleBytes bytes at a character boundary and then
// followed by "…".
inline constexpr size_t kTitleBytes = 160;
std::string Title(std::string_view text);

// The snippets of the members of clusters, each from where the members of
// its cluster begin to differ, so that the members of a templated cluster
// show what tells them apart. The texts are compared white space
// collapsed, on their first kSharedBytes bytes; P is the length of the
// longest prefix every member shares (at most the shortest member's).
// The snippets skip the start of the texts when
//   - the members differ (not all of them are the same text), and
//   - the first `words` words (Snippet()) of every member are the same,
//     so that they would not show the difference, and
//   - P < kSharedBytes (texts that share their first kSharedBytes bytes
//     show their first words);
// they then start at the word in which the members first differ (at P
// when a word starts there), but at most kBackCharacters characters
// before P (text without spaces: Chinese, Japanese), and begin with "…"
// ("… " at a word's start). Nothing is skipped when that start is the
// text's. A snippet never holds part of a character.
// Memory: each member's tail (at most kSnippetBytes bytes) and shared
// length; for each cluster, its first member's text until the second is
// added (at most kSharedBytes + kSnippetBytes bytes), then P +
// kSnippetBytes.
class ClusterSnippets {
 public:
  static constexpr size_t kSharedBytes = 1024;
  static constexpr int kBackCharacters = 10;

  // members: (representative, ordinal) pairs sorted, as WriteClusters
  // lists them: cluster c is the c-th representative in that order.
  // ordinals: the members' ordinals sorted, each once. words: as
  // Snippet's; 0 makes every snippet "".
  ClusterSnippets(const std::vector<std::pair<uint32_t, uint32_t>>& members, const std::vector<uint32_t>& ordinals,
                  int words);

  // The text of member ordinals[i]. REQUIRES: called once for each i,
  // then Finish() once.
  void Add(size_t i, std::string_view text);
  void Finish();

  // The characters (code points, white space collapsed) skipped at the
  // start of the snippets of cluster c: 0 for none.
  uint64_t SkippedCharacters(size_t c) const;
  // The snippet of member ordinals[i].
  std::string Snippet(size_t i) const;

 private:
  struct Cluster {
    std::string first;     // a prefix of its first member's collapsed text
    size_t shared = 0;     // P so far
    bool started = false;  // `first` is set
    size_t skip = 0;       // bytes of `first` the snippets skip (Finish)
  };
  struct Member {
    uint32_t cluster = 0;
    uint32_t common = 0;  // bytes it shares with its cluster's `first`
    std::string tail;     // its collapsed text after them, at most kSnippetBytes
  };

  // The member's collapsed text from byte `from` (at most P) on: at
  // least kSnippetBytes bytes of it, or all.
  std::string TextFrom(const Member& m, size_t from) const;

  int words_;
  std::vector<Cluster> clusters_;
  std::vector<Member> members_;  // by index into ordinals
};

}  // namespace simdex::pipeline

#endif  // SIMDEX_ENGINE_PIPELINE_SNIPPETS_H_
