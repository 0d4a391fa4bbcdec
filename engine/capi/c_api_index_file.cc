// The C interface's handle for an index file of either kind
// (include/simdex/simdex_c.h, simdex_index_file_*): an IndexFile opened
// through the registry (include/simdex/index_file.h), and its merger
// (IndexFileMerger, include/simdex/merge.h), made by the registry too.
#include <memory>
#include <new>
#include <span>
#include <string>

#include "engine/capi/c_api_internal.h"
#include "simdex/index_file.h"
#include "simdex/merge.h"
#include "simdex/minhash.h"
#include "simdex/simdex_c.h"

using simdex::capi::Check;
using simdex::capi::CopyString;
using simdex::capi::Guard;
using simdex::capi::Require;

struct simdex_index_file {
  std::unique_ptr<simdex::IndexFile> file;
};

struct simdex_index_file_merger {
  std::unique_ptr<simdex::IndexFileMerger> merger;
  std::string old_profile;  // a MinHash-LSH file's gives the width of a signature
  bool finished = false;
};

extern "C" {

static const auto kOpenFile = [](simdex_index_file* handle, const char* path, const simdex::ReaderOptions& options) {
  return simdex::OpenIndexFile(path, options, &handle->file);
};

SIMDEX_CAPI_OPENERS(index_file, kOpenFile)

void simdex_index_file_close(simdex_index_file* file) { delete file; }

int simdex_index_file_kind(const simdex_index_file* file) { return static_cast<int>(file->file->kind()); }

uint64_t simdex_index_file_records(const simdex_index_file* file) { return file->file->records(); }

simdex_code simdex_index_file_verify(const simdex_index_file* file, char** summary, char** errmsg) {
  if (summary != nullptr) *summary = nullptr;
  return Guard(errmsg, [&] {
    Require(file != nullptr, "simdex_index_file_verify: file must not be NULL");
    Check(file->file->Verify());
    if (summary != nullptr && (*summary = CopyString(file->file->VerifySummary())) == nullptr) throw std::bad_alloc();
  });
}

simdex_code simdex_index_file_inspect(const simdex_index_file* file, char** json, char** errmsg) {
  if (json != nullptr) *json = nullptr;
  return Guard(errmsg, [&] {
    Require(file != nullptr && json != nullptr, "simdex_index_file_inspect: file and json must not be NULL");
    if ((*json = CopyString(file->file->InspectJson())) == nullptr) throw std::bad_alloc();
  });
}

simdex_code simdex_index_file_preload(const simdex_index_file* file, int lock, int* locked, char** errmsg) {
  if (locked != nullptr) *locked = 0;
  return Guard(errmsg, [&] {
    Require(file != nullptr, "simdex_index_file_preload: file must not be NULL");
    simdex::PreloadResult result;
    const simdex::Status s = file->file->Preload(lock != 0, &result);
    if (locked != nullptr) *locked = result.locked ? 1 : 0;
    return s;
  });
}

void simdex_merge_options_init(simdex_merge_options* options) {
  if (options == nullptr) return;
  const simdex::MergeOptions o;
  *options = simdex_merge_options{};
  options->memory_bytes = o.memory_bytes;
  options->tmpdir = nullptr;  // o.tmpdir is ""
  options->threads = o.threads;
  options->existing_ids = static_cast<int32_t>(o.existing_ids);
}

static_assert(SIMDEX_EXISTING_IDS_KEEP == static_cast<int>(simdex::ExistingIds::kKeep) &&
                  SIMDEX_EXISTING_IDS_REFUSE == static_cast<int>(simdex::ExistingIds::kRefuse) &&
                  SIMDEX_EXISTING_IDS_REPLACE == static_cast<int>(simdex::ExistingIds::kReplace),
              "SIMDEX_EXISTING_IDS_* are ExistingIds' values");

simdex_code simdex_index_file_merger_create(const simdex_index_file* old, const char* path,
                                            const simdex_merge_options* options, simdex_index_file_merger** out,
                                            char** errmsg) {
  if (out != nullptr) *out = nullptr;
  return Guard(errmsg, [&] {
    Require(old != nullptr && path != nullptr && out != nullptr,
            "simdex_index_file_merger_create: old, path and out must not be NULL");
    simdex_merge_options c;
    simdex_merge_options_init(&c);
    if (options != nullptr) c = *options;
    simdex::capi::CheckReserved(0, c.reserved, "simdex_merge_options");
    simdex::capi::RequireIn(c.existing_ids, SIMDEX_EXISTING_IDS_KEEP, SIMDEX_EXISTING_IDS_REPLACE,
                            "simdex_merge_options: existing_ids", "SIMDEX_EXISTING_IDS_");
    simdex::MergeOptions o;
    o.memory_bytes = c.memory_bytes;
    o.tmpdir = c.tmpdir == nullptr ? "" : c.tmpdir;
    o.threads = c.threads;
    o.existing_ids = static_cast<simdex::ExistingIds>(c.existing_ids);
    auto handle = std::make_unique<simdex_index_file_merger>();
    handle->old_profile = old->file->profile();
    Check(simdex::IndexFileMerger::Create(*old->file, path, o, &handle->merger));
    *out = handle.release();
  });
}

simdex_code simdex_index_file_merger_add_fingerprints(simdex_index_file_merger* merger, const uint64_t* ids,
                                                      const uint64_t* fingerprints, size_t n, char** errmsg) {
  return Guard(errmsg, [&] {
    Require(merger != nullptr && (n == 0 || (ids != nullptr && fingerprints != nullptr)),
            "simdex_index_file_merger_add_fingerprints: merger must not be NULL, nor ids and fingerprints when n > 0");
    return merger->merger->Add(std::span(ids, n), std::span(fingerprints, n));
  });
}

simdex_code simdex_index_file_merger_add_signatures(simdex_index_file_merger* merger, const uint64_t* ids,
                                                    const uint32_t* signatures, size_t n, char** errmsg) {
  return Guard(errmsg, [&] {
    Require(merger != nullptr && (n == 0 || (ids != nullptr && signatures != nullptr)),
            "simdex_index_file_merger_add_signatures: merger must not be NULL, nor ids and signatures when n > 0");
    // A row is the old file's num_perm values wide: its signing profile's.
    simdex::MinHashOptions signing;
    const size_t width =
        simdex::ParseMinHashProfile(merger->old_profile, &signing).ok() ? static_cast<size_t>(signing.num_perm) : 0;
    for (size_t i = 0; i < n; ++i) Check(merger->merger->Add(ids[i], signatures + i * width));
  });
}

simdex_code simdex_index_file_merger_delete(simdex_index_file_merger* merger, const uint64_t* ids, size_t n,
                                            char** errmsg) {
  return Guard(errmsg, [&] {
    Require(merger != nullptr && (n == 0 || ids != nullptr),
            "simdex_index_file_merger_delete: merger must not be NULL, nor ids when n > 0");
    for (size_t i = 0; i < n; ++i) Check(merger->merger->Delete(ids[i]));
  });
}

simdex_code simdex_index_file_merger_finish(simdex_index_file_merger* merger, simdex_merge_stats* stats,
                                            char** errmsg) {
  return Guard(errmsg, [&] {
    Require(merger != nullptr, "simdex_index_file_merger_finish: merger must not be NULL");
    merger->finished = true;
    Check(merger->merger->Finish());
    if (stats != nullptr) {
      const simdex::MergeStats st = merger->merger->stats();
      *stats = simdex_merge_stats{st.old_entries, st.added,   st.deleted,   st.ids_not_found,
                                  st.replaced,    st.entries, st.file_bytes};
    }
  });
}

void simdex_index_file_merger_close(simdex_index_file_merger* merger) {
  if (merger != nullptr && !merger->finished) merger->merger->Abandon();
  delete merger;
}

}  // extern "C"
