// The card codec (format/codec.h, tag 0, name "card"): each block holds its
// values after the head as h(n) + suffix bits, n being the leading bits a
// value shares with its predecessor and h a canonical Huffman code built per
// table from the table's own n frequencies; restart points let a scan start
// part-way into a block (block_builder.h draws the layout, docs/format.md
// specifies it). Its parameters in the metadata are the table's code
// lengths (HuffmanCodeLengths, 65 bytes).
#ifndef SIMDEX_FORMAT_CARD_CARD_CODEC_H_
#define SIMDEX_FORMAT_CARD_CARD_CODEC_H_

#include "format/codec.h"

namespace simdex::format {

class CardCodec final : public Codec {
 public:
  CodecTag tag() const override { return CodecTag::kCard; }
  std::string_view name() const override { return "card"; }
  Status CheckParams(std::string_view params) const override;
  // Code lengths that are all zero (a table without entries) give a
  // decoder that rejects any entry.
  Status NewDecoder(std::string_view params, int restarts, std::unique_ptr<TableDecoder>* out) const override;
  // Builds the table's Huffman code from its n frequencies, then cuts the
  // values into blocks.
  Status EncodeTable(std::span<const uint64_t> values, const TableEncoding& encoding,
                     const std::function<Status(std::string_view block)>& sink, EncodedTable* out) const override;
};

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_CARD_CARD_CODEC_H_
