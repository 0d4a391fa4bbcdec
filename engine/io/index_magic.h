// The readers of batches (documents, fingerprint files) recognise a simdex
// index given where a batch is expected, by the magic number that opens
// every index file (docs/format.md: "SIMDEXIX"), and say so instead of
// reading its bytes as text.
#ifndef SIMDEX_ENGINE_IO_INDEX_MAGIC_H_
#define SIMDEX_ENGINE_IO_INDEX_MAGIC_H_

#include <string>
#include <string_view>

#include "format/index_layout.h"
#include "simdex/status.h"

namespace simdex::io {

using format::kIndexMagic;

// InvalidArgument "<name>: is a simdex index, not <expected>" when head (the
// first bytes of the input) starts with the index magic; else OK.
inline Status RefuseIndex(std::string_view head, const std::string& name, std::string_view expected) {
  if (!head.starts_with(kIndexMagic)) return Status::OK();
  return Status::InvalidArgument(name + ": is a simdex index, not " + std::string(expected));
}

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_INDEX_MAGIC_H_
