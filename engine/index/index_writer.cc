#include "engine/index/index_writer.h"

#include <algorithm>

#include "engine/index/file_sections.h"
#include "format/coding.h"
#include "format/packed_ints.h"

namespace simdex::index {

IndexWriter::IndexWriter(const BuildOptions& options, std::unique_ptr<util::OutputFile> out)
    : options_(options), out_(std::move(out)) {
  meta_.block_size = options.block_size;
  meta_.restarts = static_cast<uint8_t>(options.restarts);
  meta_.profile = options.profile;
  meta_.k = static_cast<uint8_t>(options.scheme.k());
  for (int w : options.scheme.widths()) meta_.widths.push_back(static_cast<uint8_t>(w));
}

Status IndexWriter::Create(const std::string& path, const BuildOptions& options, std::unique_ptr<IndexWriter>* out) {
  std::unique_ptr<util::OutputFile> file;
  SIMDEX_RETURN_IF_ERROR(util::OutputFile::Create(path, &file));
  std::string header;
  format::FileHeader().EncodeTo(&header);
  SIMDEX_RETURN_IF_ERROR(file->Append(header));
  out->reset(new IndexWriter(options, std::move(file)));
  return Status::OK();
}

Status CheckCodecOption(const std::string& codec) {
  if (codec == kAutoCodec || format::FindCodec(codec) != nullptr) return Status::OK();
  return Status::InvalidArgument("codec '" + codec + "' is not one of " + format::CodecNames() + ", " + kAutoCodec);
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

Status EncodeTable(const BuildOptions& options, int t, std::span<const uint64_t> sorted,
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

Status AppendTable(util::OutputFile* out, const BuildOptions& options, int t, std::span<const uint64_t> sorted,
                   format::TableMetadata* tm, EncodedTable* enc) {
  SIMDEX_RETURN_IF_ERROR(out->PadTo(BlockAlignment(options.block_size)));
  const uint64_t offset = out->size();
  SIMDEX_RETURN_IF_ERROR(
      EncodeTable(options, t, sorted, [out](std::string_view block) { return out->Append(block); }, enc));
  return AppendHeads(out, *enc, offset, tm);
}

void IndexWriter::Record(int t, format::TableMetadata tm, const EncodedTable& enc) {
  for (int b : options_.scheme.table(t).leading_blocks()) tm.leading_blocks.push_back(static_cast<uint8_t>(b));
  if (t == 0) ranks0_ = enc.ranks;
  meta_.tables.push_back(std::move(tm));
}

Status IndexWriter::AddHeads(int t, const EncodedTable& enc, uint64_t blocks_offset) {
  format::TableMetadata tm;
  SIMDEX_RETURN_IF_ERROR(AppendHeads(out_.get(), enc, blocks_offset, &tm));
  Record(t, std::move(tm), enc);
  return Status::OK();
}

Status IndexWriter::AddTable(int t, std::span<const uint64_t> sorted) {
  format::TableMetadata tm;
  EncodedTable enc;
  SIMDEX_RETURN_IF_ERROR(AppendTable(out_.get(), options_, t, sorted, &tm, &enc));
  Record(t, std::move(tm), enc);
  return Status::OK();
}

Status IndexWriter::AddEncodedTable(int t, const EncodedTable& enc, std::string_view blocks) {
  SIMDEX_RETURN_IF_ERROR(out_->PadTo(BlockAlignment(options_.block_size)));
  const uint64_t offset = out_->size();
  SIMDEX_RETURN_IF_ERROR(out_->Append(blocks));
  return AddHeads(t, enc, offset);
}

Status IndexWriter::Finish(const EntrySummary& summary, std::string_view packed_ids, std::string_view id_map) {
  if (packed_ids.size() != format::PackedIntsBytes(summary.entries, summary.id_width)) {
    return Status::IOError("the packed ids have the wrong size");
  }
  meta_.entries = summary.entries;
  meta_.distinct_fingerprints = summary.distinct_fingerprints;
  meta_.id_base = summary.id_base;
  meta_.id_width = summary.id_width;
  SIMDEX_RETURN_IF_ERROR(out_->PadTo(8));
  meta_.rank_offset = out_->size();
  SIMDEX_RETURN_IF_ERROR(AppendU64s(out_.get(), ranks0_, &meta_.rank_checksum));
  IdPlacement placed;
  SIMDEX_RETURN_IF_ERROR(AppendIdSections(out_.get(), packed_ids, id_map, &placed));
  SetIdPlacement(placed, &meta_);
  std::string tail;
  meta_.EncodeTo(&tail);
  return AppendMetadataAndCommit(out_.get(), std::move(tail), &file_bytes_);
}

}  // namespace simdex::index
