// LshIndexReader::Verify: every rule of docs/format.md for MinHash-LSH
// indexes that Open() does not check, reading the whole file: section
// checksums, zero padding, every block of every band table (its frame, its
// codec's own rules, order across blocks), each table's ordinals (below N,
// each at most once, banded of them, the same documents in every table),
// ids that never decrease in ordinal order, and every sketch of the sketch
// section.
#include <algorithm>

#include "engine/minhash/index/lsh_rep.h"

namespace simdex {

Status LshIndexReader::Verify() const {
  const Rep& r = *rep_;
  const format::LshMetadata& m = r.meta;
  for (size_t t = 0; t < r.tables.size(); ++t) SIMDEX_RETURN_IF_ERROR(r.InFile(r.VerifyHeads(t)));
  SIMDEX_RETURN_IF_ERROR(r.InFile(r.VerifyIdSection()));
  SIMDEX_RETURN_IF_ERROR(r.InFile(r.VerifyIdMap()));
  SIMDEX_RETURN_IF_ERROR(r.InFile(r.VerifySignatures()));
  if (m.sketch_k > 0) {
    SIMDEX_RETURN_IF_ERROR(r.InFile(r.VerifySketches()));
    std::vector<uint32_t> hashes;
    bool cut = false;
    for (uint64_t d = 0; d < m.documents; ++d) SIMDEX_RETURN_IF_ERROR(r.InFile(r.SketchAt(d, &hashes, &cut)));
  }
  if (r.has_id_map) SIMDEX_RETURN_IF_ERROR(r.InFile(index::VerifyIdMapUse(r.id_map, r.ids, m.documents, r.record)));
  for (uint64_t i = 1; i < m.documents; ++i) {
    if (r.ids.Get(i) < r.ids.Get(i - 1)) {
      return r.InFile(Status::Corruption("id section: the id of document " + std::to_string(i) +
                                         " is less than the one before it"));
    }
  }

  std::vector<std::pair<uint64_t, uint64_t>> used = {{m.signatures_offset, m.signatures_length}};
  if (m.sketch_k > 0) used.push_back({m.sketches_offset, m.sketches_length});
  SIMDEX_RETURN_IF_ERROR(r.InFile(r.VerifyZeroGaps(std::move(used))));

  // Every block; the documents of table 0, then each table's against them.
  const uint64_t mask = r.OrdinalMask();
  std::vector<bool> documents0, documents;
  std::vector<uint64_t> values;
  for (size_t t = 0; t < r.tables.size(); ++t) {
    documents.assign(m.documents, false);
    uint64_t count = 0;
    SIMDEX_RETURN_IF_ERROR(r.ForEachBlockStrictly(t, &values, [&](uint64_t b, const std::vector<uint64_t>& vs) {
      for (uint64_t v : vs) {
        const uint64_t ordinal = v & mask;
        if (ordinal >= m.documents || documents[ordinal]) {
          return r.InFile(Status::Corruption(index::TableBlockPlace(t, b, m.tables[t], m.block_size) + ": document " +
                                             std::to_string(ordinal) +
                                             (ordinal >= m.documents ? " is past the last document"
                                                                     : " is in the table twice")));
        }
        documents[ordinal] = true;
        ++count;
      }
      return Status::OK();
    }));
    if (count != m.banded) {
      return r.InFile(Status::Corruption("table " + std::to_string(t) + " holds " + std::to_string(count) +
                                         " documents, not " + std::to_string(m.banded)));
    }
    if (t == 0) {
      documents0.swap(documents);
    } else if (documents != documents0) {
      return r.InFile(Status::Corruption("table " + std::to_string(t) + " does not hold the documents of table 0"));
    }
  }
  return Status::OK();
}

}  // namespace simdex
