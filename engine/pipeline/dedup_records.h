// What the result files of `simdex dedup` (docs/dedup.md, "Output") are
// made from: the batch's ids, places and empty documents, the ids of the
// indexes checked against, and the pairs. BatchDedupResult's Write*
// (include/simdex/batch.h) write the files, in dedup_records.cc.
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

// The id of entry or document `id` of index `index` (numbered as --against
// gives them) as JSON: its number, or its string for string ids.
using AppendIndexId = std::function<void(int index, uint64_t id, std::string* out)>;
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

// The de-duplicator's pairs (Deduplicator::ForEachPair: read once).
PairSource PairsOf(Deduplicator* dedup);

}  // namespace simdex::pipeline

#endif  // SIMDEX_ENGINE_PIPELINE_DEDUP_RECORDS_H_
