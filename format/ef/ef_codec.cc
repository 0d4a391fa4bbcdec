#include "format/ef/ef_codec.h"

#include <algorithm>
#include <array>

#include "format/cut_blocks.h"
#include "format/ef/ef_block_builder.h"
#include "format/ef/ef_block_reader.h"

namespace simdex::format {

Status EfCodec::CheckParams(std::string_view params) const {
  if (params.size() != 1) {
    return Status::Corruption("ef codec parameters of " + std::to_string(params.size()) + " bytes (expected 1)");
  }
  const int width = static_cast<uint8_t>(params[0]);
  if (width > kEfMaxLowWidth) return Status::Corruption("ef codec low-bit width " + std::to_string(width));
  return Status::OK();
}

Status EfCodec::NewDecoder(std::string_view params, int restarts, std::unique_ptr<TableDecoder>* out) const {
  SIMDEX_RETURN_IF_ERROR(CheckParams(params));
  if (!IsValidRestarts(restarts)) return Status::Corruption("bad restart point count " + std::to_string(restarts));
  *out = std::make_unique<EfDecoder>(static_cast<uint8_t>(params[0]));
  return Status::OK();
}

Status EfCodec::EncodeTable(std::span<const uint64_t> values, const TableEncoding& encoding,
                            const std::function<Status(std::string_view block)>& sink, EncodedTable* out) const {
  *out = EncodedTable();
  out->codec = CodecTag::kEliasFano;
  EfBlockBuilder builder(encoding.block_size);
  std::array<uint64_t, kEfMaxLowWidth + 1> widths{};  // blocks per low-bit width
  SIMDEX_RETURN_IF_ERROR(CutIntoBlocks(values, &builder, out, [&]() {
    out->payload_bits += builder.stream_bits();
    ++widths[builder.count() > 1 ? builder.low_width() : 0];
    return sink(builder.Finish(BlockSeed(encoding.table, out->heads.size() - 1)));
  }));
  // The most common width (the smallest on a tie).
  const auto typical = std::max_element(widths.begin(), widths.end());
  out->params.assign(1, static_cast<char>(typical - widths.begin()));
  return Status::OK();
}

}  // namespace simdex::format
