// Schemes: how the index cuts fingerprints into blocks and which permuted
// tables it keeps.
//
// A scheme is a list of block widths summing to 64 (block 0 holds the most
// significant bits) and the largest distance k it guarantees. Two
// fingerprints within Hamming distance d <= k differ in at most d blocks, so
// at least B - d blocks agree exactly (pigeonhole). The index keeps one table
// per choice of B - k "leading" blocks: C(B, k) tables. Table t stores every
// fingerprint permuted so that its leading blocks come first (in increasing
// block order), followed by the other blocks (in increasing block order); the
// leading blocks form the table's key (key_bits() wide). A query within k
// probes each table for entries whose key equals the query's key.
//
// Presets: "t10" = 16,12,12,12,12 k=3 (10 tables, 28-bit keys; the default),
// "t4" = 16,16,16,16 k=3 (4 tables, 16-bit keys), "t20" = 11,11,11,11,10,10
// k=3 (20 tables, 22-bit keys). Table 0 always leads with blocks 0..B-k-1 in
// order, so it is the identity permutation: its entries are the fingerprints
// themselves in sorted order.
//
// Thread safety: a Scheme is immutable after creation and may be shared.
#ifndef SIMDEX_SCHEME_H_
#define SIMDEX_SCHEME_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/status.h"

namespace simdex {

// A bit permutation that moves whole blocks: Apply() maps a fingerprint to
// the table's order, Invert() maps it back. Both preserve Hamming distance.
class BlockPermutation {
 public:
  uint64_t Apply(uint64_t fingerprint) const;
  uint64_t Invert(uint64_t permuted) const;
  // Width of the key formed by the leading blocks (1..64).
  int key_bits() const { return key_bits_; }
  // The leading blocks (scheme block numbers, increasing).
  const std::vector<int>& leading_blocks() const { return leading_; }

 private:
  friend class Scheme;
  struct Move {
    uint64_t mask;  // the block's bits, right-aligned
    uint8_t from;   // shift of the block in the fingerprint
    uint8_t to;     // shift of the block in the permuted value
  };
  std::vector<Move> moves_;
  std::vector<int> leading_;
  int key_bits_ = 0;
};

class Scheme {
 public:
  static constexpr int kMaxBlocks = 16;

  // REQUIRES nothing; returns InvalidArgument unless 1 <= widths.size() <=
  // kMaxBlocks, every width >= 1, the widths sum to 64, and 0 <= k < B (at
  // least one block must agree).
  static Status Create(const std::vector<int>& widths, int k, Scheme* out);
  // "t4", "t10", "t20", or a custom spec "W,W,...:K" (e.g. "16,16,16,16:3").
  static Status Parse(std::string_view spec, Scheme* out);
  // The default scheme, t10.
  static Scheme Default();
  // A scheme that guarantees distance k: t10 for k <= 3; above, k + 3
  // blocks of (nearly) equal width (at most kMaxBlocks = 16), so that a
  // query probes C(B, k) tables whose keys are B - k blocks wide.
  // InvalidArgument for k < 0 or k > 15.
  static Status Covering(int k, Scheme* out);

  const std::vector<int>& widths() const { return widths_; }
  int num_blocks() const { return static_cast<int>(widths_.size()); }
  int k() const { return k_; }
  int num_tables() const { return static_cast<int>(tables_.size()); }
  const BlockPermutation& table(int t) const { return tables_[t]; }

  // The preset name if the scheme is a preset, else "W,W,...:K".
  std::string Name() const;

  // The tables a query for distance d must probe to find every fingerprint
  // within d: a small set such that any B - d agreeing blocks contain some
  // table's leading blocks. All tables for d == k; one table for d == 0.
  // REQUIRES: 0 <= d <= k().
  const std::vector<int>& TablesForDistance(int d) const { return tables_for_distance_[d]; }

 private:
  std::vector<int> widths_;
  int k_ = 0;
  std::vector<BlockPermutation> tables_;
  std::vector<std::vector<int>> tables_for_distance_;
};

}  // namespace simdex

#endif  // SIMDEX_SCHEME_H_
