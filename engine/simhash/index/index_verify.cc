// IndexReader::Verify: checks every rule of docs/format.md "When a file is
// considered corrupted" that Open() does not, reading the whole file.
#include <algorithm>

#include "engine/simhash/index/fingerprint_multiset.h"
#include "engine/index/mapping_advice.h"
#include "engine/simhash/index/reader_rep.h"
#include "format/codec.h"
#include "format/coding.h"

namespace simdex {

Status IndexReader::Verify() const {
  const Rep& r = *rep_;
  const format::IndexMetadata& m = r.meta;

  // Section checksums (Open() may have skipped some), and the id base rule.
  for (size_t t = 0; t < r.tables.size(); ++t) SIMDEX_RETURN_IF_ERROR(r.VerifyHeads(t));
  const uint64_t blocks0 = r.tables.empty() ? 0 : r.tables[0].num_blocks;
  SIMDEX_RETURN_IF_ERROR(r.VerifyRanks());
  SIMDEX_RETURN_IF_ERROR(r.VerifyIdSection());
  SIMDEX_RETURN_IF_ERROR(r.VerifyIdMap());

  // Every entry's number names a string, and every string is some entry's id.
  if (r.has_id_map) SIMDEX_RETURN_IF_ERROR(index::VerifyIdMapUse(r.id_map, r.ids, m.entries, r.record));

  // Gaps between sections are zero.
  SIMDEX_RETURN_IF_ERROR(r.VerifyZeroGaps({{m.rank_offset, blocks0 * 8}}));

  // Every block of every table.
  std::vector<uint64_t> values;
  simhash::FingerprintMultiset multiset0;
  uint64_t distinct = 0;
  for (size_t t = 0; t < r.tables.size(); ++t) {
    const Rep::Table& table = r.tables[t];
    const BlockPermutation& permutation = r.scheme.table(static_cast<int>(t));
    uint64_t count = 0, prev = 0;
    simhash::FingerprintMultiset multiset;
    index::BlockReadAhead ahead(r.random_access, table.blocks, table.num_blocks, m.block_size);
    for (uint64_t b = 0; b < table.num_blocks; ++b) {
      ahead.Before(b);
      if (t == 0 && format::DecodeFixed64(r.ranks + 8 * b) != count) {
        return Status::Corruption("rank index entry " + std::to_string(b) + " does not match table 0's block counts");
      }
      SIMDEX_RETURN_IF_ERROR(
          index::DecodeBlockStrictly(table, m.tables[t], m.block_size, t, b, prev, r.file_end, &values));
      for (uint64_t v : values) {
        if (t == 0 && count > 0 && v == prev && count < m.entries && r.IdAt(count) < r.IdAt(count - 1)) {
          return Status::Corruption(index::TableBlockPlace(t, b, m.tables[t], m.block_size) +
                                    ": the ids of fingerprint " + std::to_string(v) + " decrease");
        }
        if (t == 0) distinct += (count == 0 || v != prev);
        multiset.Add(permutation.Invert(v));
        prev = v;
        ++count;
      }
    }
    if (count != m.entries) {
      return Status::Corruption("table " + std::to_string(t) + " holds " + std::to_string(count) + " values, not " +
                                std::to_string(m.entries));
    }
    if (t == 0) {
      multiset0 = multiset;
      if (distinct != m.distinct_fingerprints) {
        return Status::Corruption("table 0 holds " + std::to_string(distinct) + " distinct fingerprints, not " +
                                  std::to_string(m.distinct_fingerprints));
      }
    } else if (!(multiset == multiset0)) {
      return Status::Corruption("table " + std::to_string(t) + " does not hold the same fingerprints as table 0");
    }
  }
  return Status::OK();
}

}  // namespace simdex
