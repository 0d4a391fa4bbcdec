#include "bench/harness/baselines.h"

#include <algorithm>

#include "bench/harness/faiss_searchers.h"
#include "bench/harness/permuted_tables.h"
#include "bench/harness/scan_searcher.h"

namespace simdex::bench {

const std::vector<std::string>& BaselineNames() {
  static const std::vector<std::string> kNames = {"scan", "permuted", "faiss-hash", "faiss-multihash"};
  return kNames;
}

std::unique_ptr<Searcher> MakeBaseline(const std::string& name, const Scheme& scheme,
                                       const BaselineOptions& options) {
  const int max_k = options.max_k < 0 ? scheme.k() : options.max_k;
  if (name == "scan") return std::make_unique<ScanSearcher>();
  if (name == "permuted") return std::make_unique<PermutedTablesSearcher>(scheme);
  if (name == "faiss-hash") return std::make_unique<FaissHashSearcher>(options.faiss_hash_bits, max_k);
  if (name == "faiss-multihash") {
    const std::vector<int>& widths = scheme.widths();
    const bool equal = std::all_of(widths.begin(), widths.end(), [&](int w) { return w == widths[0]; });
    // Equal widths sum to 64 in a valid scheme; faiss cuts keys of at most
    // 57 bits (an 8-byte load shifted by up to 7), so one 64-bit block is out.
    if (equal && widths[0] <= 57) {
      return std::make_unique<FaissMultiHashSearcher>(scheme.num_blocks(), widths[0], max_k);
    }
    return std::make_unique<FaissMultiHashSearcher>(4, 16, max_k);
  }
  return nullptr;
}

}  // namespace simdex::bench
