// The C interface of include/simdex/simdex_c.h for SimHash indexes, over
// ReloadingIndex (each call works on the version serving when it starts,
// Current()), and what every handle shares (codes, kinds, strings).
// MinHash-LSH indexes: c_api_lsh.cc; de-duplication: c_api_minhash_dedup.cc
// (over c_api_dedup.h); the error protocol: c_api_internal.h.
#include "simdex/simdex_c.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/capi/c_api_internal.h"
#include "simdex/index.h"
#include "simdex/index_file.h"
#include "simdex/reloading_index.h"
#include "simdex/status.h"

struct simdex_results : simdex::capi::OffsetResults<simdex_match> {};

namespace {

using simdex::Status;
using simdex::capi::Check;
using simdex::capi::Guard;
using simdex::capi::Require;

static_assert(sizeof(simdex_match) == 24 && offsetof(simdex_match, distance) == 16,
              "simdex_match is documented as 24 bytes without implicit padding");
static_assert(SIMDEX_INVALID_ARGUMENT == static_cast<int>(Status::Code::kInvalidArgument) &&
              SIMDEX_CORRUPTION == static_cast<int>(Status::Code::kCorruption) &&
              SIMDEX_IO_ERROR == static_cast<int>(Status::Code::kIOError) &&
              SIMDEX_NOT_FOUND == static_cast<int>(Status::Code::kNotFound) &&
              SIMDEX_NOT_SUPPORTED == static_cast<int>(Status::Code::kNotSupported),
              "simdex_code values 1..5 are those of Status::Code");

static_assert(SIMDEX_KIND_SIMHASH == static_cast<int>(simdex::IndexKind::kSimHash) &&
                  SIMDEX_KIND_MINHASH_LSH == static_cast<int>(simdex::IndexKind::kMinHashLsh),
              "simdex_index_kind's values are the file header's kind byte");

simdex_match ToC(const simdex::Match& m) {
  return simdex_match{m.id, m.fingerprint, static_cast<int32_t>(m.distance), 0};
}

}  // namespace

namespace simdex::capi {

Status PointToOpener(Status s, const char* path, IndexKind wanted) {
  IndexKind kind;
  if (!s.IsInvalidArgument() || !ReadIndexKind(path, &kind).ok() || kind == wanted) return s;
  const char* opener = kind == IndexKind::kSimHash      ? "simdex_index_open"
                       : kind == IndexKind::kMinHashLsh ? "simdex_lsh_index_open"
                                                        : nullptr;
  return opener == nullptr ? s : Status::InvalidArgument(s.message() + " (" + opener + " opens it)");
}

std::vector<std::string_view> TextViews(const char* const* texts, const size_t* lengths, size_t n) {
  std::vector<std::string_view> views(n);
  for (size_t i = 0; i < n; ++i) {
    const size_t size = lengths == nullptr ? (texts[i] == nullptr ? 1 : std::strlen(texts[i])) : lengths[i];
    if (texts[i] == nullptr && size > 0) Invalid("texts[" + std::to_string(i) + "] is NULL");
    views[i] = std::string_view(texts[i] == nullptr ? "" : texts[i], size);
  }
  return views;
}

// The C values of ReaderOptions' enums are their C++ values
// (SIMDEX_ACCESS_*, SIMDEX_COLD_READS_*); the names are the library's
// (ParseAccess, ParseColdReads).
static_assert(SIMDEX_ACCESS_AUTO == static_cast<int>(ReaderOptions::Access::kAuto) &&
              SIMDEX_ACCESS_READ_AROUND == static_cast<int>(ReaderOptions::Access::kReadAround) &&
              SIMDEX_ACCESS_RANDOM == static_cast<int>(ReaderOptions::Access::kRandom));
static_assert(SIMDEX_COLD_READS_WHEN_MISSING == static_cast<int>(ReaderOptions::ColdReads::kWhenMissing) &&
              SIMDEX_COLD_READS_ALWAYS == static_cast<int>(ReaderOptions::ColdReads::kAlways) &&
              SIMDEX_COLD_READS_NEVER == static_cast<int>(ReaderOptions::ColdReads::kNever));

ReaderOptions ToReaderOptions(const char* call, const simdex_open_options* c) {
  ReaderOptions out;
  if (c == nullptr) return out;
  const std::string what = std::string(call) + ": simdex_open_options";
  CheckReserved(0, c->reserved, what);
  if (c->access < SIMDEX_ACCESS_AUTO || c->access > SIMDEX_ACCESS_RANDOM) {
    Invalid(what + ": access " + std::to_string(c->access) +
            " is not one of SIMDEX_ACCESS_AUTO (0), SIMDEX_ACCESS_READ_AROUND (1), SIMDEX_ACCESS_RANDOM (2)");
  }
  if (c->cold_reads < SIMDEX_COLD_READS_WHEN_MISSING || c->cold_reads > SIMDEX_COLD_READS_NEVER) {
    Invalid(what + ": cold_reads " + std::to_string(c->cold_reads) +
            " is not one of SIMDEX_COLD_READS_WHEN_MISSING (0), SIMDEX_COLD_READS_ALWAYS (1), "
            "SIMDEX_COLD_READS_NEVER (2)");
  }
  out.verify_block_checksums = c->verify_block_checksums != 0;
  out.verify_heads_on_open = c->verify_heads_on_open != 0;
  out.access = static_cast<ReaderOptions::Access>(c->access);
  out.cold_reads = static_cast<ReaderOptions::ColdReads>(c->cold_reads);
  return out;
}

}  // namespace simdex::capi

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

static const auto kOpenIndex = [](simdex_index* idx, const char* path, const simdex::ReaderOptions& reader) {
  simdex::ReloadOptions options;
  options.reader = reader;
  idx->path = path;
  return simdex::capi::PointToOpener(simdex::ReloadingIndex::Open(path, options, &idx->index), path,
                                     simdex::IndexKind::kSimHash);
};

SIMDEX_CAPI_OPENERS(index, kOpenIndex)

void simdex_open_options_init(simdex_open_options* options) {
  if (options == nullptr) return;
  const simdex::ReaderOptions o;
  *options = simdex_open_options{};
  options->verify_block_checksums = o.verify_block_checksums ? 1 : 0;
  options->verify_heads_on_open = o.verify_heads_on_open ? 1 : 0;
  options->access = static_cast<int32_t>(o.access);
  options->cold_reads = static_cast<int32_t>(o.cold_reads);
}

void simdex_index_close(simdex_index* idx) { delete idx; }

simdex_code simdex_index_reload(simdex_index* idx, int* switched, char** errmsg) {
  if (switched != nullptr) *switched = 0;
  return Guard(errmsg, [&] {
    Require(idx != nullptr, "simdex_index_reload: idx must not be NULL");
    bool did = false;
    Status s = idx->index->Reload(&did);
    if (switched != nullptr) *switched = did ? 1 : 0;
    return s;
  });
}

uint64_t simdex_index_version(const simdex_index* idx) { return idx == nullptr ? 0 : idx->index->version(); }

simdex_code simdex_index_search(const simdex_index* idx, uint64_t query, int k, simdex_match* out,
                                size_t capacity, size_t* count, char** errmsg) {
  if (count != nullptr) *count = 0;
  return Guard(errmsg, [&] {
    Require(idx != nullptr && count != nullptr && (out != nullptr || capacity == 0),
            "simdex_index_search: idx and count must not be NULL, nor out when capacity > 0");
    std::vector<simdex::Match> matches;
    Check(idx->index->Current()->Search(query, k, &matches));
    std::transform(matches.begin(), matches.begin() + std::min(capacity, matches.size()), out, ToC);
    *count = matches.size();
  });
}

simdex_code simdex_index_search_batch(const simdex_index* idx, const uint64_t* queries, size_t nq,
                                      int k, int threads, simdex_results** out, char** errmsg) {
  if (out != nullptr) *out = nullptr;
  return Guard(errmsg, [&] {
    Require(idx != nullptr && out != nullptr && (queries != nullptr || nq == 0) && threads >= 1,
            "simdex_index_search_batch: idx and out must not be NULL, nor queries when nq > 0; "
            "threads must be at least 1");
    simdex::SearchResults found;
    Check(idx->index->Current()->Search(std::span<const uint64_t>(queries, nq), k, &found, threads));
    *out = simdex::capi::NewResults<simdex_results>(&found, ToC).release();
  });
}

SIMDEX_CAPI_RESULTS(results, simdex_match)

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
  });
}

char* simdex_index_profile(const simdex_index* idx) {
  if (idx == nullptr) return nullptr;
  try {
    const std::string profile = idx->file()->profile();
    return profile.empty() ? nullptr : simdex::capi::CopyString(profile);
  } catch (...) {  // std::bad_alloc: no exception crosses the C boundary
    return nullptr;
  }
}

SIMDEX_CAPI_STRING_IDS(index)

simdex_code simdex_index_kind(const char* path, int* kind, char** errmsg) {
  if (kind != nullptr) *kind = -1;
  return Guard(errmsg, [&] {
    Require(path != nullptr && kind != nullptr, "simdex_index_kind: path and kind must not be NULL");
    simdex::IndexKind k;
    Check(simdex::ReadIndexKind(path, &k));
    *kind = static_cast<int>(k);  // the C values are the header's (static_asserts above)
  });
}

void simdex_free_string(char* str) { std::free(str); }

}  // extern "C"
