// Searches an open index: for each table the query's key picks the blocks
// whose values may share it (interpolation search over the block heads);
// only those blocks are decoded, and only up to the end of the key's range.
#include <algorithm>
#include <atomic>
#include <thread>

#include "engine/index/reader_rep.h"
#include "engine/index/table_encoder.h"
#include "format/block_reader.h"
#include "format/coding.h"
#include "format/head_search.h"
#include "simdex/fingerprint.h"

namespace simdex {

namespace {

uint64_t LowMask(int bits) { return bits >= 64 ? ~0ULL : (1ULL << bits) - 1; }

struct Found {
  uint64_t fingerprint;
  int distance;
};

// Scratch reused across the queries of one thread.
struct Scratch {
  std::vector<uint64_t> values;
  std::vector<Found> found;
};

}  // namespace

void SearchStats::Add(const SearchStats& o) {
  queries += o.queries;
  tables_probed += o.tables_probed;
  blocks_decoded += o.blocks_decoded;
  entries_scanned += o.entries_scanned;
  candidates += o.candidates;
  id_lookups += o.id_lookups;
  if (candidates_per_table.size() < o.candidates_per_table.size()) {
    candidates_per_table.resize(o.candidates_per_table.size());
  }
  for (size_t i = 0; i < o.candidates_per_table.size(); ++i) candidates_per_table[i] += o.candidates_per_table[i];
}

// Appends to *out the values of table t in [lo, hi], in order.
static Status ScanRange(const IndexReader::Rep& rep, uint32_t t, uint64_t lo, uint64_t hi,
                        std::vector<uint64_t>* out, format::BlockScanStats* scan) {
  const IndexReader::Rep::Table& table = rep.tables[t];
  const uint64_t nb = table.num_blocks;
  size_t b = format::FindLastLess(table.heads, nb, lo, nullptr);
  if (b == format::kNoHead) b = 0;
  format::BlockReadOptions opts;
  opts.verify_checksum = rep.options.verify_block_checksums;
  for (; b < nb; ++b) {
    const uint64_t head = format::DecodeFixed64(table.heads + 8 * b);
    if (head > hi) break;
    opts.seed = index::BlockSeed(t, b);
    bool reached_end = false;
    Status s = format::ScanBlock(rep.Block(table, b), rep.end(), rep.meta.block_size, head, table.decoder, lo, hi,
                                 opts, out, &reached_end, scan);
    if (!s.ok()) return s.WithContext("block " + std::to_string(b) + " of table " + std::to_string(t));
    if (!reached_end) break;
  }
  return Status::OK();
}

// Appends a Match for every id stored with `fingerprint` (its run in table 0).
static Status AppendIds(const IndexReader::Rep& rep, uint64_t fingerprint, int distance, std::vector<uint64_t>* scratch,
                        std::vector<Match>* out, format::BlockScanStats* scan) {
  const IndexReader::Rep::Table& table = rep.tables[0];
  size_t b = format::FindLastLess(table.heads, table.num_blocks, fingerprint, nullptr);
  if (b == format::kNoHead) b = 0;
  format::BlockReadOptions opts;
  opts.verify_checksum = rep.options.verify_block_checksums;
  for (; b < table.num_blocks; ++b) {
    const uint64_t head = format::DecodeFixed64(table.heads + 8 * b);
    if (head > fingerprint) break;
    opts.seed = index::BlockSeed(0, b);
    scratch->clear();
    bool reached_end = false;
    Status s = format::ScanBlock(rep.Block(table, b), rep.end(), rep.meta.block_size, head, table.decoder, head,
                                 fingerprint, opts, scratch, &reached_end, scan);
    if (!s.ok()) return s.WithContext("block " + std::to_string(b) + " of table 0");
    // scratch holds the block's values <= fingerprint; equal ones come last.
    size_t first = scratch->size();
    while (first > 0 && (*scratch)[first - 1] == fingerprint) --first;
    const uint64_t rank = format::DecodeFixed64(rep.ranks + 8 * b) + first;
    for (uint64_t r = rank; r < rank + (scratch->size() - first); ++r) {
      if (r >= rep.meta.entries) return Status::Corruption("block " + std::to_string(b) + " of table 0: rank past the ids");
      out->push_back({rep.meta.id_base + rep.ids.Get(r), fingerprint, distance});
    }
    if (!reached_end) break;
  }
  return Status::OK();
}

static Status SearchOne(const IndexReader::Rep& rep, uint64_t query, int k, Scratch* scratch, std::vector<Match>* out,
                        SearchStats* stats) {
  out->clear();
  scratch->found.clear();
  format::BlockScanStats scan;
  for (int t : rep.scheme.TablesForDistance(k)) {
    const BlockPermutation& perm = *rep.tables[t].permutation;
    const uint64_t pq = perm.Apply(query);
    const uint64_t suffix = LowMask(64 - perm.key_bits());
    const uint64_t lo = pq & ~suffix;
    scratch->values.clear();
    SIMDEX_RETURN_IF_ERROR(ScanRange(rep, static_cast<uint32_t>(t), lo, lo | suffix, &scratch->values, &scan));
    uint64_t prev = 0;
    for (size_t i = 0; i < scratch->values.size(); ++i) {
      const uint64_t v = scratch->values[i];
      if (i > 0 && v == prev) continue;  // equal values: one fingerprint
      prev = v;
      const int d = HammingDistance(v, pq);
      if (d <= k) scratch->found.push_back({perm.Invert(v), d});
    }
    if (stats) {
      stats->tables_probed++;
      stats->candidates += scratch->values.size();
      stats->candidates_per_table[t] += scratch->values.size();
    }
  }
  auto& found = scratch->found;
  std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.fingerprint < b.fingerprint; });
  found.erase(std::unique(found.begin(), found.end(),
                          [](const Found& a, const Found& b) { return a.fingerprint == b.fingerprint; }),
              found.end());
  for (const Found& f : found) {
    SIMDEX_RETURN_IF_ERROR(AppendIds(rep, f.fingerprint, f.distance, &scratch->values, out, &scan));
  }
  std::sort(out->begin(), out->end(), [](const Match& a, const Match& b) {
    if (a.distance != b.distance) return a.distance < b.distance;
    if (a.id != b.id) return a.id < b.id;
    return a.fingerprint < b.fingerprint;
  });
  if (stats) {
    stats->queries++;
    stats->id_lookups += found.size();
    stats->blocks_decoded += scan.blocks;
    stats->entries_scanned += scan.values_decoded;
  }
  return Status::OK();
}

static Status CheckK(const Scheme& scheme, int k) {
  if (k < 0 || k > scheme.k()) {
    return Status::InvalidArgument("k = " + std::to_string(k) + " is outside 0.." + std::to_string(scheme.k()) +
                                   ", the distances scheme " + scheme.Name() + " guarantees");
  }
  return Status::OK();
}

Status IndexReader::Search(uint64_t query, int k, std::vector<Match>* out, SearchStats* stats) const {
  SIMDEX_RETURN_IF_ERROR(CheckK(rep_->scheme, k));
  if (stats && stats->candidates_per_table.size() < rep_->tables.size()) {
    stats->candidates_per_table.resize(rep_->tables.size());
  }
  Scratch scratch;
  return SearchOne(*rep_, query, k, &scratch, out, stats);
}

Status IndexReader::Search(std::span<const uint64_t> queries, int k, SearchResults* out, int threads,
                           SearchStats* stats) const {
  SIMDEX_RETURN_IF_ERROR(CheckK(rep_->scheme, k));
  const size_t nq = queries.size();
  std::vector<std::vector<Match>> per_query(nq);
  constexpr size_t kChunk = 64;
  std::atomic<size_t> next{0};
  const int nthreads = std::max(1, std::min<int>(threads, static_cast<int>((nq + kChunk - 1) / kChunk)));
  std::vector<Status> errors(nthreads);
  std::vector<size_t> error_at(nthreads, nq);
  std::vector<SearchStats> thread_stats(nthreads);
  auto work = [&](int w) {
    Scratch scratch;
    SearchStats& ts = thread_stats[w];
    ts.candidates_per_table.resize(rep_->tables.size());
    for (size_t begin; (begin = next.fetch_add(kChunk)) < nq;) {
      for (size_t i = begin; i < std::min(nq, begin + kChunk); ++i) {
        Status s = SearchOne(*rep_, queries[i], k, &scratch, &per_query[i], &ts);
        if (!s.ok() && i < error_at[w]) {
          errors[w] = s;
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
    for (auto& th : pool) th.join();
  }
  const auto first = std::min_element(error_at.begin(), error_at.end());
  if (*first < nq) return errors[first - error_at.begin()].WithContext("query " + std::to_string(*first));

  out->lims.assign(1, 0);
  out->matches.clear();
  for (auto& m : per_query) {
    out->matches.insert(out->matches.end(), m.begin(), m.end());
    out->lims.push_back(out->matches.size());
  }
  if (stats) {
    for (const SearchStats& ts : thread_stats) stats->Add(ts);
  }
  return Status::OK();
}

}  // namespace simdex
