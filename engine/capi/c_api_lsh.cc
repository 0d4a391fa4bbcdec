// The C interface of include/simdex/simdex_c.h for MinHash-LSH indexes,
// over LshIndexReader: open, query (one signature, or batches of
// signatures or texts in offset-array form; with query-time thresholds and
// top-k), statistics, string ids.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/capi/c_api_internal.h"
#include "simdex/lsh_index.h"
#include "simdex/minhash.h"
#include "simdex/simdex_c.h"
#include "simdex/status.h"

struct simdex_lsh_results : simdex::capi::OffsetResults<simdex_lsh_match> {
  std::vector<double> thresholds;  // beside matches, when the query had thresholds
};

namespace {

using simdex::Status;
using simdex::capi::Check;
using simdex::capi::CopyString;
using simdex::capi::Guard;
using simdex::capi::Require;

static_assert(sizeof(simdex_lsh_match) == 16, "simdex_lsh_match is documented as 16 bytes without padding");
static_assert(sizeof(void*) != 8 || sizeof(simdex_lsh_query_options) == 56,
              "simdex_lsh_query_options is documented as 56 bytes on 64-bit systems");

// The queries' check of the signature's length: the index's num_perm
// values.
void CheckNumPerm(const simdex_lsh_index& idx, size_t num_perm) {
  const int index_perm = idx.reader->minhash_options().num_perm;
  if (num_perm != static_cast<size_t>(index_perm)) {
    simdex::capi::Invalid("the signature has " + std::to_string(num_perm) + " values where the index's have " +
                          std::to_string(index_perm));
  }
}

// The C++ options of the C ones (NULL: the defaults), checked against the
// index (LshIndexReader::ValidateQuery) so that a bad option fails before
// any query runs.
simdex::LshQueryOptions ToQueryOptions(const simdex_lsh_index& idx, const simdex_lsh_query_options* c) {
  simdex::LshQueryOptions o;
  if (c != nullptr) {
    simdex::capi::CheckReserved(0, c->reserved, "simdex_lsh_query_options");
    Require(c->thresholds != nullptr || c->threshold_count == 0, "thresholds is NULL with threshold_count > 0");
    o.min_estimate = c->min_estimate < 0 ? -1 : c->min_estimate;
    o.thresholds.assign(c->thresholds, c->thresholds + c->threshold_count);
    o.top_k = c->top_k;
  }
  Check(idx.reader->ValidateQuery(o));
  return o;
}

// The options of the calls that take a filter alone (min_estimate).
simdex_lsh_query_options FilterOnly(double min_estimate) {
  simdex_lsh_query_options c;
  simdex_lsh_query_options_init(&c);
  c.min_estimate = min_estimate;
  return c;
}

// The frame of the batch queries: *out cleared; idx and out not NULL, the
// queries not NULL when there are any (queries_null; the message names the
// call and queries_name), threads >= 1; then query(&found) runs the batch
// and returns the options it ran with, and *out becomes a new
// simdex_lsh_results of what it found, with the thresholds the matches
// pass when the query had some.
template <typename Query>
simdex_code QueryBatch(const char* call, const simdex_lsh_index* idx, bool queries_null, const char* queries_name,
                       size_t nq, int threads, simdex_lsh_results** out, char** errmsg, Query&& query) {
  if (out != nullptr) *out = nullptr;
  return Guard(errmsg, [&] {
    Require(idx != nullptr && out != nullptr && (!queries_null || nq == 0) && threads >= 1, call,
            ": idx and out must not be NULL, nor ", queries_name, " when nq > 0; threads must be at least 1");
    simdex::LshQueryResults found;
    const simdex::LshQueryOptions options = query(&found);
    auto results = simdex::capi::NewResults<simdex_lsh_results>(
        &found, [](const simdex::LshMatch& m) { return simdex_lsh_match{m.id, m.estimate}; });
    if (!options.thresholds.empty()) {
      results->thresholds.resize(found.matches.size());
      std::transform(found.matches.begin(), found.matches.end(), results->thresholds.begin(),
                     [](const simdex::LshMatch& m) { return m.threshold; });
    }
    *out = results.release();
  });
}

}  // namespace

extern "C" {

static const auto kOpenLshIndex = [](simdex_lsh_index* idx, const char* path, const simdex::ReaderOptions& options) {
  idx->path = path;
  return simdex::capi::PointToOpener(simdex::LshIndexReader::Open(path, options, &idx->reader), path,
                                     simdex::IndexKind::kMinHashLsh);
};

SIMDEX_CAPI_OPENERS(lsh_index, kOpenLshIndex)

void simdex_lsh_index_close(simdex_lsh_index* idx) { delete idx; }

void simdex_lsh_query_options_init(simdex_lsh_query_options* c) {
  if (c == nullptr) return;
  const simdex::LshQueryOptions o;
  *c = simdex_lsh_query_options{};
  c->min_estimate = o.min_estimate;
  c->thresholds = nullptr;  // o.thresholds is empty
  c->threshold_count = o.thresholds.size();
  c->top_k = o.top_k;
}

simdex_code simdex_lsh_index_query_with_options(const simdex_lsh_index* idx, const uint32_t* signature,
                                                size_t num_perm, const simdex_lsh_query_options* options,
                                                simdex_lsh_match* out, double* thresholds_out, size_t capacity,
                                                size_t* count, char** errmsg) {
  if (count != nullptr) *count = 0;
  return Guard(errmsg, [&] {
    Require(idx != nullptr && signature != nullptr && count != nullptr && (out != nullptr || capacity == 0),
            "simdex_lsh_index_query: idx, signature and count must not be NULL, nor out when capacity > 0");
    CheckNumPerm(*idx, num_perm);
    std::vector<simdex::LshMatch> matches;
    Check(idx->reader->Query(signature, ToQueryOptions(*idx, options), &matches));
    for (size_t i = 0; i < std::min(capacity, matches.size()); ++i) {
      out[i] = {matches[i].id, matches[i].estimate};
      if (thresholds_out != nullptr) thresholds_out[i] = matches[i].threshold;
    }
    *count = matches.size();
  });
}

simdex_code simdex_lsh_index_query(const simdex_lsh_index* idx, const uint32_t* signature, size_t num_perm,
                                   double min_estimate, simdex_lsh_match* out, size_t capacity, size_t* count,
                                   char** errmsg) {
  const simdex_lsh_query_options options = FilterOnly(min_estimate);
  return simdex_lsh_index_query_with_options(idx, signature, num_perm, &options, out, nullptr, capacity, count,
                                             errmsg);
}

simdex_code simdex_lsh_index_query_batch_with_options(const simdex_lsh_index* idx, const uint32_t* signatures,
                                                      size_t nq, size_t num_perm,
                                                      const simdex_lsh_query_options* options, int threads,
                                                      simdex_lsh_results** out, char** errmsg) {
  return QueryBatch("simdex_lsh_index_query_batch", idx, signatures == nullptr, "signatures", nq, threads, out, errmsg,
                    [&](simdex::LshQueryResults* found) {
                      CheckNumPerm(*idx, num_perm);
                      simdex::LshQueryOptions o = ToQueryOptions(*idx, options);
                      Check(idx->reader->Query(std::span(signatures, nq * num_perm), o, found, threads));
                      return o;
                    });
}

simdex_code simdex_lsh_index_query_batch(const simdex_lsh_index* idx, const uint32_t* signatures, size_t nq,
                                         size_t num_perm, double min_estimate, int threads, simdex_lsh_results** out,
                                         char** errmsg) {
  const simdex_lsh_query_options options = FilterOnly(min_estimate);
  return simdex_lsh_index_query_batch_with_options(idx, signatures, nq, num_perm, &options, threads, out, errmsg);
}

simdex_code simdex_lsh_index_query_texts_with_options(const simdex_lsh_index* idx, const char* const* texts,
                                                      const size_t* lengths, size_t nq,
                                                      const simdex_lsh_query_options* options, int threads,
                                                      simdex_lsh_results** out, char** errmsg) {
  return QueryBatch("simdex_lsh_index_query_texts", idx, texts == nullptr, "texts", nq, threads, out, errmsg,
                    [&](simdex::LshQueryResults* found) {
                      simdex::LshQueryOptions o = ToQueryOptions(*idx, options);
                      Check(idx->reader->QueryTexts(simdex::capi::TextViews(texts, lengths, nq), o, found, threads));
                      return o;
                    });
}

simdex_code simdex_lsh_index_query_texts(const simdex_lsh_index* idx, const char* const* texts, const size_t* lengths,
                                         size_t nq, double min_estimate, int threads, simdex_lsh_results** out,
                                         char** errmsg) {
  const simdex_lsh_query_options options = FilterOnly(min_estimate);
  return simdex_lsh_index_query_texts_with_options(idx, texts, lengths, nq, &options, threads, out, errmsg);
}

SIMDEX_CAPI_RESULTS(lsh_results, simdex_lsh_match)
const double* simdex_lsh_results_thresholds(const simdex_lsh_results* results) {
  return results == nullptr || results->thresholds.empty() ? nullptr : results->thresholds.data();
}

simdex_code simdex_lsh_index_stats(const simdex_lsh_index* idx, simdex_lsh_index_info* out) {
  if (idx == nullptr || out == nullptr) return SIMDEX_INVALID_ARGUMENT;
  return Guard(nullptr, [&] {
    const simdex::LshIndexReader& r = *idx->reader;
    const simdex::MinHashOptions& minhash = r.minhash_options();
    const simdex::LshIndexInfo info = r.Info();
    out->documents = info.documents;
    out->banded_documents = info.banded;
    out->seed = minhash.seed;
    out->total_bytes = info.total_bytes;
    out->threshold = r.threshold();
    out->default_min_estimate = simdex::DefaultEstimateFilter(r.threshold(), minhash.num_perm);
    out->num_perm = minhash.num_perm;
    out->bands = r.bands().bands;
    out->rows = r.bands().rows;
    out->signature_bits = r.signature_bits();
  });
}

char* simdex_lsh_index_profile(const simdex_lsh_index* idx) {
  if (idx == nullptr) return nullptr;
  try {
    return CopyString(idx->reader->profile());
  } catch (...) {  // std::bad_alloc: no exception crosses the C boundary
    return nullptr;
  }
}

SIMDEX_CAPI_STRING_IDS(lsh_index)

}  // extern "C"
