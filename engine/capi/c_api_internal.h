// What the files of the C interface (include/simdex/simdex_c.h) share: the
// handles behind its opaque types, and the error protocol. Every entry
// point runs its body inside Guard(), so no C++ exception reaches a C
// caller; messages are malloc'ed so that any language's FFI can free them
// through simdex_free_string.
#ifndef SIMDEX_ENGINE_CAPI_C_API_INTERNAL_H_
#define SIMDEX_ENGINE_CAPI_C_API_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/lsh_index.h"
#include "simdex/reloading_index.h"
#include "simdex/simdex_c.h"
#include "simdex/status.h"

// Each handle keeps the path it was opened with: de-duplication records
// name the indexes they were checked against by it, as `simdex dedup` does.
struct simdex_index {
  std::unique_ptr<simdex::ReloadingIndex> index;
  std::string path;
};

struct simdex_lsh_index {
  std::unique_ptr<simdex::LshIndexReader> reader;
  std::string path;
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

inline simdex_code Succeed(char** errmsg) {
  if (errmsg != nullptr) *errmsg = nullptr;
  return SIMDEX_OK;
}

inline simdex_code FromStatus(const Status& s, char** errmsg) {
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

// The ReaderOptions of c (NULL: the defaults), or InvalidArgument naming
// the call, the field, its value and the allowed values (c_api.cc).
Status ToReaderOptions(const char* call, const simdex_open_options* c, ReaderOptions* out);

// The options of the openers that take verify_block_checksums alone.
inline simdex_open_options VerifyOptions(int verify_block_checksums) {
  simdex_open_options o;
  simdex_open_options_init(&o);
  o.verify_block_checksums = verify_block_checksums;
  return o;
}

// The frame of the C openers (simdex_index_open, simdex_lsh_index_open,
// simdex_index_file_open and their _with_options): *out cleared, NULL
// arguments and bad options refused naming the call, and a new Handle that
// open(handle, path, options) fills handed to *out only when open returns
// OK.
template <typename Handle, typename Open>
simdex_code OpenHandle(const char* call, const char* path, const simdex_open_options* c_options, Handle** out,
                       char** errmsg, Open&& open) {
  if (out != nullptr) *out = nullptr;
  if (path == nullptr || out == nullptr) {
    return Fail(SIMDEX_INVALID_ARGUMENT, std::string(call) + ": path and out must not be NULL", errmsg);
  }
  return Guard(errmsg, [&] {
    ReaderOptions options;
    if (const Status s = ToReaderOptions(call, c_options, &options); !s.ok()) return FromStatus(s, errmsg);
    auto handle = std::make_unique<Handle>();
    const Status s = open(handle.get(), path, options);
    if (s.ok()) *out = handle.release();
    return FromStatus(s, errmsg);
  });
}

// InvalidArgument unless every reserved field of a C options struct is 0
// (what its init function sets), so that a later version may give them a
// meaning whose 0 is today's behaviour.
template <size_t N>
Status CheckReserved(int32_t reserved32, const uint64_t (&reserved)[N], std::string_view what) {
  if (reserved32 != 0) {
    return Status::InvalidArgument(std::string(what) +
                                   ": reserved32 is not 0 (initialise the options with their init function)");
  }
  for (size_t i = 0; i < N; ++i) {
    if (reserved[i] != 0) {
      return Status::InvalidArgument(std::string(what) + ": reserved[" + std::to_string(i) +
                                     "] is not 0 (initialise the options with their init function)");
    }
  }
  return Status::OK();
}

// Results of a batch query in offset-array form: the matches of query i
// are matches[lims[i], lims[i+1]).
template <typename Match>
struct OffsetResults {
  std::vector<size_t> lims;
  std::vector<Match> matches;
};

// Their accessors (simdex_results_*, simdex_lsh_results_*); NULL gives 0
// and NULL.
template <typename Match>
size_t NumQueries(const OffsetResults<Match>* r) {
  return r == nullptr || r->lims.empty() ? 0 : r->lims.size() - 1;
}
template <typename Match>
const size_t* Lims(const OffsetResults<Match>* r) {
  return r == nullptr ? nullptr : r->lims.data();
}
template <typename Match>
const Match* Matches(const OffsetResults<Match>* r) {
  return r == nullptr || r->matches.empty() ? nullptr : r->matches.data();
}

// Views of n texts given as C strings: texts[i] of lengths[i] bytes, or
// NUL-terminated when lengths is NULL. A NULL texts[i] is refused
// (SIMDEX_INVALID_ARGUMENT naming i) unless lengths[i] is 0. REQUIRES: texts is
// not NULL when n > 0.
simdex_code TextViews(const char* const* texts, const size_t* lengths, size_t n, std::vector<std::string_view>* views,
                      char** errmsg);

// `s`, with a pointer to the opener of the file's kind when the file is of
// the other kind than `wanted`.
Status PointToOpener(Status s, const char* path, IndexKind wanted);

// simdex_index_id_string and simdex_lsh_index_id_string: the arguments
// checked (naming `call`), then the string of number `id` in the id map of
// file(*handle), a reader of either kind (has_string_ids, IdStringCount,
// IdString).
template <typename Handle, typename File>
simdex_code IdStringOf(const char* call, const Handle* handle, File&& file, uint64_t id, const char** data,
                       size_t* size, char** errmsg) {
  if (data != nullptr) *data = nullptr;
  if (size != nullptr) *size = 0;
  if (handle == nullptr || data == nullptr || size == nullptr) {
    return Fail(SIMDEX_INVALID_ARGUMENT, std::string(call) + ": idx, data and size must not be NULL", errmsg);
  }
  return Guard(errmsg, [&] {
    const auto reader = file(*handle);  // a shared_ptr keeps a reloaded file alive meanwhile
    if (!reader->has_string_ids()) return Fail(SIMDEX_INVALID_ARGUMENT, "the index holds numeric ids, not string ids", errmsg);
    const uint64_t strings = reader->IdStringCount();
    if (id >= strings) {
      return Fail(SIMDEX_INVALID_ARGUMENT,
                  "id " + std::to_string(id) + " is not a number of the id map (" + std::to_string(strings) +
                      " strings)",
                  errmsg);
    }
    const std::string_view s = reader->IdString(id);
    *data = s.data();
    *size = s.size();
    return Succeed(errmsg);
  });
}

// simdex_index_find_id and simdex_lsh_index_find_id: the arguments checked
// (naming `call`), then the number of the string id [data, data + size) in
// file(*handle) (FindIdString).
template <typename Handle, typename File>
simdex_code FindIdOf(const char* call, const Handle* handle, File&& file, const char* data, size_t size,
                     uint64_t* id, char** errmsg) {
  if (id != nullptr) *id = 0;
  if (handle == nullptr || id == nullptr || (data == nullptr && size > 0)) {
    return Fail(SIMDEX_INVALID_ARGUMENT,
                std::string(call) + ": idx and id must not be NULL, nor data when size > 0", errmsg);
  }
  return Guard(errmsg, [&] {
    return FromStatus(file(*handle)->FindIdString(std::string_view(data == nullptr ? "" : data, size), id), errmsg);
  });
}

}  // namespace simdex::capi

#endif  // SIMDEX_ENGINE_CAPI_C_API_INTERNAL_H_
