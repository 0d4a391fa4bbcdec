// The sketch section of a MinHash-LSH index (docs/format.md, "Sketch
// section", format version 6): each document's bottom-k sketch, the k
// smallest distinct 32-bit shingle hashes of its text (all of them when it
// has at most k), so that a query with its text in hand can estimate J
// without the stored text.
//
//   offsets: N + 1 little-endian values of W bytes (W = 4 or 8): document
//            d's sketch is data[offsets[d], offsets[d + 1])
//   data:    per document, varint32 h = 2 c + t (c hashes; t = 1: the
//            document has more than k, these are its k smallest, so c = k),
//            then the c hashes ascending: the first as a varint32, each
//            next as a varint32 of its gap from the one before (>= 1)
//
// Varints are LEB128: 7 bits a byte, least significant group first, the
// high bit set on every byte but the last; at most 5 bytes for 32 bits.
// Every decoder takes (ptr, limit) and never reads past limit.
#ifndef SIMDEX_FORMAT_LSH_SKETCH_SECTION_H_
#define SIMDEX_FORMAT_LSH_SKETCH_SECTION_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "simdex/status.h"

namespace simdex::format {

// Bounds of k (values per sketch) the metadata accepts.
inline constexpr uint32_t kMaxSketchK = 65536;

// Appends v as a LEB128 varint.
void PutVarint32(std::string* dst, uint32_t v);
// Reads a varint32 at *p (< limit), advancing *p; false when it runs past
// limit or past 32 bits (then *p is unspecified).
bool GetVarint32(const uint8_t** p, const uint8_t* limit, uint32_t* v);

// Appends one document's sketch: `hashes` ascending, distinct, at most k;
// truncated: the document had more than k (then hashes.size() == k).
void EncodeSketch(std::span<const uint32_t> hashes, bool truncated, std::string* dst);

// Decodes one document's sketch from exactly [ptr, limit): Corruption
// ("sketch varint runs past its bytes or past 32 bits", "sketch of N
// hashes for k = K", "sketch hashes not increasing", "sketch has trailing
// bytes", ...) for anything else.
Status DecodeSketch(const uint8_t* ptr, const uint8_t* limit, uint32_t k, std::vector<uint32_t>* hashes,
                    bool* truncated);

// The section's offsets within the section's bytes: W = 4 when the data
// takes less than 2^32 bytes, else 8.
inline int SketchOffsetBytes(uint64_t data_bytes) { return data_bytes < (uint64_t{1} << 32) ? 4 : 8; }

// The bytes of document d's sketch in a section of n documents and offsets
// of width w (section: its `length` bytes, whose offsets the caller has
// placed): Corruption naming the document when its offsets decrease or
// pass the data. REQUIRES: d < n; length >= (n + 1) * w.
Status SketchBytes(const uint8_t* section, uint64_t length, uint64_t n, int w, uint64_t d, const uint8_t** begin,
                   const uint8_t** end);

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_LSH_SKETCH_SECTION_H_
