// Extracts the id and the text of one JSONL record (one JSON object).
#ifndef SIMDEX_ENGINE_IO_JSON_RECORD_H_
#define SIMDEX_ENGINE_IO_JSON_RECORD_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "simdex/document_reader.h"
#include "simdex/status.h"

namespace simdex::io {

struct JsonRecordOptions {
  std::string id_field;  // empty: records carry no id (Parse leaves the id alone)
  std::vector<std::string> text_fields;  // REQUIRES: not empty
  bool allow_string_ids = false;
  std::string score_field;  // empty: none
  std::string title_field;  // empty: none
};

class JsonRecordParser {
 public:
  explicit JsonRecordParser(JsonRecordOptions options);

  // Parses line as a JSON object into *doc (DocumentReader's rules, in
  // document_reader.h): id or id_string from id_field, text from
  // text_fields, score from score_field, title from title_field (which
  // never makes a record bad). On a bad record returns
  // InvalidArgument with the reason, without file or line ("field 'id' is
  // missing"). REQUIRES: simdjson::SIMDJSON_PADDING readable bytes follow
  // line (their values do not matter).
  Status Parse(std::string_view line, Document* doc);

 private:
  Status ParseId(simdjson::dom::object object, Document* doc) const;

  JsonRecordOptions options_;
  simdjson::dom::parser parser_;
};

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_JSON_RECORD_H_
