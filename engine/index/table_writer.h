// The writing of tables, of either index kind: the permuted tables of a
// SimHash index (engine/simhash/index/index_writer.h) and the band tables
// of a MinHash-LSH index (engine/minhash/index/lsh_file.h) are encoded and
// appended by these helpers, from a TableOptions each kind makes of its
// own build options.
#ifndef SIMDEX_ENGINE_INDEX_TABLE_WRITER_H_
#define SIMDEX_ENGINE_INDEX_TABLE_WRITER_H_

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "engine/util/output_file.h"
#include "format/codec.h"
#include "format/index_layout.h"
#include "simdex/status.h"

namespace simdex::index {

using format::EncodedTable;

// The codec option that picks a codec per table.
inline constexpr char kAutoCodec[] = "auto";

// How a build encodes its tables: what the table helpers read of a kind's
// build options (BuildOptions, LshBuildOptions). No defaults here: each
// kind fills every field from its options, where the defaults are written.
struct TableOptions {
  std::string codec;  // a codec's name or "auto"
  uint32_t block_size = 0;
  int restarts = 0;
};

// The table options of a kind's build options (BuildOptions, LshBuildOptions).
template <class BuildOptions>
TableOptions TableOptionsOf(const BuildOptions& options) {
  return {options.codec, options.block_size, options.restarts};
}

// OK when `codec` names a codec or is "auto"; else InvalidArgument naming
// the choices.
Status CheckCodecOption(const std::string& codec);
// OK when a file may have blocks of `block_size` bytes; else InvalidArgument.
Status CheckBlockSizeOption(uint64_t block_size);

// Encodes table t's sorted values with the options' codec (for "auto", the
// codec of the fewest blocks), block size and restart points: what
// AppendTable does, for callers that encode tables side by side and append
// them themselves.
Status EncodeTable(const TableOptions& options, int t, std::span<const uint64_t> sorted,
                   const std::function<Status(std::string_view block)>& sink, EncodedTable* out);

// Appends the head index of a table encoded as `enc` whose blocks start at
// blocks_offset (8-aligned) and fills *tm with the table's fields, all but
// its leading blocks.
Status AppendHeads(util::OutputFile* out, const EncodedTable& enc, uint64_t blocks_offset, format::TableMetadata* tm);

// Encodes table t from its sorted values (EncodeTable) and appends its
// blocks (aligned as docs/format.md says) and head index; *tm and *enc as
// AppendHeads' and EncodeTable's. Tables of either index kind are written
// by it.
Status AppendTable(util::OutputFile* out, const TableOptions& options, int t, std::span<const uint64_t> sorted,
                   format::TableMetadata* tm, EncodedTable* enc);

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_TABLE_WRITER_H_
