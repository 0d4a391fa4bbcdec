#include "engine/io/zstd_checked_decompressor.h"

#include <zstd.h>

namespace simdex::io {

ZstdCheckedDecompressor::State::State() : dctx(ZSTD_createDCtx()), in(new char[kInSize]) {
  if (dctx == nullptr) throw std::bad_alloc();
}

ZstdCheckedDecompressor::State::~State() { ZSTD_freeDCtx(static_cast<ZSTD_DCtx*>(dctx)); }

ZstdCheckedDecompressor::ZstdCheckedDecompressor() : state_(std::make_shared<State>()) {}

bool ZstdCheckedDecompressor::Decompress(char* out, size_t cap, size_t* produced) {
  State& st = *state_;
  ZSTD_inBuffer in{st.in.get(), st.in_size, st.in_pos};
  ZSTD_outBuffer ob{out, cap, 0};
  // ZSTD_decompressStream may hold decoded bytes internally, so it is called
  // even with no new input, as long as there is room for output.
  size_t r = ZSTD_decompressStream(static_cast<ZSTD_DCtx*>(st.dctx), &ob, &in);
  if (ZSTD_isError(r)) {
    throw ZstdStreamError(std::string("corrupt zstd stream (") + ZSTD_getErrorName(r) + ")");
  }
  bool consumed = in.pos != st.in_pos;
  st.in_pos = in.pos;
  *produced = ob.pos;
  // r == 0: a frame ended and everything it decoded has been flushed. A call
  // with no input between frames returns a size hint, so only consuming
  // input opens a frame.
  if (r == 0) {
    st.frame_open = false;
  } else if (consumed) {
    st.frame_open = true;
  }
  if (!consumed && ob.pos == 0 && st.in_pos < st.in_size) {
    throw ZstdStreamError("corrupt zstd stream (decoder made no progress)");
  }
  return consumed || ob.pos != 0;
}

void ZstdCheckedDecompressor::Finish() {
  const State& st = *state_;
  if (!st.saw_input) throw ZstdStreamError("truncated zstd stream (no data)");
  if (st.frame_open) throw ZstdStreamError("truncated zstd stream");
}

}  // namespace simdex::io
