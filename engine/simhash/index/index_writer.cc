#include "engine/simhash/index/index_writer.h"

#include "engine/index/file_sections.h"
#include "format/packed_ints.h"

namespace simdex::simhash {

index::TableOptions TableOptionsOf(const BuildOptions& options) {
  index::TableOptions t;
  t.codec = options.codec;
  t.block_size = options.block_size;
  t.restarts = options.restarts;
  return t;
}

IndexWriter::IndexWriter(const BuildOptions& options, std::unique_ptr<util::OutputFile> out)
    : scheme_(options.scheme), tables_(TableOptionsOf(options)), out_(std::move(out)) {
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

void IndexWriter::Record(int t, format::TableMetadata tm, const index::EncodedTable& enc) {
  for (int b : scheme_.table(t).leading_blocks()) tm.leading_blocks.push_back(static_cast<uint8_t>(b));
  if (t == 0) ranks0_ = enc.ranks;
  meta_.tables.push_back(std::move(tm));
}

Status IndexWriter::AddHeads(int t, const index::EncodedTable& enc, uint64_t blocks_offset) {
  format::TableMetadata tm;
  SIMDEX_RETURN_IF_ERROR(index::AppendHeads(out_.get(), enc, blocks_offset, &tm));
  Record(t, std::move(tm), enc);
  return Status::OK();
}

Status IndexWriter::AddTable(int t, std::span<const uint64_t> sorted) {
  format::TableMetadata tm;
  index::EncodedTable enc;
  SIMDEX_RETURN_IF_ERROR(index::AppendTable(out_.get(), tables_, t, sorted, &tm, &enc));
  Record(t, std::move(tm), enc);
  return Status::OK();
}

Status IndexWriter::AddEncodedTable(int t, const index::EncodedTable& enc, std::string_view blocks) {
  SIMDEX_RETURN_IF_ERROR(out_->PadTo(index::BlockAlignment(tables_.block_size)));
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
  SIMDEX_RETURN_IF_ERROR(index::AppendU64s(out_.get(), ranks0_, &meta_.rank_checksum));
  index::IdPlacement placed;
  SIMDEX_RETURN_IF_ERROR(index::AppendIdSections(out_.get(), packed_ids, id_map, &placed));
  index::SetIdPlacement(placed, &meta_);
  std::string tail;
  meta_.EncodeTo(&tail);
  return index::AppendMetadataAndCommit(out_.get(), std::move(tail), &file_bytes_);
}

}  // namespace simdex::simhash
