// The C interface of include/simdex/simdex_c.h for MinHash-LSH indexes,
// over LshIndexReader: open, query (one signature, or batches of
// signatures or texts in offset-array form), statistics, string ids.
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

struct simdex_lsh_results : simdex::capi::OffsetResults<simdex_lsh_match> {};

namespace {

using simdex::Status;
using simdex::capi::CopyString;
using simdex::capi::Fail;
using simdex::capi::FromStatus;
using simdex::capi::Guard;
using simdex::capi::IdStringOf;
using simdex::capi::PointToOpener;
using simdex::capi::Succeed;

static_assert(sizeof(simdex_lsh_match) == 16, "simdex_lsh_match is documented as 16 bytes without padding");

// The queries' checks: signatures of the index's num_perm values, a filter
// of at most 1 (not NaN).
simdex_code CheckQuery(const simdex_lsh_index& idx, size_t num_perm, double min_estimate, char** errmsg) {
  const int index_perm = idx.reader->minhash_options().num_perm;
  if (num_perm != static_cast<size_t>(index_perm)) {
    return Fail(SIMDEX_INVALID_ARGUMENT,
                "the signature has " + std::to_string(num_perm) + " values where the index's have " +
                    std::to_string(index_perm),
                errmsg);
  }
  if (!(min_estimate <= 1)) {
    return Fail(SIMDEX_INVALID_ARGUMENT, "min_estimate must be at most 1 (negative: the index's default)", errmsg);
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

simdex::LshQueryOptions QueryOptions(double min_estimate) {
  simdex::LshQueryOptions options;
  options.min_estimate = min_estimate < 0 ? -1 : min_estimate;
  return options;
}

// Stores a batch's results in *out as a new simdex_lsh_results.
simdex_code Results(const Status& s, simdex::LshQueryResults* found, simdex_lsh_results** out, char** errmsg) {
  if (!s.ok()) return FromStatus(s, errmsg);
  auto results = std::make_unique<simdex_lsh_results>();
  results->lims = std::move(found->lims);
  results->matches.resize(found->matches.size());
  std::transform(found->matches.begin(), found->matches.end(), results->matches.begin(),
                 [](const simdex::LshMatch& m) { return simdex_lsh_match{m.id, m.estimate}; });
  *out = results.release();
  return Succeed(errmsg);
}

}  // namespace

extern "C" {

simdex_code simdex_lsh_index_open(const char* path, int verify_block_checksums, simdex_lsh_index** out,
                                  char** errmsg) {
  if (out != nullptr) *out = nullptr;
  if (path == nullptr || out == nullptr) {
    return Fail(SIMDEX_INVALID_ARGUMENT, "simdex_lsh_index_open: path and out must not be NULL", errmsg);
  }
  return Guard(errmsg, [&] {
    simdex::ReaderOptions options;
    options.verify_block_checksums = verify_block_checksums != 0;
    auto idx = std::make_unique<simdex_lsh_index>();
    idx->path = path;
    Status s = simdex::LshIndexReader::Open(path, options, &idx->reader);
    if (!s.ok()) return FromStatus(PointToOpener(s, path, simdex::IndexKind::kMinHashLsh), errmsg);
    *out = idx.release();
    return Succeed(errmsg);
  });
}

void simdex_lsh_index_close(simdex_lsh_index* idx) { delete idx; }

simdex_code simdex_lsh_index_query(const simdex_lsh_index* idx, const uint32_t* signature, size_t num_perm,
                                   double min_estimate, simdex_lsh_match* out, size_t capacity, size_t* count,
                                   char** errmsg) {
  if (count != nullptr) *count = 0;
  if (idx == nullptr || signature == nullptr || count == nullptr || (out == nullptr && capacity > 0)) {
    return Fail(SIMDEX_INVALID_ARGUMENT,
                "simdex_lsh_index_query: idx, signature and count must not be NULL, nor out when capacity > 0",
                errmsg);
  }
  if (simdex_code bad = CheckQuery(*idx, num_perm, min_estimate, errmsg); bad != SIMDEX_OK) return bad;
  return Guard(errmsg, [&] {
    std::vector<simdex::LshMatch> matches;
    Status s = idx->reader->Query(signature, QueryOptions(min_estimate), &matches);
    if (!s.ok()) return FromStatus(s, errmsg);
    for (size_t i = 0; i < std::min(capacity, matches.size()); ++i) out[i] = {matches[i].id, matches[i].estimate};
    *count = matches.size();
    return Succeed(errmsg);
  });
}

simdex_code simdex_lsh_index_query_batch(const simdex_lsh_index* idx, const uint32_t* signatures, size_t nq,
                                         size_t num_perm, double min_estimate, int threads, simdex_lsh_results** out,
                                         char** errmsg) {
  if (simdex_code bad = CheckBatch("simdex_lsh_index_query_batch", idx, signatures, "signatures", nq, threads, out,
                                    errmsg);
      bad != SIMDEX_OK) {
    return bad;
  }
  if (simdex_code bad = CheckQuery(*idx, num_perm, min_estimate, errmsg); bad != SIMDEX_OK) return bad;
  return Guard(errmsg, [&] {
    simdex::LshQueryResults found;
    const Status s = idx->reader->Query(std::span<const uint32_t>(signatures, nq * num_perm),
                                        QueryOptions(min_estimate), &found, threads);
    return Results(s, &found, out, errmsg);
  });
}

simdex_code simdex_lsh_index_query_texts(const simdex_lsh_index* idx, const char* const* texts, const size_t* lengths,
                                         size_t nq, double min_estimate, int threads, simdex_lsh_results** out,
                                         char** errmsg) {
  if (simdex_code bad = CheckBatch("simdex_lsh_index_query_texts", idx, texts, "texts", nq, threads, out, errmsg);
      bad != SIMDEX_OK) {
    return bad;
  }
  const size_t num_perm = static_cast<size_t>(idx->reader->minhash_options().num_perm);
  if (simdex_code bad = CheckQuery(*idx, num_perm, min_estimate, errmsg); bad != SIMDEX_OK) return bad;
  return Guard(errmsg, [&] {
    std::vector<std::string_view> views;
    if (simdex_code bad = simdex::capi::TextViews(texts, lengths, nq, &views, errmsg); bad != SIMDEX_OK) return bad;
    simdex::LshQueryResults found;
    const Status s = idx->reader->QueryTexts(views, QueryOptions(min_estimate), &found, threads);
    return Results(s, &found, out, errmsg);
  });
}

size_t simdex_lsh_results_nq(const simdex_lsh_results* results) { return simdex::capi::NumQueries(results); }
const size_t* simdex_lsh_results_lims(const simdex_lsh_results* results) { return simdex::capi::Lims(results); }
const simdex_lsh_match* simdex_lsh_results_matches(const simdex_lsh_results* results) {
  return simdex::capi::Matches(results);
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

simdex_code simdex_lsh_index_id_string(const simdex_lsh_index* idx, uint64_t id, const char** data, size_t* size,
                                       char** errmsg) {
  if (data != nullptr) *data = nullptr;
  if (size != nullptr) *size = 0;
  if (idx == nullptr || data == nullptr || size == nullptr) {
    return Fail(SIMDEX_INVALID_ARGUMENT, "simdex_lsh_index_id_string: idx, data and size must not be NULL", errmsg);
  }
  return Guard(errmsg, [&] { return IdStringOf(*idx->reader, id, data, size, errmsg); });
}

simdex_code simdex_lsh_index_find_id(const simdex_lsh_index* idx, const char* data, size_t size, uint64_t* id,
                                     char** errmsg) {
  if (id != nullptr) *id = 0;
  if (idx == nullptr || id == nullptr || (data == nullptr && size > 0)) {
    return Fail(SIMDEX_INVALID_ARGUMENT,
                "simdex_lsh_index_find_id: idx and id must not be NULL, nor data when size > 0", errmsg);
  }
  return Guard(errmsg, [&] {
    return FromStatus(idx->reader->FindIdString(std::string_view(data == nullptr ? "" : data, size), id), errmsg);
  });
}

}  // extern "C"
