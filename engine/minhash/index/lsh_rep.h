// The state of an open MinHash-LSH index, shared by lsh_reader.cc (Open,
// Info, the section checks), lsh_query.cc (Query) and lsh_verify.cc
// (Verify). What is checked before it is read follows the SimHash reader
// (engine/simhash/index/reader_rep.h): header, footer, metadata and placement at
// Open(); head indexes and the id map at Open() or first use; a block the
// first time it is decoded; the id section and the signature section the
// first time a query reads them.
#ifndef SIMDEX_ENGINE_MINHASH_INDEX_LSH_REP_H_
#define SIMDEX_ENGINE_MINHASH_INDEX_LSH_REP_H_

#include <memory>
#include <string>
#include <vector>

#include "engine/index/file_sections.h"
#include "engine/index/mapped_index.h"
#include "engine/index/once_check.h"
#include "engine/index/open_table.h"
#include "format/head_search.h"
#include "format/id_map.h"
#include "format/lsh/lsh_layout.h"
#include "format/packed_ints.h"
#include "format/verified_blocks.h"
#include "simdex/lsh_index.h"

namespace simdex {

struct LshIndexReader::Rep : index::MappedIndex {
  using Table = index::OpenTable;  // a band table

  format::LshMetadata meta;
  MinHashOptions minhash;
  std::vector<Table> tables;
  index::SharedDecoders decoders;
  const uint8_t* signatures = nullptr;  // documents x meta.SignatureBytes()
  const uint8_t* sketches = nullptr;    // the sketch section (meta.sketch_k > 0)
  format::PackedIntsReader ids;
  bool has_id_map = false;
  format::IdMapReader id_map;

  std::unique_ptr<index::OnceCheck[]> heads_checked;
  index::OnceCheck ids_checked, id_map_checked, signatures_checked, sketches_checked;

  // The low ordinal_bits bits of a band table value.
  uint64_t OrdinalMask() const { return meta.ordinal_bits == 0 ? 0 : ~uint64_t{0} >> (64 - meta.ordinal_bits); }
  const uint8_t* Signature(uint64_t ordinal) const { return signatures + ordinal * meta.SignatureBytes(); }
  // REQUIRES: ordinal < documents; CheckIds() returned OK.
  uint64_t IdAt(uint64_t ordinal) const { return meta.id_base + ids.Get(ordinal); }

  // Each check once per reader; the Verify* run each time.
  Status CheckHeads(size_t t) const;
  Status CheckIds() const;         // the id section and the id map
  Status CheckSignatures() const;  // the signature section
  Status CheckSketches() const;    // the sketch section's checksum and its first and last offsets
  // Document `ordinal`'s sketch (REQUIRES: meta.sketch_k > 0, ordinal <
  // documents, CheckSketches() OK): Corruption naming the document when
  // its bytes do not decode.
  Status SketchAt(uint64_t ordinal, std::vector<uint32_t>* hashes, bool* cut) const;
  Status VerifyHeads(size_t t) const;
  Status VerifyIdSection() const;
  Status VerifyIdMap() const;
  Status VerifySignatures() const;
  Status VerifySketches() const;
};

}  // namespace simdex

#endif  // SIMDEX_ENGINE_MINHASH_INDEX_LSH_REP_H_
