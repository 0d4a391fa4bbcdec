// Extracts the id and the text of one JSONL record (one JSON object).
#ifndef SIMDEX_ENGINE_IO_JSON_RECORD_H_
#define SIMDEX_ENGINE_IO_JSON_RECORD_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "simdex/status.h"

namespace simdex::io {

class JsonRecordParser {
 public:
  // id_field empty: records carry no id (Parse leaves *id alone).
  // REQUIRES: text_fields not empty.
  JsonRecordParser(std::string id_field, std::vector<std::string> text_fields);

  // Parses line as a JSON object; *id = its id_field (an unsigned 64-bit
  // integer, as a number or a string of decimal digits), *text = its
  // text_fields joined with "\n" (null counts as ""). On a bad record returns
  // InvalidArgument with the reason, without file or line ("field 'id' is
  // missing"). REQUIRES: simdjson::SIMDJSON_PADDING readable bytes follow
  // line (their values do not matter).
  Status Parse(std::string_view line, uint64_t* id, std::string* text);

 private:
  std::string id_field_;
  std::vector<std::string> text_fields_;
  simdjson::dom::parser parser_;
};

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_JSON_RECORD_H_
