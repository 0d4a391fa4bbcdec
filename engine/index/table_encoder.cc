#include "engine/index/table_encoder.h"

#include "format/block_builder.h"
#include "format/block_format.h"

namespace simdex::index {

Status EncodeTable(std::span<const uint64_t> values, uint32_t block_size, int restarts, uint32_t table,
                   const std::function<Status(std::string_view block)>& sink, EncodedTable* out) {
  *out = EncodedTable();
  uint64_t freqs[format::kHuffmanSymbols] = {};
  format::BlockBuilder::CountPrefixSymbols(values.data(), values.size(), freqs);
  out->code_lengths = format::HuffmanCodeLengths::FromFrequencies(freqs);
  const format::HuffmanEncoderTable code(out->code_lengths);

  format::BlockBuilder builder(block_size, code, restarts);
  uint64_t rank = 0;
  // Finishes the current block: its stream bits and count before Finish()
  // resets them.
  auto finish = [&]() {
    out->payload_bits += builder.stream_bits();
    rank += builder.count();
    return sink(builder.Finish(BlockSeed(table, out->heads.size() - 1)));
  };
  for (size_t i = 0; i < values.size(); ++i) {
    const uint64_t v = values[i];
    if (i > 0 && builder.Add(v)) continue;
    if (i > 0) SIMDEX_RETURN_IF_ERROR(finish());
    builder.Start(v);
    out->heads.push_back(v);
    out->ranks.push_back(rank);
  }
  if (!values.empty()) SIMDEX_RETURN_IF_ERROR(finish());
  return Status::OK();
}

}  // namespace simdex::index
