// Opens an index file: maps it, then validates header, footer, metadata and
// section placement (docs/format.md) before anything else is read; and the
// checks of the sections and blocks that run once per reader (reader_rep.h).
#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>

#include "engine/simhash/index/reader_rep.h"

namespace simdex {

IndexReader::IndexReader(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
IndexReader::~IndexReader() = default;

Status IndexReader::Open(const std::string& path, const ReaderOptions& options,
                         std::unique_ptr<IndexReader>* out) {
  std::unique_ptr<RandomAccessFile> file;
  SIMDEX_RETURN_IF_ERROR(MapFile(path, &file));
  SIMDEX_RETURN_IF_ERROR(Open(std::move(file), options, out).WithContext(path));
  (*out)->rep_->AdviseOpened(path, options);
  return Status::OK();
}

Status IndexReader::Open(std::unique_ptr<RandomAccessFile> file, const ReaderOptions& options,
                         std::unique_ptr<IndexReader>* out) {
  auto rep = std::make_unique<Rep>();
  rep->options = options;
  format::Envelope envelope;
  SIMDEX_RETURN_IF_ERROR(rep->MapEnvelope(std::move(file), format::IndexKind::kSimHash, &envelope));
  SIMDEX_RETURN_IF_ERROR(rep->meta.DecodeFrom(envelope.metadata, envelope.metadata + envelope.metadata_length,
                                               envelope.header.version));
  const format::IndexMetadata& m = rep->meta;

  std::vector<int> widths(m.widths.begin(), m.widths.end());
  Status s = Scheme::Create(widths, m.k, &rep->scheme);
  if (!s.ok()) return Status::Corruption("metadata: " + s.message());

  // Section placement: everything between the header and the metadata.
  const uint64_t area = envelope.metadata_offset;
  std::vector<index::Section> sections;
  for (size_t t = 0; t < m.tables.size(); ++t) {
    const auto& lead = rep->scheme.table(static_cast<int>(t)).leading_blocks();
    if (!std::equal(lead.begin(), lead.end(), m.tables[t].leading_blocks.begin(), m.tables[t].leading_blocks.end())) {
      return Status::Corruption("metadata: table " + std::to_string(t) + ": leading blocks do not match the scheme");
    }
  }
  SIMDEX_RETURN_IF_ERROR(
      index::PlaceTables(m.tables, m.block_size, m.restarts, m.entries, area, &rep->decoders, &rep->tables, &sections));
  const uint64_t blocks0 = m.tables.empty() ? 0 : m.tables[0].num_blocks;
  sections.push_back({m.rank_offset, blocks0 * 8, "rank index"});
  SIMDEX_RETURN_IF_ERROR(rep->PlaceIds(m.entries, area, &sections));
  SIMDEX_RETURN_IF_ERROR(rep->Attach(m.entries, area, std::move(sections)));
  rep->ranks = rep->file_begin + m.rank_offset;
  if (options.verify_heads_on_open || options.verify_block_checksums) {
    SIMDEX_RETURN_IF_ERROR(rep->CheckAllHeads());
    SIMDEX_RETURN_IF_ERROR(rep->CheckRanks());
    SIMDEX_RETURN_IF_ERROR(rep->CheckIdMap());
  }
  index::SampleTables(&rep->tables);
  if (options.verify_block_checksums) {
    SIMDEX_RETURN_IF_ERROR(rep->CheckIds());
    SIMDEX_RETURN_IF_ERROR(rep->CheckAllBlocks());
  }
  out->reset(new IndexReader(std::move(rep)));
  return Status::OK();
}

Status IndexReader::Rep::VerifyRanks() const {
  const uint64_t blocks0 = tables.empty() ? 0 : tables[0].num_blocks;
  return VerifySection("rank index", meta.rank_offset, blocks0 * 8, meta.rank_checksum);
}

Status IndexReader::Rep::CheckRanks() const {
  return ranks_checked.Run([&] { return VerifyRanks(); });
}

Status IndexReader::Rep::CheckIds() const {
  SIMDEX_RETURN_IF_ERROR(CheckRanks());
  SIMDEX_RETURN_IF_ERROR(CheckIdSection());
  return CheckIdMap();
}

const Scheme& IndexReader::scheme() const { return rep_->scheme; }
bool IndexReader::has_string_ids() const { return rep_->has_id_map; }

std::string_view IndexReader::IdString(uint64_t number) const {
  assert(rep_->has_id_map && number < rep_->id_map.size());
  return rep_->id_map.Get(number);
}

uint64_t IndexReader::IdStringCount() const { return rep_->IdStringCount(); }

Status IndexReader::FindIdString(std::string_view id, uint64_t* number) const {
  return rep_->FindIdString(id, number);
}
uint64_t IndexReader::entries() const { return rep_->meta.entries; }
const std::string& IndexReader::profile() const { return rep_->meta.profile; }

double EntropyBoundBitsPerEntry(uint64_t n) {
  if (n == 0) return 0;
  // log2 C(2^64, N) = N*64 - log2(N!) + sum_i log2(1 - i/2^64); the last sum
  // is -N(N-1)/2^65/ln 2 to within rounding for N << 2^64.
  const long double nn = static_cast<long double>(n);
  const long double ln2 = std::numbers::ln2_v<long double>;
  const long double bits = nn * 64 - std::lgamma(nn + 1) / ln2 - nn * (nn - 1) / std::ldexp(1.0L, 65) / ln2;
  return static_cast<double>(bits / nn);
}

IndexInfo IndexReader::Info() const {
  const format::IndexMetadata& m = rep_->meta;
  IndexInfo info;
  info.entries = m.entries;
  info.distinct_fingerprints = m.distinct_fingerprints;
  info.scheme = rep_->scheme.Name();
  info.widths = rep_->scheme.widths();
  info.k = m.k;
  rep_->DescribeFile(&info);
  for (size_t t = 0; t < info.tables.size(); ++t) {
    const auto& lead = rep_->scheme.table(static_cast<int>(t));
    info.tables[t].leading_blocks = lead.leading_blocks();
    info.tables[t].key_bits = lead.key_bits();
  }
  info.rank_bytes = m.tables.empty() ? 0 : m.tables[0].num_blocks * 8;
  info.entropy_bound_bits_per_entry = EntropyBoundBitsPerEntry(m.entries);
  return info;
}

}  // namespace simdex
