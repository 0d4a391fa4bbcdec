#include "engine/simhash/dedup/self_join.h"

#include <mutex>
#include <vector>

namespace simdex::simhash {

namespace {

// Joins each key group of one table: looks up the members' fingerprints and
// hands them to GroupJoin with this table's key as the required mask and
// the earlier tables' keys as exclusions.
class JoinVisitor : public GroupVisitor {
 public:
  JoinVisitor(std::span<const uint64_t> distinct, int k, bool force_plain, uint64_t required,
              const std::vector<uint64_t>& exclusions, const PairSink& sink, std::mutex& mu, GroupJoinStats* total,
              std::mutex& stats_mu)
      : distinct_(distinct),
        join_(k, force_plain),
        required_(required),
        exclusions_(exclusions),
        out_(sink, mu),
        total_(total),
        stats_mu_(stats_mu) {}

  ~JoinVisitor() override {
    out_.Flush();
    std::lock_guard<std::mutex> lock(stats_mu_);
    total_->comparisons += stats_.comparisons;
    total_->splits += stats_.splits;
  }

  Status Visit(const GroupBatch& batch) override {
    // Start loading every member's fingerprint before the first compare.
    for (uint32_t id : batch.ids) __builtin_prefetch(&distinct_[id]);
    for (size_t g = 0; g < batch.size(); ++g) {
      for (const uint32_t id : batch.group(g)) join_.members().push_back({distinct_[id], id});
      join_.Join(required_, exclusions_, &out_, &stats_);
    }
    return Status::OK();
  }

 private:
  std::span<const uint64_t> distinct_;
  GroupJoin join_;
  const uint64_t required_;
  const std::vector<uint64_t>& exclusions_;
  PairBuffer out_;
  GroupJoinStats stats_;
  GroupJoinStats* total_;
  std::mutex& stats_mu_;
};

}  // namespace

uint64_t KeyMask(const BlockPermutation& perm) {
  const int bits = perm.key_bits();
  return perm.Invert(bits >= 64 ? ~uint64_t{0} : ~(~uint64_t{0} >> bits));
}

Status SelfJoin(std::span<const uint64_t> distinct, const SelfJoinOptions& options, const PairSink& sink,
                SelfJoinStats* stats) {
  if (options.k == 0 || distinct.size() < 2) return Status::OK();
  KeyGroupOptions sort = options.sort;
  sort.min_group_size = 2;
  KeyGroups groups(distinct, sort);
  std::mutex sink_mu, stats_mu;
  const PairSink counting = [&](std::span<const DistinctPair> batch) {  // called under sink_mu
    stats->pairs += batch.size();
    sink(batch);
  };
  // Each table's key groups, with the keys of the tables joined before it
  // as exclusions.
  std::vector<uint64_t> exclusions;
  for (int t : options.scheme.TablesForDistance(options.k)) {
    const BlockPermutation& perm = options.scheme.table(t);
    SIMDEX_RETURN_IF_ERROR(groups.ForEach(perm, [&](int) {
      return std::make_unique<JoinVisitor>(distinct, options.k, options.force_plain_groups, KeyMask(perm), exclusions,
                                           counting, sink_mu, &stats->groups, stats_mu);
    }));
    exclusions.push_back(KeyMask(perm));
  }
  stats->sort = groups.stats();
  return Status::OK();
}

}  // namespace simdex::simhash
