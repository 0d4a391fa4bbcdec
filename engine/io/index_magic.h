// The readers of batches (documents, fingerprint files, signature files)
// recognise a simdex index given where a batch is expected, by the magic
// number that opens every index file (docs/format.md: "SIMDEXIX") and the
// format version after it, and say so instead of reading its bytes as text.
#ifndef SIMDEX_ENGINE_IO_INDEX_MAGIC_H_
#define SIMDEX_ENGINE_IO_INDEX_MAGIC_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "format/index_layout.h"
#include "simdex/status.h"

namespace simdex::io {

using format::kIndexMagic;

// The first bytes LooksLikeIndex looks at: the magic and the u32 version.
inline constexpr size_t kIndexSniffBytes = kIndexMagic.size() + 4;

// True when head opens as an index does: the magic, then a little-endian
// u32 version whose upper three bytes are zero. A text line that starts
// with "SIMDEXIX" (a string id, or a document's text) has no NUL there, so
// a file of ids or documents that happens to begin so is read as text, and
// whatever FingerprintFileWriter writes reads back.
inline bool LooksLikeIndex(std::string_view head) {
  return head.size() >= kIndexSniffBytes && head.starts_with(kIndexMagic) &&
         head.substr(kIndexMagic.size() + 1, 3) == std::string_view("\0\0\0", 3);
}

// InvalidArgument "<name>: is a simdex index, not <expected>" when head (the
// first kIndexSniffBytes bytes of the input, or all of a shorter one) looks
// like an index; else OK.
inline Status RefuseIndex(std::string_view head, const std::string& name, std::string_view expected) {
  if (!LooksLikeIndex(head)) return Status::OK();
  return Status::InvalidArgument(name + ": is a simdex index, not " + std::string(expected));
}

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_INDEX_MAGIC_H_
