// The records the docId service keeps in its database, and their bytes.
//
// Column families (keys -> values):
//   articles     seq (8 bytes big-endian)  -> ArticleRecord: every answered article
//   article_ids  id JSON text              -> seq of the article that had it
//   urls         url bytes                 -> UrlRecord: the article that brought it, its docId
//   docs         doc seq (8 bytes BE)      -> DocRecord: a docId's fingerprints and representative
//   reps         doc seq (8 bytes BE)      -> the representative article's JSON
//   times        second + 2^63 (8 bytes BE)-> first seq of that second (Timeline)
//   meta         "manifest"                -> Manifest
//
// Values are little-endian fixed-width integers and doubles, and strings
// as a 32-bit length and the bytes. A docId is the seq of the article that
// made it, mixed (MixSeq); the docs key is that seq. Decoders take the
// whole value and fail on truncation and on leftover bytes.
#ifndef SIMDEX_ENGINE_SERVICE_RECORDS_H_
#define SIMDEX_ENGINE_SERVICE_RECORDS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/status.h"

namespace simdex::service {

// A bijection of 64-bit values (splitmix64: a step, then its finalizer)
// and its inverse: docId = MixSeq(seq).
uint64_t MixSeq(uint64_t seq);
uint64_t UnmixDocId(uint64_t doc_id);

// 8-byte big-endian keys, so that the database orders them numerically.
std::string SeqKey(uint64_t seq);
bool DecodeSeqKey(std::string_view key, uint64_t* seq);
std::string SecondKey(int64_t second);
bool DecodeSecondKey(std::string_view key, int64_t* second);

struct ArticleRecord {
  uint64_t doc_seq = 0;
  uint8_t reason = 0;  // FilterReason
  int8_t distance = 0;
  int64_t second = 0;
  std::string id_json;
  std::string url;
  // A content match by MinHash-LSH: its estimate of J (> 0; 0 otherwise,
  // and then not encoded).
  double similarity = 0;

  void EncodeTo(std::string* out) const;
  Status DecodeFrom(std::string_view in);
};

struct UrlRecord {
  uint64_t article_seq = 0;
  uint64_t doc_seq = 0;

  void EncodeTo(std::string* out) const;
  Status DecodeFrom(std::string_view in);
};

struct DocRecord {
  int64_t second = 0;
  bool has_title = false;
  bool has_content = false;
  bool has_rep = false;
  bool has_bands = false;  // a MinHash-LSH content entry (BandQuery::Encode)
  uint64_t title_fp = 0;
  uint64_t content_fp = 0;
  double score = 0;       // of the representative
  uint64_t rep_seq = 0;   // the representative's article seq
  std::string id_json;    // of the article that made the docId
  std::string bands;      // with has_bands: band keys, then the b-bit signature

  void EncodeTo(std::string* out) const;
  Status DecodeFrom(std::string_view in);
};

// FileRecord::field of the MinHash-LSH content files.
constexpr uint8_t kBandField = 2;

// One compressed index file of the service.
struct FileRecord {
  uint8_t field = 0;  // Field, or kBandField for a MinHash-LSH content file
  std::string name;   // in data_dir/index
  uint64_t min_seq = 0;
  uint64_t max_seq = 0;
  uint64_t entries = 0;
};

struct Manifest {
  // Entries of docs with seq < compacted_seq are in files; the others are
  // replayed into the delta at startup.
  uint64_t compacted_seq = 0;
  // Urls of articles with seq < url_pruned_seq have been pruned.
  uint64_t url_pruned_seq = 0;
  // Articles, their ids, docs and representatives with seq < retained_seq
  // have been deleted (ServiceOptions::retain_seconds); seqs below it are
  // never given out again.
  uint64_t retained_seq = 0;
  uint64_t next_file = 0;  // number for the next file name
  std::string content_scheme;
  std::string title_scheme;
  std::vector<FileRecord> files;
  // The fingerprint profile of every title and content fingerprint stored
  // (include/simdex/profile.h); "" in a state made before version 3.
  std::string profile;
  // How contents are matched (ContentMethod; SimHash in a state made
  // before version 4) and, for MinHash, the signatures' profile
  // (MinHashProfile), the bands and the bits of the b-bit signatures.
  uint8_t content_method = 0;
  std::string minhash_profile;
  uint32_t bands = 0;
  uint32_t rows = 0;
  uint8_t signature_bits = 0;

  void EncodeTo(std::string* out) const;
  Status DecodeFrom(std::string_view in);
};

// What the state has answered since it was created, kept beside the
// records so that GET /v1/stats gives it after a restart: articles
// answered (replays excluded) by FilterReason, and docIds made (imported
// ones included). Updated in the write batch of each decision.
struct Totals {
  uint64_t by_reason[4] = {};
  uint64_t docs = 0;

  uint64_t articles() const { return by_reason[0] + by_reason[1] + by_reason[2] + by_reason[3]; }
  void EncodeTo(std::string* out) const;
  Status DecodeFrom(std::string_view in);
};

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_RECORDS_H_
