#include "format/ef/ef_codec.h"

#include <algorithm>
#include <array>

#include "format/cut_blocks.h"
#include "format/ef/ef_block_builder.h"
#include "format/ef/ef_block_reader.h"

namespace simdex::format {

namespace {

Status ParseShape(std::string_view params, EfTableShape* shape) {
  if (params.size() != EfTableShape::kEncodedLength) {
    return Status::Corruption("ef codec parameters of " + std::to_string(params.size()) + " bytes (expected " +
                              std::to_string(EfTableShape::kEncodedLength) + ")");
  }
  shape->low_width = static_cast<uint8_t>(params[0]);
  shape->zeros_per_value64 = static_cast<uint8_t>(params[1]);
  if (shape->low_width > kEfMaxLowWidth) {
    return Status::Corruption("ef codec low-bit width " + std::to_string(shape->low_width));
  }
  return Status::OK();
}

}  // namespace

Status EfCodec::CheckParams(std::string_view params) const {
  EfTableShape shape;
  return ParseShape(params, &shape);
}

Status EfCodec::NewDecoder(std::string_view params, int restarts, std::unique_ptr<TableDecoder>* out) const {
  EfTableShape shape;
  SIMDEX_RETURN_IF_ERROR(ParseShape(params, &shape));
  if (!IsValidRestarts(restarts)) return Status::Corruption("bad restart point count " + std::to_string(restarts));
  *out = std::make_unique<EfDecoder>(shape);
  return Status::OK();
}

Status EfCodec::EncodeTable(std::span<const uint64_t> values, const TableEncoding& encoding,
                            const std::function<Status(std::string_view block)>& sink, EncodedTable* out) const {
  *out = EncodedTable();
  out->codec = CodecTag::kEliasFano;
  EfBlockBuilder builder(encoding.block_size);
  if (!sink) return CutIntoBlocks(values, &builder, out, [] { return Status::OK(); });
  // Per low-bit width: blocks, their values after the head, their zeros.
  std::array<uint64_t, kEfMaxLowWidth + 1> blocks{}, entries{}, zeros{};
  SIMDEX_RETURN_IF_ERROR(CutIntoBlocks(values, &builder, out, [&]() {
    out->payload_bits += builder.stream_bits();
    const int l = builder.count() > 1 ? builder.low_width() : 0;
    ++blocks[l];
    entries[l] += builder.count() - 1;
    zeros[l] += builder.zeros();
    return sink(builder.Finish(BlockSeed(encoding.table, out->heads.size() - 1)));
  }));
  // The most common width (the smallest on a tie), and its blocks' zeros per value.
  const size_t l = static_cast<size_t>(std::max_element(blocks.begin(), blocks.end()) - blocks.begin());
  EfTableShape shape;
  shape.low_width = static_cast<uint8_t>(l);
  if (entries[l] > 0) shape.zeros_per_value64 = static_cast<uint8_t>(std::min<uint64_t>(255, (zeros[l] * 64 + entries[l] / 2) / entries[l]));
  out->params = {static_cast<char>(shape.low_width), static_cast<char>(shape.zeros_per_value64)};
  return Status::OK();
}

}  // namespace simdex::format
