// The C interface of include/simdex/simdex_c.h for MinHash-LSH
// de-duplication of documents, over DeduplicateByMinHash
// (include/simdex/batch.h), the code `simdex dedup` runs: options with the
// library's defaults, texts or files in, a result handle with the
// command's records, ids, pairs and files.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/capi/c_api_dedup.h"
#include "engine/capi/c_api_internal.h"
#include "simdex/batch.h"
#include "simdex/simdex_c.h"
#include "simdex/status.h"

// Members in this order so that the result, which reads the texts and
// scores when it writes clusters, goes before them.
struct simdex_minhash_dedup_result {
  std::string texts;  // the caller's texts, copied, one after another
  std::vector<std::string_view> views;
  std::vector<double> scores;
  std::vector<std::string> against_names;  // the paths the indexes were opened with
  std::unique_ptr<simdex::MinHashDedupResult> result;
  simdex::capi::PairCache<simdex_minhash_dedup_pair> pairs;
};

namespace {

using simdex::Status;
using simdex::capi::Fail;
using simdex::capi::FromStatus;
using simdex::capi::Guard;
using simdex::capi::Succeed;

static_assert(sizeof(void*) != 8 || sizeof(simdex_minhash_dedup_options) == 152,
              "simdex_minhash_dedup_options is documented as 152 bytes on 64-bit systems");
static_assert(sizeof(void*) != 8 || sizeof(simdex_document_files) == 96,
              "simdex_document_files is documented as 96 bytes on 64-bit systems");
static_assert(sizeof(simdex_minhash_dedup_record) == 32 && offsetof(simdex_minhash_dedup_record, duplicate) == 28,
              "simdex_minhash_dedup_record is documented as 32 bytes without implicit padding");
static_assert(sizeof(simdex_minhash_dedup_pair) == 24, "simdex_minhash_dedup_pair is documented as 24 bytes");
static_assert(sizeof(simdex_minhash_dedup_info) == 160, "simdex_minhash_dedup_info is documented as 160 bytes");

// The C++ options of the C ones; InvalidArgument naming the first field
// that has no C++ meaning (the C++ checks come in the run).
Status ToOptions(const simdex_minhash_dedup_options& c, simdex::MinHashDedupOptions* o) {
  SIMDEX_RETURN_IF_ERROR(simdex::capi::CheckReserved(0, c.reserved, "simdex_minhash_dedup_options"));
  if (c.shingles < SIMDEX_SHINGLES_AUTO || c.shingles > SIMDEX_SHINGLES_SPACE_SPLIT) {
    return Status::InvalidArgument("shingles " + std::to_string(c.shingles) + " is not a SIMDEX_SHINGLES_* value");
  }
  if (c.shingles != SIMDEX_SHINGLES_AUTO) {
    o->shingle_words = c.shingles == SIMDEX_SHINGLES_WORD_CHARS ? simdex::ShingleWords::kWordChars
                                                                : simdex::ShingleWords::kSpaceSplit;
  }
  if (c.keep < SIMDEX_KEEP_FIRST || c.keep > SIMDEX_KEEP_MAX_SCORE) {
    return Status::InvalidArgument("keep " + std::to_string(c.keep) + " is not a SIMDEX_KEEP_* value");
  }
  o->threshold = c.threshold;
  o->exact = c.exact != 0;
  o->num_perm = c.num_perm;
  o->seed = c.seed;
  o->bands = simdex::LshBands{c.bands, c.rows};
  o->signature_bits = c.signature_bits;
  o->estimate_filter = c.estimate_filter;
  o->confirm = c.confirm == nullptr ? "" : c.confirm;
  o->keep = c.keep == SIMDEX_KEEP_LONGEST    ? simdex::KeepRule::kLongest
            : c.keep == SIMDEX_KEEP_MAX_SCORE ? simdex::KeepRule::kField
                                              : simdex::KeepRule::kFirst;
  o->keep_pairs = c.keep_pairs != 0;
  o->allow_duplicate_ids = c.allow_duplicate_ids != 0;
  o->threads = c.threads;
  o->memory_bytes = static_cast<size_t>(std::min<uint64_t>(c.memory_bytes, SIZE_MAX));
  o->tmpdir = c.tmpdir == nullptr ? "" : c.tmpdir;
  return simdex::capi::AgainstReaders(c.against, c.against_count, &o->against,
                                      [](const simdex_lsh_index* idx) { return idx->reader.get(); });
}

Status ToFiles(const simdex_document_files& c, simdex::DocumentFiles* f) {
  SIMDEX_RETURN_IF_ERROR(simdex::capi::CheckReserved(c.reserved32, c.reserved, "simdex_document_files"));
  if (c.paths == nullptr && c.path_count > 0) return Status::InvalidArgument("paths is NULL");
  if (c.text_fields == nullptr && c.text_field_count > 0) return Status::InvalidArgument("text_fields is NULL");
  if (c.format < SIMDEX_FORMAT_AUTO || c.format > SIMDEX_FORMAT_LINES) {
    return Status::InvalidArgument("format " + std::to_string(c.format) + " is not a SIMDEX_FORMAT_* value");
  }
  if (c.id_mode != SIMDEX_IDS_FROM_FIELD && c.id_mode != SIMDEX_IDS_ORDINAL) {
    return Status::InvalidArgument("id_mode " + std::to_string(c.id_mode) + " is not a SIMDEX_IDS_* value");
  }
  for (size_t i = 0; i < c.path_count; ++i) {
    if (c.paths[i] == nullptr) return Status::InvalidArgument("paths[" + std::to_string(i) + "] is NULL");
    f->paths.push_back(c.paths[i]);
  }
  if (c.format != SIMDEX_FORMAT_AUTO) {
    f->formats.assign(c.path_count, c.format == SIMDEX_FORMAT_JSONL ? simdex::DocumentFormat::kJsonl
                                                                    : simdex::DocumentFormat::kLines);
  }
  if (c.id_field != nullptr) f->id_field = c.id_field;
  for (size_t i = 0; i < c.text_field_count; ++i) {
    if (c.text_fields[i] == nullptr) return Status::InvalidArgument("text_fields[" + std::to_string(i) + "] is NULL");
    f->text_fields.push_back(c.text_fields[i]);
  }
  f->id_mode = c.id_mode == SIMDEX_IDS_ORDINAL ? simdex::IdMode::kOrdinal : simdex::IdMode::kField;
  f->skip_bad = c.skip_bad != 0;
  if (c.score_field != nullptr) f->score_field = c.score_field;
  return Status::OK();
}

// Runs `run` (the de-duplication of texts or of files) into a new result
// handle, given to the caller in *out on success.
template <typename Run>
simdex_code RunDedup(const simdex_minhash_dedup_options& c, simdex_minhash_dedup_result** out, char** errmsg,
                     std::unique_ptr<simdex_minhash_dedup_result> handle, Run&& run) {
  simdex::MinHashDedupOptions options;
  Status s = ToOptions(c, &options);
  if (s.ok()) s = run(options, handle.get());
  if (!s.ok()) return FromStatus(s, errmsg);
  for (size_t i = 0; i < c.against_count; ++i) handle->against_names.push_back(c.against[i]->path);
  *out = handle.release();
  return Succeed(errmsg);
}

const simdex::MinHashDedupResult* ResultOf(const simdex_minhash_dedup_result* r) {
  return r == nullptr ? nullptr : r->result.get();
}

}  // namespace

extern "C" {

void simdex_minhash_dedup_options_init(simdex_minhash_dedup_options* c) {
  if (c == nullptr) return;
  const simdex::MinHashDedupOptions o;
  *c = simdex_minhash_dedup_options{};
  c->threshold = o.threshold;
  c->estimate_filter = o.estimate_filter;
  c->seed = o.seed;
  c->memory_bytes = o.memory_bytes;
  c->confirm = nullptr;  // o.confirm is "": the exact mode's check
  c->tmpdir = nullptr;   // o.tmpdir is "": $TMPDIR, else /tmp
  c->exact = o.exact ? 1 : 0;
  c->num_perm = o.num_perm;
  c->bands = o.bands.bands;
  c->rows = o.bands.rows;
  c->signature_bits = o.signature_bits;
  c->keep = SIMDEX_KEEP_FIRST;
  c->keep_pairs = o.keep_pairs ? 1 : 0;
  c->allow_duplicate_ids = o.allow_duplicate_ids ? 1 : 0;
  c->threads = o.threads;
  c->shingles = SIMDEX_SHINGLES_AUTO;  // o.shingle_words is unset
}

void simdex_document_files_init(simdex_document_files* c) {
  if (c == nullptr) return;
  // The default id field's name, kept for the process's life.
  static const std::string* const kIdField = new std::string(simdex::DocumentFiles().id_field);
  *c = simdex_document_files{};
  c->id_field = kIdField->c_str();
  c->format = SIMDEX_FORMAT_AUTO;
  c->id_mode = SIMDEX_IDS_FROM_FIELD;
}

simdex_code simdex_minhash_dedup_texts(const char* const* texts, const size_t* lengths, const double* scores, size_t n,
                                       const simdex_minhash_dedup_options* options, simdex_minhash_dedup_result** out,
                                       char** errmsg) {
  if (out != nullptr) *out = nullptr;
  if (options == nullptr || out == nullptr || (texts == nullptr && n > 0)) {
    return Fail(SIMDEX_INVALID_ARGUMENT,
                "simdex_minhash_dedup_texts: options and out must not be NULL, nor texts when n > 0", errmsg);
  }
  if (options->keep == SIMDEX_KEEP_MAX_SCORE && scores == nullptr) {
    return Fail(SIMDEX_INVALID_ARGUMENT, "keep SIMDEX_KEEP_MAX_SCORE ranks the texts by their scores: pass scores",
                errmsg);
  }
  return Guard(errmsg, [&] {
    std::vector<std::string_view> given;
    if (simdex_code bad = simdex::capi::TextViews(texts, lengths, n, &given, errmsg); bad != SIMDEX_OK) return bad;
    // Copies: the result reads them again (confirmation, clusters), and an
    // FFI caller's memory need not outlive the call.
    auto handle = std::make_unique<simdex_minhash_dedup_result>();
    size_t bytes = 0;
    for (std::string_view t : given) bytes += t.size();
    handle->texts.reserve(bytes);
    for (std::string_view t : given) handle->texts.append(t);
    handle->views.resize(n);
    for (size_t i = 0, at = 0; i < n; at += given[i].size(), ++i) {
      handle->views[i] = std::string_view(handle->texts).substr(at, given[i].size());
    }
    if (scores != nullptr) handle->scores.assign(scores, scores + n);
    return RunDedup(*options, out, errmsg, std::move(handle),
                    [](const simdex::MinHashDedupOptions& o, simdex_minhash_dedup_result* h) {
                      return simdex::DeduplicateByMinHash(h->views, h->scores, o, nullptr, &h->result);
                    });
  });
}

simdex_code simdex_minhash_dedup_files(const simdex_document_files* files, const simdex_minhash_dedup_options* options,
                                       simdex_minhash_dedup_result** out, char** errmsg) {
  if (out != nullptr) *out = nullptr;
  if (files == nullptr || options == nullptr || out == nullptr) {
    return Fail(SIMDEX_INVALID_ARGUMENT, "simdex_minhash_dedup_files: files, options and out must not be NULL",
                errmsg);
  }
  if (options->keep == SIMDEX_KEEP_MAX_SCORE && (files->score_field == nullptr || *files->score_field == '\0')) {
    return Fail(SIMDEX_INVALID_ARGUMENT, "keep SIMDEX_KEEP_MAX_SCORE ranks the documents by a field: set score_field",
                errmsg);
  }
  return Guard(errmsg, [&] {
    simdex::DocumentFiles f;
    if (Status s = ToFiles(*files, &f); !s.ok()) return FromStatus(s, errmsg);
    return RunDedup(*options, out, errmsg, std::make_unique<simdex_minhash_dedup_result>(),
                    [&f](const simdex::MinHashDedupOptions& o, simdex_minhash_dedup_result* h) {
                      return simdex::DeduplicateByMinHash(f, o, nullptr, &h->result);
                    });
  });
}

uint64_t simdex_minhash_dedup_size(const simdex_minhash_dedup_result* r) {
  return r == nullptr ? 0 : r->result->size();
}

simdex_code simdex_minhash_dedup_records(const simdex_minhash_dedup_result* r, uint64_t first, size_t count,
                                         simdex_minhash_dedup_record* out) {
  auto record_of = [](const simdex::MinHashDedupResult& result, uint64_t o) {
    const simdex::MinHashDedupRecord m = result.Record(o);
    simdex_minhash_dedup_record c{};
    c.representative = m.representative;
    c.against_id = m.against_index >= 0 ? m.against_id : 0;
    c.estimate = m.estimate;
    c.against_estimate = m.against_index >= 0 ? m.against_estimate : 0;
    c.against_index = m.against_index;
    c.duplicate = m.duplicate ? 1 : 0;
    c.empty = m.empty ? 1 : 0;
    return c;
  };
  return simdex::capi::CopyRecords(ResultOf(r), first, count, out, record_of);
}

simdex_code simdex_minhash_dedup_id(const simdex_minhash_dedup_result* r, uint64_t ordinal, int* is_string,
                                    uint64_t* number, const char** data, size_t* size) {
  if (is_string != nullptr) *is_string = 0;
  if (number != nullptr) *number = 0;
  if (data != nullptr) *data = nullptr;
  if (size != nullptr) *size = 0;
  if (r == nullptr || is_string == nullptr || number == nullptr || data == nullptr || size == nullptr ||
      ordinal >= r->result->size()) {
    return SIMDEX_INVALID_ARGUMENT;
  }
  if (r->result->IdIsString(ordinal)) {
    const std::string_view s = r->result->IdString(ordinal);
    *is_string = 1;
    *data = s.data();
    *size = s.size();
  } else {
    *number = r->result->IdNumber(ordinal);
  }
  return SIMDEX_OK;
}

simdex_code simdex_minhash_dedup_stats(const simdex_minhash_dedup_result* r, simdex_minhash_dedup_info* out) {
  if (r == nullptr || out == nullptr) return SIMDEX_INVALID_ARGUMENT;
  const simdex::MinHashDedupStats& s = r->result->stats();
  *out = simdex_minhash_dedup_info{};
  out->documents = s.documents;
  out->empty = s.empty;
  out->skipped = r->result->skipped();
  out->distinct_signatures = s.distinct_signatures;
  out->candidates = s.candidates;
  out->kept = s.kept;
  out->document_pairs = s.document_pairs;
  out->confirm_candidates = s.confirm.candidates;
  out->confirmed = s.confirm.confirmed;
  out->clusters = s.clusters;
  out->clustered_documents = s.clustered_documents;
  out->against_duplicates = s.against_duplicates;
  out->bytes_spilled = s.bytes_spilled;
  out->estimate_filter = s.estimate_filter;
  out->bands = s.bands.bands;
  out->rows = s.bands.rows;
  return SIMDEX_OK;
}

simdex_code simdex_minhash_dedup_pairs(simdex_minhash_dedup_result* r, const simdex_minhash_dedup_pair** pairs,
                                       size_t* count, char** errmsg) {
  if (pairs != nullptr) *pairs = nullptr;
  if (count != nullptr) *count = 0;
  if (r == nullptr || pairs == nullptr || count == nullptr) {
    return Fail(SIMDEX_INVALID_ARGUMENT, "simdex_minhash_dedup_pairs: r, pairs and count must not be NULL", errmsg);
  }
  return Guard(errmsg, [&] {
    return r->pairs.Read(pairs, count, errmsg, [r](std::vector<simdex_minhash_dedup_pair>* into) {
      return r->result->ForEachPair([into](const simdex::MinHashDedupPair& p) {
        into->push_back(simdex_minhash_dedup_pair{p.a, p.b, p.estimate, p.similarity});
        return Status::OK();
      });
    });
  });
}

simdex_code simdex_minhash_dedup_write_records(const simdex_minhash_dedup_result* r, const char* path, char** errmsg) {
  if (r == nullptr || path == nullptr) {
    return Fail(SIMDEX_INVALID_ARGUMENT, "simdex_minhash_dedup_write_records: r and path must not be NULL", errmsg);
  }
  return Guard(errmsg, [&] { return FromStatus(r->result->WriteRecords(path, r->against_names), errmsg); });
}

simdex_code simdex_minhash_dedup_write_pairs(simdex_minhash_dedup_result* r, const char* path, char** errmsg) {
  if (r == nullptr || path == nullptr) {
    return Fail(SIMDEX_INVALID_ARGUMENT, "simdex_minhash_dedup_write_pairs: r and path must not be NULL", errmsg);
  }
  if (r->pairs.read()) {
    return Fail(SIMDEX_INVALID_ARGUMENT,
                "the pairs were read into memory by simdex_minhash_dedup_pairs; they are read once", errmsg);
  }
  return Guard(errmsg, [&] { return FromStatus(r->result->WritePairs(path), errmsg); });
}

simdex_code simdex_minhash_dedup_write_keep_list(const simdex_minhash_dedup_result* r, const char* path,
                                                 char** errmsg) {
  if (r == nullptr || path == nullptr) {
    return Fail(SIMDEX_INVALID_ARGUMENT, "simdex_minhash_dedup_write_keep_list: r and path must not be NULL", errmsg);
  }
  return Guard(errmsg, [&] { return FromStatus(r->result->WriteKeepList(path), errmsg); });
}

simdex_code simdex_minhash_dedup_write_clusters(const simdex_minhash_dedup_result* r, const char* path,
                                                int snippet_words, char** errmsg) {
  if (r == nullptr || path == nullptr || snippet_words < 0) {
    return Fail(SIMDEX_INVALID_ARGUMENT,
                "simdex_minhash_dedup_write_clusters: r and path must not be NULL, snippet_words not negative", errmsg);
  }
  return Guard(errmsg, [&] { return FromStatus(r->result->WriteClusters(path, snippet_words), errmsg); });
}

void simdex_minhash_dedup_free(simdex_minhash_dedup_result* r) { delete r; }

}  // extern "C"
