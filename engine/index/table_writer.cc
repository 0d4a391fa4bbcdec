#include "engine/index/table_writer.h"

#include "engine/index/file_sections.h"

namespace simdex::index {

Status CheckCodecOption(const std::string& codec) {
  if (codec == kAutoCodec || format::FindCodec(codec) != nullptr) return Status::OK();
  return Status::InvalidArgument("codec '" + codec + "' is not one of " + format::CodecNames() + ", " + kAutoCodec);
}

Status CheckBlockSizeOption(uint64_t block_size) {
  if (format::IsValidBlockSize(block_size)) return Status::OK();
  return Status::InvalidArgument("block size " + std::to_string(block_size) + " is not a power of two in 64..65536");
}

// The codec "auto" picks for a table: the one whose encoding takes the
// fewest blocks, ef on a tie (each codec cuts the table into blocks without
// writing them, and the chosen one then encodes it).
static Status ChooseCodec(std::span<const uint64_t> sorted, const format::TableEncoding& encoding,
                          const format::Codec** out) {
  const format::Codec* choice = nullptr;
  size_t fewest = 0;
  for (const char* name : {"ef", "card"}) {
    const format::Codec* codec = format::FindCodec(name);
    EncodedTable counted;
    SIMDEX_RETURN_IF_ERROR(codec->EncodeTable(sorted, encoding, nullptr, &counted));
    if (choice == nullptr || counted.heads.size() < fewest) {
      choice = codec;
      fewest = counted.heads.size();
    }
  }
  *out = choice;
  return Status::OK();
}

Status EncodeTable(const TableOptions& options, int t, std::span<const uint64_t> sorted,
                   const std::function<Status(std::string_view block)>& sink, EncodedTable* out) {
  format::TableEncoding encoding;
  encoding.block_size = options.block_size;
  encoding.restarts = options.restarts;
  encoding.table = static_cast<uint32_t>(t);
  const format::Codec* codec = format::FindCodec(options.codec);
  if (options.codec == kAutoCodec) SIMDEX_RETURN_IF_ERROR(ChooseCodec(sorted, encoding, &codec));
  if (codec == nullptr) return CheckCodecOption(options.codec);
  return codec->EncodeTable(sorted, encoding, sink, out);
}

Status AppendHeads(util::OutputFile* out, const EncodedTable& enc, uint64_t blocks_offset, format::TableMetadata* tm) {
  tm->blocks_offset = blocks_offset;
  tm->num_blocks = enc.heads.size();
  tm->payload_bits = enc.payload_bits;
  tm->codec = static_cast<uint8_t>(enc.codec);
  tm->codec_params = enc.params;
  SIMDEX_RETURN_IF_ERROR(out->PadTo(8));
  tm->heads_offset = out->size();
  return AppendU64s(out, enc.heads, &tm->heads_checksum);
}

Status AppendTable(util::OutputFile* out, const TableOptions& options, int t, std::span<const uint64_t> sorted,
                   format::TableMetadata* tm, EncodedTable* enc) {
  SIMDEX_RETURN_IF_ERROR(out->PadTo(BlockAlignment(options.block_size)));
  const uint64_t offset = out->size();
  SIMDEX_RETURN_IF_ERROR(
      EncodeTable(options, t, sorted, [out](std::string_view block) { return out->Append(block); }, enc));
  return AppendHeads(out, *enc, offset, tm);
}

}  // namespace simdex::index
