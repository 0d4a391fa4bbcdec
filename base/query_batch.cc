// Runs a batch of queries chunk by chunk on a pool of threads
// (query_batch.h).
#include "base/query_batch.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace simdex::base {

int QueryBatchThreads(size_t n, int threads) {
  const size_t chunks = (n + kQueryChunk - 1) / kQueryChunk;
  return static_cast<int>(std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(std::max(threads, 1)), chunks)));
}

Status RunQueryBatch(size_t n, int nthreads, const std::function<Status(size_t i, int worker)>& query,
                     size_t* failed) {
  std::atomic<size_t> next{0};
  // Per worker: its first failure (the smallest i, since a worker's chunks
  // come in increasing order).
  std::vector<Status> errors(nthreads);
  std::vector<size_t> error_at(nthreads, n);
  auto work = [&](int w) {
    for (size_t begin; (begin = next.fetch_add(kQueryChunk)) < n;) {
      for (size_t i = begin; i < std::min(n, begin + kQueryChunk); ++i) {
        Status s = query(i, w);
        if (!s.ok() && i < error_at[w]) {
          errors[w] = std::move(s);
          error_at[w] = i;
        }
      }
    }
  };
  if (nthreads == 1) {
    work(0);
  } else {
    std::vector<std::thread> pool;
    for (int w = 0; w < nthreads; ++w) pool.emplace_back(work, w);
    for (std::thread& t : pool) t.join();
  }
  const auto first = std::min_element(error_at.begin(), error_at.end());
  if (*first == n) return Status::OK();
  *failed = *first;
  return errors[first - error_at.begin()];
}

}  // namespace simdex::base
