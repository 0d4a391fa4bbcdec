// The C interface of include/simdex/simdex_c.h for MinHash-LSH
// de-duplication of documents, over DeduplicateByMinHash
// (include/simdex/batch.h), the code `simdex dedup` runs: options with the
// library's defaults, and the records, pairs and figures of MinHash; the
// texts and files in and the rest of the result are the shared parts of
// engine/capi/c_api_dedup.h.
#include <cstddef>
#include <cstdint>

#include "engine/capi/c_api_dedup.h"
#include "engine/capi/c_api_internal.h"
#include "simdex/batch.h"
#include "simdex/simdex_c.h"
#include "simdex/status.h"

struct simdex_minhash_dedup_result
    : simdex::capi::DedupHandle<simdex::MinHashDedupResult, simdex_minhash_dedup_pair> {};

namespace {

using simdex::Status;

static_assert(sizeof(void*) != 8 || sizeof(simdex_minhash_dedup_options) == 152,
              "simdex_minhash_dedup_options is documented as 152 bytes on 64-bit systems");
static_assert(sizeof(simdex_minhash_dedup_record) == 32 && offsetof(simdex_minhash_dedup_record, duplicate) == 28,
              "simdex_minhash_dedup_record is documented as 32 bytes without implicit padding");
static_assert(sizeof(simdex_minhash_dedup_pair) == 24, "simdex_minhash_dedup_pair is documented as 24 bytes");
static_assert(sizeof(simdex_minhash_dedup_info) == 160, "simdex_minhash_dedup_info is documented as 160 bytes");

// The C++ options of the C ones; InvalidArgument naming the first field
// that has no C++ meaning (the C++ checks come in the run).
void ToOptions(const simdex_minhash_dedup_options& c, simdex::MinHashDedupOptions* o) {
  simdex::capi::CheckReserved(0, c.reserved, "simdex_minhash_dedup_options");
  simdex::capi::RequireIn(c.shingles, SIMDEX_SHINGLES_AUTO, SIMDEX_SHINGLES_SPACE_SPLIT, "shingles",
                          "SIMDEX_SHINGLES_");
  if (c.shingles != SIMDEX_SHINGLES_AUTO) {
    o->shingle_words = c.shingles == SIMDEX_SHINGLES_WORD_CHARS ? simdex::ShingleWords::kWordChars
                                                                : simdex::ShingleWords::kSpaceSplit;
  }
  simdex::capi::ToSharedOptions(c, o);
  o->threshold = c.threshold;
  o->exact = c.exact != 0;
  o->num_perm = c.num_perm;
  o->seed = c.seed;
  o->bands = simdex::LshBands{c.bands, c.rows};
  o->signature_bits = c.signature_bits;
  o->estimate_filter = c.estimate_filter;
  simdex::capi::AgainstReaders(c.against, c.against_count, &o->against,
                               [](const simdex_lsh_index* idx) { return idx->reader.get(); });
}

// Runs DeduplicateByMinHash on texts and scores, or files (c_api_dedup.h's
// DedupTexts, DedupFiles), with the C options converted.
struct Run {
  template <typename... Documents>
  Status operator()(const simdex_minhash_dedup_options& c, simdex_minhash_dedup_result* h,
                    const Documents&... documents) const {
    simdex::MinHashDedupOptions o;
    ToOptions(c, &o);
    return simdex::DeduplicateByMinHash(documents..., o, nullptr, &h->result);
  }
};

}  // namespace

extern "C" {

void simdex_minhash_dedup_options_init(simdex_minhash_dedup_options* c) {
  if (c == nullptr) return;
  const simdex::MinHashDedupOptions o;
  *c = simdex_minhash_dedup_options{};
  c->threshold = o.threshold;
  c->estimate_filter = o.estimate_filter;
  c->seed = o.seed;
  c->exact = o.exact ? 1 : 0;
  c->num_perm = o.num_perm;
  c->bands = o.bands.bands;
  c->rows = o.bands.rows;
  c->signature_bits = o.signature_bits;
  simdex::capi::InitSharedOptions(o, c);
  c->shingles = SIMDEX_SHINGLES_AUTO;  // o.shingle_words is unset
}

simdex_code simdex_minhash_dedup_records(const simdex_minhash_dedup_result* r, uint64_t first, size_t count,
                                         simdex_minhash_dedup_record* out) {
  return simdex::capi::DedupRecords(r, first, count, out,
                                    [](const simdex::MinHashDedupRecord& m, simdex_minhash_dedup_record* c) {
                                      c->estimate = m.estimate;
                                      c->against_estimate = m.against_index >= 0 ? m.against_estimate : 0;
                                    });
}

simdex_code simdex_minhash_dedup_stats(const simdex_minhash_dedup_result* r, simdex_minhash_dedup_info* out) {
  if (r == nullptr || out == nullptr) return SIMDEX_INVALID_ARGUMENT;
  const simdex::MinHashDedupStats& s = r->result->stats();
  *out = simdex_minhash_dedup_info{};
  out->documents = s.documents;
  out->empty = s.empty;
  out->skipped = r->result->skipped();
  out->distinct_signatures = s.distinct_signatures;
  out->candidates = s.candidates;
  out->kept = s.kept;
  out->document_pairs = s.document_pairs;
  out->confirm_candidates = s.confirm.candidates;
  out->confirmed = s.confirm.confirmed;
  out->clusters = s.clusters;
  out->clustered_documents = s.clustered_documents;
  out->against_duplicates = s.against_duplicates;
  out->bytes_spilled = s.bytes_spilled;
  out->estimate_filter = s.estimate_filter;
  out->bands = s.bands.bands;
  out->rows = s.bands.rows;
  return SIMDEX_OK;
}

simdex_code simdex_minhash_dedup_pairs(simdex_minhash_dedup_result* r, const simdex_minhash_dedup_pair** pairs,
                                       size_t* count, char** errmsg) {
  return simdex::capi::DedupPairs("simdex_minhash_dedup_pairs", r, pairs, count, errmsg,
                                  [](const simdex::MinHashDedupPair& p) {
                                    return simdex_minhash_dedup_pair{p.a, p.b, p.estimate, p.similarity};
                                  });
}

SIMDEX_CAPI_DEDUP_RESULT_CALLS(minhash)

}  // extern "C"
