#include "engine/simhash/dedup/bucket_join.h"

#include <algorithm>
#include <mutex>
#include <string>

#include "engine/simhash/dedup/group_join.h"
#include "engine/simhash/dedup/pair_sink.h"
#include "engine/simhash/dedup/permuter.h"
#include "engine/simhash/dedup/self_join.h"
#include "engine/util/key_sort.h"

namespace simdex::simhash {

BucketJoin::BucketJoin(const Scheme& scheme, int k, int threads, bool force_plain_groups)
    : scheme_(scheme), k_(k), threads_(threads), force_plain_groups_(force_plain_groups) {}
BucketJoin::~BucketJoin() = default;

bool BucketJoin::Reserve(size_t n) {
  if (n <= capacity_) return true;
  records_.reset();
  scratch_.reset();
  capacity_ = 0;
  records_ = util::MakeLargeArray<uint64_t>(n);
  scratch_ = util::MakeLargeArray<uint64_t>(n);
  if (records_ == nullptr || scratch_ == nullptr) return false;
  capacity_ = n;
  return true;
}

Status BucketJoin::Join(int table, std::span<const std::span<const uint64_t>> pieces, std::vector<NearPair>* out) {
  size_t n = 0;
  for (const std::span<const uint64_t>& p : pieces) n += p.size();
  if (k_ == 0 || n < 2) return Status::OK();  // distinct fingerprints are never within 0
  if (!Reserve(n)) {
    return Status::IOError("cannot allocate " + std::to_string(16 * n) + " bytes to sort a key range of " +
                           std::to_string(n) + " fingerprints");
  }
  const BlockPermutation& perm = scheme_.table(table);
  const Permuter permuter(perm);
  const int key_bits = perm.key_bits();
  const int shift = 64 - key_bits;  // records >> shift is the key (key_bits >= 1)

  // The permuted fingerprints into scratch, then sorted by key into records.
  uint64_t* const records = records_.get();
  uint64_t* const scratch = scratch_.get();
  size_t filled = 0;
  for (const std::span<const uint64_t>& p : pieces) {
    for (uint64_t f : p) scratch[filled++] = permuter.Apply(f);
  }
  util::MakeAndSortByLeadingBits([scratch](size_t i) { return scratch[i]; }, records, scratch, n, key_bits, threads_);

  std::vector<uint64_t> exclusions;  // the keys of the tables before this one
  for (int t : scheme_.TablesForDistance(k_)) {
    if (t == table) break;
    exclusions.push_back(KeyMask(scheme_.table(t)));
  }
  const uint64_t required = KeyMask(perm);

  // Pairs come out as positions in records; each group is sorted in place
  // and stays within its own positions, so a position names its
  // fingerprint until the last part is done.
  std::mutex mu;
  const PairSink sink = [&](std::span<const DistinctPair> pairs) {
    for (const DistinctPair& p : pairs) {
      const uint64_t a = permuter.Invert(records[p.a]), b = permuter.Invert(records[p.b]);
      out->push_back({std::min(a, b), std::max(a, b), static_cast<int>(p.distance)});
    }
  };
  auto key = [&](size_t i) { return shift == 0 ? records[i] : records[i] >> shift; };
  const std::vector<size_t> bounds = GroupParts(n, threads_, [&](size_t i) { return key(i) == key(i - 1); });
  util::internal::OnThreads(static_cast<int>(bounds.size()) - 1, [&](int part) {
    GroupJoin join(k_, force_plain_groups_);
    GroupJoinStats stats;
    PairBuffer buffer(sink, mu);
    const size_t end = bounds[part + 1];
    for (size_t i = bounds[part]; i < end;) {
      const uint64_t group = key(i);
      size_t j = i + 1;
      while (j < end && key(j) == group) ++j;
      if (j - i >= 2) {
        // Whole values in order bring the bucket's repeats together.
        std::sort(records + i, records + j);
        for (size_t x = i; x < j; ++x) {
          if (x > i && records[x] == records[x - 1]) continue;
          join.members().push_back({permuter.Invert(records[x]), static_cast<uint32_t>(x)});
        }
        join.Join(required, exclusions, &buffer, &stats);
      }
      i = j;
    }
  });
  return Status::OK();
}

}  // namespace simdex::simhash
