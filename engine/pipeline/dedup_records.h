// The result files of `simdex dedup` (docs/dedup.md, "Output"): one JSON
// line per document, the pairs, the list of ids to keep and the clusters.
// Each is written through simdex::OutputWriter (a temporary file renamed
// into place, or standard output for "-"), and a failure names the file.
#ifndef SIMDEX_ENGINE_PIPELINE_DEDUP_RECORDS_H_
#define SIMDEX_ENGINE_PIPELINE_DEDUP_RECORDS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/pipeline/confirm_pairs.h"
#include "engine/pipeline/document_ids.h"
#include "engine/pipeline/document_source.h"
#include "engine/pipeline/duplicate_ids.h"
#include "engine/util/json_text.h"
#include "simdex/dedup.h"
#include "simdex/index.h"
#include "simdex/status.h"

namespace simdex::pipeline {

// What the command keeps of each document besides the de-duplicator's view.
struct DedupBatch {
  DocumentIds ids;
  DocumentPlaces places;  // for messages about a document
  std::vector<std::pair<uint64_t, std::string>> empty;  // (ordinal, reason), by ordinal
  uint64_t skipped = 0;                   // bad records skipped (skip_bad)
  std::vector<std::string> first_errors;  // the first of them, for the command to show

  // Adds the next document: its id, where it was read and, when it has no
  // fingerprint or shingles (is_empty), why.
  void Add(uint64_t id, std::string_view id_string, uint64_t line, bool is_empty, std::string_view reason) {
    if (is_empty) empty.emplace_back(ids.size(), reason);
    ids.Add(id, id_string);
    places.Add(line);
  }
  // After the last document of `documents`: the records it skipped, their
  // first errors and the documents each input gave.
  void SetInputs(const DocumentSource& documents) {
    skipped = documents.skipped();
    first_errors = documents.first_errors();
    places.SetInputs(documents.input_names(), documents.documents_per_input());
  }
};

// One line per document, in input order: its id, cluster, whether it is a
// duplicate, its distance, its match in the stored index `against[i]`
// (indexes[i]) and why it has no fingerprint.
// The id of entry or document `id` of index `index` (numbered as --against
// gives them) as JSON: its number, or its string for string ids.
using AppendIndexId = std::function<void(int index, uint64_t id, std::string* out)>;
Status WriteDedupResults(const std::string& path, const std::vector<std::string>& against, const DedupOutcomes& dedup,
                         const DedupBatch& batch, const AppendIndexId& append_id);
// The AppendIndexId of SimHash or MinHash-LSH indexes (which must outlive
// it; the vector is copied).
template <class Reader>
AppendIndexId IndexIds(std::vector<const Reader*> indexes) {
  return [indexes = std::move(indexes)](int index, uint64_t id, std::string* out) {
    const Reader& reader = *indexes[static_cast<size_t>(index)];
    if (reader.has_string_ids()) util::AppendJsonString(out, reader.IdString(id));
    else out->append(std::to_string(id));
  };
}

// The pairs, as `pairs` gives them: the de-duplicator's (PairsOf(dedup)),
// the second stage's accepted ones with their similarity, or MinHash's.
// When `documents` has titles (HasTitles() and CanReadAgain(); null for
// fingerprint files), each line ends in "a_title" and "b_title" (Title()):
// the titles of the clustered documents of `dedup` (every pair's two are
// among them) are read again first and held while the pairs are written,
// at most kTitleBytes + 3 bytes of text each.
Status WriteDedupPairs(const std::string& path, const PairSource& pairs, const DocumentSource* documents,
                       const DedupOutcomes& dedup, const DedupBatch& batch);
// The de-duplicator's pairs (Deduplicator::ForEachPair: read once).
PairSource PairsOf(Deduplicator* dedup);

// The ids of the documents that are not duplicates, one per line.
Status WriteKeepList(const std::string& path, const DedupOutcomes& dedup, const DedupBatch& batch);

// The clusters of two or more documents, each with its members in input
// order (the representative marked by distance 0 and "representative":
// true) and, when `documents` names inputs that can be read again, a
// snippet of `snippet_words` words of each text and, when it has titles,
// each member's "title" (engine/pipeline/snippets.h: Title(), and
// ClusterSnippets, whose snippets start where the members differ when
// their first words are the same; the cluster's "skipped_chars" then
// counts the characters left out). The texts are read again in one pass;
// what is held is ClusterSnippets' and at most kTitleBytes + 3 bytes of
// title per clustered document. documents is null for fingerprint files.
Status WriteClusters(const std::string& path, const DocumentSource* documents, int snippet_words,
                     const DedupOutcomes& dedup, const DedupBatch& batch);

}  // namespace simdex::pipeline

#endif  // SIMDEX_ENGINE_PIPELINE_DEDUP_RECORDS_H_
