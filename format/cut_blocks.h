// The loop that every codec's EncodeTable (format/codec.h) runs: cut a
// table's sorted values into blocks, each as full as its builder allows.
#ifndef SIMDEX_FORMAT_CUT_BLOCKS_H_
#define SIMDEX_FORMAT_CUT_BLOCKS_H_

#include <cstdint>
#include <span>

#include "format/codec.h"

namespace simdex::format {

// Feeds values to builder (Start(head) begins a block; Add(v) returns false
// when the block is full) and calls finish() after each block's last value;
// records each block's head and rank (the values before it) in *out. An
// error from finish() stops the cut and is returned.
template <typename Builder, typename Finish>
Status CutIntoBlocks(std::span<const uint64_t> values, Builder* builder, EncodedTable* out, Finish&& finish) {
  for (size_t i = 0; i < values.size(); ++i) {
    const uint64_t v = values[i];
    if (i > 0 && builder->Add(v)) continue;
    if (i > 0) SIMDEX_RETURN_IF_ERROR(finish());
    builder->Start(v);
    out->heads.push_back(v);
    out->ranks.push_back(i);
  }
  if (!values.empty()) SIMDEX_RETURN_IF_ERROR(finish());
  return Status::OK();
}

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_CUT_BLOCKS_H_
