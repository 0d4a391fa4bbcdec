// What the C interface's de-duplication of both methods shares
// (c_api_minhash_dedup.cc over DeduplicateByMinHash, c_api_simhash_dedup.cc
// over DeduplicateBySimHash, include/simdex/batch.h): the result handle,
// the texts and files in, the keep rule, and the accessors that do not
// depend on the method (size, ids, records by range, pairs read once, the
// command's files). Each method's file adds its options, records, pairs and
// figures.
#ifndef SIMDEX_ENGINE_CAPI_C_API_DEDUP_H_
#define SIMDEX_ENGINE_CAPI_C_API_DEDUP_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/capi/c_api_internal.h"
#include "simdex/batch.h"
#include "simdex/simdex_c.h"
#include "simdex/status.h"

namespace simdex::capi {

// The state behind a result handle: the caller's texts, copied (the result
// reads them again to confirm pairs and write clusters, and an FFI
// caller's memory need not outlive the call), their scores, the paths the
// `against` indexes were opened with (the records name them) and what
// keeps the indexes open (a SimHash handle's file may be reloaded), the C++
// result, and its pairs once read: the result streams them once from its
// sorted spill, so the first simdex_*_dedup_pairs reads them into memory
// and keeps them for the caller to ask again. Members in this order so that
// the result, which reads the texts and the indexes, goes before them.
template <typename Result, typename CPair>
struct DedupHandle {
  using PairType = CPair;
  std::string texts;
  std::vector<std::string_view> views;
  std::vector<double> scores;
  std::vector<std::string> against_names;
  std::vector<std::shared_ptr<const void>> against_held;
  std::unique_ptr<Result> result;
  std::optional<std::vector<CPair>> pairs;
};

// The documents of a simdex_document_files; InvalidArgument naming the
// first field out of range or NULL.
void ToFiles(const simdex_document_files& c, DocumentFiles* f);

// The fields both methods' options have (keep, confirm, keep_pairs,
// allow_duplicate_ids, threads, memory_bytes, tmpdir), C to C++ (an
// InvalidArgument for a bad keep) and C++ defaults to C.
template <typename COptions, typename Options>
void ToSharedOptions(const COptions& c, Options* o) {
  constexpr KeepRule kRules[] = {KeepRule::kFirst, KeepRule::kLongest, KeepRule::kField};  // by SIMDEX_KEEP_*
  o->keep = FromC(kRules, c.keep, "keep", "SIMDEX_KEEP_");
  o->confirm = c.confirm == nullptr ? "" : c.confirm;
  o->keep_pairs = c.keep_pairs != 0;
  o->allow_duplicate_ids = c.allow_duplicate_ids != 0;
  o->threads = c.threads;
  o->memory_bytes = static_cast<size_t>(std::min<uint64_t>(c.memory_bytes, SIZE_MAX));
  o->tmpdir = c.tmpdir == nullptr ? "" : c.tmpdir;
}
template <typename Options, typename COptions>
void InitSharedOptions(const Options& o, COptions* c) {
  c->memory_bytes = o.memory_bytes;
  c->confirm = nullptr;  // o.confirm is "": MinHash's exact mode's check, SimHash's none
  c->tmpdir = nullptr;   // o.tmpdir is "": $TMPDIR, else /tmp
  c->keep = SIMDEX_KEEP_FIRST;
  c->keep_pairs = o.keep_pairs ? 1 : 0;
  c->allow_duplicate_ids = o.allow_duplicate_ids ? 1 : 0;
  c->threads = o.threads;
}

// Sets *out to the handle once run(c, handle) succeeded, with the names of
// the options' indexes.
template <typename Handle, typename COptions, typename Run>
void FinishDedup(const COptions& c, std::unique_ptr<Handle> handle, Handle** out, Run&& run) {
  Check(run(c, handle.get()));
  for (size_t i = 0; i < c.against_count; ++i) handle->against_names.push_back(c.against[i]->path);
  *out = handle.release();
}

// simdex_*_dedup_texts and simdex_*_dedup_files: the arguments checked,
// the texts copied into a new handle, then run(options, handle, documents)
// (the method's options converted and its de-duplication run on the texts
// and their scores, or on the DocumentFiles); on success the
// handle goes to the caller in *out, which is NULL otherwise. `call` names
// the entry point in messages.
template <typename Handle, typename COptions, typename Run>
simdex_code DedupTexts(const char* call, const char* const* texts, const size_t* lengths, const double* scores,
                       size_t n, const COptions* options, Handle** out, char** errmsg, Run&& run) {
  if (out != nullptr) *out = nullptr;
  return Guard(errmsg, [&] {
    Require(options != nullptr && out != nullptr && (texts != nullptr || n == 0), call,
            ": options and out must not be NULL, nor texts when n > 0");
    Require(options->keep != SIMDEX_KEEP_MAX_SCORE || scores != nullptr,
            "keep SIMDEX_KEEP_MAX_SCORE ranks the texts by their scores: pass scores");
    const std::vector<std::string_view> given = TextViews(texts, lengths, n);
    auto handle = std::make_unique<Handle>();
    size_t bytes = 0;
    for (std::string_view t : given) bytes += t.size();
    handle->texts.reserve(bytes);
    for (std::string_view t : given) handle->texts.append(t);
    handle->views.resize(n);
    for (size_t i = 0, at = 0; i < n; at += given[i].size(), ++i) {
      handle->views[i] = std::string_view(handle->texts).substr(at, given[i].size());
    }
    if (scores != nullptr) handle->scores.assign(scores, scores + n);
    FinishDedup(*options, std::move(handle), out,
                [&run](const COptions& c, Handle* h) { return run(c, h, h->views, h->scores); });
  });
}

template <typename Handle, typename COptions, typename Run>
simdex_code DedupFiles(const char* call, const simdex_document_files* files, const COptions* options, Handle** out,
                       char** errmsg, Run&& run) {
  if (out != nullptr) *out = nullptr;
  return Guard(errmsg, [&] {
    Require(files != nullptr && options != nullptr && out != nullptr, call,
            ": files, options and out must not be NULL");
    Require(options->keep != SIMDEX_KEEP_MAX_SCORE || (files->score_field != nullptr && *files->score_field != '\0'),
            "keep SIMDEX_KEEP_MAX_SCORE ranks the documents by a field: set score_field");
    DocumentFiles f;
    ToFiles(*files, &f);
    FinishDedup(*options, std::make_unique<Handle>(), out,
                [&run, &f](const COptions& c, Handle* h) { return run(c, h, f); });
  });
}

// The readers behind `count` index handles (reader_of(handle)), appended
// to *out; InvalidArgument for a NULL array or handle.
template <typename Handle, typename Reader, typename ReaderOf>
void AgainstReaders(const Handle* const* handles, size_t count, std::vector<Reader>* out, ReaderOf&& reader_of) {
  Require(handles != nullptr || count == 0, "against is NULL with against_count > 0");
  for (size_t i = 0; i < count; ++i) {
    if (handles[i] == nullptr) Invalid("against[" + std::to_string(i) + "] is NULL");
    out->push_back(reader_of(handles[i]));
  }
}

// The accessors of a result handle that do not depend on the method, as
// its simdex_*_dedup_* functions; `call` names the entry point in messages.
template <typename Handle>
simdex_code DedupId(const Handle* h, uint64_t ordinal, int* is_string, uint64_t* number, const char** data,
                    size_t* size) {
  if (is_string != nullptr) *is_string = 0;
  if (number != nullptr) *number = 0;
  if (data != nullptr) *data = nullptr;
  if (size != nullptr) *size = 0;
  if (h == nullptr || is_string == nullptr || number == nullptr || data == nullptr || size == nullptr ||
      ordinal >= h->result->size()) {
    return SIMDEX_INVALID_ARGUMENT;
  }
  if (h->result->IdIsString(ordinal)) {
    const std::string_view s = h->result->IdString(ordinal);
    *is_string = 1;
    *data = s.data();
    *size = s.size();
  } else {
    *number = h->result->IdNumber(ordinal);
  }
  return SIMDEX_OK;
}

// Copies records first .. first + count - 1 to out: the fields both
// methods' records have here, the method's by method(record, &c_record);
// SIMDEX_INVALID_ARGUMENT without a result, for a range past the size, or
// a NULL out with count > 0.
template <typename Handle, typename CRecord, typename Method>
simdex_code DedupRecords(const Handle* h, uint64_t first, size_t count, CRecord* out, Method&& method) {
  if (h == nullptr || (out == nullptr && count > 0)) return SIMDEX_INVALID_ARGUMENT;
  const uint64_t size = h->result->size();
  if (first > size || count > size - first) return SIMDEX_INVALID_ARGUMENT;
  for (size_t i = 0; i < count; ++i) {
    const auto& m = h->result->Record(first + i);
    out[i] = CRecord{};
    CRecord& c = out[i];
    c.representative = m.representative;
    c.against_id = m.against_index >= 0 ? m.against_id : 0;
    c.against_index = m.against_index;
    c.duplicate = m.duplicate ? 1 : 0;
    c.empty = m.empty ? 1 : 0;
    method(m, &c);
  }
  return SIMDEX_OK;
}

// The pairs, each to_c(pair), read once into h->pairs.
template <typename Handle, typename ToC>
simdex_code DedupPairs(const char* call, Handle* h, const typename Handle::PairType** pairs, size_t* count,
                       char** errmsg, ToC&& to_c) {
  if (pairs != nullptr) *pairs = nullptr;
  if (count != nullptr) *count = 0;
  return Guard(errmsg, [&] {
    Require(h != nullptr && pairs != nullptr && count != nullptr, call, ": r, pairs and count must not be NULL");
    if (!h->pairs) {
      std::vector<typename Handle::PairType> read;
      Check(h->result->ForEachPair([&](const auto& p) {
        read.push_back(to_c(p));
        return Status::OK();
      }));
      h->pairs = std::move(read);
    }
    *pairs = h->pairs->empty() ? nullptr : h->pairs->data();
    *count = h->pairs->size();
  });
}

// The files `simdex dedup` writes, by the handle's C++ result (h may be
// const: the pairs are written through the result, read once). `prefix`
// names the method's calls ("simdex_minhash_dedup") in messages.
enum class DedupFile { kRecords, kPairs, kKeepList, kClusters };

template <typename Handle>
simdex_code DedupWrite(const char* prefix, Handle* h, DedupFile file, const char* path, int snippet_words,
                       char** errmsg) {
  static constexpr const char* kSuffix[] = {"_write_records", "_write_pairs", "_write_keep_list", "_write_clusters"};
  return Guard(errmsg, [&] {
    Require(h != nullptr && path != nullptr && snippet_words >= 0, prefix, kSuffix[static_cast<int>(file)],
            ": r and path must not be NULL", file == DedupFile::kClusters ? ", snippet_words not negative" : "");
    Require(file != DedupFile::kPairs || !h->pairs, "the pairs were read into memory by ", prefix,
            "_pairs; they are read once");
    BatchDedupResult& r = *h->result;
    switch (file) {
      case DedupFile::kRecords: return r.WriteRecords(path, h->against_names);
      case DedupFile::kPairs: return r.WritePairs(path);
      case DedupFile::kKeepList: return r.WriteKeepList(path);
      case DedupFile::kClusters: return r.WriteClusters(path, snippet_words);
    }
    throw std::logic_error("unknown file");
  });
}

}  // namespace simdex::capi

// Defines the entry points that every method has, over the templates
// above: simdex_<method>_dedup_texts and _files (which run `Run()`, the
// method's file's functor: DedupTexts' and DedupFiles' run), _size, _id,
// _write_records, _write_pairs, _write_keep_list, _write_clusters and
// _free (declared in include/simdex/simdex_c.h). Used once per method,
// inside extern "C".
#define SIMDEX_CAPI_DEDUP_RESULT_CALLS(method)                                                                     \
  simdex_code simdex_##method##_dedup_texts(const char* const* texts, const size_t* lengths, const double* scores, \
                                            size_t n, const simdex_##method##_dedup_options* options,           \
                                            simdex_##method##_dedup_result** out, char** errmsg) {              \
    return simdex::capi::DedupTexts("simdex_" #method "_dedup_texts", texts, lengths, scores, n, options, out,   \
                                    errmsg, Run());                                                              \
  }                                                                                                              \
  simdex_code simdex_##method##_dedup_files(const simdex_document_files* files,                                  \
                                            const simdex_##method##_dedup_options* options,                      \
                                            simdex_##method##_dedup_result** out, char** errmsg) {              \
    return simdex::capi::DedupFiles("simdex_" #method "_dedup_files", files, options, out, errmsg, Run());      \
  }                                                                                                              \
  uint64_t simdex_##method##_dedup_size(const simdex_##method##_dedup_result* r) {                                \
    return r == nullptr ? 0 : r->result->size();                                                                 \
  }                                                                                                              \
  simdex_code simdex_##method##_dedup_id(const simdex_##method##_dedup_result* r, uint64_t ordinal,              \
                                         int* is_string, uint64_t* number, const char** data, size_t* size) {    \
    return simdex::capi::DedupId(r, ordinal, is_string, number, data, size);                                     \
  }                                                                                                              \
  simdex_code simdex_##method##_dedup_write_records(const simdex_##method##_dedup_result* r, const char* path,   \
                                                    char** errmsg) {                                             \
    return simdex::capi::DedupWrite("simdex_" #method "_dedup", r, simdex::capi::DedupFile::kRecords, path, 0,   \
                                    errmsg);                                                                     \
  }                                                                                                              \
  simdex_code simdex_##method##_dedup_write_pairs(simdex_##method##_dedup_result* r, const char* path,           \
                                                  char** errmsg) {                                               \
    return simdex::capi::DedupWrite("simdex_" #method "_dedup", r, simdex::capi::DedupFile::kPairs, path, 0,     \
                                    errmsg);                                                                     \
  }                                                                                                              \
  simdex_code simdex_##method##_dedup_write_keep_list(const simdex_##method##_dedup_result* r, const char* path, \
                                                      char** errmsg) {                                           \
    return simdex::capi::DedupWrite("simdex_" #method "_dedup", r, simdex::capi::DedupFile::kKeepList, path, 0,  \
                                    errmsg);                                                                     \
  }                                                                                                              \
  simdex_code simdex_##method##_dedup_write_clusters(const simdex_##method##_dedup_result* r, const char* path,  \
                                                     int snippet_words, char** errmsg) {                         \
    return simdex::capi::DedupWrite("simdex_" #method "_dedup", r, simdex::capi::DedupFile::kClusters, path,     \
                                    snippet_words, errmsg);                                                      \
  }                                                                                                              \
  void simdex_##method##_dedup_free(simdex_##method##_dedup_result* r) { delete r; }

#endif  // SIMDEX_ENGINE_CAPI_C_API_DEDUP_H_
