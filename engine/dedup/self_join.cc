#include "engine/dedup/self_join.h"

#include <mutex>
#include <vector>

namespace simdex::dedup {

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
    total_->groups += stats_.groups;
    total_->comparisons += stats_.comparisons;
    total_->splits += stats_.splits;
  }

  Status Visit(const GroupBatch& batch) override {
    // Start loading every member's fingerprint before the first compare.
    for (uint32_t id : batch.ids) __builtin_prefetch(&distinct_[id]);
    for (size_t g = 0; g < batch.size(); ++g) {
      const std::span<const uint32_t> ids = batch.group(g);
      values_.resize(ids.size());
      for (size_t i = 0; i < ids.size(); ++i) values_[i] = distinct_[ids[i]];
      ids_.assign(ids.begin(), ids.end());
      join_.Join(&values_, &ids_, required_, exclusions_, &out_, &stats_);
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
  std::vector<uint64_t> values_;
  std::vector<uint32_t> ids_;
};

}  // namespace

uint64_t KeyMask(const BlockPermutation& perm) {
  const int bits = perm.key_bits();
  return perm.Invert(bits >= 64 ? ~uint64_t{0} : ~(~uint64_t{0} >> bits));
}

Status SelfJoin(std::span<const uint64_t> distinct, const SelfJoinOptions& options, const PairSink& sink,
                SelfJoinStats* stats) {
  if (options.k == 0 || distinct.size() < 2) return Status::OK();
  std::mutex sink_mu, stats_mu;
  uint64_t pairs = 0;
  const PairSink counting = [&](std::span<const DistinctPair> batch) {
    pairs += batch.size();
    sink(batch);
  };
  KeyGroupOptions sort = options.sort;
  sort.min_group_size = 2;
  std::vector<uint64_t> exclusions;  // the keys of the tables joined so far
  KeyGroups groups(distinct, sort);
  for (int t : options.scheme.TablesForDistance(options.k)) {
    const BlockPermutation& perm = options.scheme.table(t);
    const uint64_t required = KeyMask(perm);
    SIMDEX_RETURN_IF_ERROR(groups.ForEach(perm, [&](int) {
      return std::make_unique<JoinVisitor>(distinct, options.k, options.force_plain_groups, required, exclusions,
                                           counting, sink_mu, &stats->groups, stats_mu);
    }));
    exclusions.push_back(required);
  }
  stats->sort = groups.stats();
  stats->pairs += pairs;
  return Status::OK();
}

}  // namespace simdex::dedup
