// The pieces of a MinHash-LSH index file (docs/format.md, "MinHash-LSH
// indexes") that both ways of writing it share: in memory
// (engine/minhash/index/lsh_documents.h) and through scratch files within a memory
// budget (engine/minhash/index/lsh_spill.h). Both order the documents by
// DocumentLess within an id and write the same sections through these
// functions, so that the two give the same bytes.
#ifndef SIMDEX_ENGINE_MINHASH_INDEX_LSH_FILE_H_
#define SIMDEX_ENGINE_MINHASH_INDEX_LSH_FILE_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "engine/util/output_file.h"
#include "format/lsh/lsh_layout.h"
#include "simdex/lsh_index.h"

namespace simdex::minhash {

// The metadata of a file of n documents (`banded` of them in the tables)
// before its sections are placed; the ordinals take max(bits of n - 1,
// min_ordinal_bits) bits.
format::LshMetadata LshMetadataFor(const LshBuildOptions& options, uint64_t n, uint64_t banded,
                                   int min_ordinal_bits);

// The bits of a band value that name the document (the low ordinal_bits).
inline uint64_t OrdinalMask(const format::LshMetadata& m) {
  return m.ordinal_bits == 0 ? 0 : ~uint64_t{0} >> (64 - m.ordinal_bits);
}

// The order of two documents of one id: by b-bit signature (bytewise), then
// their band keys as kept (~ordinal_mask), then unbanded before banded.
inline bool DocumentLess(const uint8_t* sig_a, const uint64_t* keys_a, bool banded_a, const uint8_t* sig_b,
                         const uint64_t* keys_b, bool banded_b, size_t signature_bytes, int bands,
                         uint64_t ordinal_mask) {
  const int c = std::memcmp(sig_a, sig_b, signature_bytes);
  if (c != 0) return c < 0;
  for (int j = 0; j < bands; ++j) {
    const uint64_t ka = keys_a[j] & ~ordinal_mask, kb = keys_b[j] & ~ordinal_mask;
    if (ka != kb) return ka < kb;
  }
  return banded_a < banded_b;
}

// A document as the writers hold it until the file is written: its b-bit
// signature, then (options.sketch_k > 0) its sketch slot: u32 h = 2 c + t
// (as the sketch section's header: c hashes, t = 1 when cut to k), then k
// u32 hashes, the first c of them the sketch's ascending, the rest zero.
// The writers order documents by these bytes (DocumentLess), so that two
// documents of one id and signature are ordered by their sketches.
size_t DocumentBytes(const LshBuildOptions& options);
inline size_t SketchSlotBytes(int k) { return k > 0 ? 4 + 4 * static_cast<size_t>(k) : 0; }
void PutSketchSlot(std::span<const uint32_t> hashes, bool cut, int k, uint8_t* slot);

// Creates the output (a temporary name) and writes the file header of the
// version `m` is written as (LshMetadata::WriteVersion).
Status BeginLshFile(const std::string& path, const format::LshMetadata& m, std::unique_ptr<util::OutputFile>* out);

// Encodes band table t from its sorted values and records it in *m.
Status AppendBandTable(util::OutputFile* out, const LshBuildOptions& options, int t,
                       std::span<const uint64_t> sorted, format::LshMetadata* m);

// Appends the signatures and (m->sketch_k > 0) the sketch section from the
// documents (ordinal order, DocumentBytes each), the packed ids and the id
// map ("" for numeric ids), the metadata and the footer; commits the file.
// *file_bytes = its size. Documents from a mapped scratch file
// (signatures_map, else nullptr) are released from memory as they are
// last read.
Status FinishLshFile(util::OutputFile* out, std::string_view documents, const util::MappedValues* signatures_map,
                     std::string_view packed_ids, std::string_view id_map, format::LshMetadata* m,
                     uint64_t* file_bytes);

}  // namespace simdex::minhash

#endif  // SIMDEX_ENGINE_MINHASH_INDEX_LSH_FILE_H_
