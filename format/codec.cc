// The codec registry: one line per codec.
#include "format/codec.h"

#include "format/card/card_codec.h"
#include "format/ef/ef_codec.h"

namespace simdex::format {

namespace {

const CardCodec kCardCodec;
const EfCodec kEfCodec;
const Codec* const kCodecs[] = {&kCardCodec, &kEfCodec};

}  // namespace

const Codec* FindCodec(uint8_t tag) {
  for (const Codec* c : kCodecs) {
    if (static_cast<uint8_t>(c->tag()) == tag) return c;
  }
  return nullptr;
}

const Codec* FindCodec(std::string_view name) {
  for (const Codec* c : kCodecs) {
    if (c->name() == name) return c;
  }
  return nullptr;
}

const Codec& DefaultCodec() { return kCardCodec; }

std::string CodecNames() {
  std::string names;
  for (const Codec* c : kCodecs) {
    if (!names.empty()) names += ", ";
    names += c->name();
  }
  return names;
}

void ScanBlocks(BlockScan* scans, size_t n, size_t block_size, const BlockReadOptions& options,
                BlockScanStats* stats) {
  // One call per run of scans whose decoders share a codec.
  for (size_t first = 0; first < n;) {
    size_t end = first + 1;
    while (end < n && scans[end].decoder->tag() == scans[first].decoder->tag()) ++end;
    scans[first].decoder->ScanBlocks(scans + first, end - first, block_size, options, stats);
    first = end;
  }
}

}  // namespace simdex::format
