#include "engine/service/online_index.h"

#include <algorithm>
#include <bit>
#include <cassert>

namespace simdex::service {

void OnlineIndex::Add(uint64_t seq, uint64_t fingerprint) {
  Append(seq, [&](uint8_t* p) { std::memcpy(p, &fingerprint, 8); }, [&](int t) { return Key(t, fingerprint); });
}

void OnlineIndex::Search(uint64_t fingerprint, int k, uint64_t min_seq, std::vector<OnlineMatch>* out) const {
  assert(k >= 0 && k <= scheme_.k());
  const size_t first = out->size();
  const std::vector<int>& tables = scheme_.TablesForDistance(k);
  for (int t : tables) {
    const uint64_t key = Key(t, fingerprint);
    Walk(t, key, min_seq, [&](uint64_t, const uint8_t* e) {
      const uint64_t fp = Fingerprint(e);
      if (Key(t, fp) != key) return;
      const int d = std::popcount(fp ^ fingerprint);
      if (d <= k) out->push_back(OnlineMatch{Seq(e), fp, d});
    });
  }
  // An entry may agree with the query on several tables' keys.
  if (tables.size() > 1 && out->size() - first > 1) {
    auto by_seq = [](const OnlineMatch& a, const OnlineMatch& b) { return a.seq < b.seq; };
    std::sort(out->begin() + static_cast<std::ptrdiff_t>(first), out->end(), by_seq);
    auto same = [](const OnlineMatch& a, const OnlineMatch& b) { return a.seq == b.seq; };
    out->erase(std::unique(out->begin() + static_cast<std::ptrdiff_t>(first), out->end(), same), out->end());
  }
}

}  // namespace simdex::service
