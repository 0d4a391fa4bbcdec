// Searches an open index: for each table the query's key picks the blocks
// whose values may share it (interpolation search over the block heads);
// only those blocks are decoded, and only up to the end of the key's range.
// Every block is checked against its checksum the first time this reader
// decodes it, and the head indexes and what ids are read from before they
// are used (reader_rep.h), so that no answer comes from unchecked bytes.
#include <algorithm>
#include <chrono>
#include <span>

#include "base/query_batch.h"
#include "format/prefetch.h"
#include "engine/index/mapping_advice.h"
#include "engine/simhash/index/reader_rep.h"
#include "engine/simhash/index/result_merge.h"
#include "format/codec.h"
#include "format/coding.h"
#include "format/head_search.h"
#include "simdex/fingerprint.h"

namespace simdex {

namespace {

uint64_t LowMask(int bits) { return bits >= 64 ? ~0ULL : (1ULL << bits) - 1; }

using simhash::Found;

// Where the probes of one query fall, from the head indexes alone
// (PlaceProbes).
struct Probes {
  std::vector<uint64_t> permuted_query;  // per probed table
  std::vector<uint64_t> los;             // per probed table: the first value of its key range
  std::vector<size_t> windows;           // per probed table: its head-sample window
  std::vector<size_t> scan_table;        // scan j reads table tables[scan_table[j]]
  std::vector<size_t> scan_block;        // ... at block scan_block[j]
  std::vector<uint64_t> scan_head;       // ... whose head is scan_head[j]
};

// Scratch reused across the queries of one thread.
struct Scratch {
  std::vector<std::vector<uint64_t>> table_values;  // per probed table
  Probes probes;              // the current query's, when its batch chunk did not place them
  const Probes* current = nullptr;  // the current query's probes (ScanKeyRanges)
  std::vector<format::BlockScan> scans;
  std::vector<Found> found;
  std::vector<const uint8_t*> chunk_blocks;  // a batch chunk's first blocks (AskForChunk)
  bool chunk_asked = false;  // the blocks of the current batch chunk were asked for
  // The probes of the current batch chunk's queries, placed by AskForChunk
  // when it asked (chunk_asked), so that each query's are placed once:
  // chunk_probes[i % base::kQueryChunk] for query i.
  std::vector<Probes> chunk_probes;
  // What the scan of table 0 (the table in rank order) placed, so that the
  // ids of a fingerprint it found need no second decode: the values of
  // table_values[table0] lie in block table0_block just before entry
  // table0_end. Valid only when the key range ended in that block.
  bool table0_placed = false;
  size_t table0 = 0;  // the index of table 0 in the probed tables
  size_t table0_block = 0;
  uint32_t table0_end = 0;
};

}  // namespace

void SearchStats::Add(const SearchStats& o) {
  queries += o.queries;
  tables_probed += o.tables_probed;
  blocks_decoded += o.blocks_decoded;
  entries_scanned += o.entries_scanned;
  candidates += o.candidates;
  id_lookups += o.id_lookups;
  blocks_asked += o.blocks_asked;
  if (candidates_per_table.size() < o.candidates_per_table.size()) {
    candidates_per_table.resize(o.candidates_per_table.size());
  }
  for (size_t i = 0; i < o.candidates_per_table.size(); ++i) candidates_per_table[i] += o.candidates_per_table[i];
}

// The first block of the table that may hold values >= lo.
static size_t FirstBlock(const IndexReader::Rep::Table& table, uint64_t lo) {
  return table.FirstBlockInWindow(table.head_sample.Window(lo, nullptr), lo);
}

// Asks the CPU to start loading what a scan of block b for values >= lo
// will read (the codec knows which lines: TableDecoder::PrefetchScan), so
// that the loads of all probed tables overlap instead of each scan waiting
// for memory line by line; returns the guess the scan starts from.
static int GuessAndPrefetch(const IndexReader::Rep& rep, const IndexReader::Rep::Table& table, size_t b,
                            uint64_t head, uint64_t lo) {
  return table.decoder->PrefetchScan(rep.Block(table, b), rep.meta.block_size, table.FractionInBlock(b, head, lo));
}

// Places the probes of `query` from the head indexes alone (no block is
// read): for every table in `tables` its permuted query and the start of
// its key range (permuted_query, los), and for every table whose key range
// may hold values the first block to scan and its head (scan_table,
// scan_block, scan_head).
static Status PlaceProbes(const IndexReader::Rep& rep, const std::vector<int>& tables, uint64_t query,
                          Probes* probes) {
  probes->scan_table.clear();
  probes->scan_block.clear();
  probes->scan_head.clear();
  probes->permuted_query.resize(tables.size());
  probes->windows.resize(tables.size());
  probes->los.resize(tables.size());
  for (size_t i = 0; i < tables.size(); ++i) {
    SIMDEX_RETURN_IF_ERROR(rep.CheckHeads(static_cast<size_t>(tables[i])));
    const BlockPermutation& permutation = rep.scheme.table(tables[i]);
    const uint64_t pq = permutation.Apply(query);
    probes->permuted_query[i] = pq;
    probes->los[i] = pq & ~LowMask(64 - permutation.key_bits());
  }
  index::FindWindows(
      tables.size(), [&](size_t i) -> const index::OpenTable& { return rep.tables[tables[i]]; },
      probes->los.data(), probes->windows.data());
  for (size_t i = 0; i < tables.size(); ++i) {
    const IndexReader::Rep::Table& table = rep.tables[tables[i]];
    if (table.num_blocks == 0) continue;
    const uint64_t lo = probes->los[i];
    const size_t b = table.FirstBlockInWindow(probes->windows[i], lo);
    const uint64_t head = format::DecodeFixed64(table.heads + 8 * b);
    if (head > (lo | LowMask(64 - rep.scheme.table(tables[i]).key_bits()))) continue;
    probes->scan_table.push_back(i);
    probes->scan_block.push_back(b);
    probes->scan_head.push_back(head);
  }
  return Status::OK();
}

// A block scan of one query that takes longer than this waited for the
// disk: a warm scan of ten 4 KiB blocks takes 1-5 us, one page read 50 us
// and more on this project's disk (tens of microseconds on fast ones, where
// ten of them one after another still take longer).
constexpr std::chrono::microseconds kColdScan{20};

// Whether kWhenMissing times the block scans (and so may ask ahead).
static bool TimesScans(const IndexReader::Rep& rep) {
  return rep.random_access && rep.options.cold_reads == ReaderOptions::ColdReads::kWhenMissing;
}

// Whether the next query (or batch chunk) asks for its blocks ahead
// (ReaderOptions::cold_reads). kWhenMissing asks when the reader's last
// block scan waited for the disk (Rep::last_scan_cold): a warm query then
// makes no system call at all. (mincore, the exact test, costs 7 us a call
// on this project's VM, as much as a warm query.)
static bool WantsBlocksAhead(const IndexReader::Rep& rep) {
  switch (rep.options.cold_reads) {
    case ReaderOptions::ColdReads::kNever:
      return false;
    case ReaderOptions::ColdReads::kWhenMissing:
      return TimesScans(rep) && rep.last_scan_cold.load(std::memory_order_relaxed);
    case ReaderOptions::ColdReads::kAlways:
      return true;
  }
  return false;
}

// Asks the kernel for the first block of every table the query scans
// (ReaderOptions::cold_reads), before any is decoded, unless its batch
// chunk asked already: a cold query's page reads then overlap, and it waits
// for about one disk read instead of one per table. Returns the blocks
// asked for.
static uint64_t AskForBlocks(const IndexReader::Rep& rep, const std::vector<int>& tables, const Scratch& scratch) {
  const Probes& probes = *scratch.current;
  const size_t n = probes.scan_table.size();
  if (n == 0) return 0;
  auto block = [&](size_t j) { return rep.Block(rep.tables[tables[probes.scan_table[j]]], probes.scan_block[j]); };
  if (scratch.chunk_asked || !WantsBlocksAhead(rep)) return 0;
  for (size_t j = 0; j < n; ++j) index::WillRead(block(j), rep.meta.block_size);
  return n;
}

// A batch's cold path: before the first query of each chunk of
// base::kQueryChunk queries, the worker places the probes of all of them
// (head indexes only), sorts their first blocks by place in the file and
// asks for each once, a run of neighbouring blocks in one request, when
// the worker's last scan waited for the disk (WantsBlocksAhead). A
// chunk of cold queries then keeps up to kQueryChunk x tables reads in
// flight instead of one query's, and queries that probe one block share
// its read. The placements are kept (Scratch::chunk_probes) for the
// queries' scans. Adds the blocks asked for to *asked.
static Status AskForChunk(const IndexReader::Rep& rep, std::span<const uint64_t> queries, int k, Scratch* scratch,
                          uint64_t* asked) {
  const std::vector<int>& tables = rep.scheme.TablesForDistance(k);
  std::vector<const uint8_t*>& blocks = scratch->chunk_blocks;
  blocks.clear();
  scratch->chunk_asked = false;
  if (!WantsBlocksAhead(rep)) return Status::OK();
  if (scratch->chunk_probes.size() < queries.size()) scratch->chunk_probes.resize(queries.size());
  for (size_t c = 0; c < queries.size(); ++c) {
    Probes& probes = scratch->chunk_probes[c];
    SIMDEX_RETURN_IF_ERROR(PlaceProbes(rep, tables, queries[c], &probes));
    for (size_t j = 0; j < probes.scan_table.size(); ++j) {
      blocks.push_back(rep.Block(rep.tables[tables[probes.scan_table[j]]], probes.scan_block[j]));
    }
  }
  std::sort(blocks.begin(), blocks.end());
  blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
  const uint32_t block_size = rep.meta.block_size;
  for (size_t j = 0; j < blocks.size();) {
    size_t end = j + 1;
    while (end < blocks.size() && blocks[end] == blocks[end - 1] + block_size) ++end;
    index::WillRead(blocks[j], (end - j) * block_size);
    j = end;
  }
  *asked += blocks.size();
  scratch->chunk_asked = true;
  return Status::OK();
}

// For every table in `tables`, appends to values[i] the values of table
// tables[i] whose key equals the query's key, and keeps the permuted query
// in permuted_query[i]. The work runs in phases over all tables so that
// their memory accesses overlap: the in-memory head samples are searched
// and the head-index windows prefetched; the windows are scanned and the
// candidate blocks prefetched; then the first candidate block of every
// table is decoded in one interleaved pass (format::ScanBlocks). Before
// that pass, a query whose blocks are not in memory asks for all of them
// at once (AskForBlocks). A key range that runs on past its first block
// continues block by block. `placed`: the query's probes, placed by its
// batch chunk (AskForChunk); nullptr places them here.
static Status ScanKeyRanges(const IndexReader::Rep& rep, const std::vector<int>& tables, uint64_t query,
                            const Probes* placed, Scratch* scratch, format::BlockScanStats* scan,
                            uint64_t* blocks_asked) {
  auto& scans = scratch->scans;
  scans.clear();
  scratch->table_values.resize(tables.size());
  for (std::vector<uint64_t>& values : scratch->table_values) values.clear();
  scratch->table0_placed = false;
  if (placed == nullptr) {
    SIMDEX_RETURN_IF_ERROR(PlaceProbes(rep, tables, query, &scratch->probes));
    placed = &scratch->probes;
  }
  scratch->current = placed;
  const Probes& probes = *placed;
  *blocks_asked += AskForBlocks(rep, tables, *scratch);
  for (size_t j = 0; j < probes.scan_table.size(); ++j) {
    const size_t i = probes.scan_table[j];
    const uint32_t t = static_cast<uint32_t>(tables[i]);
    const IndexReader::Rep::Table& table = rep.tables[t];
    const size_t b = probes.scan_block[j];
    const uint64_t head = probes.scan_head[j];
    const uint64_t lo = probes.los[i];
    const int guess = GuessAndPrefetch(rep, table, b, head, lo);
    if (t == 0) format::PrefetchLine(rep.ranks + 8 * b);  // for the ids of what it finds
    const int key_bits = rep.scheme.table(static_cast<int>(t)).key_bits();
    format::BlockScan s = rep.ScanOf(t, b, head, lo, lo | LowMask(64 - key_bits), &scratch->table_values[i]);
    s.restart_guess = guess;
    scans.push_back(s);
  }
  const bool timed = TimesScans(rep);
  const auto scan_start = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
  format::ScanBlocks(scans.data(), scans.size(), rep.meta.block_size, format::BlockReadOptions(), scan);
  if (timed) {
    const bool cold = std::chrono::steady_clock::now() - scan_start > kColdScan;
    // Written only when it changes, so that threads on a warm reader share
    // the line without writing it.
    if (rep.last_scan_cold.load(std::memory_order_relaxed) != cold) {
      rep.last_scan_cold.store(cold, std::memory_order_relaxed);
    }
  }
  for (size_t j = 0; j < scans.size(); ++j) {
    const size_t i = probes.scan_table[j];
    const uint32_t t = static_cast<uint32_t>(tables[i]);
    SIMDEX_RETURN_IF_ERROR(rep.FollowScan(scans[j], t, scan));
    if (!scans[j].reached_end && t == 0) {
      scratch->table0_placed = true;
      scratch->table0 = i;
      scratch->table0_block = probes.scan_block[j];
      scratch->table0_end = scans[j].end_index;
    }
  }
  return Status::OK();
}

// Appends a Match for each of the `equal` entries from rank `rank` on.
static Status AppendRun(const IndexReader::Rep& rep, uint64_t rank, uint64_t equal, size_t block,
                        uint64_t fingerprint, int distance, std::vector<Match>* out) {
  for (uint64_t r = rank; r < rank + equal; ++r) {
    if (r >= rep.meta.entries) return Status::Corruption("block " + std::to_string(block) + " of table 0: rank past the ids");
    out->push_back({rep.meta.id_base + rep.ids.Get(r), fingerprint, distance});
  }
  return Status::OK();
}

// The ids of `fingerprint` when the scan of table 0 placed it (Scratch):
// appends them and returns true, or returns false when it did not.
static bool AppendPlacedIds(const IndexReader::Rep& rep, const Scratch& scratch, uint64_t fingerprint, int distance,
                            std::vector<Match>* out, Status* status) {
  if (!scratch.table0_placed) return false;
  const std::vector<uint64_t>& values = scratch.table_values[scratch.table0];
  const auto [first, last] = std::equal_range(values.begin(), values.end(), fingerprint);
  if (first == last) return false;
  // values are the block's entries table0_end - values.size() .. table0_end - 1.
  const uint64_t in_block = scratch.table0_end - values.size() + static_cast<uint64_t>(first - values.begin());
  const uint64_t rank = format::DecodeFixed64(rep.ranks + 8 * scratch.table0_block) + in_block;
  *status = AppendRun(rep, rank, static_cast<uint64_t>(last - first), scratch.table0_block, fingerprint, distance, out);
  return true;
}

// Appends a Match for every id stored with `fingerprint` (its run in table 0).
static Status AppendIds(const IndexReader::Rep& rep, uint64_t fingerprint, int distance, std::vector<Match>* out,
                        format::BlockScanStats* scan) {
  const IndexReader::Rep::Table& table = rep.tables[0];
  size_t b = FirstBlock(table, fingerprint);
  format::BlockReadOptions opts;
  opts.verified = &table.verified;
  for (bool first = true; b < table.num_blocks; ++b, first = false) {
    const uint64_t head = format::DecodeFixed64(table.heads + 8 * b);
    if (head > fingerprint) break;
    format::PrefetchLine(rep.ranks + 8 * b);
    const int guess = first ? GuessAndPrefetch(rep, table, b, head, fingerprint) : 0;
    opts.seed = format::BlockSeed(0, b);
    opts.block = b;
    bool reached_end = false;
    uint64_t below = 0, equal = 0;
    Status s = table.decoder->CountInBlock(rep.Block(table, b), rep.file_end, rep.meta.block_size, head, fingerprint,
                                           guess, opts, &below, &equal, &reached_end, scan);
    if (!s.ok()) return s.WithContext("block " + std::to_string(b) + " of table 0");
    const uint64_t rank = format::DecodeFixed64(rep.ranks + 8 * b) + below;
    SIMDEX_RETURN_IF_ERROR(AppendRun(rep, rank, equal, b, fingerprint, distance, out));
    if (!reached_end) break;
  }
  return Status::OK();
}

// One query; `placed` as ScanKeyRanges takes it.
static Status SearchOne(const IndexReader::Rep& rep, uint64_t query, int k, const Probes* placed, Scratch* scratch,
                        std::vector<Match>* out, SearchStats* stats) {
  out->clear();
  scratch->found.clear();
  format::BlockScanStats scan;
  const std::vector<int>& tables = rep.scheme.TablesForDistance(k);
  uint64_t blocks_asked = 0;
  SIMDEX_RETURN_IF_ERROR(ScanKeyRanges(rep, tables, query, placed, scratch, &scan, &blocks_asked));
  for (size_t i = 0; i < tables.size(); ++i) {
    const BlockPermutation& perm = rep.scheme.table(tables[i]);
    const uint64_t pq = scratch->current->permuted_query[i];
    const std::vector<uint64_t>& values = scratch->table_values[i];
    for (size_t j = 0; j < values.size(); ++j) {
      if (j > 0 && values[j] == values[j - 1]) continue;  // equal values: one fingerprint
      const int d = HammingDistance(values[j], pq);
      if (d <= k) scratch->found.push_back({perm.Invert(values[j]), d});
    }
    if (stats) {
      stats->tables_probed++;
      stats->candidates += values.size();
      stats->candidates_per_table[tables[i]] += values.size();
    }
  }
  auto& found = scratch->found;
  simhash::MergeFound(&found);
  if (!found.empty()) {
    // Ids come from table 0's blocks, the rank index and the id section.
    SIMDEX_RETURN_IF_ERROR(rep.CheckHeads(0));
    SIMDEX_RETURN_IF_ERROR(rep.CheckIds());
  }
  for (const Found& f : found) {
    Status s;
    if (!AppendPlacedIds(rep, *scratch, f.fingerprint, f.distance, out, &s)) {
      s = AppendIds(rep, f.fingerprint, f.distance, out, &scan);
    }
    SIMDEX_RETURN_IF_ERROR(s);
  }
  simhash::SortMatches(out);
  if (stats) {
    stats->queries++;
    stats->id_lookups += found.size();
    stats->blocks_asked += blocks_asked;
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
  // Per thread, so that a query allocates nothing once its buffers have grown.
  thread_local Scratch scratch;
  return rep_->InFile(SearchOne(*rep_, query, k, nullptr, &scratch, out, stats));
}

Status IndexReader::Search(std::span<const uint64_t> queries, int k, SearchResults* out, int threads,
                           SearchStats* stats) const {
  SIMDEX_RETURN_IF_ERROR(CheckK(rep_->scheme, k));
  const size_t nq = queries.size();
  const int nthreads = base::QueryBatchThreads(nq, threads);
  std::vector<Scratch> scratch(nthreads);
  std::vector<SearchStats> thread_stats(nthreads);
  for (SearchStats& ts : thread_stats) ts.candidates_per_table.resize(rep_->tables.size());
  return index::RunQueries(
      *rep_, nq, std::move(thread_stats),
      [&](size_t i, int w, std::vector<Match>* found, SearchStats* ts) {
        if (i % base::kQueryChunk == 0) {
          const std::span<const uint64_t> chunk = queries.subspan(i, std::min(base::kQueryChunk, nq - i));
          SIMDEX_RETURN_IF_ERROR(AskForChunk(*rep_, chunk, k, &scratch[w], &ts->blocks_asked));
        }
        const Probes* placed = scratch[w].chunk_asked ? &scratch[w].chunk_probes[i % base::kQueryChunk] : nullptr;
        return SearchOne(*rep_, queries[i], k, placed, &scratch[w], found, ts);
      },
      out, stats);
}

}  // namespace simdex
