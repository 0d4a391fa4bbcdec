#include "engine/io/json_record.h"

#include "engine/io/decimal.h"

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

JsonRecordParser::JsonRecordParser(std::string id_field, std::vector<std::string> text_fields)
    : id_field_(std::move(id_field)), text_fields_(std::move(text_fields)) {}

Status JsonRecordParser::Parse(std::string_view line, uint64_t* id, std::string* text) {
  simdjson::dom::element root;
  simdjson::error_code err = parser_.parse(line.data(), line.size(), false).get(root);
  if (err) return Status::InvalidArgument(std::string("invalid JSON (") + simdjson::error_message(err) + ")");
  simdjson::dom::object object;
  if (root.get_object().get(object)) return Status::InvalidArgument("record is not a JSON object");

  if (!id_field_.empty()) {
    simdjson::dom::element value;
    if (object.at_key(id_field_).get(value)) {
      return Status::InvalidArgument("field '" + id_field_ + "' is missing");
    }
    switch (value.type()) {
      case simdjson::dom::element_type::UINT64:
        *id = value.get_uint64().value_unsafe();
        break;
      case simdjson::dom::element_type::INT64: {
        int64_t v = value.get_int64().value_unsafe();
        if (v < 0) return NotAnId(id_field_, value);
        *id = static_cast<uint64_t>(v);
        break;
      }
      case simdjson::dom::element_type::STRING:
        if (!ParseDecimalUint64(value.get_string().value_unsafe(), id)) return NotAnId(id_field_, value);
        break;
      default:
        return NotAnId(id_field_, value);
    }
  }

  text->clear();
  for (size_t i = 0; i < text_fields_.size(); ++i) {
    if (i > 0) text->push_back('\n');
    simdjson::dom::element value;
    if (object.at_key(text_fields_[i]).get(value)) {
      return Status::InvalidArgument("field '" + text_fields_[i] + "' is missing");
    }
    if (value.is_null()) continue;
    std::string_view s;
    if (value.get_string().get(s)) {
      return Status::InvalidArgument("field '" + text_fields_[i] + "' is not a string: " + Excerpt(value));
    }
    text->append(s);
  }
  return Status::OK();
}

}  // namespace simdex::io
