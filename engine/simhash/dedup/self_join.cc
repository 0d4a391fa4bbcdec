#include "engine/simhash/dedup/self_join.h"

#include <mutex>
#include <string>
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

namespace {

// Joins the key groups of `table` with the keys of `earlier` tables as
// exclusions.
Status JoinOne(std::span<const uint64_t> distinct, const SelfJoinOptions& options, int table,
               const std::vector<uint64_t>& earlier, KeyGroups* groups, const PairSink& sink, SelfJoinStats* stats) {
  std::mutex sink_mu, stats_mu;
  uint64_t pairs = 0;
  const PairSink counting = [&](std::span<const DistinctPair> batch) {
    pairs += batch.size();
    sink(batch);
  };
  const BlockPermutation& perm = options.scheme.table(table);
  SIMDEX_RETURN_IF_ERROR(groups->ForEach(perm, [&](int) {
    return std::make_unique<JoinVisitor>(distinct, options.k, options.force_plain_groups, KeyMask(perm), earlier,
                                         counting, sink_mu, &stats->groups, stats_mu);
  }));
  stats->pairs += pairs;
  return Status::OK();
}

}  // namespace

KeyGroupOptions SelfJoinSort(const SelfJoinOptions& options) {
  KeyGroupOptions sort = options.sort;
  sort.min_group_size = 2;
  return sort;
}

Status SelfJoin(std::span<const uint64_t> distinct, const SelfJoinOptions& options, const PairSink& sink,
                SelfJoinStats* stats) {
  if (options.k == 0 || distinct.size() < 2) return Status::OK();
  std::vector<uint64_t> exclusions;  // the keys of the tables joined so far
  KeyGroups groups(distinct, SelfJoinSort(options));
  for (int t : options.scheme.TablesForDistance(options.k)) {
    SIMDEX_RETURN_IF_ERROR(JoinOne(distinct, options, t, exclusions, &groups, sink, stats));
    exclusions.push_back(KeyMask(options.scheme.table(t)));
  }
  stats->sort = groups.stats();
  return Status::OK();
}

Status SelfJoinTable(std::span<const uint64_t> distinct, const SelfJoinOptions& options, int table,
                     const PairSink& sink, SelfJoinStats* stats) {
  KeyGroups groups(distinct, SelfJoinSort(options));
  return SelfJoinTable(&groups, distinct, options, table, sink, stats);
}

Status SelfJoinTable(KeyGroups* groups, std::span<const uint64_t> distinct, const SelfJoinOptions& options,
                     int table, const PairSink& sink, SelfJoinStats* stats) {
  std::vector<uint64_t> exclusions;
  for (int t : options.scheme.TablesForDistance(options.k)) {
    if (t == table) {
      if (options.k == 0 || distinct.size() < 2) return Status::OK();
      SIMDEX_RETURN_IF_ERROR(JoinOne(distinct, options, t, exclusions, groups, sink, stats));
      stats->sort = groups->stats();
      return Status::OK();
    }
    exclusions.push_back(KeyMask(options.scheme.table(t)));
  }
  return Status::InvalidArgument("table " + std::to_string(table) + " is not one of the tables scheme " +
                                 options.scheme.Name() + " joins for k " + std::to_string(options.k));
}

}  // namespace simdex::simhash
