// Builds an index file (docs/format.md) from (id, fingerprint) pairs.
//
// Add() feeds an external sorter of (fingerprint, id) pairs. Finish() then
//   1. streams the sorted pairs once: ids go to the packed id section (in a
//      scratch file), fingerprints to table 0's values (memory or scratch);
//   2. for each table: permutes the fingerprints, sorts them (in memory when
//      16 bytes per entry fit the budget, else externally) and hands them to
//      the IndexWriter, which encodes them into blocks and a head index;
//   3. the IndexWriter appends the rank index, the ids, the metadata and the
//      footer, fsyncs and renames the temporary file into place.
#include <algorithm>
#include <thread>

#include "base/timing.h"
#include "engine/simhash/index/build_budget.h"
#include "engine/simhash/index/index_writer.h"
#include "engine/index/id_map_builder.h"
#include "engine/index/table_writer.h"
#include "engine/util/external_sorter.h"
#include "engine/util/output_file.h"
#include "engine/util/radix_sort.h"
#include "engine/util/sticky_status.h"
#include "format/block_frame.h"
#include "format/index_layout.h"
#include "simdex/front_end_text.h"
#include "simdex/index.h"
#include "simdex/profile.h"

namespace simdex {

using util::ExternalSorter;
using util::ExternalSortOptions;
using util::FingerprintIdPair;

struct IndexBuilder::Rep : util::StickyStatus {
  std::string path;
  BuildOptions options;
  BuildStats stats;
  std::unique_ptr<ExternalSorter<FingerprintIdPair>> sorter;
  uint64_t min_id = ~0ULL;
  uint64_t max_id = 0;
  index::IdMapBuilder id_map;  // string_ids only
  std::function<void(const char*, double)> progress;
  std::function<Status(uint64_t, BuildOptions*)> choose_layout;

  std::string ScratchDir() const { return util::ScratchDirFor(path, options.tmpdir); }
  // The sorter of (fingerprint, id) pairs gets the whole budget; with
  // string ids, half (the id map has the other half).
  ExternalSortOptions PairSortOptions() const {
    ExternalSortOptions s = SortOptions();
    if (options.string_ids) s.memory_bytes = std::max(s.memory_bytes / 2, util::kExternalSortMinMemoryBytes);
    return s;
  }
  ExternalSortOptions SortOptions() const {
    ExternalSortOptions s;
    s.memory_bytes = options.memory_bytes;
    s.tmpdir = ScratchDir();
    s.threads = options.threads;
    return s;
  }
  void Report(const char* stage, double fraction) const {
    if (progress) progress(stage, fraction);
  }
};

namespace {

struct SortBuffers {
  std::vector<uint64_t> values;
  std::vector<uint64_t> scratch;
};

// Sorts table t's permuted fingerprints (table 0: the fingerprints as they
// are) in memory when 16 bytes per entry fit the budget, else externally,
// and hands the sorted values to `use`. Adds the sorting time to
// *sort_seconds. `buffers` holds the sorted values and the sort's scratch,
// reused from table to table.
Status SortTable(int t, std::span<const uint64_t> fps, const BuildOptions& o, const ExternalSortOptions& sort_options,
                 int sort_threads, SortBuffers* buffers,
                 const std::function<Status(std::span<const uint64_t> sorted)>& use, double* sort_seconds) {
  const BlockPermutation& perm = o.scheme.table(t);
  std::span<const uint64_t> values = fps;
  std::unique_ptr<util::OutputFile> spill;
  std::unique_ptr<util::MappedValues> spill_map;
  if (t > 0) {
    const auto start = base::Clock::now();
    if (simhash::TableSortFitsInMemory(fps.size(), o.memory_bytes)) {
      std::vector<uint64_t>& permuted = buffers->values;
      permuted.resize(fps.size());
      buffers->scratch.resize(fps.size());
      for (size_t i = 0; i < fps.size(); ++i) permuted[i] = perm.Apply(fps[i]);
      util::RadixSort(permuted.data(), buffers->scratch.data(), permuted.size(), sort_threads);
      values = permuted;
    } else {
      // Sorted externally into a mapped scratch file.
      ExternalSorter<uint64_t> sorter(sort_options);
      SIMDEX_RETURN_IF_ERROR(simhash::AddPermuted(fps, perm, &sorter));
      SIMDEX_RETURN_IF_ERROR(util::ReadSortedToScratch(&sorter, sort_options.tmpdir, size_t{1} << 20, &spill, &spill_map));
      values = spill_map->values();
    }
    *sort_seconds += base::Seconds(start);
  }
  return use(values);
}

// The options that shape the file: block size, restart points and codec.
Status CheckLayout(const BuildOptions& options) {
  SIMDEX_RETURN_IF_ERROR(index::CheckBlockSizeOption(options.block_size));
  if (!format::IsValidRestarts(options.restarts)) {
    return Status::InvalidArgument("restart points per block " + std::to_string(options.restarts) +
                                   " is outside 0.." + std::to_string(format::kMaxRestarts));
  }
  return index::CheckCodecOption(options.codec);
}

}  // namespace

IndexBuilder::IndexBuilder(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
IndexBuilder::~IndexBuilder() = default;

Status IndexBuilder::Create(const std::string& path, const BuildOptions& options, std::unique_ptr<IndexBuilder>* out) {
  SIMDEX_RETURN_IF_ERROR(CheckLayout(options));
  if (options.threads < 1) return Status::InvalidArgument("threads must be at least 1");
  SIMDEX_RETURN_IF_ERROR(CheckProfileText(options.profile));
  if (path.empty()) return Status::InvalidArgument("no output path");
  auto rep = std::make_unique<Rep>();
  rep->path = path;
  rep->options = options;
  rep->sorter = std::make_unique<ExternalSorter<FingerprintIdPair>>(rep->PairSortOptions());
  rep->id_map = index::IdMapBuilder(options.memory_bytes / 2, rep->ScratchDir());
  // Bad sort options (a budget below the sorter's minimum, a missing
  // directory) are the caller's to fix before anything is added.
  Status s = rep->sorter->status();
  if (!s.ok()) return s.IsIOError() && options.tmpdir.empty() ? s.WithContext("cannot write " + path) : s;
  out->reset(new IndexBuilder(std::move(rep)));
  return Status::OK();
}

const BuildStats& IndexBuilder::stats() const { return rep_->stats; }

void IndexBuilder::SetProgressCallback(std::function<void(const char*, double)> callback) {
  rep_->progress = std::move(callback);
}

void IndexBuilder::SetLayoutChooser(std::function<Status(uint64_t entries, BuildOptions* options)> choose) {
  rep_->choose_layout = std::move(choose);
}

Status IndexBuilder::Add(uint64_t id, uint64_t fingerprint) {
  return Add(std::span<const uint64_t>(&id, 1), std::span<const uint64_t>(&fingerprint, 1));
}

// The first string id of a build that had numeric ids: the entries added
// so far are read back from the sorter and added again with their ids'
// decimal strings, as if the build had had string ids from the start.
Status IndexBuilder::SwitchToStringIds() {
  Rep& r = *rep_;
  auto numeric = std::move(r.sorter);
  r.options.string_ids = true;
  r.sorter = std::make_unique<ExternalSorter<FingerprintIdPair>>(r.PairSortOptions());
  return index::ReaddAsDecimalStrings(numeric.get(), &r.id_map, r.sorter.get());
}

Status IndexBuilder::Add(std::string_view id, uint64_t fingerprint) {
  Rep& r = *rep_;
  SIMDEX_RETURN_IF_ERROR(r.Check("Add() after Finish() or Abandon()"));
  SIMDEX_RETURN_IF_ERROR(simdex::CheckStringId(id).WithContext("id " + simdex::Quoted(id)));
  if (!r.options.string_ids) {
    r.status = SwitchToStringIds();
    if (!r.status.ok()) return r.status;
  }
  const FingerprintIdPair record{fingerprint, r.id_map.Intern(id)};
  r.status = r.sorter->Add(&record, 1);
  if (r.status.ok()) ++r.stats.entries;
  return r.status;
}

Status IndexBuilder::Add(std::span<const uint64_t> ids, std::span<const uint64_t> fingerprints) {
  Rep& r = *rep_;
  SIMDEX_RETURN_IF_ERROR(r.Check("Add() after Finish() or Abandon()"));
  if (ids.size() != fingerprints.size()) return Status::InvalidArgument("ids and fingerprints differ in length");
  // Numeric ids of a string-id index are kept as their decimal strings.
  r.status = index::AddPairs(ids, fingerprints, r.options.string_ids, &r.id_map, &r.min_id, &r.max_id, r.sorter.get());
  if (r.status.ok()) r.stats.entries += ids.size();
  return r.status;
}

static_assert(kMaxProfileLength == format::kMaxProfileLength, "the metadata holds every profile CheckProfileText allows");

Status IndexBuilder::SetProfile(std::string_view profile) {
  Rep& r = *rep_;
  SIMDEX_RETURN_IF_ERROR(r.Check("SetProfile() after Finish()"));
  Status s = CheckProfileText(profile);
  if (!s.ok()) return r.status = s;
  r.options.profile.assign(profile);
  return Status::OK();
}

void IndexBuilder::Abandon() {
  rep_->done = true;
  rep_->sorter.reset();
  if (rep_->status.ok()) rep_->status = Status::InvalidArgument("the builder was abandoned");
}

Status IndexBuilder::Finish() {
  Rep& r = *rep_;
  SIMDEX_RETURN_IF_ERROR(r.Check("Finish() called twice"));
  r.done = true;
  r.status = FinishImpl();
  r.sorter.reset();
  return r.status;
}

Status IndexBuilder::FinishImpl() {
  Rep& r = *rep_;
  if (r.choose_layout) {
    BuildOptions chosen = r.options;
    SIMDEX_RETURN_IF_ERROR(r.choose_layout(r.stats.entries, &chosen));
    SIMDEX_RETURN_IF_ERROR(CheckLayout(chosen));
    r.options.scheme = chosen.scheme;
    r.options.block_size = chosen.block_size;
    r.options.restarts = chosen.restarts;
    r.options.codec = chosen.codec;
  }
  const BuildOptions& o = r.options;
  const uint64_t n = r.stats.entries;
  const std::string scratch_dir = r.ScratchDir();
  auto t0 = base::Clock::now();

  // 1. Sorted pairs -> ids (packed, scratch file) and table 0's values.
  r.Report("sorting", 0);
  SIMDEX_RETURN_IF_ERROR(r.sorter->Finish());
  simhash::EntrySummary summary;
  summary.entries = n;
  if (o.string_ids) {
    // Ids are the strings' ranks, 0 .. K-1.
    SIMDEX_RETURN_IF_ERROR(r.id_map.Finish());
    r.stats.id_map_runs = r.id_map.stats().runs_spilled;
  }
  summary.SetIds(o.string_ids, r.id_map.size(), r.min_id, r.max_id);

  // Table 0's values stay in memory when FingerprintsFitInMemory.
  std::unique_ptr<simhash::Table0Writer> table0;
  SIMDEX_RETURN_IF_ERROR(simhash::Table0Writer::Create(
      n, simhash::FingerprintsFitInMemory(n, o.memory_bytes) ? 8 * n : 0, scratch_dir, summary.id_width, o.string_ids,
      &table0));
  index::SortedStream<FingerprintIdPair> pairs(r.sorter.get());
  for (FingerprintIdPair p; pairs.Next(&p);) {
    // String ids are the strings' ranks.
    SIMDEX_RETURN_IF_ERROR(table0->Add(p.fingerprint, o.string_ids ? r.id_map.Rank(p.id) : p.id - summary.id_base));
  }
  SIMDEX_RETURN_IF_ERROR(pairs.status());
  SIMDEX_RETURN_IF_ERROR(table0->Finish());
  if (table0->entries() != n) {
    return Status::Corruption("the sorter returned " + std::to_string(table0->entries()) + " of " + std::to_string(n) +
                              " entries");
  }
  summary.distinct_fingerprints = r.stats.distinct_fingerprints = table0->distinct();
  r.stats.spilled_runs = r.sorter->stats().runs_spilled;
  r.stats.spilled_bytes = r.sorter->stats().bytes_spilled;
  r.sorter.reset();
  r.stats.seconds_sorting = base::Seconds(t0);

  // 2. The tables.
  std::unique_ptr<simhash::IndexWriter> writer;
  SIMDEX_RETURN_IF_ERROR(simhash::IndexWriter::Create(r.path, o, &writer));
  const index::TableOptions table_options = index::TableOptionsOf(o);
  double sort_seconds = 0;
  const int num_tables = o.scheme.num_tables();
  // Tables are encoded `wave` at a time into memory when the budget holds
  // the fingerprints plus, per table in flight, its sorted values, the sort's
  // scratch and the encoded blocks (~22 bytes per entry); else one at a
  // time, streamed to the output.
  const uint64_t wave = o.threads > 1 && n <= o.memory_bytes / (8 + 22 * static_cast<uint64_t>(o.threads))
                            ? static_cast<uint64_t>(o.threads) : 1;
  std::vector<SortBuffers> buffers(wave);
  for (int first = 0; first < num_tables; first += static_cast<int>(wave)) {
    r.Report("encoding tables", static_cast<double>(first) / num_tables);
    if (wave == 1) {
      SIMDEX_RETURN_IF_ERROR(SortTable(first, table0->values(), o, r.SortOptions(), o.threads, &buffers[0],
                                       [&](std::span<const uint64_t> sorted) { return writer->AddTable(first, sorted); },
                                       &sort_seconds));
      continue;
    }
    const int wave_end = std::min<int>(num_tables, first + static_cast<int>(wave));
    std::vector<std::string> blocks(wave_end - first);
    std::vector<index::EncodedTable> encs(wave_end - first);
    std::vector<Status> status(wave_end - first);
    std::vector<double> seconds(wave_end - first);
    std::vector<std::thread> workers;
    for (int t = first; t < wave_end; ++t) {
      workers.emplace_back([&, t] {
        const int i = t - first;
        status[i] = SortTable(t, table0->values(), o, r.SortOptions(), 1, &buffers[i], [&](std::span<const uint64_t> sorted) {
          return index::EncodeTable(table_options, t, sorted,
                                    [&blocks, i](std::string_view block) {
                                      blocks[i].append(block);
                                      return Status::OK();
                                    },
                                    &encs[i]);
        }, &seconds[i]);
      });
    }
    for (auto& w : workers) w.join();
    for (int t = first; t < wave_end; ++t) {
      const int i = t - first;
      SIMDEX_RETURN_IF_ERROR(status[i]);
      sort_seconds += seconds[i] / static_cast<double>(wave);
      SIMDEX_RETURN_IF_ERROR(writer->AddEncodedTable(t, encs[i], blocks[i]));
      blocks[i] = std::string();
    }
  }
  table0->ReleaseValues();
  buffers.clear();

  // 3. Rank index, ids, metadata, footer.
  r.Report("writing", 1);
  SIMDEX_RETURN_IF_ERROR(writer->Finish(summary, table0->ids(), o.string_ids ? r.id_map.Section() : std::string_view()));
  r.stats.file_bytes = writer->file_bytes();
  r.stats.seconds_sorting += sort_seconds;
  r.stats.seconds_encoding = base::Seconds(t0) - r.stats.seconds_sorting;
  return Status::OK();
}

}  // namespace simdex
