// What the files of the C interface (include/simdex/simdex_c.h) share: the
// handles behind its opaque types, and the error protocol. Every entry
// point runs its body inside Guard(), so no C++ exception reaches a C
// caller; messages are malloc'ed so that any language's FFI can free them
// through simdex_free_string.
#ifndef SIMDEX_ENGINE_CAPI_C_API_INTERNAL_H_
#define SIMDEX_ENGINE_CAPI_C_API_INTERNAL_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "simdex/lsh_index.h"
#include "simdex/reloading_index.h"
#include "simdex/simdex_c.h"
#include "simdex/status.h"

// Each handle keeps the path it was opened with: de-duplication records
// name the indexes they were checked against by it, as `simdex dedup` does.
// file() is the reader a call works on: for a SimHash handle the version
// serving when the call takes it, which the shared_ptr keeps alive through
// a reload meanwhile.
struct simdex_index {
  std::unique_ptr<simdex::ReloadingIndex> index;
  std::string path;
  std::shared_ptr<const simdex::IndexReader> file() const { return index->Current(); }
};

struct simdex_lsh_index {
  std::unique_ptr<simdex::LshIndexReader> reader;
  std::string path;
  const simdex::LshIndexReader* file() const { return reader.get(); }
};

// In a lower-case namespace: libsimdex.so exports simdex_* and
// simdex::[A-Z]* only (packaging/simdex.map).
namespace simdex::capi {

// A malloc'ed copy of msg, or nullptr if malloc fails.
inline char* CopyString(std::string_view msg) {
  char* s = static_cast<char*>(std::malloc(msg.size() + 1));
  if (s != nullptr) {
    std::memcpy(s, msg.data(), msg.size());
    s[msg.size()] = '\0';
  }
  return s;
}

inline simdex_code Fail(simdex_code code, std::string_view msg, char** errmsg) {
  if (errmsg != nullptr) *errmsg = CopyString(msg);
  return code;
}

// What the body of a Guard, and the helpers it calls, throw to return the
// code and message of a failed Status (Check) or of a bad argument
// (Require, Invalid).
struct Failure {
  Status status;
};

inline void Check(Status s) {
  if (!s.ok()) throw Failure{std::move(s)};
}

[[noreturn]] inline void Invalid(std::string msg) { throw Failure{Status::InvalidArgument(std::move(msg))}; }

// SIMDEX_INVALID_ARGUMENT with the message parts concatenated unless ok;
// the parts are strings, concatenated only on failure.
template <typename... Parts>
void Require(bool ok, const Parts&... parts) {
  if (ok) return;
  std::string msg;
  (msg.append(parts), ...);
  Invalid(std::move(msg));
}

// The frame of every entry point that takes errmsg: runs body, whose
// Status (none: OK) or thrown Failure gives the call's code and message,
// and turns any other exception into SIMDEX_OUT_OF_MEMORY or
// SIMDEX_INTERNAL. The entry points clear their outputs before it and
// check their arguments in it (Require).
template <typename Body>
simdex_code Guard(char** errmsg, Body&& body) {
  Status s;
  try {
    if constexpr (std::is_void_v<decltype(body())>) {
      body();
    } else {
      s = body();
    }
  } catch (Failure& f) {
    s = std::move(f.status);
  } catch (const std::bad_alloc&) {
    return Fail(SIMDEX_OUT_OF_MEMORY, "out of memory", errmsg);
  } catch (const std::exception& e) {
    return Fail(SIMDEX_INTERNAL, e.what(), errmsg);
  } catch (...) {
    return Fail(SIMDEX_INTERNAL, "unknown exception", errmsg);
  }
  if (errmsg != nullptr) *errmsg = s.ok() ? nullptr : CopyString(s.message());
  return static_cast<simdex_code>(s.code());  // the values of Status::Code (c_api.cc)
}

// The ReaderOptions of c (NULL: the defaults); InvalidArgument naming
// the call, the field, its value and the allowed values (c_api.cc).
ReaderOptions ToReaderOptions(const char* call, const simdex_open_options* c);

// The frame of the C openers: *out cleared, NULL arguments and bad options
// refused naming the call, and a new Handle that open(handle, path,
// options) fills handed to *out only when open returns OK.
template <typename Handle, typename Open>
simdex_code OpenHandle(const char* call, const char* path, const simdex_open_options* c_options, Handle** out,
                       char** errmsg, Open&& open) {
  if (out != nullptr) *out = nullptr;
  return Guard(errmsg, [&] {
    Require(path != nullptr && out != nullptr, call, ": path and out must not be NULL");
    const ReaderOptions options = ToReaderOptions(call, c_options);
    auto handle = std::make_unique<Handle>();
    Check(open(handle.get(), path, options));
    *out = handle.release();
  });
}

// Defines simdex_<name>_open (verify_block_checksums alone) and
// simdex_<name>_open_with_options, the openers of the handle
// simdex_<name>, over OpenHandle and `open`. Used once per handle, inside
// extern "C".
#define SIMDEX_CAPI_OPENERS(name, open)                                                                              \
  simdex_code simdex_##name##_open(const char* path, int verify_block_checksums, simdex_##name** out,               \
                                   char** errmsg) {                                                                 \
    simdex_open_options options;                                                                                    \
    simdex_open_options_init(&options);                                                                             \
    options.verify_block_checksums = verify_block_checksums;                                                        \
    return simdex::capi::OpenHandle("simdex_" #name "_open", path, &options, out, errmsg, open);                    \
  }                                                                                                                 \
  simdex_code simdex_##name##_open_with_options(const char* path, const simdex_open_options* options,               \
                                                simdex_##name** out, char** errmsg) {                               \
    return simdex::capi::OpenHandle("simdex_" #name "_open_with_options", path, options, out, errmsg, open);        \
  }

// InvalidArgument unless every reserved field of a C options struct is 0
// (what its init function sets), so that a later version may give them a
// meaning whose 0 is today's behaviour.
template <size_t N>
void CheckReserved(int32_t reserved32, const uint64_t (&reserved)[N], std::string_view what) {
  constexpr std::string_view kInit = " is not 0 (initialise the options with their init function)";
  Require(reserved32 == 0, what, ": reserved32", kInit);
  for (size_t i = 0; i < N; ++i) {
    if (reserved[i] != 0) Invalid(std::string(what) + ": reserved[" + std::to_string(i) + "]" + std::string(kInit));
  }
}

// InvalidArgument naming the field, c and the values' SIMDEX_ prefix
// unless lo <= c <= hi.
inline void RequireIn(int32_t c, int32_t lo, int32_t hi, std::string_view field, std::string_view prefix) {
  if (c < lo || c > hi) {
    Invalid(std::string(field) + " " + std::to_string(c) + " is not a " + std::string(prefix) + "* value");
  }
}

// The C++ value of C value c of an enum whose C++ values are `values`, in
// order; InvalidArgument (RequireIn) for another.
template <typename T, size_t N>
T FromC(const T (&values)[N], int32_t c, std::string_view field, std::string_view prefix) {
  RequireIn(c, 0, static_cast<int32_t>(N) - 1, field, prefix);
  return values[c];
}

// Results of a batch query in offset-array form: the matches of query i
// are matches[lims[i], lims[i+1]).
template <typename Match>
struct OffsetResults {
  std::vector<size_t> lims;
  std::vector<Match> matches;
};

// A new Results (an OffsetResults) of a batch's `found`: its lims, and its
// matches each to_c(match).
template <typename Results, typename Found, typename ToC>
std::unique_ptr<Results> NewResults(Found* found, ToC&& to_c) {
  auto results = std::make_unique<Results>();
  results->lims = std::move(found->lims);
  results->matches.resize(found->matches.size());
  std::transform(found->matches.begin(), found->matches.end(), results->matches.begin(), to_c);
  return results;
}

// Views of n texts given as C strings: texts[i] of lengths[i] bytes, or
// NUL-terminated when lengths is NULL. A NULL texts[i] is refused
// (SIMDEX_INVALID_ARGUMENT naming i) unless lengths[i] is 0. REQUIRES: texts is
// not NULL when n > 0.
std::vector<std::string_view> TextViews(const char* const* texts, const size_t* lengths, size_t n);

// `s`, with a pointer to the opener of the file's kind when the file is of
// the other kind than `wanted`.
Status PointToOpener(Status s, const char* path, IndexKind wanted);

// simdex_index_id_string and simdex_lsh_index_id_string: the arguments
// checked (naming `call`), then the string of number `id` in the id map of
// handle->file(), a reader of either kind (has_string_ids, IdStringCount,
// IdString).
template <typename Handle>
simdex_code IdStringOf(const char* call, const Handle* handle, uint64_t id, const char** data, size_t* size,
                       char** errmsg) {
  if (data != nullptr) *data = nullptr;
  if (size != nullptr) *size = 0;
  return Guard(errmsg, [&] {
    Require(handle != nullptr && data != nullptr && size != nullptr, call, ": idx, data and size must not be NULL");
    const auto reader = handle->file();
    Require(reader->has_string_ids(), "the index holds numeric ids, not string ids");
    const uint64_t strings = reader->IdStringCount();
    if (id >= strings) {
      Invalid("id " + std::to_string(id) + " is not a number of the id map (" + std::to_string(strings) + " strings)");
    }
    const std::string_view s = reader->IdString(id);
    *data = s.data();
    *size = s.size();
  });
}

// simdex_index_find_id and simdex_lsh_index_find_id: the arguments checked
// (naming `call`), then the number of the string id [data, data + size) in
// handle->file() (FindIdString).
template <typename Handle>
simdex_code FindIdOf(const char* call, const Handle* handle, const char* data, size_t size, uint64_t* id,
                     char** errmsg) {
  if (id != nullptr) *id = 0;
  return Guard(errmsg, [&] {
    Require(handle != nullptr && id != nullptr && (data != nullptr || size == 0), call,
            ": idx and id must not be NULL, nor data when size > 0");
    return handle->file()->FindIdString(std::string_view(data == nullptr ? "" : data, size), id);
  });
}

}  // namespace simdex::capi

// Defines the string-id calls of the index handle simdex_<name>
// (simdex_<name>_has_string_ids, _id_string, _find_id) over its file().
// Used once per handle, inside extern "C".
#define SIMDEX_CAPI_STRING_IDS(name)                                                                           \
  int simdex_##name##_has_string_ids(const simdex_##name* idx) {                                              \
    return idx != nullptr && idx->file()->has_string_ids() ? 1 : 0;                                           \
  }                                                                                                           \
  simdex_code simdex_##name##_id_string(const simdex_##name* idx, uint64_t id, const char** data, size_t* size, \
                                        char** errmsg) {                                                      \
    return simdex::capi::IdStringOf("simdex_" #name "_id_string", idx, id, data, size, errmsg);               \
  }                                                                                                           \
  simdex_code simdex_##name##_find_id(const simdex_##name* idx, const char* data, size_t size, uint64_t* id,   \
                                      char** errmsg) {                                                        \
    return simdex::capi::FindIdOf("simdex_" #name "_find_id", idx, data, size, id, errmsg);                   \
  }

// Defines the accessors of the batch results simdex_<name>, an
// OffsetResults of `match` (simdex_<name>_nq, _lims, _matches; NULL gives 0
// and NULL) and simdex_<name>_free. Used once per kind, inside extern "C".
#define SIMDEX_CAPI_RESULTS(name, match)                                                        \
  size_t simdex_##name##_nq(const simdex_##name* r) {                                          \
    return r == nullptr || r->lims.empty() ? 0 : r->lims.size() - 1;                           \
  }                                                                                            \
  const size_t* simdex_##name##_lims(const simdex_##name* r) {                                 \
    return r == nullptr ? nullptr : r->lims.data();                                            \
  }                                                                                            \
  const match* simdex_##name##_matches(const simdex_##name* r) {                               \
    return r == nullptr || r->matches.empty() ? nullptr : r->matches.data();                   \
  }                                                                                            \
  void simdex_##name##_free(simdex_##name* r) { delete r; }

#endif  // SIMDEX_ENGINE_CAPI_C_API_INTERNAL_H_
