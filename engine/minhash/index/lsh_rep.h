// The state of an open MinHash-LSH index, shared by lsh_reader.cc (Open,
// Info, the section checks), lsh_query.cc (Query) and lsh_verify.cc
// (Verify). What is checked before it is read follows the SimHash reader
// (engine/simhash/index/reader_rep.h): header, footer, metadata and placement at
// Open(); head indexes and the id map at Open() or first use; a block the
// first time it is decoded; the id section and the signature section the
// first time a query reads them.
#ifndef SIMDEX_ENGINE_MINHASH_INDEX_LSH_REP_H_
#define SIMDEX_ENGINE_MINHASH_INDEX_LSH_REP_H_

#include <vector>

#include "engine/index/mapped_index.h"
#include "engine/index/once_check.h"
#include "format/lsh/lsh_layout.h"
#include "simdex/lsh_index.h"

namespace simdex {

struct LshIndexReader::Rep : index::MappedTables<format::LshMetadata> {
  // tables[t] is band table t.
  Rep() : MappedTables("document") {}

  MinHashOptions minhash;
  const uint8_t* signatures = nullptr;  // documents x meta.SignatureBytes()
  const uint8_t* sketches = nullptr;    // the sketch section (meta.sketch_k > 0)
  index::OnceCheck signatures_checked, sketches_checked;

  // The low ordinal_bits bits of a band table value.
  uint64_t OrdinalMask() const { return meta.ordinal_bits == 0 ? 0 : ~uint64_t{0} >> (64 - meta.ordinal_bits); }
  const uint8_t* Signature(uint64_t ordinal) const { return signatures + ordinal * meta.SignatureBytes(); }

  // Each check once per reader; the Verify* run each time.
  Status CheckIds() const;         // the id section and the id map
  Status CheckSignatures() const;  // the signature section
  Status CheckSketches() const;    // the sketch section's checksum and its first and last offsets
  // Document `ordinal`'s sketch (REQUIRES: meta.sketch_k > 0, ordinal <
  // documents, CheckSketches() OK): Corruption naming the document when
  // its bytes do not decode.
  Status SketchAt(uint64_t ordinal, std::vector<uint32_t>* hashes, bool* cut) const;
  Status VerifySignatures() const;
  Status VerifySketches() const;
};

}  // namespace simdex

#endif  // SIMDEX_ENGINE_MINHASH_INDEX_LSH_REP_H_
