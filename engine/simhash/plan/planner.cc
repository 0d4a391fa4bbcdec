// PlanIndex: the candidates (schemes that guarantee k, codecs, block
// sizes), their predictions (plan_model.h), the budgets, the choice and the
// reasons for it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "engine/index/table_writer.h"
#include "engine/simhash/plan/measured_figures.h"
#include "engine/simhash/plan/plan_model.h"
#include "engine/util/external_sorter.h"
#include "simdex/plan.h"

namespace simdex {
namespace {

// Candidates within this factor of the fastest median count as as fast:
// the spread between runs of one setting on the measuring machine.
constexpr double kAsFast = 1.10;

// The largest N planned for: its byte counts stay far below 2^64.
constexpr uint64_t kMaxEntries = 1000000000000000;

std::string Describe(const PlanChoice& c) {
  return c.scheme.Name() + ", " + c.codec + ", " + SizeText(c.block_size) + " blocks";
}

// `value` printed by `format`, a printf format of one double (and a string).
std::string Format(const char* format, double value, const char* unit = "") {
  char text[48];
  std::snprintf(text, sizeof(text), format, value, unit);
  return text;
}

// Three significant digits (whole numbers from 100).
std::string Significant(double value, const char* unit) {
  return Format(value < 10 ? "%.2f %s" : value < 100 ? "%.1f %s" : "%.0f %s", value, unit);
}

std::string Us(double us) { return Significant(us, "us"); }

std::string PerEntry(uint64_t bytes, uint64_t n) {
  return Format("%.1f bytes/entry", static_cast<double>(bytes) / static_cast<double>(n));
}

std::string Ratio(double a, double b) { return Format("%.2fx", b > 0 ? a / b : 0); }

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return out;
}

// The schemes for distance k: those measured whose k is the least one
// measured at or above it, and Scheme::Covering(k). A scheme for a greater k
// keeps more tables than the distance asked for needs; what they buy, speed
// for bytes, is the user's to ask for by naming the scheme.
Status CandidateSchemes(int k, std::vector<Scheme>* schemes) {
  std::vector<Scheme> measured;
  int least_k = -1;
  std::set<std::string> seen;
  for (const simhash::SpeedFigure& f : simhash::SpeedFigures()) {
    Scheme s;
    if (!seen.insert(f.scheme).second) continue;
    SIMDEX_RETURN_IF_ERROR(Scheme::Parse(f.scheme, &s));
    if (s.k() < k) continue;
    measured.push_back(s);
    if (least_k < 0 || s.k() < least_k) least_k = s.k();
  }
  for (const Scheme& s : measured) {
    if (s.k() == least_k) schemes->push_back(s);
  }
  Scheme covering;
  SIMDEX_RETURN_IF_ERROR(Scheme::Covering(k, &covering));
  const bool listed = std::any_of(schemes->begin(), schemes->end(),
                                  [&](const Scheme& s) { return s.Name() == covering.Name(); });
  if (!listed && (least_k < 0 || covering.k() == least_k)) schemes->push_back(covering);
  return Status::OK();
}

Status CheckRequest(const PlanRequest& r) {
  if (r.n == 0) return Status::InvalidArgument("nothing to plan for: N is 0");
  if (r.n > kMaxEntries) {
    return Status::InvalidArgument("N " + std::to_string(r.n) + " is beyond the 10^15 entries the planner models");
  }
  if (r.k < 0 || r.k > 15) return Status::InvalidArgument("k " + std::to_string(r.k) + " is outside 0..15");
  if (r.memory_bytes < util::kExternalSortMinMemoryBytes) {
    return Status::InvalidArgument("a memory budget of " + SizeText(r.memory_bytes) +
                                   " is below the build's minimum of " +
                                   SizeText(util::kExternalSortMinMemoryBytes));
  }
  if (r.block_size != 0) SIMDEX_RETURN_IF_ERROR(index::CheckBlockSizeOption(r.block_size));
  if (!r.codec.empty()) SIMDEX_RETURN_IF_ERROR(index::CheckCodecOption(r.codec));
  return Status::OK();
}

// Of `candidates`, the fastest within kAsFast, then the smallest; null if
// empty.
const PlanChoice* Best(const std::vector<const PlanChoice*>& candidates) {
  double fastest = 0;
  for (const PlanChoice* c : candidates) fastest = fastest == 0 ? c->p50_us : std::min(fastest, c->p50_us);
  const PlanChoice* best = nullptr;
  for (const PlanChoice* c : candidates) {
    if (c->p50_us > fastest * kAsFast) continue;
    if (best == nullptr || c->index_bytes < best->index_bytes ||
        (c->index_bytes == best->index_bytes && c->p50_us < best->p50_us)) {
      best = c;
    }
  }
  return best;
}

}  // namespace

std::string SizeText(uint64_t bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0) return std::to_string(bytes) + " B";
  if (value == static_cast<double>(static_cast<uint64_t>(value))) return Format("%.0f %s", value, kUnits[unit]);
  return Significant(value, kUnits[unit]);
}

Status PlanIndex(const PlanRequest& request, Plan* plan) {
  SIMDEX_RETURN_IF_ERROR(CheckRequest(request));
  std::vector<Scheme> schemes;
  SIMDEX_RETURN_IF_ERROR(CandidateSchemes(request.k, &schemes));
  std::vector<std::string> codecs = {"card", "ef"};
  if (!request.codec.empty()) codecs = {request.codec};
  std::set<uint32_t> block_sizes;
  for (const simhash::SpaceFigure& f : simhash::SpaceFigures()) block_sizes.insert(f.block_size);
  if (request.block_size != 0) block_sizes = {request.block_size};

  std::vector<PlanChoice> all;
  for (const Scheme& s : schemes) {
    for (const std::string& codec : codecs) {
      for (uint32_t block : block_sizes) {
        PlanChoice c;
        c.scheme = s;
        c.codec = codec;
        c.block_size = block;
        simhash::Predict(request, &c);
        all.push_back(c);
      }
    }
  }
  std::vector<const PlanChoice*> fit;
  const PlanChoice* smallest = nullptr;
  for (const PlanChoice& c : all) {
    if (smallest == nullptr || c.disk_bytes < smallest->disk_bytes) smallest = &c;
    if (request.disk_bytes == 0 || c.disk_bytes <= request.disk_bytes) fit.push_back(&c);
  }
  if (fit.empty()) {
    return Status::InvalidArgument("no index of " + std::to_string(request.n) + " entries fits a disk budget of " +
                                   SizeText(request.disk_bytes) + ": the smallest (" + Describe(*smallest) +
                                   ") needs at least " + SizeText(smallest->disk_bytes) + " (index " +
                                   SizeText(smallest->index_bytes) + ", scratch " +
                                   SizeText(smallest->scratch_bytes) + ")");
  }
  const PlanChoice* best = Best(fit);
  std::vector<const PlanChoice*> others;
  for (const PlanChoice* c : fit) {
    if (c->scheme.Name() != best->scheme.Name()) others.push_back(c);
  }
  if (others.empty()) {
    for (const PlanChoice* c : fit) {
      if (c != best) others.push_back(c);
    }
  }
  const PlanChoice* runner_up = Best(others);

  Plan out;
  out.choice = *best;
  out.has_runner_up = runner_up != nullptr;
  if (runner_up) out.runner_up = *runner_up;
  std::vector<std::string>& why = out.reasons;
  const uint64_t n = request.n;
  std::vector<std::string> names, block_names;
  for (const Scheme& s : schemes) names.push_back(s.Name());
  for (uint32_t b : block_sizes) block_names.push_back(SizeText(b));
  why.push_back("k = " + std::to_string(request.k) + ": " + Join(names) + (names.size() == 1 ? " guarantees" : " guarantee") +
                " k = " + std::to_string(schemes.front().k()) + " (the least k measured at or above it); with codec " +
                Join(codecs) + " and block size " + Join(block_names) + ", " + std::to_string(all.size()) +
                " candidates");
  if (best->spills) {
    why.push_back("the build spills: " + SizeText(32 * n) + " (32 bytes per entry) exceed the memory budget of " +
                  SizeText(request.memory_bytes) + ", so it sorts on disk, with up to " +
                  SizeText(best->scratch_bytes) + " of scratch files beside the index");
  } else {
    why.push_back("the build sorts in memory: its buffers, " + SizeText(32 * n) +
                  " (32 bytes per entry), fit the memory budget of " + SizeText(request.memory_bytes));
    if (best->memory_bytes > request.memory_bytes) {
      why.push_back("sorting in memory peaks at about " + SizeText(best->memory_bytes) +
                    " (44 bytes per entry measured, and the program), above the budget; a budget below " +
                    SizeText(32 * n) + " makes the build spill and hold to it");
    }
  }
  if (request.disk_bytes != 0) {
    const size_t ruled_out = all.size() - fit.size();
    why.push_back(ruled_out == 0 ? "every candidate fits the disk budget of " + SizeText(request.disk_bytes)
                                 : "the disk budget of " + SizeText(request.disk_bytes) + " rules out " +
                                       std::to_string(ruled_out) + " of " + std::to_string(all.size()) +
                                       " candidates");
  }
  const PlanChoice* fastest = *std::min_element(
      fit.begin(), fit.end(), [](const PlanChoice* a, const PlanChoice* b) { return a->p50_us < b->p50_us; });
  if (fastest->p50_us == best->p50_us) {
    why.push_back("fastest: " + Describe(*best) + ", " + Us(best->p50_us) + " predicted median near query");
  } else {
    why.push_back("fastest: " + Describe(*fastest) + ", " + Us(fastest->p50_us) + " predicted median near query; " +
                  Describe(*best) + " is within 10 % of it (" + Us(best->p50_us) + ") and smaller (" +
                  PerEntry(best->index_bytes, n) + " against " + PerEntry(fastest->index_bytes, n) + ")");
  }
  if (runner_up) {
    why.push_back("it beats " + Describe(*runner_up) + ": " + Us(runner_up->p50_us) + " and " +
                  PerEntry(runner_up->index_bytes, n) + " against " + Us(best->p50_us) + " and " +
                  PerEntry(best->index_bytes, n) + " (" + Ratio(runner_up->p50_us, best->p50_us) + " the time, " +
                  Ratio(static_cast<double>(runner_up->index_bytes), static_cast<double>(best->index_bytes)) +
                  " the bytes)");
  }
  if (!best->p50_measured) {
    why.push_back(best->scheme.Name() + " has no measured query time: its median is t10's per table times its " +
                  std::to_string(best->scheme.num_tables()) + " tables, an estimate");
  }
  if (best->extrapolated) {
    why.push_back("N = " + std::to_string(n) + " lies outside the N measured for " + Describe(*best) +
                  ": its figures are carried on from the nearest measured ones");
  }
  if (request.block_size != 0 && simhash::NearestMeasuredBlockSize(request.block_size) != request.block_size) {
    why.push_back("block size " + SizeText(request.block_size) + " was not measured: the figures are those of " +
                  SizeText(simhash::NearestMeasuredBlockSize(request.block_size)) + " blocks");
  }
  if (best->codec != simhash::MeasuredCodec(best->codec)) {
    why.push_back("codec " + best->codec + " picks per table from the data; the figures are ef's, which it picks on uniform fingerprints");
  }
  why.push_back("bytes are for uniform fingerprints and dense ids (0..N-1); near-duplicate-rich data comes out smaller with card");
  *plan = std::move(out);
  return Status::OK();
}

}  // namespace simdex
