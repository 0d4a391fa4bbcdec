#include "engine/service/article_json.h"

#include <cstdio>
#include <limits>

#include <simdjson.h>

namespace simdex::service {

namespace {

// One parser per thread: simdjson parsers are not thread-safe, and reuse
// keeps their buffers.
simdjson::dom::parser& Parser() {
  thread_local simdjson::dom::parser parser;
  return parser;
}

Status StringField(simdjson::dom::object object, const char* name, std::string* out) {
  simdjson::dom::element value;
  if (object.at_key(name).get(value)) return Status::InvalidArgument(std::string("field '") + name + "' is missing");
  std::string_view s;
  if (value.get_string().get(s)) return Status::InvalidArgument(std::string("field '") + name + "' must be a string");
  out->assign(s);
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
    return Status::InvalidArgument(std::string("not valid JSON: ") + simdjson::error_message(err));
  }
  simdjson::dom::object object;
  if (root.get_object().get(object)) return Status::InvalidArgument("an article must be a JSON object");
  SIMDEX_RETURN_IF_ERROR(StringField(object, "url", &out->url));
  SIMDEX_RETURN_IF_ERROR(StringField(object, "title", &out->title));
  SIMDEX_RETURN_IF_ERROR(StringField(object, "content", &out->content));
  out->id_json.clear();
  simdjson::dom::element id;
  if (!object.at_key("id").get(id) && !id.is_null()) SIMDEX_RETURN_IF_ERROR(ArticleIdJson(id, "field 'id'", &out->id_json));
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
    return Status::InvalidArgument(std::string(what) +
                                   " must be a string or an unsigned 64-bit integer (no sign, fraction or exponent)");
  }
  return Status::OK();
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
