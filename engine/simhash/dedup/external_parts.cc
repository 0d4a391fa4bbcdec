#include "engine/simhash/dedup/external_parts.h"

#include <algorithm>
#include <bit>
#include <string>

#include "engine/util/large_memory.h"
#include "engine/util/radix_sort.h"
#include "simdex/fingerprint.h"

namespace simdex::simhash {

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

// The distinct numbers of many fingerprints at once: lookups[i] is
// (fingerprint, slot); numbers[slot] receives its number. The lookups are
// sorted and answered by one forward walk of `distinct` that gallops over
// the fingerprints no lookup asks for: a binary search per lookup missed the
// cache at most of its ~24 steps at 10^7 distinct fingerprints.
Status NumberAll(std::span<const uint64_t> distinct, util::LargeVector<util::FingerprintIdPair>* lookups,
                 const char* what, uint32_t* numbers) {
  {
    util::LargeArray<util::FingerprintIdPair> scratch = util::MakeLargeArray<util::FingerprintIdPair>(lookups->size());
    if (scratch == nullptr) {
      return Status::IOError("cannot allocate " + std::to_string(lookups->size() * 16) + " bytes to sort " + what +
                             " fingerprints");
    }
    util::RadixSort(lookups->data(), scratch.get(), lookups->size(), 1);
  }
  size_t at = 0;
  for (const util::FingerprintIdPair& x : *lookups) {
    if (at < distinct.size() && distinct[at] < x.fingerprint) {
      size_t step = 1;
      while (at + step < distinct.size() && distinct[at + step] < x.fingerprint) {
        at += step;
        step *= 2;
      }
      at = std::lower_bound(distinct.begin() + at + 1, distinct.begin() + std::min(at + step, distinct.size()),
                            x.fingerprint) - distinct.begin();
    }
    if (at == distinct.size() || distinct[at] != x.fingerprint) {
      return Status::InvalidArgument(std::string(what) + " fingerprint " + FormatHexFingerprint(x.fingerprint) +
                                     " is not in the batch");
    }
    numbers[x.id] = static_cast<uint32_t>(at);
  }
  return Status::OK();
}

}  // namespace

Status ToDistinctPairs(std::span<const uint64_t> distinct, std::span<const NearPair> pairs, int k,
                       std::vector<DistinctPair>* out) {
  util::LargeVector<util::FingerprintIdPair> lookups;
  lookups.reserve(2 * pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    const NearPair& p = pairs[i];
    const int d = std::popcount(p.a ^ p.b);
    if (p.a == p.b || d != p.distance || d > k) {
      return Status::InvalidArgument("near pair " + FormatHexFingerprint(p.a) + " " + FormatHexFingerprint(p.b) +
                                     " with distance " + std::to_string(p.distance) +
                                     " is not two distinct fingerprints at that distance within k " +
                                     std::to_string(k));
    }
    lookups.push_back({p.a, 2 * i});
    lookups.push_back({p.b, 2 * i + 1});
  }
  util::LargeVector<uint32_t> numbers(lookups.size());
  SIMDEX_RETURN_IF_ERROR(NumberAll(distinct, &lookups, "near pair", numbers.data()));
  out->reserve(out->size() + pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    const uint32_t a = numbers[2 * i], b = numbers[2 * i + 1];
    out->push_back({std::min(a, b), std::max(a, b), static_cast<uint32_t>(pairs[i].distance)});
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

}  // namespace simdex::simhash
