#include "engine/io/json_record.h"

#include <limits>

#include "simdex/front_end_text.h"

namespace simdex::io {

namespace {

// A JSON value as it appears in the record, shortened for a message.
std::string Excerpt(simdjson::dom::element value) {
  constexpr size_t kMax = 40;
  std::string s = simdjson::minify(value);
  if (s.size() > kMax) s = s.substr(0, kMax) + "...";
  return s;
}

Status NotAnId(const std::string& field, simdjson::dom::element value) {
  return Status::InvalidArgument("field '" + field + "' is not an unsigned 64-bit integer: " +
                                 Excerpt(value));
}

}  // namespace

JsonRecordParser::JsonRecordParser(const DocumentReaderOptions& options) : options_(options) {}

Status JsonRecordParser::ParseId(simdjson::dom::object object, Document* doc) const {
  const std::string& field = options_.id_field;
  simdjson::dom::element value;
  if (object.at_key(field).get(value)) return Status::InvalidArgument("field '" + field + "' is missing");
  doc->id_string.clear();
  switch (value.type()) {
    case simdjson::dom::element_type::UINT64:
      doc->id = value.get_uint64().value_unsafe();
      return Status::OK();
    case simdjson::dom::element_type::INT64: {
      const int64_t v = value.get_int64().value_unsafe();
      if (v < 0) return NotAnId(field, value);
      doc->id = static_cast<uint64_t>(v);
      return Status::OK();
    }
    case simdjson::dom::element_type::STRING: {
      const std::string_view s = value.get_string().value_unsafe();
      if (ParseDecimalUint64(s, &doc->id)) return Status::OK();
      if (!options_.allow_string_ids) return NotAnId(field, value);
      Status ok = simdex::CheckStringId(s);
      if (!ok.ok()) return ok.WithContext("field '" + field + "'");
      doc->id_string.assign(s);
      return Status::OK();
    }
    default:
      return NotAnId(field, value);
  }
}

Status JsonRecordParser::Parse(std::string_view line, Document* doc) {
  simdjson::dom::element root;
  simdjson::error_code err = parser_.parse(line.data(), line.size(), false).get(root);
  if (err) return Status::InvalidArgument(std::string("invalid JSON (") + simdjson::error_message(err) + ")");
  simdjson::dom::object object;
  if (root.get_object().get(object)) return Status::InvalidArgument("record is not a JSON object");
  if (options_.id_mode == IdMode::kField) SIMDEX_RETURN_IF_ERROR(ParseId(object, doc));
  doc->score = -std::numeric_limits<double>::infinity();
  if (!options_.score_field.empty()) {
    simdjson::dom::element value;
    if (!object.at_key(options_.score_field).get(value) && !value.is_null()) {
      if (value.get_double().get(doc->score)) {
        return Status::InvalidArgument("field '" + options_.score_field + "' is not a number: " + Excerpt(value));
      }
    }
  }
  doc->title.clear();
  if (!options_.title_field.empty()) {
    simdjson::dom::element value;
    if (!object.at_key(options_.title_field).get(value) && !value.is_null()) {
      std::string_view s;
      if (value.get_string().get(s)) doc->title = simdjson::minify(value);
      else doc->title.assign(s);
    }
  }
  std::string* text = &doc->text;
  text->clear();
  const std::vector<std::string>& fields = options_.text_fields;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) text->push_back('\n');
    simdjson::dom::element value;
    if (object.at_key(fields[i]).get(value)) return Status::InvalidArgument("field '" + fields[i] + "' is missing");
    if (value.is_null()) continue;
    std::string_view s;
    if (value.get_string().get(s)) {
      return Status::InvalidArgument("field '" + fields[i] + "' is not a string: " + Excerpt(value));
    }
    text->append(s);
  }
  return Status::OK();
}

}  // namespace simdex::io
