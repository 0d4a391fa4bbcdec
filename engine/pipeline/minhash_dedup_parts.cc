// The pieces of MinHash de-duplication that run apart
// (include/simdex/minhash_dedup_parts.h). The confirmation's (step 5) rule
// is ConfirmPairs' (engine/pipeline/confirm_pairs.cc), on rows sent where
// the pairs are.
#include "simdex/minhash_dedup_parts.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "engine/pipeline/minhash_assembly.h"
#include "simdex/confirm.h"
#include "simdex/minhash.h"

namespace simdex {
namespace {

// InvalidArgument "<what> key K (partition P, position I) <why>".
Status KeyError(const char* what, uint64_t key, const std::string& why) {
  return Status::InvalidArgument(std::string(what) + " key " + std::to_string(key) + " (partition " +
                                 std::to_string(PartitionOfKey(key)) + ", position " +
                                 std::to_string(PositionOfKey(key)) + ") " + why);
}

// *ordinal = the input ordinal of `key`, with `offsets` each partition's
// first ordinal and then n (MinHashItems::offsets); KeyError naming `what`
// for a key outside the partitions.
Status OrdinalOf(std::span<const uint64_t> offsets, uint64_t key, const char* what, uint64_t* ordinal) {
  const uint64_t p = PartitionOfKey(key);
  if (p + 1 >= offsets.size() || offsets[p] + PositionOfKey(key) >= offsets[p + 1]) {
    return KeyError(what, key, "is outside the " + std::to_string(offsets.size() - 1) + " partitions");
  }
  *ordinal = offsets[p] + PositionOfKey(key);
  return Status::OK();
}

// The key of an ordinal. REQUIRES: ordinal < offsets.back().
uint64_t KeyOf(std::span<const uint64_t> offsets, uint64_t ordinal) {
  const size_t p = static_cast<size_t>(std::upper_bound(offsets.begin(), offsets.end(), ordinal) - offsets.begin()) - 1;
  return PartKey(static_cast<uint32_t>(p), static_cast<uint32_t>(ordinal - offsets[p]));
}

Status CheckRanges(int ranges) {
  if (ranges < 1 || ranges > (1 << 16)) {
    return Status::InvalidArgument("ranges " + std::to_string(ranges) + " is outside 1..65536");
  }
  return Status::OK();
}

// InvalidArgument "<what> holds <size> <unit> for <n> documents" unless
// `what`, of `size` entries, is empty or holds one per document.
Status CheckLength(const char* what, size_t size, size_t n, const char* unit) {
  if (size != 0 && size != n) {
    return Status::InvalidArgument(std::string(what) + " holds " + std::to_string(size) + " " + unit + " for " +
                                   std::to_string(n) + " documents");
  }
  return Status::OK();
}

// Cuts pairs ordered by (a, b) into `partitions` KeyPairs by a's partition.
void CutByFirst(const std::vector<std::pair<uint64_t, uint64_t>>& pairs, uint32_t partitions,
                std::vector<KeyPairs>* out) {
  out->assign(partitions, KeyPairs());
  for (const auto& [a, b] : pairs) {
    KeyPairs& to = (*out)[PartitionOfKey(a)];
    to.a.push_back(a);
    to.b.push_back(b);
  }
}

// Clusters of the pairs add() adds, and the estimate requests.
template <typename AddPairs>
void Cluster(const MinHashItemsView& items, std::span<const double> scores, AddPairs add, MinHashClusters* out) {
  const uint64_t n = items.first_of.size();
  PairClusters clusters(n, std::vector<double>(scores.begin(), scores.end()));
  add(&clusters);
  clusters.Finish();
  out->clusters = clusters.clusters();
  out->clustered_documents = clusters.clustered_documents();
  out->representative.resize(n);
  out->other.clear();
  std::vector<std::pair<uint64_t, uint64_t>> wanted;  // (first of o, first of its representative) as keys
  for (uint64_t o = 0; o < n; ++o) {
    const uint64_t r = clusters.Representative(o);
    out->representative[o] = r;
    if (r != o && items.first_of[o] != items.first_of[r]) {
      out->other.push_back(o);
      wanted.emplace_back(KeyOf(items.offsets, items.first_of[o]), KeyOf(items.offsets, items.first_of[r]));
    }
  }
  std::vector<std::pair<uint64_t, uint64_t>> requests = wanted;
  std::sort(requests.begin(), requests.end());
  requests.erase(std::unique(requests.begin(), requests.end()), requests.end());
  out->slot.resize(wanted.size());
  for (size_t i = 0; i < wanted.size(); ++i) {
    out->slot[i] = static_cast<uint64_t>(std::lower_bound(requests.begin(), requests.end(), wanted[i]) - requests.begin());
  }
  CutByFirst(requests, static_cast<uint32_t>(items.offsets.size() - 1), &out->requests);
}

// OK when rows' lims run from 0 to its values, never decreasing, with one
// entry more than `documents`.
Status CheckRows(const ConfirmRowsView& rows, size_t documents) {
  const size_t values = rows.hashes.size() + rows.bytes.size();
  if (rows.lims.size() != documents + 1 || rows.lims[0] != 0 || rows.lims.back() != values ||
      !std::is_sorted(rows.lims.begin(), rows.lims.end())) {
    return Status::InvalidArgument("rows: lims must run from 0 to the " + std::to_string(values) +
                                   " values, one entry more than the " + std::to_string(documents) + " documents");
  }
  if (!rows.hashes.empty() && !rows.bytes.empty()) return Status::InvalidArgument("rows hold hashes and bytes");
  return Status::OK();
}

// Appends row r of `from` to *to, with its key.
void AppendRow(const ConfirmRowsView& from, size_t r, uint64_t key, ConfirmRows* to) {
  to->keys.push_back(key);
  const uint64_t begin = from.lims[r], end = from.lims[r + 1];
  if (!from.hashes.empty()) to->hashes.insert(to->hashes.end(), from.hashes.begin() + begin, from.hashes.begin() + end);
  if (!from.bytes.empty()) to->bytes.insert(to->bytes.end(), from.bytes.begin() + begin, from.bytes.begin() + end);
  to->lims.push_back(to->lims.back() + (end - begin));
}

}  // namespace

int HashRange(uint64_t value, int ranges) {
  // floor((hi * 2^32 + lo) * r / 2^64) in 64-bit words: hi * r < 2^48.
  const uint64_t r = static_cast<uint64_t>(ranges);
  return static_cast<int>(((value >> 32) * r + (((value & 0xffffffffu) * r) >> 32)) >> 32);
}

Status SplitDigests(uint32_t partition, std::span<const uint64_t> digests, std::span<const uint8_t> empty,
                    int ranges, std::vector<DigestPiece>* out) {
  SIMDEX_RETURN_IF_ERROR(CheckRanges(ranges));
  SIMDEX_RETURN_IF_ERROR(CheckLength("empty", empty.size(), digests.size(), "flags"));
  out->assign(static_cast<size_t>(ranges), DigestPiece());
  for (size_t i = 0; i < digests.size(); ++i) {
    if (!empty.empty() && empty[i]) continue;
    DigestPiece& to = (*out)[static_cast<size_t>(HashRange(digests[i], ranges))];
    to.digests.push_back(digests[i]);
    to.keys.push_back(PartKey(partition, static_cast<uint32_t>(i)));
  }
  return Status::OK();
}

Status FindFollowers(std::span<const DigestPieceView> pieces, uint32_t partitions, std::vector<Followers>* out) {
  std::vector<std::pair<uint64_t, uint64_t>> all;  // (digest, key)
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (pieces[i].digests.size() != pieces[i].keys.size()) {
      return Status::InvalidArgument("digest piece " + std::to_string(i) + " holds " +
                                     std::to_string(pieces[i].digests.size()) + " digests and " +
                                     std::to_string(pieces[i].keys.size()) + " keys");
    }
    for (size_t j = 0; j < pieces[i].keys.size(); ++j) {
      if (PartitionOfKey(pieces[i].keys[j]) >= partitions) {
        return KeyError("document", pieces[i].keys[j], "is of no partition 0.." + std::to_string(partitions - 1));
      }
      all.emplace_back(pieces[i].digests[j], pieces[i].keys[j]);
    }
  }
  std::sort(all.begin(), all.end());
  std::vector<std::pair<uint64_t, uint64_t>> followers;  // (key, first)
  for (size_t i = 1, first = 0; i < all.size(); ++i) {
    if (all[i].first != all[i - 1].first) {
      first = i;
    } else if (all[i].second != all[first].second) {  // a repeated key is no copy of itself
      followers.emplace_back(all[i].second, all[first].second);
    }
  }
  std::sort(followers.begin(), followers.end());
  out->assign(partitions, Followers());
  for (const auto& [key, first] : followers) {
    Followers& to = (*out)[PartitionOfKey(key)];
    to.positions.push_back(PositionOfKey(key));
    to.firsts.push_back(first);
  }
  return Status::OK();
}

Status SplitBandKeys(uint32_t partition, std::span<const uint64_t> keys, int bands, std::span<const uint8_t> empty,
                     std::span<const std::span<const uint32_t>> followers, int ranges, std::vector<BandPiece>* out) {
  SIMDEX_RETURN_IF_ERROR(CheckRanges(ranges));
  if (bands < 1) return Status::InvalidArgument("bands " + std::to_string(bands) + " is below 1");
  const size_t nb = static_cast<size_t>(bands);
  if (keys.size() % nb != 0) {
    return Status::InvalidArgument("keys holds " + std::to_string(keys.size()) + " values, not a multiple of " +
                                   std::to_string(bands) + " bands");
  }
  const size_t n = keys.size() / nb;
  SIMDEX_RETURN_IF_ERROR(CheckLength("empty", empty.size(), n, "flags"));
  std::vector<uint8_t> item(n, 1);
  for (size_t i = 0; i < n; ++i) item[i] = empty.empty() || !empty[i];
  for (const std::span<const uint32_t>& positions : followers) {
    for (uint32_t position : positions) {
      if (position >= n) {
        return Status::InvalidArgument("follower " + std::to_string(position) + " is past the partition's " +
                                       std::to_string(n) + " documents");
      }
      item[position] = 0;
    }
  }
  // Counted first, so that each piece is allocated once.
  std::vector<uint64_t> counts(static_cast<size_t>(ranges) * nb, 0);
  for (size_t i = 0; i < n; ++i) {
    if (!item[i]) continue;
    for (size_t j = 0; j < nb; ++j) ++counts[static_cast<size_t>(HashRange(keys[i * nb + j], ranges)) * nb + j];
  }
  out->assign(static_cast<size_t>(ranges), BandPiece());
  std::vector<uint64_t> at(counts.size());
  for (size_t r = 0; r < out->size(); ++r) {
    BandPiece& piece = (*out)[r];
    piece.lims.assign(nb + 1, 0);
    for (size_t j = 0; j < nb; ++j) {
      at[r * nb + j] = piece.lims[j];
      piece.lims[j + 1] = piece.lims[j] + counts[r * nb + j];
    }
    piece.keys.resize(piece.lims[nb]);
    piece.items.resize(piece.lims[nb]);
  }
  for (size_t i = 0; i < n; ++i) {
    if (!item[i]) continue;
    for (size_t j = 0; j < nb; ++j) {
      const uint64_t key = keys[i * nb + j];
      const size_t r = static_cast<size_t>(HashRange(key, ranges));
      const uint64_t slot = at[r * nb + j]++;
      (*out)[r].keys[slot] = key;
      (*out)[r].items[slot] = PartKey(partition, static_cast<uint32_t>(i));
    }
  }
  return Status::OK();
}

Status JoinBandRange(std::span<const BandPieceView> pieces, uint32_t partitions, int threads,
                     std::vector<KeyPairs>* out) {
  out->assign(partitions, KeyPairs());
  if (pieces.empty()) return Status::OK();
  const size_t lims = pieces[0].lims.size();
  for (size_t i = 0; i < pieces.size(); ++i) {
    const BandPieceView& p = pieces[i];
    if (p.lims.size() != lims || lims < 2 || p.lims[0] != 0 || p.lims.back() != p.keys.size() ||
        p.items.size() != p.keys.size() || !std::is_sorted(p.lims.begin(), p.lims.end())) {
      return Status::InvalidArgument("band piece " + std::to_string(i) + " is not (keys, items, lims) of " +
                                     std::to_string(lims > 0 ? lims - 1 : 0) + " bands");
    }
    for (uint64_t item : p.items) {
      if (PartitionOfKey(item) >= partitions) {
        return KeyError("item", item, "is of no partition 0.." + std::to_string(partitions - 1));
      }
    }
  }
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  std::vector<uint64_t> keys, items, found;
  for (size_t j = 0; j + 1 < lims; ++j) {
    keys.clear();
    items.clear();
    for (const BandPieceView& p : pieces) {
      keys.insert(keys.end(), p.keys.begin() + p.lims[j], p.keys.begin() + p.lims[j + 1]);
      items.insert(items.end(), p.items.begin() + p.lims[j], p.items.begin() + p.lims[j + 1]);
    }
    if (keys.size() < 2) continue;
    BandJoinStats stats;
    SIMDEX_RETURN_IF_ERROR(FindBandPairs(keys, 1, std::vector<uint8_t>(keys.size(), 1), threads, &found, &stats));
    for (uint64_t pair : found) {
      const uint64_t x = items[pair >> 32], y = items[pair & 0xffffffffu];
      pairs.emplace_back(std::min(x, y), std::max(x, y));
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  CutByFirst(pairs, partitions, out);
  return Status::OK();
}

Status AttachFirstSignatures(uint32_t partition, std::span<const KeyPairsView> pieces,
                             std::span<const uint8_t> packed, size_t signature_bytes, uint32_t partitions,
                             std::vector<SignedPairs>* out) {
  if (signature_bytes == 0 || packed.size() % signature_bytes != 0) {
    return Status::InvalidArgument("packed holds " + std::to_string(packed.size()) + " bytes, not signatures of " +
                                   std::to_string(signature_bytes));
  }
  const uint64_t n = packed.size() / signature_bytes;
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (pieces[i].a.size() != pieces[i].b.size()) {
      return Status::InvalidArgument("pair piece " + std::to_string(i) + " holds a and b of different lengths");
    }
    for (size_t k = 0; k < pieces[i].a.size(); ++k) {
      const uint64_t a = pieces[i].a[k], b = pieces[i].b[k];
      if (PartitionOfKey(a) != partition || PositionOfKey(a) >= n) {
        return KeyError("first", a, "is not among partition " + std::to_string(partition) + "'s " +
                                        std::to_string(n) + " documents");
      }
      if (PartitionOfKey(b) >= partitions) {
        return KeyError("second", b, "is of no partition 0.." + std::to_string(partitions - 1));
      }
      pairs.emplace_back(a, b);
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  out->assign(partitions, SignedPairs());
  for (const auto& [a, b] : pairs) {
    SignedPairs& to = (*out)[PartitionOfKey(b)];
    to.a.push_back(a);
    to.b.push_back(b);
    const uint8_t* s = packed.data() + PositionOfKey(a) * signature_bytes;
    to.signatures.insert(to.signatures.end(), s, s + signature_bytes);
  }
  return Status::OK();
}

Status EstimateSecond(uint32_t partition, std::span<const SignedPairsView> pieces, std::span<const uint8_t> packed,
                      int num_perm, int bits, double min_estimate, EstimatedPairs* out, uint64_t* candidates) {
  if (num_perm < 1 || num_perm > kMaxNumPerm || !ValidSignatureBits(bits)) {
    return Status::InvalidArgument("num_perm " + std::to_string(num_perm) + " or bits " + std::to_string(bits) +
                                   " is out of range");
  }
  const size_t bytes = PackedSignatureBytes(num_perm, bits);
  if (packed.size() % bytes != 0) {
    return Status::InvalidArgument("packed holds " + std::to_string(packed.size()) + " bytes, not signatures of " +
                                   std::to_string(bytes));
  }
  const uint64_t n = packed.size() / bytes;
  *out = EstimatedPairs();
  *candidates = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const SignedPairsView& p = pieces[i];
    if (p.a.size() != p.b.size() || p.signatures.size() != p.a.size() * bytes) {
      return Status::InvalidArgument("signed piece " + std::to_string(i) + " is not (a, b, " + std::to_string(bytes) +
                                     " bytes per pair)");
    }
    for (size_t k = 0; k < p.a.size(); ++k) {
      const uint64_t b = p.b[k];
      if (PartitionOfKey(b) != partition || PositionOfKey(b) >= n) {
        return KeyError("second", b, "is not among partition " + std::to_string(partition) + "'s " +
                                         std::to_string(n) + " documents");
      }
      const double estimate = EstimateJaccardPacked(p.signatures.data() + k * bytes,
                                                    packed.data() + PositionOfKey(b) * bytes, num_perm, bits);
      if (min_estimate >= 0 && estimate < min_estimate) continue;
      out->a.push_back(p.a[k]);
      out->b.push_back(b);
      out->estimates.push_back(estimate);
    }
    *candidates += p.a.size();
  }
  return Status::OK();
}

Status AssembleItems(std::span<const uint64_t> sizes, std::span<const uint8_t> empty,
                     std::span<const FollowersView> followers, std::span<const EstimatedPairsView> kept,
                     MinHashItems* out) {
  *out = MinHashItems();
  out->offsets.assign(1, 0);
  for (uint64_t size : sizes) out->offsets.push_back(out->offsets.back() + size);
  const uint64_t n = out->offsets.back();
  if (empty.size() != n) {
    return Status::InvalidArgument("empty holds " + std::to_string(empty.size()) + " flags for " + std::to_string(n) +
                                   " documents");
  }
  out->empty.assign(empty.begin(), empty.end());
  out->first_of.resize(n);
  std::iota(out->first_of.begin(), out->first_of.end(), uint64_t{0});
  uint64_t follows = 0;
  for (const FollowersView& f : followers) {
    if (f.positions.size() != f.firsts.size()) {
      return Status::InvalidArgument("the followers of partition " + std::to_string(f.partition) +
                                     " hold positions and firsts of different lengths");
    }
    for (size_t i = 0; i < f.positions.size(); ++i) {
      const uint64_t key = PartKey(f.partition, f.positions[i]);
      uint64_t o = 0, first = 0;
      SIMDEX_RETURN_IF_ERROR(OrdinalOf(out->offsets, key, "follower", &o));
      SIMDEX_RETURN_IF_ERROR(OrdinalOf(out->offsets, f.firsts[i], "first", &first));
      if (first >= o) return KeyError("follower", key, "comes before its first document");
      follows += out->first_of[o] == o;
      out->first_of[o] = first;
    }
  }
  for (const EstimatedPairsView& k : kept) {
    if (k.a.size() != k.b.size() || k.estimates.size() != k.a.size()) {
      return Status::InvalidArgument("kept pairs of different lengths");
    }
    for (size_t i = 0; i < k.a.size(); ++i) {
      uint64_t a = 0, b = 0;
      SIMDEX_RETURN_IF_ERROR(OrdinalOf(out->offsets, k.a[i], "kept", &a));
      SIMDEX_RETURN_IF_ERROR(OrdinalOf(out->offsets, k.b[i], "kept", &b));
      out->kept_a.push_back(a);
      out->kept_b.push_back(b);
      out->kept_estimates.push_back(k.estimates[i]);
    }
  }
  MinHashDedupStats& stats = out->stats;
  stats.documents = n;
  stats.empty = static_cast<uint64_t>(std::count_if(empty.begin(), empty.end(), [](uint8_t e) { return e != 0; }));
  stats.distinct_signatures = n - stats.empty - follows;
  stats.kept = out->kept_a.size();
  std::vector<uint64_t> members(n, 0);
  for (uint64_t o = 0; o < n; ++o) members[out->first_of[o]] += !empty[o];
  for (uint64_t m : members) stats.document_pairs += m * (m - 1) / 2;  // 0 for m = 0
  for (size_t i = 0; i < out->kept_a.size(); ++i) stats.document_pairs += members[out->kept_a[i]] * members[out->kept_b[i]];
  return Status::OK();
}

namespace pipeline {

Status ForEachDocumentPair(const MinHashItemsView& items, const DocumentPairVisitor& fn) {
  const uint64_t n = items.first_of.size();
  // Each item's members in ordinal order: start[first] .. start[first + 1).
  std::vector<uint64_t> start(n + 1, 0), members;
  for (uint64_t o = 0; o < n; ++o) start[items.first_of[o] + 1] += !items.empty[o];
  std::partial_sum(start.begin(), start.end(), start.begin());
  members.resize(start[n]);
  {
    std::vector<uint64_t> at(start.begin(), start.end() - 1);
    for (uint64_t o = 0; o < n; ++o) {
      if (!items.empty[o]) members[at[items.first_of[o]]++] = o;
    }
  }
  for (uint64_t item = 0; item < n; ++item) {
    for (uint64_t x = start[item]; x < start[item + 1]; ++x) {
      for (uint64_t y = x + 1; y < start[item + 1]; ++y) SIMDEX_RETURN_IF_ERROR(fn(members[x], members[y], 1.0));
    }
  }
  for (size_t i = 0; i < items.kept_a.size(); ++i) {
    const uint64_t a = items.kept_a[i], b = items.kept_b[i];
    for (uint64_t x = start[a]; x < start[a + 1]; ++x) {
      for (uint64_t y = start[b]; y < start[b + 1]; ++y) {
        SIMDEX_RETURN_IF_ERROR(
            fn(std::min(members[x], members[y]), std::max(members[x], members[y]), items.kept_estimates[i]));
      }
    }
  }
  return Status::OK();
}

void AddItemPairs(const MinHashItemsView& items, PairClusters* clusters) {
  for (uint64_t o = 0; o < items.first_of.size(); ++o) {
    if (items.first_of[o] != o) clusters->Add(o, items.first_of[o]);
  }
  for (size_t i = 0; i < items.kept_a.size(); ++i) clusters->Add(items.kept_a[i], items.kept_b[i]);
}

}  // namespace pipeline

void DocumentPairs(const MinHashItemsView& items, EstimatedPairs* out) {
  // Made as (a, b, estimate), sorted in place, then cut into the arrays:
  // 48 bytes a pair at the peak.
  std::vector<std::tuple<uint64_t, uint64_t, double>> pairs;
  // The visitor returns no error, so neither does the visit.
  (void)pipeline::ForEachDocumentPair(items, [&pairs](uint64_t a, uint64_t b, double estimate) {
    pairs.emplace_back(a, b, estimate);
    return Status::OK();
  });
  std::sort(pairs.begin(), pairs.end());  // (a, b) are distinct
  *out = EstimatedPairs();
  out->a.reserve(pairs.size());
  out->b.reserve(pairs.size());
  out->estimates.reserve(pairs.size());
  for (const auto& [a, b, estimate] : pairs) {
    out->a.push_back(a);
    out->b.push_back(b);
    out->estimates.push_back(estimate);
  }
}

Status ClusterItems(const MinHashItemsView& items, std::span<const double> scores, MinHashClusters* out) {
  SIMDEX_RETURN_IF_ERROR(CheckLength("scores", scores.size(), items.first_of.size(), "values"));
  Cluster(items, scores, [&items](PairClusters* clusters) { pipeline::AddItemPairs(items, clusters); }, out);
  return Status::OK();
}

Status ClusterDocuments(const MinHashItemsView& items, std::span<const double> scores, std::span<const uint64_t> a,
                        std::span<const uint64_t> b, MinHashClusters* out) {
  SIMDEX_RETURN_IF_ERROR(CheckLength("scores", scores.size(), items.first_of.size(), "values"));
  if (a.size() != b.size()) return Status::InvalidArgument("a and b differ in length");
  const uint64_t n = items.first_of.size();
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] >= n || b[i] >= n) {
      return Status::InvalidArgument("pair " + std::to_string(i) + " (" + std::to_string(a[i]) + ", " +
                                     std::to_string(b[i]) + ") is outside the " + std::to_string(n) + " documents");
    }
  }
  Cluster(items, scores, [&](PairClusters* clusters) {
    for (size_t i = 0; i < a.size(); ++i) clusters->Add(a[i], b[i]);
  }, out);
  return Status::OK();
}

Status FinishEstimates(const MinHashItemsView& items, std::span<const uint64_t> other,
                       std::span<const uint64_t> slot, std::span<const EstimatedPairsView> estimated,
                       std::vector<float>* estimates) {
  const uint64_t n = items.first_of.size();
  if (other.size() != slot.size()) return Status::InvalidArgument("other and slot differ in length");
  std::vector<std::tuple<uint64_t, uint64_t, double>> answers;
  for (const EstimatedPairsView& e : estimated) {
    if (e.a.size() != e.b.size() || e.estimates.size() != e.a.size()) {
      return Status::InvalidArgument("estimated pairs of different lengths");
    }
    for (size_t i = 0; i < e.a.size(); ++i) answers.emplace_back(e.a[i], e.b[i], e.estimates[i]);
  }
  std::sort(answers.begin(), answers.end());
  estimates->assign(n, 1.0f);
  for (uint64_t o = 0; o < n; ++o) {
    if (items.empty[o]) (*estimates)[o] = 0;
  }
  for (size_t i = 0; i < other.size(); ++i) {
    if (other[i] >= n || slot[i] >= answers.size()) {
      return Status::InvalidArgument("document " + std::to_string(other[i]) + "'s estimate request " +
                                     std::to_string(slot[i]) + " has no answer among " +
                                     std::to_string(answers.size()));
    }
    (*estimates)[other[i]] = static_cast<float>(std::get<2>(answers[slot[i]]));
  }
  return Status::OK();
}

void CutConfirmCandidates(const MinHashItemsView& items, ConfirmCandidates* out) {
  const size_t parts = items.offsets.size() - 1;
  EstimatedPairs pairs;
  DocumentPairs(items, &pairs);
  *out = ConfirmCandidates();
  out->pairs = pairs.a.size();
  out->pieces.assign(parts, EstimatedPairs());
  for (size_t i = 0; i < pairs.a.size(); ++i) {
    const uint64_t a = KeyOf(items.offsets, pairs.a[i]), b = KeyOf(items.offsets, pairs.b[i]);
    EstimatedPairs& to = out->pieces[PartitionOfKey(b)];
    to.a.push_back(a);
    to.b.push_back(b);
    to.estimates.push_back(pairs.estimates[i]);
  }
  out->wanted.assign(parts, std::vector<std::vector<uint32_t>>(parts));
  std::vector<uint64_t> documents;
  for (size_t q = 0; q < parts; ++q) {
    const EstimatedPairs& piece = out->pieces[q];
    documents.assign(piece.a.begin(), piece.a.end());
    documents.insert(documents.end(), piece.b.begin(), piece.b.end());
    std::sort(documents.begin(), documents.end());
    documents.erase(std::unique(documents.begin(), documents.end()), documents.end());
    for (uint64_t key : documents) out->wanted[PartitionOfKey(key)][q].push_back(PositionOfKey(key));
  }
}

Status PickConfirmRows(uint32_t partition, std::span<const uint32_t> positions, const ConfirmRowsView& read,
                       std::span<const std::span<const uint32_t>> wanted, std::vector<ConfirmRows>* out) {
  SIMDEX_RETURN_IF_ERROR(CheckRows(read, positions.size()));
  out->assign(wanted.size(), ConfirmRows());
  for (size_t q = 0; q < wanted.size(); ++q) {
    ConfirmRows& to = (*out)[q];
    to.lims.assign(1, 0);
    for (uint32_t position : wanted[q]) {
      const auto at = std::lower_bound(positions.begin(), positions.end(), position);
      if (at == positions.end() || *at != position) {
        return Status::InvalidArgument("wanted position " + std::to_string(position) + " of partition " +
                                       std::to_string(partition) + " was not read");
      }
      AppendRow(read, static_cast<size_t>(at - positions.begin()), PartKey(partition, position), &to);
    }
  }
  return Status::OK();
}

Status ConfirmRowPairs(Confirmer* confirmer, const ConfirmRowsView& rows, std::span<const uint64_t> rows_a,
                       std::span<const uint64_t> rows_b, std::vector<uint8_t>* accepted,
                       std::vector<double>* similarities) {
  const size_t documents = rows.lims.empty() ? 0 : rows.lims.size() - 1;
  SIMDEX_RETURN_IF_ERROR(CheckRows(rows, documents));
  if (rows_a.size() != rows_b.size()) return Status::InvalidArgument("rows_a and rows_b differ in length");
  for (size_t i = 0; i < rows_a.size(); ++i) {
    if (rows_a[i] >= documents || rows_b[i] >= documents) {
      return Status::InvalidArgument("pair " + std::to_string(i) + " names a row past the " +
                                     std::to_string(documents) + " documents");
    }
  }
  const bool by_shingles = confirmer->options().measure == ConfirmMeasure::kJaccard;
  if (by_shingles && !rows.bytes.empty()) return Status::InvalidArgument("a Jaccard spec confirms hashes, not texts");
  if (!by_shingles && !rows.hashes.empty()) return Status::InvalidArgument("edit confirms texts, not hashes");
  const auto hashes = [&](uint64_t r) { return rows.hashes.subspan(rows.lims[r], rows.lims[r + 1] - rows.lims[r]); };
  const auto text = [&](uint64_t r) {
    return std::string_view(reinterpret_cast<const char*>(rows.bytes.data()) + rows.lims[r],
                            rows.lims[r + 1] - rows.lims[r]);
  };
  accepted->resize(rows_a.size());
  similarities->resize(rows_a.size());
  for (size_t i = 0; i < rows_a.size(); ++i) {
    const uint64_t x = rows_a[i], y = rows_b[i];
    double& similarity = (*similarities)[i];
    if (by_shingles) {
      similarity = Confirmer::JaccardOfShingles(hashes(x), hashes(y));
    } else {
      similarity = confirmer->Confirms(text(x), text(y)) ? confirmer->Similarity(text(x), text(y))
                                                         : std::numeric_limits<double>::quiet_NaN();
    }
    (*accepted)[i] = similarity >= confirmer->options().threshold;  // false for NaN
  }
  return Status::OK();
}

Status ConfirmPieces(Confirmer* confirmer, const EstimatedPairsView& pairs, std::span<const ConfirmRowsView> rows,
                     ConfirmedPairs* out) {
  if (pairs.b.size() != pairs.a.size() || pairs.estimates.size() != pairs.a.size()) {
    return Status::InvalidArgument("pairs of different lengths");
  }
  // The pieces' rows in one offset array, and each key's row.
  ConfirmRows all;
  all.lims.assign(1, 0);
  std::vector<std::pair<uint64_t, uint64_t>> row_of;  // (key, row)
  for (const ConfirmRowsView& piece : rows) {
    SIMDEX_RETURN_IF_ERROR(CheckRows(piece, piece.keys.size()));
    for (size_t r = 0; r < piece.keys.size(); ++r) {
      row_of.emplace_back(piece.keys[r], all.keys.size());
      AppendRow(piece, r, piece.keys[r], &all);
    }
  }
  std::sort(row_of.begin(), row_of.end());
  std::vector<uint64_t> rows_a(pairs.a.size()), rows_b(pairs.a.size());
  for (size_t i = 0; i < pairs.a.size(); ++i) {
    for (const auto& [key, row] : {std::tie(pairs.a[i], rows_a[i]), std::tie(pairs.b[i], rows_b[i])}) {
      const auto at = std::lower_bound(row_of.begin(), row_of.end(), std::make_pair(key, uint64_t{0}));
      if (at == row_of.end() || at->first != key) return KeyError("document", key, "has no rows");
      row = at->second;
    }
  }
  std::vector<uint8_t> accepted;
  std::vector<double> similarities;
  SIMDEX_RETURN_IF_ERROR(ConfirmRowPairs(confirmer, all.View(), rows_a, rows_b, &accepted, &similarities));
  *out = ConfirmedPairs();
  for (size_t i = 0; i < accepted.size(); ++i) {
    if (!accepted[i]) continue;
    out->pairs.a.push_back(pairs.a[i]);
    out->pairs.b.push_back(pairs.b[i]);
    out->pairs.estimates.push_back(pairs.estimates[i]);
    out->similarities.push_back(similarities[i]);
  }
  return Status::OK();
}

Status ClusterConfirmed(const MinHashItemsView& items, std::span<const double> scores,
                        std::span<const ConfirmedPairsView> confirmed, bool keep_pairs, MinHashClusters* clusters,
                        ConfirmedPairs* pairs) {
  std::vector<std::tuple<uint64_t, uint64_t, double, double>> all;  // ordinals
  for (const ConfirmedPairsView& c : confirmed) {
    const size_t n = c.pairs.a.size();
    if (c.pairs.b.size() != n || c.pairs.estimates.size() != n || c.similarities.size() != n) {
      return Status::InvalidArgument("confirmed pairs of different lengths");
    }
    for (size_t i = 0; i < n; ++i) {
      uint64_t a = 0, b = 0;
      SIMDEX_RETURN_IF_ERROR(OrdinalOf(items.offsets, c.pairs.a[i], "confirmed", &a));
      SIMDEX_RETURN_IF_ERROR(OrdinalOf(items.offsets, c.pairs.b[i], "confirmed", &b));
      all.emplace_back(a, b, c.pairs.estimates[i], c.similarities[i]);
    }
  }
  std::sort(all.begin(), all.end());
  *pairs = ConfirmedPairs();
  std::vector<uint64_t> a, b;
  for (const auto& [x, y, estimate, similarity] : all) {
    a.push_back(x);
    b.push_back(y);
    if (!keep_pairs) continue;
    pairs->pairs.estimates.push_back(estimate);
    pairs->similarities.push_back(similarity);
  }
  SIMDEX_RETURN_IF_ERROR(ClusterDocuments(items, scores, a, b, clusters));
  if (keep_pairs) {
    pairs->pairs.a = std::move(a);
    pairs->pairs.b = std::move(b);
  }
  return Status::OK();
}

}  // namespace simdex
