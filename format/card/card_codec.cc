#include "format/card/card_codec.h"

#include <algorithm>

#include "format/card/block_builder.h"
#include "format/card/block_reader.h"
#include "format/card/huffman.h"
#include "format/cut_blocks.h"

namespace simdex::format {

namespace {

Status ParseLengths(std::string_view params, HuffmanCodeLengths* lengths) {
  const auto* p = reinterpret_cast<const uint8_t*>(params.data());
  if (params.size() != HuffmanCodeLengths::kEncodedLength) {
    return Status::Corruption("card codec parameters of " + std::to_string(params.size()) + " bytes (expected " +
                              std::to_string(HuffmanCodeLengths::kEncodedLength) + ")");
  }
  return lengths->DecodeFrom(p, p + params.size());
}

}  // namespace

Status CardCodec::CheckParams(std::string_view params) const {
  HuffmanCodeLengths lengths;
  return ParseLengths(params, &lengths);
}

Status CardCodec::NewDecoder(std::string_view params, int restarts, std::unique_ptr<TableDecoder>* out) const {
  HuffmanCodeLengths lengths;
  SIMDEX_RETURN_IF_ERROR(ParseLengths(params, &lengths));
  auto d = std::make_unique<CardDecoder>();
  const bool no_codes = std::all_of(lengths.lengths.begin(), lengths.lengths.end(), [](uint8_t l) { return l == 0; });
  if (!no_codes) SIMDEX_RETURN_IF_ERROR(d->Init(lengths, restarts));
  *out = std::move(d);
  return Status::OK();
}

Status CardCodec::EncodeTable(std::span<const uint64_t> values, const TableEncoding& encoding,
                              const std::function<Status(std::string_view block)>& sink, EncodedTable* out) const {
  *out = EncodedTable();
  out->codec = CodecTag::kCard;
  uint64_t freqs[kHuffmanSymbols] = {};
  BlockBuilder::CountPrefixSymbols(values.data(), values.size(), freqs);
  const HuffmanCodeLengths lengths = HuffmanCodeLengths::FromFrequencies(freqs);
  lengths.EncodeTo(&out->params);
  const HuffmanEncoderTable code(lengths);

  BlockBuilder builder(encoding.block_size, code, encoding.restarts);
  if (!sink) return CutIntoBlocks(values, &builder, out, [] { return Status::OK(); });
  return CutIntoBlocks(values, &builder, out, [&]() {
    out->payload_bits += builder.stream_bits();  // before Finish() resets it
    return sink(builder.Finish(BlockSeed(encoding.table, out->heads.size() - 1)));
  });
}

}  // namespace simdex::format
