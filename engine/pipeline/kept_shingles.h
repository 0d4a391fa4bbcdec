// KeptShingles: every document's shingle hashes as the signing made them,
// kept in memory for the exact check so that the texts need not be read
// and shingled again (`simdex dedup`'s exact check, docs/minhash.md). Kept
// only while they fit the room they are given: past it they are dropped at
// once, and the check reads the texts again as before.
//
// Not thread-safe.
#ifndef SIMDEX_ENGINE_PIPELINE_KEPT_SHINGLES_H_
#define SIMDEX_ENGINE_PIPELINE_KEPT_SHINGLES_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "simdex/shingles.h"

namespace simdex::pipeline {

class KeptShingles {
 public:
  // The hashes are those of ShingleMaker with these options.
  explicit KeptShingles(const ShingleOptions& options) : options_(options) {}

  // Adds the next document's hashes (documents are added in ordinal order,
  // once each) if the bytes held stay within `room`; else drops every hash
  // held, and Add() does nothing from then on (kept() is false).
  void Add(std::span<const uint64_t> hashes, size_t room);
  // Drops every hash held; kept() is false from then on.
  void Drop();

  // Whether every document added is still held.
  bool kept() const { return kept_; }
  // The hashes of the document added ordinal-th (from 0).
  // REQUIRES: kept(); ordinal < size().
  std::span<const uint64_t> Get(uint64_t ordinal) const {
    const Place& p = places_[ordinal];
    if (p.size == 0) return {};
    return {blocks_[p.block].get() + p.start, p.size};
  }
  uint64_t size() const { return places_.size(); }
  const ShingleOptions& options() const { return options_; }
  // The bytes held: the blocks, and the places' buffer at its capacity.
  size_t bytes() const { return block_bytes_ + places_.capacity() * sizeof(Place); }

 private:
  // Hashes go into blocks of kBlockHashes (or one of a document's own when
  // it has more), a document never split between two: unlike one growing
  // buffer, nothing is copied and the memory is never twice the hashes.
  static constexpr size_t kBlockHashes = size_t{1} << 16;
  struct Place {
    uint32_t block, start, size;
  };
  ShingleOptions options_;
  std::vector<std::unique_ptr<uint64_t[]>> blocks_;
  size_t block_used_ = 0, block_room_ = 0;  // of the last block
  size_t block_bytes_ = 0;
  std::vector<Place> places_;
  bool kept_ = true;
};

// Whether two shingle options give every text the same shingle hashes.
bool SameShingles(const ShingleOptions& x, const ShingleOptions& y);

}  // namespace simdex::pipeline

#endif  // SIMDEX_ENGINE_PIPELINE_KEPT_SHINGLES_H_
