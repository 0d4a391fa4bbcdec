#include "engine/simhash/dedup/against.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <mutex>

#include "engine/simhash/index/entry_ids.h"
#include "engine/index/mapping_advice.h"
#include "engine/simhash/index/table_cursor.h"
#include "simdex/fingerprint.h"

namespace simdex::simhash {

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

// The nearest index fingerprints found so far for each batch fingerprint:
// its distance and one fingerprint there, and the other fingerprints found
// at that distance (ties, rare; entries left behind by a nearer find later
// are dropped at the end). Within one table every batch fingerprint is in
// one group, so the parts of a table never touch the same entry.
struct Nearest {
  static constexpr uint8_t kNone = 0xff;
  explicit Nearest(size_t n) : distance(n, kNone), fingerprint(n) {}
  std::vector<uint8_t> distance;
  std::vector<uint64_t> fingerprint;
  std::vector<Candidate> ties;
};

// Walks one part of one table: for each batch group, the index's values
// with the same leading group bits are read from a forward-moving cursor
// and compared with the group's fingerprints.
class MergeVisitor : public GroupVisitor {
 public:
  MergeVisitor(std::span<const uint64_t> distinct, const IndexReader& index, int table, int group_bits, int k,
               Nearest* nearest, std::mutex& mu, AgainstStats* stats)
      : distinct_(distinct),
        perm_(index.scheme().table(table)),
        cursor_(index, table),
        low_mask_(~(~uint64_t{0} << (64 - group_bits))),
        k_(k),
        nearest_(nearest),
        mu_(mu),
        stats_(stats) {}

  ~MergeVisitor() override {
    std::lock_guard<std::mutex> lock(mu_);
    nearest_->ties.insert(nearest_->ties.end(), ties_.begin(), ties_.end());
    stats_->blocks_decoded += cursor_.blocks_decoded();
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
          if (d <= k_) Offer(id, d, perm_.Invert(v));
        }
      }
    }
    return Status::OK();
  }

 private:
  void Offer(uint32_t id, int d, uint64_t fingerprint) {
    uint8_t& best = nearest_->distance[id];
    if (d < best) {
      best = static_cast<uint8_t>(d);
      nearest_->fingerprint[id] = fingerprint;
    } else if (d == best && fingerprint != nearest_->fingerprint[id]) {
      ties_.push_back({id, static_cast<uint32_t>(d), fingerprint});
    }
  }

  std::span<const uint64_t> distinct_;
  const BlockPermutation& perm_;
  simhash::TableCursor cursor_;
  const uint64_t low_mask_;
  const int k_;
  Nearest* nearest_;
  std::mutex& mu_;
  AgainstStats* stats_;
  std::vector<uint64_t> stored_;
  std::vector<Candidate> ties_;
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
                      const KeyGroupOptions& sort, std::vector<AgainstHit>* hits, AgainstStats* stats,
                      int only_table) {
  hits->clear();
  Nearest found(distinct.size());
  std::mutex mu;
  KeyGroups groups(distinct, sort);
  for (int t : index.scheme().TablesForDistance(k)) {
    if (only_table >= 0 && t != only_table) continue;
    const int group_bits = GroupBits(index.scheme().table(t).key_bits(), distinct.size());
    SIMDEX_RETURN_IF_ERROR(groups.ForEach(index.scheme().table(t), [&](int) {
      return std::make_unique<MergeVisitor>(distinct, index, t, group_bits, k, &found, mu, stats);
    }));
  }
  stats->sort = groups.stats();
  // Per batch fingerprint, the index fingerprints at its smallest distance
  // (several tables may have found the same one).
  std::vector<Candidate> nearest;
  for (uint32_t id = 0; id < distinct.size(); ++id) {
    if (found.distance[id] != Nearest::kNone) nearest.push_back({id, found.distance[id], found.fingerprint[id]});
  }
  for (const Candidate& c : found.ties) {
    if (c.distance == found.distance[c.distinct]) nearest.push_back(c);
  }
  found = Nearest(0);
  std::sort(nearest.begin(), nearest.end());
  nearest.erase(std::unique(nearest.begin(), nearest.end()), nearest.end());
  // The smallest id of each of those fingerprints: the first of its run in
  // table 0, found by one more forward walk.
  std::vector<uint64_t> fingerprints;
  for (const Candidate& c : nearest) fingerprints.push_back(c.fingerprint);
  std::sort(fingerprints.begin(), fingerprints.end());
  fingerprints.erase(std::unique(fingerprints.begin(), fingerprints.end()), fingerprints.end());
  std::vector<uint64_t> ids(fingerprints.size());
  simhash::TableCursor table0(index, 0);
  const simhash::EntryIds entry_ids(index);
  for (size_t i = 0; i < fingerprints.size(); ++i) {
    SIMDEX_RETURN_IF_ERROR(table0.Seek(fingerprints[i]));
    if (!table0.Valid() || table0.value() != fingerprints[i] || table0.Rank() >= index.entries()) {
      return entry_ids.InFile(Status::Corruption("fingerprint " + FormatHexFingerprint(fingerprints[i]) +
                                                   " is in a table of the index but not in its table 0"));
    }
    ids[i] = entry_ids.AtRank(table0.Rank());
  }
  stats->blocks_decoded += table0.blocks_decoded();
  for (const Candidate& c : nearest) {
    const size_t q = static_cast<size_t>(std::lower_bound(fingerprints.begin(), fingerprints.end(), c.fingerprint) -
                                         fingerprints.begin());
    if (!hits->empty() && hits->back().distinct == c.distinct) {
      hits->back().id = std::min(hits->back().id, ids[q]);
    } else {
      hits->push_back({c.distinct, c.distance, ids[q]});
    }
  }
  return Status::OK();
}

AgainstStrategy ChooseStrategy(uint64_t distinct, const IndexReader& index, int k, bool from_disk) {
  // Per table the index probes, as measured on the 2-core machine of
  // docs/benchmarks.md (10^7 t10 index, 4 KiB blocks, one thread): a probe
  // costs about kProbeMicros to read a restart segment of one block, plus
  // kBlockMicros per further block its key's range spans (blocks / 2^key
  // bits of them: none for t10's 28-bit keys, two at 10^8 entries for t4's
  // 16-bit ones); the merge join costs kVisitMicros per batch fingerprint
  // (its sort and its group's seek) and kBlockMicros per block holding a key
  // of the batch, which it decodes whole, once: about
  // blocks * (1 - exp(-distinct / blocks)) blocks for evenly spread keys.
  // From the disk (10^9 t10, 52 GB, on a machine with 24 GiB) a probe of a
  // table also waits kFaultMicros for its page, and the merge join reads
  // what it decodes at kStreamBytesPerMicro.
  constexpr double kProbeMicros = 0.55, kVisitMicros = 0.09, kBlockMicros = 5.0;
  constexpr double kFaultMicros = 54, kStreamBytesPerMicro = 416;
  const IndexInfo info = index.Info();
  double probe = 0, merge = 0;
  for (int t : index.scheme().TablesForDistance(k)) {
    const double blocks = static_cast<double>(info.tables[t].blocks);
    const double spanned = blocks / std::ldexp(1.0, info.tables[t].key_bits);
    const double touched = blocks == 0 ? 0 : blocks * (1 - std::exp(-static_cast<double>(distinct) / blocks));
    probe += (kProbeMicros + kBlockMicros * spanned + (from_disk ? kFaultMicros : 0)) * static_cast<double>(distinct);
    merge += kVisitMicros * static_cast<double>(distinct) + kBlockMicros * touched +
             (from_disk ? touched * info.block_size / kStreamBytesPerMicro : 0);
  }
  return merge < probe ? AgainstStrategy::kMergeJoin : AgainstStrategy::kProbe;
}

AgainstStrategy ChooseStrategy(uint64_t distinct, const IndexReader& index, int k) {
  return ChooseStrategy(distinct, index, k,
                        index::WantsRandomAccess(ReaderOptions::Access::kAuto, index.Info().total_bytes));
}

}  // namespace simdex::simhash
