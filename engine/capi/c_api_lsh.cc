// The C interface of include/simdex/simdex_c.h for MinHash-LSH indexes,
// over LshIndexReader: open, query (one signature, or batches of
// signatures or texts in offset-array form; with query-time thresholds and
// top-k), statistics, string ids.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
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
using simdex::capi::CopyString;
using simdex::capi::Fail;
using simdex::capi::FromStatus;
using simdex::capi::Guard;
using simdex::capi::Succeed;

static_assert(sizeof(simdex_lsh_match) == 16, "simdex_lsh_match is documented as 16 bytes without padding");
static_assert(sizeof(void*) != 8 || sizeof(simdex_lsh_query_options) == 56,
              "simdex_lsh_query_options is documented as 56 bytes on 64-bit systems");

// The queries' check of the signature's length: the index's num_perm
// values.
simdex_code CheckNumPerm(const simdex_lsh_index& idx, size_t num_perm, char** errmsg) {
  const int index_perm = idx.reader->minhash_options().num_perm;
  if (num_perm != static_cast<size_t>(index_perm)) {
    return Fail(SIMDEX_INVALID_ARGUMENT,
                "the signature has " + std::to_string(num_perm) + " values where the index's have " +
                    std::to_string(index_perm),
                errmsg);
  }
  return SIMDEX_OK;
}

// The batch queries' arguments: idx and out not NULL, the queries not NULL
// when there are any, threads >= 1. Sets *out to NULL first.
simdex_code CheckBatch(const char* call, const simdex_lsh_index* idx, const void* queries, const char* queries_name,
                       size_t nq, int threads, simdex_lsh_results** out, char** errmsg) {
  if (out != nullptr) *out = nullptr;
  if (idx == nullptr || out == nullptr || (queries == nullptr && nq > 0) || threads < 1) {
    return Fail(SIMDEX_INVALID_ARGUMENT,
                std::string(call) + ": idx and out must not be NULL, nor " + queries_name +
                    " when nq > 0; threads must be at least 1",
                errmsg);
  }
  return SIMDEX_OK;
}

// The C++ options of the C ones (NULL: the defaults), checked against the
// index (LshIndexReader::ValidateQuery) so that a bad option fails before
// any query runs.
simdex_code ToQueryOptions(const simdex_lsh_index& idx, const simdex_lsh_query_options* c,
                           simdex::LshQueryOptions* o, char** errmsg) {
  if (c != nullptr) {
    if (Status s = simdex::capi::CheckReserved(0, c->reserved, "simdex_lsh_query_options"); !s.ok()) {
      return FromStatus(s, errmsg);
    }
    if (c->thresholds == nullptr && c->threshold_count > 0) {
      return Fail(SIMDEX_INVALID_ARGUMENT, "thresholds is NULL with threshold_count > 0", errmsg);
    }
    o->min_estimate = c->min_estimate < 0 ? -1 : c->min_estimate;
    o->thresholds.assign(c->thresholds, c->thresholds + c->threshold_count);
    o->top_k = c->top_k;
  }
  return FromStatus(idx.reader->ValidateQuery(*o), errmsg);
}

// The options of the calls that take a filter alone (min_estimate).
simdex_lsh_query_options FilterOnly(double min_estimate) {
  simdex_lsh_query_options c;
  simdex_lsh_query_options_init(&c);
  c.min_estimate = min_estimate;
  return c;
}

// Stores a batch's results in *out as a new simdex_lsh_results, with the
// thresholds the matches pass when the query had some.
simdex_code Results(const Status& s, const simdex::LshQueryOptions& options, simdex::LshQueryResults* found,
                    simdex_lsh_results** out, char** errmsg) {
  if (!s.ok()) return FromStatus(s, errmsg);
  auto results = std::make_unique<simdex_lsh_results>();
  results->lims = std::move(found->lims);
  results->matches.resize(found->matches.size());
  std::transform(found->matches.begin(), found->matches.end(), results->matches.begin(),
                 [](const simdex::LshMatch& m) { return simdex_lsh_match{m.id, m.estimate}; });
  if (!options.thresholds.empty()) {
    results->thresholds.resize(found->matches.size());
    std::transform(found->matches.begin(), found->matches.end(), results->thresholds.begin(),
                   [](const simdex::LshMatch& m) { return m.threshold; });
  }
  *out = results.release();
  return Succeed(errmsg);
}

}  // namespace

extern "C" {

static const auto kOpenLshIndex = [](simdex_lsh_index* idx, const char* path, const simdex::ReaderOptions& options) {
  idx->path = path;
  return simdex::capi::PointToOpener(simdex::LshIndexReader::Open(path, options, &idx->reader), path,
                                     simdex::IndexKind::kMinHashLsh);
};

simdex_code simdex_lsh_index_open(const char* path, int verify_block_checksums, simdex_lsh_index** out,
                                  char** errmsg) {
  const simdex_open_options options = simdex::capi::VerifyOptions(verify_block_checksums);
  return simdex::capi::OpenHandle("simdex_lsh_index_open", path, &options, out, errmsg, kOpenLshIndex);
}

simdex_code simdex_lsh_index_open_with_options(const char* path, const simdex_open_options* options,
                                               simdex_lsh_index** out, char** errmsg) {
  return simdex::capi::OpenHandle("simdex_lsh_index_open_with_options", path, options, out, errmsg, kOpenLshIndex);
}

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
  if (idx == nullptr || signature == nullptr || count == nullptr || (out == nullptr && capacity > 0)) {
    return Fail(SIMDEX_INVALID_ARGUMENT,
                "simdex_lsh_index_query: idx, signature and count must not be NULL, nor out when capacity > 0",
                errmsg);
  }
  if (simdex_code bad = CheckNumPerm(*idx, num_perm, errmsg); bad != SIMDEX_OK) return bad;
  return Guard(errmsg, [&] {
    simdex::LshQueryOptions o;
    if (simdex_code bad = ToQueryOptions(*idx, options, &o, errmsg); bad != SIMDEX_OK) return bad;
    std::vector<simdex::LshMatch> matches;
    Status s = idx->reader->Query(signature, o, &matches);
    if (!s.ok()) return FromStatus(s, errmsg);
    for (size_t i = 0; i < std::min(capacity, matches.size()); ++i) {
      out[i] = {matches[i].id, matches[i].estimate};
      if (thresholds_out != nullptr) thresholds_out[i] = matches[i].threshold;
    }
    *count = matches.size();
    return Succeed(errmsg);
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
  if (simdex_code bad = CheckBatch("simdex_lsh_index_query_batch", idx, signatures, "signatures", nq, threads, out,
                                    errmsg);
      bad != SIMDEX_OK) {
    return bad;
  }
  if (simdex_code bad = CheckNumPerm(*idx, num_perm, errmsg); bad != SIMDEX_OK) return bad;
  return Guard(errmsg, [&] {
    simdex::LshQueryOptions o;
    if (simdex_code bad = ToQueryOptions(*idx, options, &o, errmsg); bad != SIMDEX_OK) return bad;
    simdex::LshQueryResults found;
    const Status s = idx->reader->Query(std::span<const uint32_t>(signatures, nq * num_perm), o, &found, threads);
    return Results(s, o, &found, out, errmsg);
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
  if (simdex_code bad = CheckBatch("simdex_lsh_index_query_texts", idx, texts, "texts", nq, threads, out, errmsg);
      bad != SIMDEX_OK) {
    return bad;
  }
  return Guard(errmsg, [&] {
    simdex::LshQueryOptions o;
    if (simdex_code bad = ToQueryOptions(*idx, options, &o, errmsg); bad != SIMDEX_OK) return bad;
    std::vector<std::string_view> views;
    if (simdex_code bad = simdex::capi::TextViews(texts, lengths, nq, &views, errmsg); bad != SIMDEX_OK) return bad;
    simdex::LshQueryResults found;
    const Status s = idx->reader->QueryTexts(views, o, &found, threads);
    return Results(s, o, &found, out, errmsg);
  });
}

simdex_code simdex_lsh_index_query_texts(const simdex_lsh_index* idx, const char* const* texts, const size_t* lengths,
                                         size_t nq, double min_estimate, int threads, simdex_lsh_results** out,
                                         char** errmsg) {
  const simdex_lsh_query_options options = FilterOnly(min_estimate);
  return simdex_lsh_index_query_texts_with_options(idx, texts, lengths, nq, &options, threads, out, errmsg);
}

size_t simdex_lsh_results_nq(const simdex_lsh_results* results) { return simdex::capi::NumQueries(results); }
const size_t* simdex_lsh_results_lims(const simdex_lsh_results* results) { return simdex::capi::Lims(results); }
const simdex_lsh_match* simdex_lsh_results_matches(const simdex_lsh_results* results) {
  return simdex::capi::Matches(results);
}
const double* simdex_lsh_results_thresholds(const simdex_lsh_results* results) {
  return results == nullptr || results->thresholds.empty() ? nullptr : results->thresholds.data();
}
void simdex_lsh_results_free(simdex_lsh_results* results) { delete results; }

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
    return SIMDEX_OK;
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

int simdex_lsh_index_has_string_ids(const simdex_lsh_index* idx) {
  return idx != nullptr && idx->reader->has_string_ids() ? 1 : 0;
}

static const auto kReader = [](const simdex_lsh_index& idx) { return idx.reader.get(); };

simdex_code simdex_lsh_index_id_string(const simdex_lsh_index* idx, uint64_t id, const char** data, size_t* size,
                                       char** errmsg) {
  return simdex::capi::IdStringOf("simdex_lsh_index_id_string", idx, kReader, id, data, size, errmsg);
}

simdex_code simdex_lsh_index_find_id(const simdex_lsh_index* idx, const char* data, size_t size, uint64_t* id,
                                     char** errmsg) {
  return simdex::capi::FindIdOf("simdex_lsh_index_find_id", idx, kReader, data, size, id, errmsg);
}

}  // extern "C"
