// Extracts the id and the text of one JSONL record (one JSON object).
#ifndef SIMDEX_ENGINE_IO_JSON_RECORD_H_
#define SIMDEX_ENGINE_IO_JSON_RECORD_H_

#include <cstdint>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "simdex/document_reader.h"
#include "simdex/status.h"

namespace simdex::io {

class JsonRecordParser {
 public:
  // The JSONL fields of `options` (REQUIRES: DocumentReader::Open accepts them).
  explicit JsonRecordParser(const DocumentReaderOptions& options);

  // Parses line as a JSON object into *doc (DocumentReader's rules, in
  // document_reader.h): id or id_string from id_field (left alone under
  // IdMode::kOrdinal), text from text_fields, score from score_field, title
  // from title_field (which never makes a record bad). On a bad record
  // returns InvalidArgument with the reason, without file or line ("field
  // 'id' is missing"). REQUIRES: simdjson::SIMDJSON_PADDING readable bytes
  // follow line (their values do not matter).
  Status Parse(std::string_view line, Document* doc);

 private:
  Status ParseId(simdjson::dom::object object, Document* doc) const;

  DocumentReaderOptions options_;
  simdjson::dom::parser parser_;
};

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_JSON_RECORD_H_
