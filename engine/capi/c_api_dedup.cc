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

void ToFiles(const simdex_document_files& c, DocumentFiles* f) {
  CheckReserved(c.reserved32, c.reserved, "simdex_document_files");
  Require(c.paths != nullptr || c.path_count == 0, "paths is NULL");
  Require(c.text_fields != nullptr || c.text_field_count == 0, "text_fields is NULL");
  RequireIn(c.format, SIMDEX_FORMAT_AUTO, SIMDEX_FORMAT_LINES, "format", "SIMDEX_FORMAT_");
  constexpr IdMode kIdModes[] = {IdMode::kField, IdMode::kOrdinal};  // by SIMDEX_IDS_*
  const IdMode id_mode = FromC(kIdModes, c.id_mode, "id_mode", "SIMDEX_IDS_");
  for (size_t i = 0; i < c.path_count; ++i) {
    if (c.paths[i] == nullptr) Invalid("paths[" + std::to_string(i) + "] is NULL");
    f->paths.push_back(c.paths[i]);
  }
  if (c.format != SIMDEX_FORMAT_AUTO) {
    f->formats.assign(c.path_count, c.format == SIMDEX_FORMAT_JSONL ? DocumentFormat::kJsonl : DocumentFormat::kLines);
  }
  if (c.id_field != nullptr) f->id_field = c.id_field;
  for (size_t i = 0; i < c.text_field_count; ++i) {
    if (c.text_fields[i] == nullptr) Invalid("text_fields[" + std::to_string(i) + "] is NULL");
    f->text_fields.push_back(c.text_fields[i]);
  }
  f->id_mode = id_mode;
  f->skip_bad = c.skip_bad != 0;
  if (c.score_field != nullptr) f->score_field = c.score_field;
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
