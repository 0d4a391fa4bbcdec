// The advice a reader gives the kernel about an index file's mapping
// (ReaderOptions::access): whether page faults read their neighbours, and,
// when they do not, asking ahead for the pages a sequential read will need.
// Advice only: a call the kernel refuses changes speed, never results.
#ifndef SIMDEX_ENGINE_INDEX_MAPPING_ADVICE_H_
#define SIMDEX_ENGINE_INDEX_MAPPING_ADVICE_H_

#include <cstddef>
#include <cstdint>

#include "simdex/index.h"

namespace simdex::index {

// Whether a mapped file of file_bytes is to be read without read-around:
// kRandom, or kAuto and the file is larger than half of physical memory.
bool WantsRandomAccess(ReaderOptions::Access access, uint64_t file_bytes);

// [data, data + size) widened to whole pages, as madvise and mlock take it.
struct PageSpan {
  void* begin;
  size_t length;
};
PageSpan WholePages(const uint8_t* data, size_t size);

// MADV_RANDOM over [data, data + size) (widened to whole pages).
void AdviseRandomAccess(const uint8_t* data, size_t size);

// MADV_WILLNEED over [data, data + size) (widened to whole pages): the
// kernel starts reading them in.
void WillRead(const uint8_t* data, size_t size);

// Bytes a sequential reader asks for at a time when read-around is off.
inline constexpr size_t kReadAheadWindowBytes = size_t{4} << 20;

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_MAPPING_ADVICE_H_
