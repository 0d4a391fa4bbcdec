// The parts of the C interface's de-duplication that both methods share
// (engine/capi/c_api_dedup.h): the documents of files, the keep rule.
#include "engine/capi/c_api_dedup.h"

#include <string>

#include "simdex/batch.h"
#include "simdex/simdex_c.h"
#include "simdex/status.h"

namespace simdex::capi {

static_assert(sizeof(void*) != 8 || sizeof(simdex_document_files) == 96,
              "simdex_document_files is documented as 96 bytes on 64-bit systems");

Status ToFiles(const simdex_document_files& c, DocumentFiles* f) {
  SIMDEX_RETURN_IF_ERROR(CheckReserved(c.reserved32, c.reserved, "simdex_document_files"));
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
    f->formats.assign(c.path_count, c.format == SIMDEX_FORMAT_JSONL ? DocumentFormat::kJsonl : DocumentFormat::kLines);
  }
  if (c.id_field != nullptr) f->id_field = c.id_field;
  for (size_t i = 0; i < c.text_field_count; ++i) {
    if (c.text_fields[i] == nullptr) return Status::InvalidArgument("text_fields[" + std::to_string(i) + "] is NULL");
    f->text_fields.push_back(c.text_fields[i]);
  }
  f->id_mode = c.id_mode == SIMDEX_IDS_ORDINAL ? IdMode::kOrdinal : IdMode::kField;
  f->skip_bad = c.skip_bad != 0;
  if (c.score_field != nullptr) f->score_field = c.score_field;
  return Status::OK();
}

Status ToKeepRule(int32_t keep, KeepRule* rule) {
  switch (keep) {
    case SIMDEX_KEEP_FIRST: *rule = KeepRule::kFirst; return Status::OK();
    case SIMDEX_KEEP_LONGEST: *rule = KeepRule::kLongest; return Status::OK();
    case SIMDEX_KEEP_MAX_SCORE: *rule = KeepRule::kField; return Status::OK();
  }
  return Status::InvalidArgument("keep " + std::to_string(keep) + " is not a SIMDEX_KEEP_* value");
}

}  // namespace simdex::capi

extern "C" {

void simdex_document_files_init(simdex_document_files* c) {
  if (c == nullptr) return;
  // The default id field's name, kept for the process's life.
  static const std::string* const kIdField = new std::string(simdex::DocumentFiles().id_field);
  *c = simdex_document_files{};
  c->id_field = kIdField->c_str();
  c->format = SIMDEX_FORMAT_AUTO;
  c->id_mode = SIMDEX_IDS_FROM_FIELD;
}

}  // extern "C"
