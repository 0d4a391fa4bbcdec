#include "engine/index/open_table.h"

#include "format/block_frame.h"

namespace simdex::index {

Status PlaceTables(const std::vector<format::TableMetadata>& meta, uint32_t block_size, int restarts, uint64_t values,
                   uint64_t area, SharedDecoders* decoders, std::vector<OpenTable>* tables,
                   std::vector<Section>* sections) {
  tables->clear();
  for (size_t t = 0; t < meta.size(); ++t) {
    const format::TableMetadata& tm = meta[t];
    const std::string name = "table " + std::to_string(t);
    if (tm.num_blocks > area / block_size || tm.num_blocks > values || (values > 0) != (tm.num_blocks > 0)) {
      return Status::Corruption("metadata: " + name + ": bad block count " + std::to_string(tm.num_blocks));
    }
    // Every table holds every value, at most kMaxBlockEntries a block:
    // ceil(values / kMaxBlockEntries) <= num_blocks.
    if (values > 0 && (values - 1) / format::kMaxBlockEntries >= tm.num_blocks) {
      return Status::Corruption("metadata: " + name + ": " + std::to_string(values) + " values do not fit " +
                                std::to_string(tm.num_blocks) + " blocks of at most " +
                                std::to_string(format::kMaxBlockEntries));
    }
    sections->push_back({tm.blocks_offset, tm.num_blocks * block_size, name + " block data"});
    sections->push_back({tm.heads_offset, tm.num_blocks * 8, name + " head index"});
    OpenTable table;
    table.num_blocks = tm.num_blocks;
    Status s = decoders->For(tm, restarts, &table.decoder);
    if (!s.ok()) return s.WithContext("metadata: " + name);
    tables->push_back(std::move(table));
  }
  return Status::OK();
}

void AttachTables(const uint8_t* base, const std::vector<format::TableMetadata>& meta, std::vector<OpenTable>* tables) {
  for (size_t t = 0; t < meta.size(); ++t) {
    (*tables)[t].blocks = base + meta[t].blocks_offset;
    (*tables)[t].heads = base + meta[t].heads_offset;
  }
}

void SampleTables(std::vector<OpenTable>* tables) {
  for (OpenTable& table : *tables) {
    table.head_sample.Init(table.heads, table.num_blocks);
    table.verified = format::VerifiedBlocks(table.num_blocks);
  }
}

Status CheckTableBlock(const OpenTable& table, const format::TableMetadata& tm, uint32_t block_size, size_t t,
                       uint64_t b) {
  Status s = table.verified.Check(table.blocks + b * block_size, block_size,
                                  format::BlockSeed(static_cast<uint32_t>(t), b), b);
  if (s.ok()) return s;
  return s.WithContext(BlockOfTable(b, t) + " (byte offset " + std::to_string(tm.blocks_offset + b * block_size) + ")");
}

std::string BlockOfTable(uint64_t b, size_t t) { return "block " + std::to_string(b) + " of table " + std::to_string(t); }

std::string TableBlockPlace(size_t t, uint64_t b, const format::TableMetadata& tm, uint32_t block_size) {
  return "table " + std::to_string(t) + " block " + std::to_string(b) + " (byte offset " +
         std::to_string(tm.blocks_offset + b * block_size) + ")";
}

Status DecodeBlockStrictly(const OpenTable& table, const format::TableMetadata& tm, uint32_t block_size, size_t t,
                           uint64_t b, uint64_t prev, const uint8_t* file_end, std::vector<uint64_t>* values) {
  const uint64_t head = table.Head(b);
  if (b > 0 && head < prev) {
    return Status::Corruption(TableBlockPlace(t, b, tm, block_size) + ": head is less than the previous value");
  }
  format::BlockReadOptions opts;
  opts.verify_checksum = true;
  opts.strict = true;
  opts.seed = format::BlockSeed(static_cast<uint32_t>(t), b);
  Status s = table.decoder->DecodeBlock(table.blocks + b * block_size, file_end, block_size, head, opts, values);
  return s.ok() ? s : s.WithContext(TableBlockPlace(t, b, tm, block_size));
}

void AppendTableSections(const std::vector<format::TableMetadata>& meta, uint32_t block_size,
                         std::vector<std::pair<uint64_t, uint64_t>>* used) {
  for (const format::TableMetadata& tm : meta) {
    used->push_back({tm.blocks_offset, tm.num_blocks * block_size});
    used->push_back({tm.heads_offset, tm.num_blocks * 8});
  }
}

}  // namespace simdex::index
