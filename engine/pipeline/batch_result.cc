// BatchDedupResult (include/simdex/batch.h): what both methods' results
// share, over engine/pipeline/batch_result.h (the files they write:
// dedup_records.cc).
#include "engine/pipeline/batch_result.h"

#include <algorithm>
#include <utility>


namespace simdex {

Status BatchDedupResult::Rep::Of(const DocumentFiles* files, std::span<const std::string_view> texts,
                                 std::span<const double> scores, std::unique_ptr<Rep>* out) {
  if (files == nullptr && !scores.empty() && scores.size() != texts.size()) {
    return Status::InvalidArgument(std::to_string(scores.size()) + " scores for " + std::to_string(texts.size()) +
                                   " texts");
  }
  auto rep = std::make_unique<Rep>();
  if (files != nullptr) {
    rep->input = *files;
    rep->documents = std::make_unique<pipeline::DocumentInputs>(rep->input);
  } else {
    rep->documents = std::make_unique<pipeline::TextDocuments>(texts, scores);
  }
  *out = std::move(rep);
  return Status::OK();
}

Status BatchDedupResult::Rep::ReadPairs(const pipeline::PairVisitor& fn) {
  if (!pairs) return Status::InvalidArgument("the result holds no pairs: run it with keep_pairs, and read them once");
  const pipeline::PairSource source = std::move(pairs);
  pairs = nullptr;
  const Status s = source(fn);
  if (pairs_read) pairs_read();
  return s;
}

BatchDedupResult::BatchDedupResult(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
BatchDedupResult::~BatchDedupResult() = default;

uint64_t BatchDedupResult::size() const { return rep_->outcomes.size(); }
bool BatchDedupResult::IdIsString(uint64_t o) const { return rep_->batch.ids.IsString(o); }
uint64_t BatchDedupResult::IdNumber(uint64_t o) const { return rep_->batch.ids.Number(o); }
std::string_view BatchDedupResult::IdString(uint64_t o) const { return rep_->batch.ids.String(o); }
void BatchDedupResult::AppendIdJson(uint64_t o, std::string* out) const { rep_->batch.ids.AppendJson(o, out); }
std::string BatchDedupResult::Place(uint64_t o) const { return rep_->batch.places.Describe(o); }
std::string_view BatchDedupResult::EmptyReason(uint64_t o) const {
  const auto& empty = rep_->batch.empty;  // (ordinal, reason), by ordinal
  const auto at = std::lower_bound(empty.begin(), empty.end(), o,
                                   [](const std::pair<uint64_t, std::string>& e, uint64_t x) { return e.first < x; });
  return at != empty.end() && at->first == o ? std::string_view(at->second) : std::string_view();
}

uint64_t BatchDedupResult::skipped() const { return rep_->batch.skipped; }
const std::vector<std::string>& BatchDedupResult::first_errors() const { return rep_->batch.first_errors; }

Status BatchDedupResult::CheckIdsAreUnique(std::string_view how_to_allow) const {
  return rep_->CheckIds(how_to_allow);
}

}  // namespace simdex
