// Each kind's IndexFileMerger (include/simdex/merge.h): its own merger
// (IndexMerger, LshIndexMerger) behind the interface, made by the kind's
// registry entry (ReaderKind::NewMerger, reader_kind.h).
#ifndef SIMDEX_ENGINE_INDEX_FILE_KIND_MERGERS_H_
#define SIMDEX_ENGINE_INDEX_FILE_KIND_MERGERS_H_

#include <memory>
#include <string>

#include "simdex/lsh_index.h"
#include "simdex/merge.h"

namespace simdex::index_file {

Status NewMerger(const IndexReader& old, const std::string& path, const MergeOptions& options,
                 std::unique_ptr<IndexFileMerger>* out);
Status NewMerger(const LshIndexReader& old, const std::string& path, const MergeOptions& options,
                 std::unique_ptr<IndexFileMerger>* out);

}  // namespace simdex::index_file

#endif  // SIMDEX_ENGINE_INDEX_FILE_KIND_MERGERS_H_
