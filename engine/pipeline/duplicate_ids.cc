#include "engine/pipeline/duplicate_ids.h"

#include <algorithm>

#include <xxhash.h>

#include "engine/util/external_sorter.h"
#include "simdex/front_end_text.h"

namespace simdex::pipeline {

void DocumentPlaces::Add(uint64_t line) {
  if (runs_.empty() || line != last_line_ + 1) runs_.emplace_back(size_, line);
  last_line_ = line;
  ++size_;
}

void DocumentPlaces::SetInputs(std::vector<std::string> names, std::vector<uint64_t> documents) {
  names_ = std::move(names);
  ends_.clear();
  uint64_t end = 0;
  for (uint64_t n : documents) ends_.push_back(end += n);
}

std::string DocumentPlaces::Describe(uint64_t ordinal) const {
  const size_t input = static_cast<size_t>(std::upper_bound(ends_.begin(), ends_.end(), ordinal) - ends_.begin());
  auto run = std::upper_bound(runs_.begin(), runs_.end(), std::make_pair(ordinal, UINT64_MAX));
  const uint64_t line = run == runs_.begin() ? 0 : std::prev(run)->second + (ordinal - std::prev(run)->first);
  const std::string name = input < names_.size() ? names_[input] : "document " + std::to_string(ordinal + 1);
  return name + ":" + std::to_string(line);
}

namespace {

using Record = util::FingerprintIdPair;  // (key, ordinal)

constexpr size_t kBatch = 4096;

bool SameId(const DocumentIds& ids, uint64_t a, uint64_t b) {
  if (ids.IsString(a) != ids.IsString(b)) return false;
  return ids.IsString(a) ? ids.String(a) == ids.String(b) : ids.Number(a) == ids.Number(b);
}

// One run of documents with equal keys, ordinals ascending: grouped by
// their exact ids (numbers, all equal since the key is the number, then the
// strings in order; stable, so each group keeps input order), each group of
// two or more counted as one duplicated id.
void CheckRun(const DocumentIds& ids, std::vector<uint64_t>* run, DuplicateIds* out) {
  std::stable_sort(run->begin(), run->end(), [&ids](uint64_t a, uint64_t b) {
    const bool sa = ids.IsString(a), sb = ids.IsString(b);
    if (sa != sb) return !sa;
    return sa && ids.String(a) < ids.String(b);
  });
  for (size_t i = 0; i < run->size();) {
    size_t j = i + 1;
    while (j < run->size() && SameId(ids, (*run)[i], (*run)[j])) ++j;
    if (j - i >= 2 && (out->ids++ == 0 || (*run)[i + 1] < out->second)) {
      out->first = (*run)[i];
      out->second = (*run)[i + 1];
    }
    i = j;
  }
}

}  // namespace

Status FindDuplicateIds(const DocumentIds& ids, size_t memory_bytes, const std::string& tmpdir, int threads,
                        DuplicateIds* out) {
  *out = DuplicateIds();
  if (ids.consecutive_numbers()) return Status::OK();
  util::ExternalSorter<Record> sorter(
      {.memory_bytes = std::max(memory_bytes, util::kExternalSortMinMemoryBytes), .tmpdir = tmpdir, .threads = threads});
  SIMDEX_RETURN_IF_ERROR(sorter.status());
  std::vector<Record> batch;
  batch.reserve(kBatch);
  for (uint64_t o = 0; o < ids.size(); ++o) {
    const uint64_t key = ids.IsString(o) ? XXH3_64bits(ids.String(o).data(), ids.String(o).size()) : ids.Number(o);
    batch.push_back({key, o});
    if (batch.size() == kBatch || o + 1 == ids.size()) {
      SIMDEX_RETURN_IF_ERROR(sorter.Add(batch.data(), batch.size()));
      batch.clear();
    }
  }
  SIMDEX_RETURN_IF_ERROR(sorter.Finish());
  std::vector<Record> sorted(kBatch);
  std::vector<uint64_t> run;  // ordinals of the current key
  uint64_t run_key = 0;
  auto close_run = [&] {
    if (run.size() > 1) CheckRun(ids, &run, out);
    run.clear();
  };
  for (size_t n;;) {
    SIMDEX_RETURN_IF_ERROR(sorter.Read(sorted.data(), sorted.size(), &n));
    if (n == 0) break;
    for (size_t i = 0; i < n; ++i) {
      if (run.empty() || sorted[i].fingerprint != run_key) {
        close_run();
        run_key = sorted[i].fingerprint;
      }
      run.push_back(sorted[i].id);
    }
  }
  close_run();
  out->spilled_runs = sorter.stats().runs_spilled;
  return Status::OK();
}

Status CheckIdsAreUnique(const DocumentIds& ids, const DocumentPlaces& places, size_t memory_bytes,
                         const std::string& tmpdir, int threads, std::string_view how_to_allow) {
  DuplicateIds dups;
  SIMDEX_RETURN_IF_ERROR(FindDuplicateIds(ids, memory_bytes, tmpdir, threads, &dups));
  if (dups.ids == 0) return Status::OK();
  std::string id;
  ids.AppendText(dups.first, &id);
  std::string message =
      places.Describe(dups.second) + ": duplicate id " + simdex::Quoted(id) + " (first at " +
      places.Describe(dups.first) + ")";
  if (dups.ids == 2) message += "; 1 more id is given to several documents";
  if (dups.ids > 2) message += "; " + std::to_string(dups.ids - 1) + " more ids are given to several documents";
  return Status::InvalidArgument(message + "; ids must be unique (" + std::string(how_to_allow) + ")");
}

}  // namespace simdex::pipeline
