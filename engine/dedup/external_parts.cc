#include "engine/dedup/external_parts.h"

#include <algorithm>
#include <bit>
#include <string>

#include "simdex/fingerprint.h"

namespace simdex::dedup {

namespace {

// The distinct number of fingerprint f, or InvalidArgument naming `what`.
Status Find(std::span<const uint64_t> distinct, uint64_t f, const char* what, uint32_t* out) {
  const auto it = std::lower_bound(distinct.begin(), distinct.end(), f);
  if (it == distinct.end() || *it != f) {
    return Status::InvalidArgument(std::string(what) + " fingerprint " + FormatHexFingerprint(f) +
                                   " is not in the batch");
  }
  *out = static_cast<uint32_t>(it - distinct.begin());
  return Status::OK();
}

}  // namespace

Status ToDistinctPairs(std::span<const uint64_t> distinct, std::span<const NearPair> pairs, int k,
                       std::vector<DistinctPair>* out) {
  out->reserve(out->size() + pairs.size());
  for (const NearPair& p : pairs) {
    const int d = std::popcount(p.a ^ p.b);
    if (p.a == p.b || d != p.distance || d > k) {
      return Status::InvalidArgument("near pair " + FormatHexFingerprint(p.a) + " " + FormatHexFingerprint(p.b) +
                                     " with distance " + std::to_string(p.distance) +
                                     " is not two distinct fingerprints at that distance within k " +
                                     std::to_string(k));
    }
    uint32_t a = 0, b = 0;
    SIMDEX_RETURN_IF_ERROR(Find(distinct, p.a, "near pair", &a));
    SIMDEX_RETURN_IF_ERROR(Find(distinct, p.b, "near pair", &b));
    out->push_back({std::min(a, b), std::max(a, b), static_cast<uint32_t>(d)});
  }
  return Status::OK();
}

Status ToAgainstHits(std::span<const uint64_t> distinct, std::span<const NearestEntry> matches, int k,
                     std::vector<AgainstHit>* out) {
  out->clear();
  for (const NearestEntry& m : matches) {
    if (m.distance < 0 || m.distance > k) {
      return Status::InvalidArgument("index match of fingerprint " + FormatHexFingerprint(m.fingerprint) +
                                     " has distance " + std::to_string(m.distance) + ", outside 0.." +
                                     std::to_string(k));
    }
    uint32_t d = 0;
    SIMDEX_RETURN_IF_ERROR(Find(distinct, m.fingerprint, "index match", &d));
    out->push_back({d, static_cast<uint32_t>(m.distance), m.id});
  }
  std::sort(out->begin(), out->end(), [](const AgainstHit& x, const AgainstHit& y) { return x.distinct < y.distinct; });
  for (size_t i = 1; i < out->size(); ++i) {
    if ((*out)[i].distinct == (*out)[i - 1].distinct) {
      return Status::InvalidArgument("index matches name fingerprint " +
                                     FormatHexFingerprint(distinct[(*out)[i].distinct]) + " twice");
    }
  }
  return Status::OK();
}

}  // namespace simdex::dedup
