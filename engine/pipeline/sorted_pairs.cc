// SortedPairs (engine/pipeline/sorted_pairs.h).
#include "engine/pipeline/sorted_pairs.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>

#include "engine/util/external_sorter.h"

namespace simdex::pipeline {
namespace {

constexpr size_t kBatch = 4096;

// v as printed, in a float's bits.
uint32_t Printed(double v) { return std::bit_cast<uint32_t>(AsPrinted(v)); }

double Unprinted(uint32_t bits) { return static_cast<double>(std::bit_cast<float>(bits)); }

}  // namespace

float AsPrinted(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return static_cast<float>(std::strtod(text, nullptr));
}

SortedPairs::SortedPairs(size_t memory_bytes, const std::string& tmpdir, int threads)
    : sorter_(std::make_unique<util::ExternalSorter<util::FingerprintIdPair>>(util::ExternalSortOptions{
          .memory_bytes = std::max(memory_bytes, util::kExternalSortMinMemoryBytes),
          .tmpdir = tmpdir,
          .threads = threads})),
      status_(sorter_->status()) {
  pending_.reserve(kBatch);
}

SortedPairs::~SortedPairs() = default;

Status SortedPairs::Flush() {
  if (status_.ok()) status_ = sorter_->Add(pending_.data(), pending_.size());
  pending_.clear();
  return status_;
}

Status SortedPairs::Add(const AcceptedPair& pair) {
  if (!status_.ok()) return status_;
  pending_.push_back({uint64_t{pair.a} << 32 | pair.b,
                      uint64_t{Printed(pair.estimate)} << 32 | Printed(pair.similarity)});
  return pending_.size() == kBatch ? Flush() : Status::OK();
}

Status SortedPairs::ForEach(const PairVisitor& fn) {
  SIMDEX_RETURN_IF_ERROR(Flush());
  SIMDEX_RETURN_IF_ERROR(status_ = sorter_->Finish());
  std::vector<util::FingerprintIdPair> batch(kBatch);
  for (size_t got = 1; got > 0;) {
    SIMDEX_RETURN_IF_ERROR(status_ = sorter_->Read(batch.data(), batch.size(), &got));
    for (size_t i = 0; i < got; ++i) {
      const util::FingerprintIdPair& r = batch[i];
      AcceptedPair p{static_cast<uint32_t>(r.fingerprint >> 32), static_cast<uint32_t>(r.fingerprint), 0};
      p.estimate = Unprinted(static_cast<uint32_t>(r.id >> 32));
      p.similarity = Unprinted(static_cast<uint32_t>(r.id));
      SIMDEX_RETURN_IF_ERROR(fn(p));
    }
  }
  bytes_spilled_ = sorter_->stats().bytes_spilled;
  sorter_.reset();
  return Status::OK();
}

}  // namespace simdex::pipeline
