// BandJoiner (include/simdex/minhash_join.h): the band self-join within a
// memory bound. The keys go to one util::SpillableArray per band; Finish()
// runs minhash::JoinInMemory when they and its sort fit, else each band is
// read twice from its file (the filter, then the filtered records into an
// ExternalSorter of (key, item)); every pair goes to an ExternalSorter of
// pairs, which Read() streams without repeats.
#include <algorithm>

#include "engine/minhash/dedup/band_join_core.h"
#include "engine/util/external_sorter.h"
#include "engine/util/output_file.h"
#include "engine/util/spillable_array.h"
#include "simdex/minhash_join.h"

namespace simdex {
namespace {

using util::ExternalSorter;
using util::FingerprintIdPair;
using PairSorter = ExternalSorter<uint64_t>;
using RecordSorter = ExternalSorter<FingerprintIdPair>;

// Keys read from a band's file per pass step, records handed to a sort, and
// items whose keys wait in a row buffer before they go to the columns.
constexpr size_t kReadKeys = 4096;

}  // namespace

struct BandJoiner::Rep {
  int bands = 0;
  BandJoinOptions options;
  Status status;
  BandJoinStats stats;
  std::vector<std::unique_ptr<util::SpillableArray>> columns;  // one per band
  std::vector<uint64_t> banded;                              // bit i: item i is banded
  std::vector<uint64_t> rows;  // keys of the last items added, item after item, until MoveRows()
  std::unique_ptr<PairSorter> pairs;
  bool finished = false, done = false;
  uint64_t last_pair = 0;
  bool any_pair = false;

  Status Fail(Status s) {
    if (status.ok()) status = std::move(s);
    return status;
  }

  bool Banded(uint64_t i) const { return (banded[i >> 6] >> (i & 63)) & 1; }

  // Adds one item: its keys, or zeros when unbanded.
  Status AddItem(const uint64_t* keys, bool is_banded) {
    if (!status.ok()) return status;
    if (finished) return Fail(Status::InvalidArgument("band join: Add() after Finish()"));
    if (stats.items >= options.max_items) {
      return Fail(Status::InvalidArgument("band join: more than " + std::to_string(options.max_items) + " items"));
    }
    const uint64_t i = stats.items++;
    if ((i & 63) == 0) banded.push_back(0);
    if (is_banded) {
      banded.back() |= uint64_t{1} << (i & 63);
      ++stats.banded;
      rows.insert(rows.end(), keys, keys + bands);
    } else {
      rows.resize(rows.size() + static_cast<size_t>(bands), 0);
    }
    return rows.size() == kReadKeys * static_cast<size_t>(bands) ? MoveRows() : Status::OK();
  }

  // Appends the buffered rows to the columns, band by band: one Append per
  // band and kReadKeys items rather than per key.
  Status MoveRows() {
    const size_t count = rows.size() / static_cast<size_t>(bands);
    std::vector<uint64_t> column(count);
    for (int j = 0; j < bands; ++j) {
      for (size_t i = 0; i < count; ++i) column[i] = rows[i * bands + j];
      Status s = columns[j]->Append(column.data(), count);
      if (!s.ok()) return Fail(std::move(s));
    }
    rows.clear();
    return Status::OK();
  }

  util::ExternalSortOptions SortOptions(size_t memory) const {
    return {.memory_bytes = memory, .tmpdir = options.tmpdir, .threads = options.threads};
  }

  Status JoinFromMemory(const minhash::JoinShape& shape) {
    std::vector<const uint64_t*> pointers(static_cast<size_t>(bands));
    for (int j = 0; j < bands; ++j) pointers[j] = reinterpret_cast<const uint64_t*>(columns[j]->data());
    std::vector<uint32_t> items;
    items.reserve(stats.banded);
    for (uint64_t i = 0; i < stats.items; ++i) {
      if (Banded(i)) items.push_back(static_cast<uint32_t>(i));
    }
    return minhash::JoinInMemory(pointers.data(), bands, items, shape, options.threads,
                                 [this](const uint64_t* p, size_t n) { return pairs->Add(p, n); }, &stats);
  }

  // Band `band` from its file: the filter, then the filtered (key, item)
  // records sorted within `memory` bytes, then the groups.
  Status JoinBandFromFile(int band, const minhash::JoinShape& shape, minhash::RepeatFilter* filter, size_t memory) {
    util::SpillableArray& column = *columns[band];
    std::vector<uint64_t> keys(kReadKeys);
    filter->Clear();
    for (uint64_t first = 0; first < stats.items; first += kReadKeys) {
      const size_t count = static_cast<size_t>(std::min<uint64_t>(kReadKeys, stats.items - first));
      SIMDEX_RETURN_IF_ERROR(column.Read(first, count, keys.data()));
      for (size_t k = 0; k < count; ++k) {
        if (Banded(first + k)) filter->Insert(keys[k]);
      }
    }
    RecordSorter sorter(SortOptions(memory));
    std::vector<FingerprintIdPair> records;
    records.reserve(kReadKeys);
    for (uint64_t first = 0; first < stats.items; first += kReadKeys) {
      const size_t count = static_cast<size_t>(std::min<uint64_t>(kReadKeys, stats.items - first));
      SIMDEX_RETURN_IF_ERROR(column.Read(first, count, keys.data()));
      records.clear();
      for (size_t k = 0; k < count; ++k) {
        if (Banded(first + k) && filter->Repeated(keys[k])) records.push_back({keys[k], first + k});
      }
      stats.filtered += records.size();
      SIMDEX_RETURN_IF_ERROR(sorter.Add(records.data(), records.size()));
    }
    SIMDEX_RETURN_IF_ERROR(sorter.Finish());
    // Sorted by key, then item: a group (equal leading key_bits) is
    // contiguous, and within it each run of equal keys lists its items in
    // increasing order.
    std::vector<FingerprintIdPair> group;
    std::vector<uint64_t> out;
    auto flush_group = [&]() -> Status {
      const size_t g = group.size();
      if (g >= 2) {
        ++stats.groups;
        stats.comparisons += g * (g - 1) / 2;
        for (size_t x = 0; x < g;) {
          size_t y = x + 1;
          while (y < g && group[y].fingerprint == group[x].fingerprint) ++y;
          for (size_t a = x; a < y; ++a) {
            for (size_t b = a + 1; b < y; ++b) out.push_back((group[a].id << 32) | group[b].id);
            if (out.size() >= kReadKeys) {
              SIMDEX_RETURN_IF_ERROR(pairs->Add(out.data(), out.size()));
              out.clear();
            }
          }
          x = y;
        }
      }
      group.clear();
      return Status::OK();
    };
    size_t n = 0;
    records.resize(kReadKeys);
    do {
      SIMDEX_RETURN_IF_ERROR(sorter.Read(records.data(), records.size(), &n));
      for (size_t k = 0; k < n; ++k) {
        if (!group.empty() &&
            (records[k].fingerprint & shape.group_mask) != (group.front().fingerprint & shape.group_mask)) {
          SIMDEX_RETURN_IF_ERROR(flush_group());
        }
        group.push_back(records[k]);
      }
    } while (n > 0);
    SIMDEX_RETURN_IF_ERROR(flush_group());
    stats.bytes_spilled += sorter.stats().bytes_spilled;
    stats.runs_spilled += sorter.stats().runs_spilled;
    return out.empty() ? Status::OK() : pairs->Add(out.data(), out.size());
  }

  Status Join() {
    SIMDEX_RETURN_IF_ERROR(MoveRows());
    std::vector<uint64_t>().swap(rows);
    const size_t memory = options.memory_bytes;
    pairs = std::make_unique<PairSorter>(SortOptions(memory / 4));
    SIMDEX_RETURN_IF_ERROR(pairs->status());
    const uint64_t n = stats.items, m = stats.banded;
    const minhash::JoinShape shape = m >= 2 ? minhash::ShapeOf(n, m, memory / 8) : minhash::JoinShape();
    const uint64_t key_bytes = n * 8 * static_cast<uint64_t>(bands);
    const bool in_memory =
        m < 2 || (!columns[0]->spilled() && key_bytes + minhash::FilterBytes(shape) + minhash::RecordBytes(shape, m) <= memory / 4 * 3);
    for (auto& column : columns) {
      if (!in_memory) SIMDEX_RETURN_IF_ERROR(column->Spill());
      SIMDEX_RETURN_IF_ERROR(column->Finish());
    }
    if (m >= 2 && in_memory) {
      SIMDEX_RETURN_IF_ERROR(JoinFromMemory(shape));
    } else if (m >= 2) {
      minhash::RepeatFilter filter(shape);
      for (int band = 0; band < bands; ++band) {
        SIMDEX_RETURN_IF_ERROR(JoinBandFromFile(band, shape, &filter, memory / 2));
      }
    }
    for (auto& column : columns) stats.key_bytes_spilled += column->bytes_spilled();
    stats.bytes_spilled += stats.key_bytes_spilled;
    columns.clear();
    SIMDEX_RETURN_IF_ERROR(pairs->Finish());
    stats.bytes_spilled += pairs->stats().bytes_spilled;
    stats.runs_spilled += pairs->stats().runs_spilled;
    return Status::OK();
  }
};

BandJoiner::BandJoiner(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
BandJoiner::~BandJoiner() = default;

Status BandJoiner::Create(int bands, const BandJoinOptions& options, std::unique_ptr<BandJoiner>* out) {
  if (bands < 1) return Status::InvalidArgument("band join: bands must be at least 1");
  if (options.memory_bytes < kMinBandJoinMemoryBytes) {
    return Status::InvalidArgument("band join: memory bound of " + std::to_string(options.memory_bytes) +
                                   " bytes is below the minimum of " + std::to_string(kMinBandJoinMemoryBytes));
  }
  if (options.threads < 1) return Status::InvalidArgument("band join: threads must be at least 1");
  if (options.max_items > kMaxBandJoinItems) {
    return Status::InvalidArgument("band join: max_items " + std::to_string(options.max_items) + " is above " +
                                   std::to_string(kMaxBandJoinItems));
  }
  SIMDEX_RETURN_IF_ERROR(util::CheckScratchDir(options.tmpdir));
  auto rep = std::make_unique<Rep>();
  rep->bands = bands;
  rep->options = options;
  const size_t per_band = options.memory_bytes / 2 / static_cast<size_t>(bands);
  for (int j = 0; j < bands; ++j) {
    rep->columns.push_back(std::make_unique<util::SpillableArray>(sizeof(uint64_t), per_band, options.tmpdir));
  }
  out->reset(new BandJoiner(std::move(rep)));
  return Status::OK();
}

Status BandJoiner::Add(const uint64_t* keys) { return rep_->AddItem(keys, true); }

Status BandJoiner::AddUnbanded() { return rep_->AddItem(nullptr, false); }

Status BandJoiner::Finish() {
  Rep& r = *rep_;
  if (!r.status.ok()) return r.status;
  if (r.finished) return r.Fail(Status::InvalidArgument("band join: Finish() called twice"));
  r.finished = true;
  Status s = r.Join();
  if (!s.ok()) {
    r.columns.clear();
    r.pairs.reset();  // removes its runs
    return r.Fail(std::move(s));
  }
  return Status::OK();
}

Status BandJoiner::Read(uint64_t* out, size_t max, size_t* n) {
  Rep& r = *rep_;
  *n = 0;
  if (!r.status.ok()) return r.status;
  if (!r.finished || r.pairs == nullptr) return r.Fail(Status::InvalidArgument("band join: Read() before Finish()"));
  while (!r.done && *n == 0) {
    size_t got = 0;
    Status s = r.pairs->Read(out, max, &got);
    if (!s.ok()) return r.Fail(std::move(s));
    if (got == 0) {
      r.done = true;
      break;
    }
    // Repeats are adjacent (the pairs are sorted), also across calls.
    for (size_t i = 0; i < got; ++i) {
      if (r.any_pair && out[i] == r.last_pair) continue;
      r.last_pair = out[*n] = out[i];
      r.any_pair = true;
      ++*n;
    }
  }
  r.stats.pairs += *n;
  return Status::OK();
}

const BandJoinStats& BandJoiner::stats() const { return rep_->stats; }

}  // namespace simdex
