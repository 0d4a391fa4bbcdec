// The Elias-Fano codec (format/codec.h, tag 1, name "ef"): each block holds
// its values after the head as their distances from the head, split at a
// low-bit width chosen per block into unary high parts and plain low parts,
// with select samples so that a scan jumps to its key's bucket instead of
// decoding from the head (ef_format.h draws the layout, docs/format.md
// specifies it). Its parameters in the metadata are the shape of the
// table's usual block (EfTableShape: its low-bit width and zeros per value),
// which readers use only to guess where to prefetch. The index's restart
// points do not apply to it.
#ifndef SIMDEX_FORMAT_EF_EF_CODEC_H_
#define SIMDEX_FORMAT_EF_EF_CODEC_H_

#include "format/codec.h"

namespace simdex::format {

class EfCodec final : public Codec {
 public:
  CodecTag tag() const override { return CodecTag::kEliasFano; }
  std::string_view name() const override { return "ef"; }
  Status CheckParams(std::string_view params) const override;
  Status NewDecoder(std::string_view params, int restarts, std::unique_ptr<TableDecoder>* out) const override;
  Status EncodeTable(std::span<const uint64_t> values, const TableEncoding& encoding,
                     const std::function<Status(std::string_view block)>& sink, EncodedTable* out) const override;
};

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_EF_EF_CODEC_H_
