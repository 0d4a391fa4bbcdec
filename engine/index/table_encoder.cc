#include "engine/index/table_encoder.h"

#include "format/block_builder.h"
#include "format/block_format.h"

namespace simdex::index {

Status EncodeTable(std::span<const uint64_t> values, uint32_t block_size, uint32_t table,
                   const std::function<Status(std::string_view block)>& sink, EncodedTable* out) {
  *out = EncodedTable();
  uint64_t freqs[format::kHuffmanSymbols] = {};
  format::BlockBuilder::CountPrefixSymbols(values.data(), values.size(), freqs);
  out->code_lengths = format::HuffmanCodeLengths::FromFrequencies(freqs);
  const format::HuffmanEncoderTable code(out->code_lengths);

  format::BlockBuilder builder(block_size, code);
  uint64_t rank = 0;
  uint64_t prev = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const uint64_t v = values[i];
    if (i > 0 && builder.Add(v)) {
      const int n = format::PrefixSymbol(prev, v);
      out->payload_bits += code[n].length + format::SuffixBits(n);
    } else {
      if (i > 0) {
        rank += builder.count();  // before Finish(), which resets it
        SIMDEX_RETURN_IF_ERROR(sink(builder.Finish(BlockSeed(table, out->heads.size() - 1))));
      }
      builder.Start(v);
      out->heads.push_back(v);
      out->ranks.push_back(rank);
    }
    prev = v;
  }
  if (!values.empty()) SIMDEX_RETURN_IF_ERROR(sink(builder.Finish(BlockSeed(table, out->heads.size() - 1))));
  return Status::OK();
}

}  // namespace simdex::index
