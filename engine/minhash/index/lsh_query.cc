// LshIndexReader::Query and its batch forms: the query's band keys pick, in each band table,
// the blocks whose values may share the key (the head sample, then the
// head index); the first such block of every table is decoded in one
// interleaved pass (format::ScanBlocks), a key range that runs on is
// followed block by block, and the documents found are estimated from
// their stored signatures, kept by the options' filter or thresholds (one
// rule: DefaultEstimateFilter of a threshold; with the query's shingles
// and stored sketches, the sketch estimate against the threshold itself)
// and cut to the top k. Every
// block is checked against its checksum the first time this reader decodes
// it; the head indexes, ids and signatures before they are used
// (lsh_rep.h).
#include <algorithm>
#include <memory>
#include <string>

#include "base/query_batch.h"
#include "engine/minhash/index/lsh_rep.h"
#include "engine/util/json_text.h"
#include "format/codec.h"
#include "format/coding.h"
#include "format/prefetch.h"

namespace simdex {

namespace {

// Scratch reused across the queries of one thread.
struct Scratch {
  std::vector<uint64_t> keys;                       // per band
  std::vector<std::vector<uint64_t>> table_values;  // per band
  std::vector<uint64_t> los;                        // per band: the first value of its key's range
  std::vector<size_t> windows;                      // per band: its head-sample window
  std::vector<format::BlockScan> scans;
  std::vector<uint32_t> scan_table;
  std::vector<uint64_t> candidates;  // ordinals
  std::vector<uint8_t> packed;       // the query's b-bit signature
  std::vector<std::pair<double, double>> levels;  // (threshold, its filter), ascending
  BottomKSketch sketch;              // the query's
  std::vector<uint32_t> stored;      // a candidate's sketch
};

// The options' thresholds ascending, each with the filter it keeps
// (LshQueryOptions: the rule of a threshold; on sketches, itself).
void FilterLevels(const LshQueryOptions& options, int num_perm, bool sketched,
                  std::vector<std::pair<double, double>>* levels) {
  levels->clear();
  for (double t : options.thresholds) levels->emplace_back(t, sketched ? t : DefaultEstimateFilter(t, num_perm));
  std::sort(levels->begin(), levels->end());
  levels->erase(std::unique(levels->begin(), levels->end()), levels->end());
}

// The highest threshold of `levels` whose filter `estimate` reaches; 0 for
// none.
double HighestPassed(const std::vector<std::pair<double, double>>& levels, double estimate) {
  double passed = 0;
  for (const auto& [threshold, filter] : levels) {
    if (estimate >= filter) passed = threshold;
  }
  return passed;
}

// Keeps the k highest estimates of *matches (in id order), highest first,
// equal estimates in id order.
void KeepTopK(uint64_t k, std::vector<LshMatch>* matches) {
  const auto before = [](const LshMatch& a, const LshMatch& b) {
    return a.estimate != b.estimate ? a.estimate > b.estimate : a.id < b.id;
  };
  const size_t keep = static_cast<size_t>(std::min<uint64_t>(k, matches->size()));
  std::partial_sort(matches->begin(), matches->begin() + static_cast<std::ptrdiff_t>(keep), matches->end(), before);
  matches->resize(keep);
}

// Appends to scratch->table_values[t] the values of band table t that
// carry the query's key of that band.
Status ScanBands(const LshIndexReader::Rep& rep, Scratch* scratch, format::BlockScanStats* stats) {
  const size_t bands = rep.tables.size();
  const uint64_t ordinal_mask = rep.OrdinalMask();
  scratch->table_values.resize(bands);
  scratch->windows.resize(bands);
  scratch->scans.clear();
  scratch->scan_table.clear();
  scratch->los.resize(bands);
  for (size_t t = 0; t < bands; ++t) {
    SIMDEX_RETURN_IF_ERROR(rep.CheckHeads(t));
    scratch->table_values[t].clear();
    scratch->los[t] = scratch->keys[t] & ~ordinal_mask;
  }
  index::FindWindows(
      bands, [&rep](size_t t) -> const index::OpenTable& { return rep.tables[t]; }, scratch->los.data(),
      scratch->windows.data());
  for (uint32_t t = 0; t < bands; ++t) {
    const auto& table = rep.tables[t];
    if (table.num_blocks == 0) continue;
    const uint64_t lo = scratch->los[t];
    const uint64_t b = table.FirstBlockInWindow(scratch->windows[t], lo);
    format::BlockScan s = rep.ScanOf(t, b, table.Head(b), lo, lo | ordinal_mask, &scratch->table_values[t]);
    if (s.head > s.hi) continue;
    s.restart_guess = table.decoder->PrefetchScan(s.ptr, rep.meta.block_size, table.FractionInBlock(b, s.head, lo));
    scratch->scans.push_back(s);
    scratch->scan_table.push_back(t);
  }
  format::ScanBlocks(scratch->scans.data(), scratch->scans.size(), rep.meta.block_size, format::BlockReadOptions(),
                     stats);
  for (size_t j = 0; j < scratch->scans.size(); ++j) {
    SIMDEX_RETURN_IF_ERROR(rep.FollowScan(scratch->scans[j], scratch->scan_table[j], stats));
  }
  return Status::OK();
}

// options.Validate(), and each threshold at least the index's.
Status CheckQuery(const LshQueryOptions& options, double index_threshold) {
  SIMDEX_RETURN_IF_ERROR(options.Validate());
  for (double t : options.thresholds) {
    if (t < index_threshold) {
      return Status::InvalidArgument("threshold " + util::ShortestDecimal(t) + " is below the index's " +
                                     util::ShortestDecimal(index_threshold) + ": its bands were chosen for " +
                                     util::ShortestDecimal(index_threshold) + " and answer thresholds at or above it");
    }
  }
  return Status::OK();
}

// The filter of a query without thresholds (LshQueryOptions).
double PlainFilter(const LshQueryOptions& options, double index_threshold, int num_perm, bool sketched) {
  if (sketched) {
    return options.min_sketch_estimate >= 0 ? options.min_sketch_estimate
           : options.min_estimate >= 0      ? options.min_estimate
                                            : index_threshold;
  }
  return options.min_estimate < 0 ? DefaultEstimateFilter(index_threshold, num_perm) : options.min_estimate;
}

// LshIndexReader::Query without the file's name in its errors; shingles:
// the query's shingle set, or nullptr.
Status QueryOne(const LshIndexReader& reader, const LshIndexReader::Rep& r, const uint32_t* signature,
                const std::span<const uint64_t>* shingles, const LshQueryOptions& options, std::vector<LshMatch>* out,
                LshQueryStats* stats) {
  const format::LshMetadata& m = r.meta;
  out->clear();
  LshQueryStats local;
  local.queries = 1;
  Status s = CheckQuery(options, reader.threshold());
  if (s.ok() && m.banded > 0 && !IsEmptySignature(signature, m.num_perm)) {
    thread_local Scratch scratch;
    scratch.keys.resize(m.bands);
    BandKeys(signature, reader.bands(), scratch.keys.data());
    format::BlockScanStats scan;
    s = ScanBands(r, &scratch, &scan);
    local.tables_probed = m.bands;
    local.blocks_decoded = scan.blocks;
    const uint64_t ordinal_mask = r.OrdinalMask();
    scratch.candidates.clear();
    for (size_t t = 0; s.ok() && t < scratch.table_values.size(); ++t) {
      for (uint64_t v : scratch.table_values[t]) {
        const uint64_t ordinal = v & ordinal_mask;
        if (ordinal >= m.documents) {
          s = Status::Corruption("table " + std::to_string(t) + ": a value names document " + std::to_string(ordinal) +
                                 " of " + std::to_string(m.documents));
          break;
        }
        scratch.candidates.push_back(ordinal);
      }
    }
    std::sort(scratch.candidates.begin(), scratch.candidates.end());
    scratch.candidates.erase(std::unique(scratch.candidates.begin(), scratch.candidates.end()),
                             scratch.candidates.end());
    local.candidates = scratch.candidates.size();
    if (s.ok() && !scratch.candidates.empty()) s = r.CheckIds();
    const bool sketched = shingles != nullptr && m.sketch_k > 0 && !options.approximate;
    if (s.ok() && !scratch.candidates.empty()) s = sketched ? r.CheckSketches() : r.CheckSignatures();
    if (s.ok()) {
      FilterLevels(options, m.num_perm, sketched, &scratch.levels);
      const double filter = !scratch.levels.empty() ? scratch.levels.front().second
                                                    : PlainFilter(options, reader.threshold(), m.num_perm, sketched);
      const int k = static_cast<int>(m.sketch_k);
      if (sketched) {
        MakeBottomKSketch(*shingles, k, &scratch.sketch);
      } else {
        scratch.packed.resize(m.SignatureBytes());
        PackSignature(signature, m.num_perm, m.signature_bits, scratch.packed.data());
      }
      for (uint64_t ordinal : scratch.candidates) {
        const uint8_t* stored = r.Signature(ordinal);
        if (!sketched) {
          format::PrefetchLine(stored);
          format::PrefetchLine(stored + m.SignatureBytes() - 1);
        }
        r.ids.Prefetch(ordinal);
      }
      for (uint64_t ordinal : scratch.candidates) {
        double estimate = 0;
        if (sketched) {
          bool cut = false;
          s = r.SketchAt(ordinal, &scratch.stored, &cut);
          if (!s.ok()) break;
          estimate = EstimateJaccardSketches(scratch.sketch.hashes, scratch.sketch.whole, scratch.stored, !cut, k);
          ++local.sketched;
        } else {
          estimate = EstimateJaccardPacked(scratch.packed.data(), r.Signature(ordinal), m.num_perm, m.signature_bits);
        }
        if (estimate < filter) continue;
        out->push_back({r.IdAt(ordinal), estimate, HighestPassed(scratch.levels, estimate)});
      }
      if (s.ok() && options.top_k > 0) KeepTopK(options.top_k, out);
    }
  }
  local.matches = out->size();
  if (stats != nullptr) stats->Add(local);
  if (!s.ok()) out->clear();
  return s;
}

}  // namespace

Status LshQueryOptions::Validate() const {
  if (!(min_estimate <= 1)) {
    return Status::InvalidArgument("min_estimate " + util::ShortestDecimal(min_estimate) +
                                   " is above 1 (negative: the filter of the index's threshold)");
  }
  for (double t : thresholds) {
    if (!(t > 0 && t <= 1)) return Status::InvalidArgument("threshold " + util::ShortestDecimal(t) + " is not in (0, 1]");
  }
  if (!(min_sketch_estimate <= 1)) {
    return Status::InvalidArgument("min_sketch_estimate " + util::ShortestDecimal(min_sketch_estimate) +
                                   " is above 1 (negative: min_estimate's, else the index's threshold)");
  }
  if (min_sketch_estimate >= 0 && !thresholds.empty()) {
    return Status::InvalidArgument("min_sketch_estimate and thresholds are two filters: give one (a threshold T "
                                   "keeps sketch estimates at least T)");
  }
  if (min_estimate >= 0 && !thresholds.empty()) {
    return Status::InvalidArgument("min_estimate and thresholds are two filters: give one (a threshold T keeps "
                                   "estimates at least DefaultEstimateFilter(T, num_perm))");
  }
  return Status::OK();
}

Status LshIndexReader::ValidateQuery(const LshQueryOptions& options) const {
  return rep_->InFile(CheckQuery(options, threshold()));
}

Status LshIndexReader::Query(const uint32_t* signature, const LshQueryOptions& options, std::vector<LshMatch>* out,
                             LshQueryStats* stats) const {
  return rep_->InFile(QueryOne(*this, *rep_, signature, nullptr, options, out, stats));
}

Status LshIndexReader::Query(const uint32_t* signature, std::span<const uint64_t> shingles,
                             const LshQueryOptions& options, std::vector<LshMatch>* out, LshQueryStats* stats) const {
  return rep_->InFile(QueryOne(*this, *rep_, signature, &shingles, options, out, stats));
}

Status LshIndexReader::Query(std::span<const uint32_t> signatures, const LshQueryOptions& options,
                             LshQueryResults* out, int threads, LshQueryStats* stats) const {
  SIMDEX_RETURN_IF_ERROR(ValidateQuery(options));  // once, not as query 0's error
  const size_t num_perm = static_cast<size_t>(rep_->meta.num_perm);
  if (signatures.size() % num_perm != 0) {
    return Status::InvalidArgument(std::to_string(signatures.size()) + " signature values are not a whole number of " +
                                   std::to_string(num_perm) + "-value signatures");
  }
  const size_t n = signatures.size() / num_perm;
  return index::RunQueries(
      *rep_, n, std::vector<LshQueryStats>(base::QueryBatchThreads(n, threads)),
      [&](size_t i, int, std::vector<LshMatch>* found, LshQueryStats* ts) {
        return QueryOne(*this, *rep_, signatures.data() + i * num_perm, nullptr, options, found, ts);
      },
      out, stats);
}

Status LshIndexReader::QueryTexts(std::span<const std::string_view> texts, const LshQueryOptions& options,
                                  LshQueryResults* out, int threads, LshQueryStats* stats) const {
  SIMDEX_RETURN_IF_ERROR(ValidateQuery(options));
  const int nthreads = base::QueryBatchThreads(texts.size(), threads);
  // Per worker: a MinHasher (it keeps scratch) and the signature it makes.
  std::vector<std::unique_ptr<MinHasher>> hashers(nthreads);
  SIMDEX_RETURN_IF_ERROR(MinHasher::Create(minhash_options(), &hashers[0]));
  for (int w = 1; w < nthreads; ++w) hashers[w] = hashers[0]->Clone();
  const size_t num_perm = static_cast<size_t>(rep_->meta.num_perm);
  std::vector<std::vector<uint32_t>> signatures(nthreads, std::vector<uint32_t>(num_perm));
  std::vector<std::vector<uint64_t>> shingles(nthreads);
  return index::RunQueries(
      *rep_, texts.size(), std::vector<LshQueryStats>(nthreads),
      [&](size_t i, int w, std::vector<LshMatch>* found, LshQueryStats* ts) {
        hashers[w]->Sign(texts[i], signatures[w].data(), &shingles[w]);
        const std::span<const uint64_t> set(shingles[w]);
        return QueryOne(*this, *rep_, signatures[w].data(), &set, options, found, ts);
      },
      out, stats);
}

namespace {

Status BestMatch(const std::vector<const LshIndexReader*>& indexes, const uint32_t* signature,
                 const std::span<const uint64_t>* shingles, const LshQueryOptions& options,
                 std::vector<LshMatch>* found, LshBestMatch* best) {
  *best = LshBestMatch();
  for (size_t x = 0; x < indexes.size(); ++x) {
    SIMDEX_RETURN_IF_ERROR(shingles != nullptr ? indexes[x]->Query(signature, *shingles, options, found)
                                               : indexes[x]->Query(signature, options, found));
    for (const LshMatch& m : *found) {  // in id order: the first of the highest
      if (best->index < 0 || m.estimate > best->estimate) *best = {static_cast<int>(x), m.id, m.estimate};
    }
  }
  return Status::OK();
}

}  // namespace

Status QueryBestMatch(const std::vector<const LshIndexReader*>& indexes, const uint32_t* signature,
                      const LshQueryOptions& options, std::vector<LshMatch>* found, LshBestMatch* best) {
  return BestMatch(indexes, signature, nullptr, options, found, best);
}

Status QueryBestMatch(const std::vector<const LshIndexReader*>& indexes, const uint32_t* signature,
                      std::span<const uint64_t> shingles, const LshQueryOptions& options,
                      std::vector<LshMatch>* found, LshBestMatch* best) {
  return BestMatch(indexes, signature, &shingles, options, found, best);
}

}  // namespace simdex
