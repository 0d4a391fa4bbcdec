// The C interface's handle for an index file of either kind
// (include/simdex/simdex_c.h, simdex_index_file_*): an IndexFile opened
// through the registry (include/simdex/index_file.h).
#include <memory>
#include <new>
#include <string>

#include "engine/capi/c_api_internal.h"
#include "simdex/index_file.h"
#include "simdex/simdex_c.h"

using simdex::capi::CopyString;
using simdex::capi::Fail;
using simdex::capi::FromStatus;
using simdex::capi::Guard;

struct simdex_index_file {
  std::unique_ptr<simdex::IndexFile> file;
};

extern "C" {

simdex_code simdex_index_file_open(const char* path, int verify_block_checksums, simdex_index_file** out,
                                   char** errmsg) {
  return simdex::capi::OpenHandle("simdex_index_file_open", path, verify_block_checksums, out, errmsg,
                                  [&](simdex_index_file* handle, const simdex::ReaderOptions& options) {
                                    return simdex::OpenIndexFile(path, options, &handle->file);
                                  });
}

void simdex_index_file_close(simdex_index_file* file) { delete file; }

int simdex_index_file_kind(const simdex_index_file* file) { return static_cast<int>(file->file->kind()); }

uint64_t simdex_index_file_records(const simdex_index_file* file) { return file->file->records(); }

simdex_code simdex_index_file_verify(const simdex_index_file* file, char** summary, char** errmsg) {
  if (summary != nullptr) *summary = nullptr;
  if (file == nullptr) return Fail(SIMDEX_INVALID_ARGUMENT, "simdex_index_file_verify: file must not be NULL", errmsg);
  return Guard(errmsg, [&] {
    const simdex::Status s = file->file->Verify();
    if (s.ok() && summary != nullptr && (*summary = CopyString(file->file->VerifySummary())) == nullptr) {
      throw std::bad_alloc();
    }
    return FromStatus(s, errmsg);
  });
}

simdex_code simdex_index_file_inspect(const simdex_index_file* file, char** json, char** errmsg) {
  if (json != nullptr) *json = nullptr;
  if (file == nullptr || json == nullptr) {
    return Fail(SIMDEX_INVALID_ARGUMENT, "simdex_index_file_inspect: file and json must not be NULL", errmsg);
  }
  return Guard(errmsg, [&] {
    if ((*json = CopyString(file->file->InspectJson())) == nullptr) throw std::bad_alloc();
    return FromStatus(simdex::Status::OK(), errmsg);
  });
}

simdex_code simdex_index_file_preload(const simdex_index_file* file, int lock, int* locked, char** errmsg) {
  if (locked != nullptr) *locked = 0;
  if (file == nullptr) return Fail(SIMDEX_INVALID_ARGUMENT, "simdex_index_file_preload: file must not be NULL", errmsg);
  return Guard(errmsg, [&] {
    simdex::PreloadResult result;
    const simdex::Status s = file->file->Preload(lock != 0, &result);
    if (locked != nullptr) *locked = result.locked ? 1 : 0;
    return FromStatus(s, errmsg);
  });
}

}  // extern "C"
