#include "engine/dedup/against.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <mutex>
#include <tuple>

#include "engine/index/table_cursor.h"
#include "simdex/fingerprint.h"

namespace simdex::dedup {

namespace {

constexpr size_t kProbeBatch = size_t{1} << 14;

// A value pair within k found by the merge join: batch fingerprint
// `distinct`, index fingerprint `fingerprint` (unpermuted).
struct Candidate {
  uint32_t distinct;
  uint32_t distance;
  uint64_t fingerprint;
  friend auto operator<=>(const Candidate&, const Candidate&) = default;
};

// Walks one part of one table: for each batch group, the index's values
// with the same leading group bits are read from a forward-moving cursor
// and compared with the group's fingerprints.
class MergeVisitor : public GroupVisitor {
 public:
  MergeVisitor(std::span<const uint64_t> distinct, const IndexReader& index, int table, int group_bits, int k,
               std::vector<Candidate>* out, std::mutex& mu, AgainstStats* stats)
      : distinct_(distinct),
        perm_(index.scheme().table(table)),
        cursor_(index, table),
        low_mask_(~(~uint64_t{0} << (64 - group_bits))),
        k_(k),
        out_(out),
        mu_(mu),
        stats_(stats) {}

  ~MergeVisitor() override {
    std::lock_guard<std::mutex> lock(mu_);
    out_->insert(out_->end(), found_.begin(), found_.end());
    stats_->blocks_decoded += cursor_.blocks_decoded();
    stats_->candidates += found_.size();
  }

  Status Visit(const GroupBatch& batch) override {
    for (uint32_t id : batch.ids) __builtin_prefetch(&distinct_[id]);
    for (size_t g = 0; g < batch.size(); ++g) {
      const uint64_t lo = batch.prefixes[g], hi = lo | low_mask_;
      SIMDEX_RETURN_IF_ERROR(cursor_.Seek(lo));
      stored_.clear();
      while (cursor_.Valid() && cursor_.value() <= hi) {
        stored_.push_back(cursor_.value());
        SIMDEX_RETURN_IF_ERROR(cursor_.Next());
      }
      if (stored_.empty()) continue;
      for (uint32_t id : batch.group(g)) {
        const uint64_t mine = perm_.Apply(distinct_[id]);
        for (uint64_t v : stored_) {
          const int d = std::popcount(mine ^ v);
          if (d <= k_) found_.push_back({id, static_cast<uint32_t>(d), perm_.Invert(v)});
        }
      }
    }
    return Status::OK();
  }

 private:
  std::span<const uint64_t> distinct_;
  const BlockPermutation& perm_;
  index::TableCursor cursor_;
  const uint64_t low_mask_;
  const int k_;
  std::vector<Candidate>* out_;
  std::mutex& mu_;
  AgainstStats* stats_;
  std::vector<uint64_t> stored_;
  std::vector<Candidate> found_;
};

}  // namespace

Status ProbeIndex(std::span<const uint64_t> distinct, const IndexReader& index, int k, int threads,
                  std::vector<AgainstHit>* hits) {
  hits->clear();
  SearchResults results;
  for (size_t begin = 0; begin < distinct.size(); begin += kProbeBatch) {
    const size_t n = std::min(kProbeBatch, distinct.size() - begin);
    SIMDEX_RETURN_IF_ERROR(index.Search(distinct.subspan(begin, n), k, &results, threads));
    for (size_t i = 0; i < n; ++i) {
      // Matches come ordered by distance, then id: the first is the nearest.
      if (results.lims[i] == results.lims[i + 1]) continue;
      const Match& m = results.matches[results.lims[i]];
      hits->push_back({static_cast<uint32_t>(begin + i), static_cast<uint32_t>(m.distance), m.id});
    }
  }
  return Status::OK();
}

Status MergeJoinIndex(std::span<const uint64_t> distinct, const IndexReader& index, int k,
                      const KeyGroupOptions& sort, std::vector<AgainstHit>* hits, AgainstStats* stats) {
  hits->clear();
  std::vector<Candidate> candidates;
  std::mutex mu;
  KeyGroups groups(distinct, sort);
  for (int t : index.scheme().TablesForDistance(k)) {
    const int group_bits = GroupBits(index.scheme().table(t).key_bits(), distinct.size());
    SIMDEX_RETURN_IF_ERROR(groups.ForEach(index.scheme().table(t), [&](int) {
      return std::make_unique<MergeVisitor>(distinct, index, t, group_bits, k, &candidates, mu, stats);
    }));
  }
  stats->sort = groups.stats();
  // Several tables may find the same pair; keep, per batch fingerprint, the
  // index fingerprints at its smallest distance.
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  std::vector<Candidate> nearest;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (i > 0 && candidates[i].distinct == candidates[i - 1].distinct &&
        candidates[i].distance != nearest.back().distance) {
      continue;
    }
    nearest.push_back(candidates[i]);
  }
  candidates = std::vector<Candidate>();
  // The smallest id of each of those fingerprints: one exact search each.
  std::vector<uint64_t> fingerprints;
  for (const Candidate& c : nearest) fingerprints.push_back(c.fingerprint);
  std::sort(fingerprints.begin(), fingerprints.end());
  fingerprints.erase(std::unique(fingerprints.begin(), fingerprints.end()), fingerprints.end());
  SearchResults exact;
  SIMDEX_RETURN_IF_ERROR(index.Search(fingerprints, 0, &exact, sort.threads));
  for (const Candidate& c : nearest) {
    const size_t q = static_cast<size_t>(std::lower_bound(fingerprints.begin(), fingerprints.end(), c.fingerprint) -
                                         fingerprints.begin());
    if (exact.lims[q] == exact.lims[q + 1]) {
      return Status::Corruption("fingerprint " + FormatHexFingerprint(c.fingerprint) +
                                " is in a table of the index but not in its table 0");
    }
    const uint64_t id = exact.matches[exact.lims[q]].id;
    if (!hits->empty() && hits->back().distinct == c.distinct) {
      hits->back().id = std::min(hits->back().id, id);
    } else {
      hits->push_back({c.distinct, c.distance, id});
    }
  }
  return Status::OK();
}

AgainstStrategy ChooseStrategy(uint64_t distinct, const IndexReader& index, int k) {
  // Per table the index probes: a probe costs about kProbeMicros; the merge
  // join sorts the batch (kSortMicros per fingerprint) and decodes each
  // block that holds a key of the batch once (kBlockMicros), about
  // blocks * (1 - exp(-distinct / blocks)) of them for evenly spread keys.
  constexpr double kProbeMicros = 0.7, kSortMicros = 0.01, kBlockMicros = 5.0;
  const IndexInfo info = index.Info();
  double probe = 0, merge = 0;
  for (int t : index.scheme().TablesForDistance(k)) {
    const double blocks = static_cast<double>(info.tables[t].blocks);
    const double touched = blocks == 0 ? 0 : blocks * (1 - std::exp(-static_cast<double>(distinct) / blocks));
    probe += kProbeMicros * static_cast<double>(distinct);
    merge += kSortMicros * static_cast<double>(distinct) + kBlockMicros * touched;
  }
  return merge < probe ? AgainstStrategy::kMergeJoin : AgainstStrategy::kProbe;
}

}  // namespace simdex::dedup
