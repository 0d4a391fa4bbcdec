// FindJaccardPairs (include/simdex/eval.h): every pair of shingle sets with
// Jaccard >= a threshold, exactly.
//
// An inverted index maps each shingle held by two or more documents to its
// documents in increasing order. Document a's row is counted by walking, for
// each of its shingles, the documents after a in that shingle's list and
// adding one to a dense counter per document: counter[b] ends as |A ∩ B|.
// A pair sharing no shingle has J = 0 and is never touched. Each list is
// walked from a cursor that moves past a as rows are done in order, so the
// work is the sum over shingles of df * (df - 1) / 2.
#include <algorithm>
#include <limits>

#include "simdex/eval.h"

namespace simdex {

Status FindJaccardPairs(std::span<const std::vector<uint64_t>> sets, double min_jaccard,
                        std::vector<JaccardPair>* out) {
  if (!(min_jaccard > 0 && min_jaccard <= 1)) {
    return Status::InvalidArgument("jaccard pairs: the threshold must be in (0, 1]");
  }
  if (sets.size() >= std::numeric_limits<uint32_t>::max()) {
    return Status::InvalidArgument("jaccard pairs: too many documents");
  }
  out->clear();
  const uint32_t n = static_cast<uint32_t>(sets.size());

  // (hash, document) for every shingle, sorted: equal hashes are adjacent,
  // their documents increasing.
  struct Entry {
    uint64_t hash;
    uint32_t doc;
  };
  std::vector<Entry> entries;
  size_t total = 0;
  for (const auto& set : sets) total += set.size();
  entries.reserve(total);
  for (uint32_t d = 0; d < n; ++d) {
    for (uint64_t h : sets[d]) entries.push_back({h, d});
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& x, const Entry& y) { return x.hash != y.hash ? x.hash < y.hash : x.doc < y.doc; });

  // Lists of the shingles held by >= 2 documents: postings[begin[l], begin[l + 1]).
  std::vector<uint32_t> postings, begin;
  std::vector<uint32_t> doc_lists_count(n + 1, 0);  // per document: how many lists it is in
  for (size_t i = 0; i < entries.size();) {
    size_t j = i + 1;
    while (j < entries.size() && entries[j].hash == entries[i].hash) ++j;
    if (j - i >= 2) {
      begin.push_back(static_cast<uint32_t>(postings.size()));
      for (size_t e = i; e < j; ++e) {
        postings.push_back(entries[e].doc);
        ++doc_lists_count[entries[e].doc + 1];
      }
    }
    i = j;
  }
  const uint32_t lists = static_cast<uint32_t>(begin.size());
  begin.push_back(static_cast<uint32_t>(postings.size()));
  std::vector<Entry>().swap(entries);

  // For each document, the lists it is in (a counting sort by document).
  for (uint32_t d = 0; d < n; ++d) doc_lists_count[d + 1] += doc_lists_count[d];
  std::vector<uint32_t> doc_lists(postings.size());
  {
    std::vector<uint32_t> fill(doc_lists_count.begin(), doc_lists_count.end() - 1);
    for (uint32_t l = 0; l < lists; ++l) {
      for (uint32_t p = begin[l]; p < begin[l + 1]; ++p) doc_lists[fill[postings[p]]++] = l;
    }
  }

  std::vector<uint32_t> cursor(begin.begin(), begin.end() - 1);  // next entry of each list not yet passed
  std::vector<uint32_t> counter(n, 0);
  std::vector<uint32_t> touched;
  for (uint32_t a = 0; a < n; ++a) {
    touched.clear();
    for (uint32_t k = doc_lists_count[a]; k < doc_lists_count[a + 1]; ++k) {
      const uint32_t l = doc_lists[k];
      const uint32_t from = ++cursor[l];  // the list's entry for a is passed
      for (uint32_t p = from; p < begin[l + 1]; ++p) {
        const uint32_t b = postings[p];
        if (counter[b]++ == 0) touched.push_back(b);
      }
    }
    std::sort(touched.begin(), touched.end());
    const uint64_t size_a = sets[a].size();
    for (uint32_t b : touched) {
      const uint64_t common = counter[b];
      counter[b] = 0;
      const JaccardPair pair{a, b, static_cast<uint32_t>(common),
                             static_cast<uint32_t>(size_a + sets[b].size() - common)};
      // The rounded quotient, as every comparison with a threshold makes it.
      if (pair.jaccard() >= min_jaccard) out->push_back(pair);
    }
  }
  return Status::OK();
}

}  // namespace simdex
