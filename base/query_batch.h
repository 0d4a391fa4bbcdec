// Batches of independent queries on a few threads, for the batch searches
// of both index kinds (IndexReader::Search, LshIndexReader::Query): each
// query writes its own answer, so the answers do not depend on the number
// of threads, and the error reported is that of the first failing query in
// query order, whichever thread met it.
#ifndef SIMDEX_BASE_QUERY_BATCH_H_
#define SIMDEX_BASE_QUERY_BATCH_H_

#include <cstddef>
#include <functional>

#include "simdex/status.h"

namespace simdex::base {

// Threads take queries in chunks of this many, one atomic increment each.
inline constexpr size_t kQueryChunk = 64;

// The threads a batch of n queries runs on: `threads` (at least 1), but no
// more than it has chunks.
int QueryBatchThreads(size_t n, int threads);

// Calls query(i, worker) once for every i < n on `nthreads` threads
// (worker in [0, nthreads): a caller keeps scratch per worker), the
// calling thread among them when nthreads is 1. Every query runs, even
// after one fails. Returns OK, or the status of the smallest i whose call
// failed with *failed set to that i. REQUIRES: nthreads >= 1.
Status RunQueryBatch(size_t n, int nthreads, const std::function<Status(size_t i, int worker)>& query,
                     size_t* failed);

}  // namespace simdex::base

#endif  // SIMDEX_BASE_QUERY_BATCH_H_
