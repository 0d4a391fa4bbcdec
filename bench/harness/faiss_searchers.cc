#include "bench/harness/faiss_searchers.h"

#include <faiss/IndexBinaryHash.h>
#include <faiss/impl/AuxIndexStructures.h>
#include <malloc.h>

#include <algorithm>
#include <cassert>
#include <exception>

namespace simdex::bench {

namespace {

// Bytes of the code buffers handed to faiss: one code, then room for the
// 8-byte loads IndexBinaryMultiHash makes at byte offset h*bits/8 of a code,
// which reach up to 7 bytes past its end.
constexpr size_t kCodeBytes = 8;
constexpr size_t kCodeSlack = 8;

void EncodeCode(uint64_t fp, uint8_t* code) {
  for (size_t i = 0; i < kCodeBytes; ++i) code[i] = static_cast<uint8_t>(fp >> (8 * i));
}

size_t HeapInUse() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

}  // namespace

FaissSearcher::FaissSearcher(int max_k, int nflip) : max_k_(max_k), nflip_(nflip) {}

FaissSearcher::~FaissSearcher() = default;

Status FaissSearcher::Build(std::span<const uint64_t> fps) {
  fps_ = fps;
  // Codes go to faiss in slices, so the buffer stays small; it exists before
  // the first heap reading, so it is not counted.
  constexpr size_t kSlice = size_t{1} << 16;
  std::vector<uint8_t> codes(kSlice * kCodeBytes + kCodeSlack);
  try {
    const size_t before = HeapInUse();
    index_ = NewIndex();
    for (size_t start = 0; start < fps.size(); start += kSlice) {
      const size_t len = std::min(kSlice, fps.size() - start);
      for (size_t i = 0; i < len; ++i) EncodeCode(fps[start + i], &codes[i * kCodeBytes]);
      index_->add(static_cast<faiss::IndexBinary::idx_t>(len), codes.data());
    }
    const size_t after = HeapInUse();
    bytes_ = after > before ? after - before : 0;
  } catch (const std::exception& e) {
    index_.reset();
    return Status::IOError(Name() + ": faiss failed to add " + std::to_string(fps.size()) +
                           " codes: " + e.what());
  }
  return Status::OK();
}

Status FaissSearcher::Search(uint64_t q, int k, std::vector<Match>* out) const {
  assert(index_ != nullptr && 0 <= k && k <= max_k_);
  out->clear();
  uint8_t code[kCodeBytes + kCodeSlack] = {};
  EncodeCode(q, code);
  try {
    faiss::RangeSearchResult result(1);
    // range_search keeps distances strictly below the radius.
    index_->range_search(1, code, k + 1, &result);
    for (size_t j = result.lims[0]; j < result.lims[1]; ++j) {
      const auto id = static_cast<uint64_t>(result.labels[j]);
      if (id >= fps_.size()) {
        return Status::Corruption(Name() + ": faiss returned id " + std::to_string(id) + " of " +
                                  std::to_string(fps_.size()));
      }
      out->push_back({id, fps_[id], static_cast<int>(result.distances[j])});
    }
  } catch (const std::exception& e) {
    return Status::IOError(Name() + ": faiss range_search failed: " + e.what());
  }
  SortMatches(out);
  return Status::OK();
}

FaissHashSearcher::FaissHashSearcher(int bits, int max_k)
    : FaissSearcher(max_k, std::min(max_k, bits)), bits_(bits) {
  assert(1 <= bits && bits <= 63 && 0 <= max_k && max_k <= 64);
}

std::unique_ptr<faiss::IndexBinary> FaissHashSearcher::NewIndex() const {
  auto index = std::make_unique<faiss::IndexBinaryHash>(64, bits_);
  index->nflip = nflip();
  return index;
}

FaissMultiHashSearcher::FaissMultiHashSearcher(int nhash, int bits, int max_k)
    : FaissSearcher(max_k, std::min(max_k / nhash, bits)), nhash_(nhash), bits_(bits) {
  assert(nhash >= 1 && 1 <= bits && bits <= 57 && nhash * bits <= 64 && 0 <= max_k && max_k <= 64);
}

std::unique_ptr<faiss::IndexBinary> FaissMultiHashSearcher::NewIndex() const {
  auto index = std::make_unique<faiss::IndexBinaryMultiHash>(64, nhash_, bits_);
  index->nflip = nflip();
  return index;
}

}  // namespace simdex::bench
