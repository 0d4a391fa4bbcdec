// LshIndexReader::Verify: every rule of docs/format.md for MinHash-LSH
// indexes that Open() does not check, reading the whole file: section
// checksums, zero padding, every block of every band table (its frame, its
// codec's own rules, order across blocks), each table's ordinals (below N,
// each at most once, banded of them, the same documents in every table),
// ids that never decrease in ordinal order, and every sketch of the sketch
// section.
#include <algorithm>

#include "engine/index/mapping_advice.h"
#include "engine/minhash/index/lsh_rep.h"
#include "format/codec.h"
#include "format/coding.h"

namespace simdex {

Status LshIndexReader::Verify() const {
  const Rep& r = *rep_;
  const format::LshMetadata& m = r.meta;
  Status s;
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

  std::vector<std::pair<uint64_t, uint64_t>> used;
  index::AppendTableSections(m.tables, m.block_size, &used);
  used.push_back({m.signatures_offset, m.signatures_length});
  used.push_back({m.ids_offset, m.ids_length});
  if (r.has_id_map) used.push_back({m.id_map_offset, m.id_map_length});
  if (m.sketch_k > 0) used.push_back({m.sketches_offset, m.sketches_length});
  const uint64_t size = r.file->size();
  const uint64_t meta_offset = format::DecodeFixed64(r.file_begin + size - format::Footer::kEncodedLength);
  SIMDEX_RETURN_IF_ERROR(r.InFile(index::VerifyZeroGaps(r.file_begin, size, meta_offset, std::move(used))));

  // Every block; the documents of table 0, then each table's against them.
  const uint64_t mask = r.OrdinalMask();
  std::vector<bool> documents0, documents;
  std::vector<uint64_t> values;
  for (size_t t = 0; t < r.tables.size(); ++t) {
    const Rep::Table& table = r.tables[t];
    documents.assign(m.documents, false);
    uint64_t count = 0, prev = 0;
    index::BlockReadAhead ahead(r.random_access, table.blocks, table.num_blocks, m.block_size);
    for (uint64_t b = 0; b < table.num_blocks; ++b) {
      ahead.Before(b);
      s = index::DecodeBlockStrictly(table, m.tables[t], m.block_size, t, b, prev, r.file_end, &values);
      if (!s.ok()) return r.InFile(s);
      for (uint64_t v : values) {
        const uint64_t ordinal = v & mask;
        if (ordinal >= m.documents || documents[ordinal]) {
          return r.InFile(Status::Corruption(index::TableBlockPlace(t, b, m.tables[t], m.block_size) + ": document " +
                                             std::to_string(ordinal) +
                                             (ordinal >= m.documents ? " is past the last document"
                                                                     : " is in the table twice")));
        }
        documents[ordinal] = true;
        prev = v;
        ++count;
      }
    }
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
