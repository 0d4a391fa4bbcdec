// The C interface of include/simdex/simdex_c.h for SimHash de-duplication
// of documents, over DeduplicateBySimHash (include/simdex/batch.h), the
// code `simdex dedup --method simhash` runs: options with the library's
// defaults, and the records, pairs and figures of SimHash; the texts and
// files in and the rest of the result are the shared parts of
// engine/capi/c_api_dedup.h.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/capi/c_api_dedup.h"
#include "engine/capi/c_api_internal.h"
#include "simdex/batch.h"
#include "simdex/fingerprint.h"
#include "simdex/simdex_c.h"
#include "simdex/status.h"

struct simdex_simhash_dedup_result
    : simdex::capi::DedupHandle<simdex::SimHashDedupResult, simdex_simhash_dedup_pair> {};

namespace {

using simdex::Status;

static_assert(sizeof(void*) != 8 || sizeof(simdex_simhash_dedup_options) == 176,
              "simdex_simhash_dedup_options is documented as 176 bytes on 64-bit systems");
static_assert(sizeof(simdex_simhash_dedup_record) == 32 && offsetof(simdex_simhash_dedup_record, duplicate) == 28,
              "simdex_simhash_dedup_record is documented as 32 bytes without implicit padding");
static_assert(sizeof(simdex_simhash_dedup_pair) == 24, "simdex_simhash_dedup_pair is documented as 24 bytes");
static_assert(sizeof(simdex_simhash_dedup_info) == 128, "simdex_simhash_dedup_info is documented as 128 bytes");

// The C values of the library's enums, in their order.
constexpr simdex::Tokenizer kTokenizers[] = {simdex::Tokenizer::kWords, simdex::Tokenizer::kCharNgrams,
                                             simdex::Tokenizer::kWordNgrams};
constexpr simdex::Weighting kWeightings[] = {simdex::Weighting::kTermFrequency, simdex::Weighting::kBinary,
                                             simdex::Weighting::kLogTf, simdex::Weighting::kTfIdf,
                                             simdex::Weighting::kLogTfIdf};
constexpr simdex::AgainstStrategy kStrategies[] = {simdex::AgainstStrategy::kAuto, simdex::AgainstStrategy::kProbe,
                                                   simdex::AgainstStrategy::kMergeJoin};

// The C value of `value` in `values` (its place).
template <typename T, size_t N>
int32_t CValue(const T (&values)[N], T value) {
  return static_cast<int32_t>(std::find(values, values + N, value) - values);
}

// The C++ options of the C ones, the indexes held by h while its result
// lives; InvalidArgument naming the first field that has no C++ meaning
// (the C++ checks come in the run).
void ToOptions(const simdex_simhash_dedup_options& c, simdex::SimHashDedupOptions* o, simdex_simhash_dedup_result* h) {
  using simdex::capi::FromC;
  simdex::capi::CheckReserved(0, c.reserved, "simdex_simhash_dedup_options");
  simdex::FingerprintOptions& f = o->features;
  f.tokenizer = FromC(kTokenizers, c.tokenizer, "tokenizer", "SIMDEX_TOKENIZER_");
  f.weighting = FromC(kWeightings, c.weighting, "weighting", "SIMDEX_WEIGHTING_");
  o->against_strategy = FromC(kStrategies, c.against_strategy, "against_strategy", "SIMDEX_AGAINST_");
  simdex::capi::ToSharedOptions(c, o);
  f.ngram = c.ngram;
  f.normalize = c.normalize != 0;
  f.clean_text = c.clean_text != 0;
  f.cap_numbers = c.cap_numbers != 0;
  if (c.stop_words == 0) f.stop_words.clear();  // else the default lists
  f.seed = c.seed;
  o->learn_idf = c.learn_idf != 0;
  o->max_idf = c.max_idf;
  o->k = c.k;
  o->k_short = c.k_short;
  o->short_length = c.short_length;
  o->scheme = c.scheme == nullptr ? "" : c.scheme;
  // The file each index serves now, held by the result (its records read
  // the indexes' string ids).
  simdex::capi::AgainstReaders(c.against, c.against_count, &o->against, [h](const simdex_index* idx) {
    std::shared_ptr<const simdex::IndexReader> current = idx->file();
    h->against_held.push_back(current);
    return current.get();
  });
}

// Runs DeduplicateBySimHash on texts and scores, or files (c_api_dedup.h's
// DedupTexts, DedupFiles), with the C options converted.
struct Run {
  template <typename... Documents>
  Status operator()(const simdex_simhash_dedup_options& c, simdex_simhash_dedup_result* h,
                    const Documents&... documents) const {
    simdex::SimHashDedupOptions o;
    ToOptions(c, &o, h);
    return simdex::DeduplicateBySimHash(documents..., o, nullptr, &h->result);
  }
};

}  // namespace

extern "C" {

void simdex_simhash_dedup_options_init(simdex_simhash_dedup_options* c) {
  if (c == nullptr) return;
  const simdex::SimHashDedupOptions o;
  const simdex::FingerprintOptions& f = o.features;
  *c = simdex_simhash_dedup_options{};
  c->seed = f.seed;
  c->max_idf = o.max_idf;
  c->scheme = nullptr;  // o.scheme is "": t10, or one covering k
  c->k = o.k;
  c->k_short = o.k_short;
  c->short_length = o.short_length;
  c->tokenizer = CValue(kTokenizers, f.tokenizer);
  c->ngram = f.ngram;
  c->weighting = CValue(kWeightings, f.weighting);
  c->normalize = f.normalize ? 1 : 0;
  c->clean_text = f.clean_text ? 1 : 0;
  c->cap_numbers = f.cap_numbers ? 1 : 0;
  c->stop_words = f.stop_words.empty() ? 0 : 1;
  c->learn_idf = o.learn_idf ? 1 : 0;
  simdex::capi::InitSharedOptions(o, c);
  c->against_strategy = CValue(kStrategies, o.against_strategy);
}

simdex_code simdex_simhash_dedup_records(const simdex_simhash_dedup_result* r, uint64_t first, size_t count,
                                         simdex_simhash_dedup_record* out) {
  return simdex::capi::DedupRecords(r, first, count, out,
                                    [](const simdex::SimHashDedupRecord& m, simdex_simhash_dedup_record* c) {
                                      c->distance = m.distance;
                                      c->against_distance = m.against_index >= 0 ? m.against_distance : 0;
                                    });
}

simdex_code simdex_simhash_dedup_stats(const simdex_simhash_dedup_result* r, simdex_simhash_dedup_info* out) {
  if (r == nullptr || out == nullptr) return SIMDEX_INVALID_ARGUMENT;
  const simdex::SimHashDedupStats& s = r->result->stats();
  *out = simdex_simhash_dedup_info{};
  out->documents = s.join.documents;
  out->empty = s.join.empty;
  out->skipped = r->result->skipped();
  out->distinct_fingerprints = s.join.distinct_fingerprints;
  out->pairs = s.join.pairs;
  out->confirm_candidates = s.confirm.candidates;
  out->confirmed = s.confirm.confirmed;
  out->clusters = s.join.clusters;
  out->clustered_documents = s.join.clustered_documents;
  out->duplicates = s.duplicates;
  out->against_duplicates = s.join.against_matches;
  out->k = s.k;
  out->k_short = s.k_short;
  out->join_k = s.join_k;
  out->against_k = s.against_k;
  return SIMDEX_OK;
}

simdex_code simdex_simhash_dedup_pairs(simdex_simhash_dedup_result* r, const simdex_simhash_dedup_pair** pairs,
                                       size_t* count, char** errmsg) {
  return simdex::capi::DedupPairs("simdex_simhash_dedup_pairs", r, pairs, count, errmsg,
                                  [](const simdex::SimHashDedupPair& p) {
                                    return simdex_simhash_dedup_pair{p.a, p.b, p.distance, p.similarity};
                                  });
}

SIMDEX_CAPI_DEDUP_RESULT_CALLS(simhash)

}  // extern "C"
