#include "engine/simhash/index/index_writer.h"

#include <algorithm>

#include "engine/index/file_sections.h"

namespace simdex::simhash {

Status Table0Writer::Create(uint64_t entries, size_t memory_bytes, const std::string& dir, uint8_t id_width,
                            bool sort_runs, std::unique_ptr<Table0Writer>* out) {
  std::unique_ptr<Table0Writer> w(new Table0Writer(id_width, sort_runs));
  SIMDEX_RETURN_IF_ERROR(index::SortedValues::Create(entries, memory_bytes, dir, &w->values_));
  SIMDEX_RETURN_IF_ERROR(util::OutputFile::CreateScratch(dir, "ids", &w->ids_file_));
  *out = std::move(w);
  return Status::OK();
}

void Table0Writer::FlushRun() {
  std::sort(run_.begin(), run_.end());
  for (uint64_t id : run_) packed_.Add(id);
  run_.clear();
}

Status Table0Writer::Add(uint64_t fingerprint, uint64_t id) {
  const bool new_fp = entries_ == 0 || fingerprint != last_;
  distinct_ += new_fp;
  last_ = fingerprint;
  ++entries_;
  if (sort_runs_) {
    if (new_fp) FlushRun();
    run_.push_back(id);
  } else {
    packed_.Add(id);
  }
  if (ids_buf_.size() >= (size_t{1} << 20)) {
    SIMDEX_RETURN_IF_ERROR(ids_file_->Append(ids_buf_));
    ids_buf_.clear();
  }
  return values_->Append(fingerprint);
}

Status Table0Writer::Finish() {
  FlushRun();
  packed_.Finish();
  SIMDEX_RETURN_IF_ERROR(ids_file_->Append(ids_buf_));
  ids_buf_ = std::string();
  SIMDEX_RETURN_IF_ERROR(ids_file_->Close());
  SIMDEX_RETURN_IF_ERROR(util::MappedValues::Open(*ids_file_, &ids_map_));
  return values_->Finish();
}

Status AddPermuted(std::span<const uint64_t> values, const BlockPermutation& perm,
                   util::ExternalSorter<uint64_t>* sorter) {
  std::vector<uint64_t> buf(8192);
  for (size_t i = 0; i < values.size(); i += buf.size()) {
    const size_t n = std::min(buf.size(), values.size() - i);
    for (size_t j = 0; j < n; ++j) buf[j] = perm.Apply(values[i + j]);
    SIMDEX_RETURN_IF_ERROR(sorter->Add(buf.data(), n));
  }
  return Status::OK();
}

IndexWriter::IndexWriter(const BuildOptions& options, std::unique_ptr<util::OutputFile> out)
    : scheme_(options.scheme), tables_(index::TableOptionsOf(options)), out_(std::move(out)) {
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
  return index::AppendIdsAndCommit(out_.get(), packed_ids, id_map, &meta_, &file_bytes_);
}

}  // namespace simdex::simhash
