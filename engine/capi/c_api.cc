// The C interface of include/simdex/simdex_c.h over ReloadingIndex (SimHash
// indexes: each call works on the version serving when it starts,
// Current()) and LshIndexReader (MinHash-LSH indexes). Every entry
// point runs its body inside Guard(), so no C++ exception reaches a C caller;
// messages are malloc'ed so that any language's FFI can free them through
// simdex_free_string.
#include "simdex/simdex_c.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/index.h"
#include "simdex/lsh_index.h"
#include "simdex/minhash.h"
#include "simdex/reloading_index.h"
#include "simdex/status.h"

struct simdex_index {
  std::unique_ptr<simdex::ReloadingIndex> index;
};

struct simdex_lsh_index {
  std::unique_ptr<simdex::LshIndexReader> reader;
};

struct simdex_results {
  std::vector<size_t> lims;
  std::vector<simdex_match> matches;
};

namespace {

using simdex::Status;

static_assert(sizeof(simdex_match) == 24 && offsetof(simdex_match, distance) == 16,
              "simdex_match is documented as 24 bytes without implicit padding");
static_assert(SIMDEX_INVALID_ARGUMENT == static_cast<int>(Status::Code::kInvalidArgument) &&
              SIMDEX_CORRUPTION == static_cast<int>(Status::Code::kCorruption) &&
              SIMDEX_IO_ERROR == static_cast<int>(Status::Code::kIOError) &&
              SIMDEX_NOT_FOUND == static_cast<int>(Status::Code::kNotFound) &&
              SIMDEX_NOT_SUPPORTED == static_cast<int>(Status::Code::kNotSupported),
              "simdex_code values 1..5 are those of Status::Code");

// A malloc'ed copy of msg, or nullptr if malloc fails.
char* CopyString(std::string_view msg) {
  char* s = static_cast<char*>(std::malloc(msg.size() + 1));
  if (s != nullptr) {
    std::memcpy(s, msg.data(), msg.size());
    s[msg.size()] = '\0';
  }
  return s;
}

simdex_code Fail(simdex_code code, std::string_view msg, char** errmsg) {
  if (errmsg != nullptr) *errmsg = CopyString(msg);
  return code;
}

simdex_code Succeed(char** errmsg) {
  if (errmsg != nullptr) *errmsg = nullptr;
  return SIMDEX_OK;
}

simdex_code FromStatus(const Status& s, char** errmsg) {
  if (s.ok()) return Succeed(errmsg);
  return Fail(static_cast<simdex_code>(s.code()), s.message(), errmsg);
}

// Runs body, turning any exception into an error code and message.
template <typename Body>
simdex_code Guard(char** errmsg, Body&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Fail(SIMDEX_OUT_OF_MEMORY, "out of memory", errmsg);
  } catch (const std::exception& e) {
    return Fail(SIMDEX_INTERNAL, e.what(), errmsg);
  } catch (...) {
    return Fail(SIMDEX_INTERNAL, "unknown exception", errmsg);
  }
}

simdex_match ToC(const simdex::Match& m) {
  return simdex_match{m.id, m.fingerprint, static_cast<int32_t>(m.distance), 0};
}

static_assert(sizeof(simdex_lsh_match) == 16, "simdex_lsh_match is documented as 16 bytes without padding");

// `s`, with a pointer to the opener of the file's kind when the file is of
// the other kind than `wanted`.
Status PointToOpener(Status s, const char* path, simdex::IndexKind wanted) {
  simdex::IndexKind kind;
  if (!s.IsInvalidArgument() || !simdex::ReadIndexKind(path, &kind).ok() || kind == wanted) return s;
  return Status::InvalidArgument(s.message() + (kind == simdex::IndexKind::kMinHashLsh
                                                    ? " (simdex_lsh_index_open opens it)"
                                                    : " (simdex_index_open opens it)"));
}

// simdex_index_id_string and simdex_lsh_index_id_string over a reader of
// either kind (has_string_ids, IdStringCount, IdString).
template <typename Reader>
simdex_code IdStringOf(const Reader& reader, uint64_t id, const char** data, size_t* size, char** errmsg) {
  if (!reader.has_string_ids()) return Fail(SIMDEX_INVALID_ARGUMENT, "the index holds numeric ids, not string ids", errmsg);
  const uint64_t strings = reader.IdStringCount();
  if (id >= strings) {
    return Fail(SIMDEX_INVALID_ARGUMENT,
                "id " + std::to_string(id) + " is not a number of the id map (" + std::to_string(strings) +
                    " strings)",
                errmsg);
  }
  const std::string_view s = reader.IdString(id);
  *data = s.data();
  *size = s.size();
  return Succeed(errmsg);
}

}  // namespace

extern "C" {

const char* simdex_code_name(int code) {
  switch (code) {
    case SIMDEX_OK: return "OK";
    case SIMDEX_INVALID_ARGUMENT: return "InvalidArgument";
    case SIMDEX_CORRUPTION: return "Corruption";
    case SIMDEX_IO_ERROR: return "IOError";
    case SIMDEX_NOT_FOUND: return "NotFound";
    case SIMDEX_NOT_SUPPORTED: return "NotSupported";
    case SIMDEX_OUT_OF_MEMORY: return "OutOfMemory";
    case SIMDEX_INTERNAL: return "Internal";
    default: return "Unknown";
  }
}

simdex_code simdex_index_open(const char* path, int verify_block_checksums, simdex_index** out,
                              char** errmsg) {
  if (out != nullptr) *out = nullptr;
  if (path == nullptr || out == nullptr) {
    return Fail(SIMDEX_INVALID_ARGUMENT, "simdex_index_open: path and out must not be NULL", errmsg);
  }
  return Guard(errmsg, [&] {
    simdex::ReloadOptions options;
    options.reader.verify_block_checksums = verify_block_checksums != 0;
    auto idx = std::make_unique<simdex_index>();
    Status s = simdex::ReloadingIndex::Open(path, options, &idx->index);
    if (!s.ok()) return FromStatus(PointToOpener(s, path, simdex::IndexKind::kSimHash), errmsg);
    *out = idx.release();
    return Succeed(errmsg);
  });
}

void simdex_index_close(simdex_index* idx) { delete idx; }

simdex_code simdex_index_reload(simdex_index* idx, int* switched, char** errmsg) {
  if (switched != nullptr) *switched = 0;
  if (idx == nullptr) return Fail(SIMDEX_INVALID_ARGUMENT, "simdex_index_reload: idx must not be NULL", errmsg);
  return Guard(errmsg, [&] {
    bool did = false;
    Status s = idx->index->Reload(&did);
    if (switched != nullptr) *switched = did ? 1 : 0;
    return FromStatus(s, errmsg);
  });
}

uint64_t simdex_index_version(const simdex_index* idx) { return idx == nullptr ? 0 : idx->index->version(); }

simdex_code simdex_index_search(const simdex_index* idx, uint64_t query, int k, simdex_match* out,
                                size_t capacity, size_t* count, char** errmsg) {
  if (count != nullptr) *count = 0;
  if (idx == nullptr || count == nullptr || (out == nullptr && capacity > 0)) {
    return Fail(SIMDEX_INVALID_ARGUMENT,
                "simdex_index_search: idx and count must not be NULL, nor out when capacity > 0",
                errmsg);
  }
  return Guard(errmsg, [&] {
    std::vector<simdex::Match> matches;
    Status s = idx->index->Current()->Search(query, k, &matches);
    if (!s.ok()) return FromStatus(s, errmsg);
    std::transform(matches.begin(), matches.begin() + std::min(capacity, matches.size()), out, ToC);
    *count = matches.size();
    return Succeed(errmsg);
  });
}

simdex_code simdex_index_search_batch(const simdex_index* idx, const uint64_t* queries, size_t nq,
                                      int k, int threads, simdex_results** out, char** errmsg) {
  if (out != nullptr) *out = nullptr;
  if (idx == nullptr || out == nullptr || (queries == nullptr && nq > 0) || threads < 1) {
    return Fail(SIMDEX_INVALID_ARGUMENT,
                "simdex_index_search_batch: idx and out must not be NULL, nor queries when nq > 0; "
                "threads must be at least 1",
                errmsg);
  }
  return Guard(errmsg, [&] {
    simdex::SearchResults found;
    Status s = idx->index->Current()->Search(std::span<const uint64_t>(queries, nq), k, &found, threads);
    if (!s.ok()) return FromStatus(s, errmsg);
    auto results = std::make_unique<simdex_results>();
    results->lims = std::move(found.lims);
    results->matches.resize(found.matches.size());
    std::transform(found.matches.begin(), found.matches.end(), results->matches.begin(), ToC);
    *out = results.release();
    return Succeed(errmsg);
  });
}

size_t simdex_results_nq(const simdex_results* results) {
  return results == nullptr || results->lims.empty() ? 0 : results->lims.size() - 1;
}

const size_t* simdex_results_lims(const simdex_results* results) {
  return results == nullptr ? nullptr : results->lims.data();
}

const simdex_match* simdex_results_matches(const simdex_results* results) {
  return results == nullptr || results->matches.empty() ? nullptr : results->matches.data();
}

void simdex_results_free(simdex_results* results) { delete results; }

simdex_code simdex_index_stats(const simdex_index* idx, simdex_index_info* out) {
  if (idx == nullptr || out == nullptr) return SIMDEX_INVALID_ARGUMENT;
  return Guard(nullptr, [&] {
    const simdex::IndexInfo info = idx->index->Current()->Info();
    out->entries = info.entries;
    out->distinct_fingerprints = info.distinct_fingerprints;
    out->total_bytes = info.total_bytes;
    out->block_size = info.block_size;
    out->k = info.k;
    out->tables = static_cast<int32_t>(info.tables.size());
    out->blocks = static_cast<int32_t>(info.widths.size());
    return SIMDEX_OK;
  });
}

char* simdex_index_profile(const simdex_index* idx) {
  if (idx == nullptr) return nullptr;
  try {
    const std::string profile = idx->index->Current()->profile();
    return profile.empty() ? nullptr : CopyString(profile);
  } catch (...) {  // std::bad_alloc: no exception crosses the C boundary
    return nullptr;
  }
}

int simdex_index_has_string_ids(const simdex_index* idx) {
  return idx != nullptr && idx->index->Current()->has_string_ids() ? 1 : 0;
}

simdex_code simdex_index_id_string(const simdex_index* idx, uint64_t id, const char** data, size_t* size,
                                   char** errmsg) {
  if (data != nullptr) *data = nullptr;
  if (size != nullptr) *size = 0;
  if (idx == nullptr || data == nullptr || size == nullptr) {
    return Fail(SIMDEX_INVALID_ARGUMENT, "simdex_index_id_string: idx, data and size must not be NULL", errmsg);
  }
  return Guard(errmsg, [&] { return IdStringOf(*idx->index->Current(), id, data, size, errmsg); });
}

simdex_code simdex_index_find_id(const simdex_index* idx, const char* data, size_t size, uint64_t* id,
                                 char** errmsg) {
  if (id != nullptr) *id = 0;
  if (idx == nullptr || id == nullptr || (data == nullptr && size > 0)) {
    return Fail(SIMDEX_INVALID_ARGUMENT,
                "simdex_index_find_id: idx and id must not be NULL, nor data when size > 0", errmsg);
  }
  return Guard(errmsg, [&] {
    return FromStatus(idx->index->Current()->FindIdString(std::string_view(data == nullptr ? "" : data, size), id), errmsg);
  });
}

simdex_code simdex_index_kind(const char* path, int* kind, char** errmsg) {
  if (kind != nullptr) *kind = -1;
  if (path == nullptr || kind == nullptr) {
    return Fail(SIMDEX_INVALID_ARGUMENT, "simdex_index_kind: path and kind must not be NULL", errmsg);
  }
  return Guard(errmsg, [&] {
    simdex::IndexKind k;
    Status s = simdex::ReadIndexKind(path, &k);
    if (s.ok()) *kind = k == simdex::IndexKind::kMinHashLsh ? SIMDEX_KIND_MINHASH_LSH : SIMDEX_KIND_SIMHASH;
    return FromStatus(s, errmsg);
  });
}

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
  const int index_perm = idx->reader->minhash_options().num_perm;
  if (num_perm != static_cast<size_t>(index_perm)) {
    return Fail(SIMDEX_INVALID_ARGUMENT,
                "the signature has " + std::to_string(num_perm) + " values where the index's have " +
                    std::to_string(index_perm),
                errmsg);
  }
  if (!(min_estimate <= 1)) {
    return Fail(SIMDEX_INVALID_ARGUMENT, "min_estimate must be at most 1 (negative: the index's default)", errmsg);
  }
  return Guard(errmsg, [&] {
    simdex::LshQueryOptions options;
    options.min_estimate = min_estimate < 0 ? -1 : min_estimate;
    std::vector<simdex::LshMatch> matches;
    Status s = idx->reader->Query(signature, options, &matches);
    if (!s.ok()) return FromStatus(s, errmsg);
    for (size_t i = 0; i < std::min(capacity, matches.size()); ++i) out[i] = {matches[i].id, matches[i].estimate};
    *count = matches.size();
    return Succeed(errmsg);
  });
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

void simdex_free_string(char* str) { std::free(str); }

}  // extern "C"
