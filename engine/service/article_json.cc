#include "engine/service/article_json.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <vector>

#include <simdjson.h>

#include "simdex/front_end_text.h"

namespace simdex::service {

namespace {

constexpr std::string_view kIdRule = " must be a string or an unsigned 64-bit integer (no sign, fraction or exponent)";

// One parser per thread: simdjson parsers are not thread-safe, and reuse
// keeps their buffers.
simdjson::dom::parser& Parser() {
  thread_local simdjson::dom::parser parser;
  return parser;
}

// The JSON text of the top-level object's first field `name` as written
// ("-0", "1e0", 500 digits), or "" when there is none or the text is not an
// object. The parsed tree keeps numbers, not their text: this reads the
// text again, lazily, for the rare cases that need it.
std::string RawField(std::string_view json, std::string_view name) {
  thread_local simdjson::ondemand::parser parser;
  const simdjson::padded_string padded(json);
  simdjson::ondemand::document doc;
  simdjson::ondemand::object object;
  if (parser.iterate(padded).get(doc) || doc.get_object().get(object)) return {};
  for (auto field : object) {
    std::string_view key, raw;
    if (field.unescaped_key().get(key)) return {};
    if (key != name) continue;
    if (field.value().raw_json_token().get(raw)) return {};
    while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t' || raw.back() == '\n' || raw.back() == '\r')) {
      raw.remove_suffix(1);
    }
    return std::string(raw);
  }
  return {};
}

// The refusal of a number id written as `raw`, when the parser cannot tell
// (it reads -0 as 0 and fails on integers past 2^64 - 1 as "not valid
// JSON"); OK for an id it can judge.
Status NumberIdRefusal(std::string_view raw, std::string_view what) {
  if (raw.starts_with('-')) return Status::InvalidArgument(std::string(what) + std::string(kIdRule));
  uint64_t fits = 0;
  if (!raw.empty() && std::all_of(raw.begin(), raw.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
      !ParseDecimalUint64(raw, &fits)) {
    const std::string number = raw.size() <= 40 ? std::string(raw) : "a number of " + std::to_string(raw.size()) + " digits";
    return Status::InvalidArgument(std::string(what) + " " + number +
                                   " is out of range for an unsigned 64-bit id (0 to 18446744073709551615)");
  }
  return Status::OK();
}

// A key given twice (simdjson keeps both; every lookup took the first).
Status RefuseRepeatedKeys(simdjson::dom::object object) {
  std::vector<std::string_view> keys;
  for (auto field : object) keys.push_back(field.key);
  std::sort(keys.begin(), keys.end());
  const auto twice = std::adjacent_find(keys.begin(), keys.end());
  if (twice == keys.end()) return Status::OK();
  return Status::InvalidArgument("field " + simdex::Quoted(*twice) + " is given twice");
}

Status StringField(simdjson::dom::object object, const char* name, std::string* out) {
  simdjson::dom::element value;
  if (object.at_key(name).get(value)) return Status::InvalidArgument(std::string("field '") + name + "' is missing");
  std::string_view s;
  if (value.get_string().get(s)) return Status::InvalidArgument(std::string("field '") + name + "' must be a string");
  out->assign(s);
  return Status::OK();
}

// The canonical text of an article id (article_json.h) in *out;
// InvalidArgument naming `what` when `id` is neither a string nor an
// unsigned 64-bit integer.
Status ArticleIdJson(simdjson::dom::element id, std::string_view what, std::string* out) {
  int64_t i = 0;
  uint64_t u = 0;
  if (id.is_string()) {
    *out = simdjson::minify(id);
  } else if (id.type() == simdjson::dom::element_type::INT64 && !id.get_int64().get(i) && i >= 0) {
    *out = std::to_string(i);
  } else if (id.type() == simdjson::dom::element_type::UINT64 && !id.get_uint64().get(u)) {
    *out = std::to_string(u);
  } else {
    return Status::InvalidArgument(std::string(what) + std::string(kIdRule));
  }
  return Status::OK();
}

}  // namespace

Article ParsedArticle::view() const {
  Article a;
  a.id_json = id_json;
  a.url = url;
  a.title = title;
  a.content = content;
  a.score = score;
  a.json = json;
  return a;
}

Status ParseArticle(std::string_view json, const std::string& keep_field, ParsedArticle* out) {
  simdjson::dom::element root;
  if (auto err = Parser().parse(json.data(), json.size(), /*realloc_if_needed=*/true).get(root)) {
    if (err == simdjson::NUMBER_ERROR) SIMDEX_RETURN_IF_ERROR(NumberIdRefusal(RawField(json, "id"), "field 'id'"));
    return Status::InvalidArgument(std::string("not valid JSON: ") + simdjson::error_message(err));
  }
  simdjson::dom::object object;
  if (root.get_object().get(object)) return Status::InvalidArgument("an article must be a JSON object");
  SIMDEX_RETURN_IF_ERROR(RefuseRepeatedKeys(object));
  SIMDEX_RETURN_IF_ERROR(StringField(object, "url", &out->url));
  SIMDEX_RETURN_IF_ERROR(StringField(object, "title", &out->title));
  SIMDEX_RETURN_IF_ERROR(StringField(object, "content", &out->content));
  out->id_json.clear();
  simdjson::dom::element id;
  if (!object.at_key("id").get(id) && !id.is_null()) {
    SIMDEX_RETURN_IF_ERROR(ArticleIdJson(id, "field 'id'", &out->id_json));
    if (out->id_json == "0") SIMDEX_RETURN_IF_ERROR(NumberIdRefusal(RawField(json, "id"), "field 'id'"));  // -0
  }
  out->score = -std::numeric_limits<double>::infinity();
  if (!keep_field.empty()) {
    simdjson::dom::element v;
    if (!object.at_key(keep_field).get(v) && !v.is_null()) {
      double d;
      if (v.get_double().get(d)) return Status::InvalidArgument("field '" + keep_field + "' must be a number");
      out->score = d;
    }
  }
  out->json.assign(json);
  return Status::OK();
}

Status ParseArticleId(std::string_view text, std::string_view what, std::string* out) {
  simdjson::dom::element id;
  if (Parser().parse(text.data(), text.size(), /*realloc_if_needed=*/true).get(id)) {
    SIMDEX_RETURN_IF_ERROR(NumberIdRefusal(text, what));
    return Status::InvalidArgument(std::string(what) + " is not valid JSON");
  }
  SIMDEX_RETURN_IF_ERROR(ArticleIdJson(id, what, out));
  return *out == "0" ? NumberIdRefusal(text, what) : Status::OK();
}

Status ContentOf(std::string_view json, std::string* content) {
  simdjson::dom::element root;
  simdjson::dom::object object;
  if (Parser().parse(json.data(), json.size(), /*realloc_if_needed=*/true).get(root) || root.get_object().get(object)) {
    return Status::Corruption("not a JSON object");
  }
  Status s = StringField(object, "content", content);
  return s.ok() ? s : Status::Corruption(s.message());
}

void AppendAnswer(std::string* out, const DocIdAnswer& a) {
  out->append("{\"docId\":\"").append(FormatDocId(a.doc_id));
  out->append("\",\"status\":\"success\",\"filterStatus\":\"").append(a.duplicate ? "duplicate" : "good");
  out->append("\",\"filterReason\":\"").append(FilterReasonName(a.reason)).push_back('"');
  if (a.duplicate) {
    out->append(",\"matched\":{\"id\":").append(a.matched_id_json.empty() ? "null" : a.matched_id_json);
    if (a.similarity > 0) {  // a MinHash content match: the estimate, no fingerprint distance
      char similarity[32];
      std::snprintf(similarity, sizeof similarity, "%.6g", a.similarity);
      out->append(",\"similarity\":").append(similarity).push_back('}');
    } else {
      out->append(",\"distance\":").append(std::to_string(a.distance)).push_back('}');
    }
  }
  if (a.replayed) out->append(",\"replayed\":true");
  out->push_back('}');
}

}  // namespace simdex::service
