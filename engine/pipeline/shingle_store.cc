#include "engine/pipeline/shingle_store.h"

#include <cstring>

namespace simdex::pipeline {

ShingleStore::ShingleStore(size_t memory_bytes, const std::string& tmpdir)
    : hashes_(sizeof(uint64_t), memory_bytes / 2, tmpdir), offsets_(sizeof(uint64_t), memory_bytes / 2, tmpdir) {}

Status ShingleStore::Add(std::span<const uint64_t> hashes) {
  SIMDEX_RETURN_IF_ERROR(offsets_.Append(&total_, 1));
  SIMDEX_RETURN_IF_ERROR(hashes_.Append(hashes.data(), hashes.size()));
  total_ += hashes.size();
  return Status::OK();
}

Status ShingleStore::Finish() {
  SIMDEX_RETURN_IF_ERROR(offsets_.Append(&total_, 1));
  SIMDEX_RETURN_IF_ERROR(offsets_.Finish());
  return hashes_.Finish();
}

Status ShingleStore::Get(uint64_t place, int slot, std::span<const uint64_t>* out) {
  uint64_t bounds[2];
  if (const uint8_t* data = offsets_.data(); data != nullptr) {
    std::memcpy(bounds, data + place * sizeof(uint64_t), sizeof bounds);
  } else {
    SIMDEX_RETURN_IF_ERROR(offsets_.Read(place, 2, bounds));
  }
  const size_t n = static_cast<size_t>(bounds[1] - bounds[0]);
  if (const uint8_t* data = hashes_.data(); data != nullptr) {
    *out = {reinterpret_cast<const uint64_t*>(data) + bounds[0], n};
    return Status::OK();
  }
  std::vector<uint64_t>& buffer = buffers_[slot];
  if (holds_[slot] != place) {
    buffer.resize(n);
    holds_[slot] = UINT64_MAX;
    if (n > 0) SIMDEX_RETURN_IF_ERROR(hashes_.Read(bounds[0], n, buffer.data()));
    holds_[slot] = place;
  }
  *out = {buffer.data(), buffer.size()};
  return Status::OK();
}

}  // namespace simdex::pipeline
