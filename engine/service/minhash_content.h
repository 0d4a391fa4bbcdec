// The docId service's MinHash-LSH content stage (ServiceOptions::
// content_method kMinHash; docs/service.md, "MinHash content"): each
// content's signature, band keys and b-bit signature; the index of the
// docIds' contents (LSH index files, deltas being compacted, the live
// delta: OnlineBands); the pick of the match; the file work of its
// compaction (LshIndexBuilder, LshIndexMerger: compaction.h).
//
// A content's candidates are the docIds that share the key of at least one
// band with it; the match is the candidate with the highest b-bit estimate
// of J (EstimateJaccardPacked, as the files store signatures) that is at
// least the threshold, the oldest among equals. A content without shingles
// (empty or only white space: minhash.h's empty signature) is neither
// searched nor indexed, as a featureless SimHash content.
#ifndef SIMDEX_ENGINE_SERVICE_MINHASH_CONTENT_H_
#define SIMDEX_ENGINE_SERVICE_MINHASH_CONTENT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/service/index_parts.h"
#include "engine/service/online_bands.h"
#include "engine/service/records.h"
#include "simdex/lsh_index.h"
#include "simdex/minhash.h"
#include "simdex/status.h"

namespace simdex::service {

// The stage's settings, resolved (bands chosen, the state's where it has
// them).
struct BandSettings {
  MinHashOptions minhash;
  LshBands bands;
  int signature_bits = kDefaultSignatureBits;
  double threshold = kDefaultMinHashThreshold;

  size_t packed_bytes() const { return PackedSignatureBytes(minhash.num_perm, signature_bits); }
  // The bytes a DocRecord keeps of a content: the band keys (8 bytes
  // little-endian each), then the b-bit signature.
  size_t entry_bytes() const { return 8 * static_cast<size_t>(bands.bands) + packed_bytes(); }
};

// One content as the stage searches and indexes it.
struct BandQuery {
  bool has = false;                // false: no shingles (skips the stage)
  std::vector<uint32_t> signature;  // num_perm values (for the files' queries)
  std::vector<uint64_t> keys;       // per band
  std::vector<uint8_t> packed;      // b-bit

  // Signs `content` with `hasher` (settings' minhash options).
  void Make(const BandSettings& settings, MinHasher* hasher, std::string_view content);
  // The DocRecord bytes of it (BandSettings::entry_bytes()), and back;
  // Corruption when `bytes` is not entry_bytes() long.
  std::string Encode() const;
  Status Decode(const BandSettings& settings, std::string_view bytes);
};

// An LSH index file of the service, and what the manifest says of it.
struct BandFile {
  FileRecord record;
  std::unique_ptr<LshIndexReader> reader;
};
Status OpenBandFile(const std::string& dir, const FileRecord& record, std::shared_ptr<BandFile>* out);

// Counts of the stage's work, added to by searches.
struct BandWork {
  uint64_t candidates = 0;  // docIds sharing a band key with a content (per part searched)
  uint64_t estimates = 0;   // estimates of J computed for them
};

// Every MinHash-LSH content entry at one moment, published with the
// service's snapshot as FieldIndex is (engine/service/field_index.h).
struct BandIndex : IndexParts<BandFile, OnlineBands> {
  // Appends the candidates of q with seq >= min_seq from every part: all of
  // the deltas', and the files' whose estimate is at least min_estimate.
  // A damaged file is Corruption naming it.
  Status Search(const BandQuery& q, uint64_t min_seq, double min_estimate, std::vector<BandMatch>* out,
                BandWork* work) const;
};

// Whether a has a higher estimate than b, or as high and is older.
inline bool Likelier(const BandMatch& a, const BandMatch& b) {
  return a.estimate != b.estimate ? a.estimate > b.estimate : a.seq < b.seq;
}

// The match among `found`: the highest estimate >= threshold with seq >=
// cutoff, the oldest among equals; nullptr when none.
const BandMatch* BestBandMatch(const std::vector<BandMatch>& found, uint64_t cutoff, double threshold);

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_MINHASH_CONTENT_H_
