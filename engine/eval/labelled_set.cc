// ReadLabelledSet (include/simdex/eval.h): JSON Lines with string fields
// id, text, cluster and an optional topic.
#include <simdjson.h>

#include "engine/eval/json_lines.h"
#include "simdex/eval.h"

namespace simdex {
namespace {

Status StringField(simdjson::dom::object object, const char* name, bool required, std::string* out) {
  simdjson::dom::element value;
  if (object[name].get(value) != simdjson::SUCCESS) {
    if (!required) return Status::OK();
    return Status::InvalidArgument(std::string("field '") + name + "' is missing");
  }
  std::string_view s;
  if (value.get(s) != simdjson::SUCCESS) {
    return Status::InvalidArgument(std::string("field '") + name + "' is not a string");
  }
  out->assign(s);
  return Status::OK();
}

}  // namespace

Status ReadLabelledSet(const std::string& path, std::vector<LabelledDocument>* out, bool require_cluster) {
  std::vector<LabelledDocument> docs;
  SIMDEX_RETURN_IF_ERROR(eval::ForEachJsonObject(path, [&](simdjson::dom::object object) {
    LabelledDocument doc;
    Status s = StringField(object, "id", true, &doc.id);
    if (s.ok()) s = StringField(object, "text", true, &doc.text);
    if (s.ok()) s = StringField(object, "cluster", require_cluster, &doc.cluster);
    if (s.ok()) s = StringField(object, "topic", false, &doc.topic);
    if (s.ok()) docs.push_back(std::move(doc));
    return s;
  }));
  *out = std::move(docs);
  return Status::OK();
}

}  // namespace simdex
