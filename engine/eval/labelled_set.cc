// ReadLabelledSet (include/simdex/eval.h): JSON Lines with string fields
// id, text, cluster and an optional topic.
#include <fstream>

#include <simdjson.h>

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
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError(path + ": cannot open");
  simdjson::dom::parser parser;
  std::vector<LabelledDocument> docs;
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto where = [&](const std::string& why) {
      return Status::InvalidArgument(path + ":" + std::to_string(number) + ": " + why);
    };
    simdjson::dom::element root;
    if (auto err = parser.parse(line).get(root); err != simdjson::SUCCESS) {
      return where(std::string("not JSON: ") + simdjson::error_message(err));
    }
    simdjson::dom::object object;
    if (root.get(object) != simdjson::SUCCESS) return where("not a JSON object");
    LabelledDocument doc;
    Status s = StringField(object, "id", true, &doc.id);
    if (s.ok()) s = StringField(object, "text", true, &doc.text);
    if (s.ok()) s = StringField(object, "cluster", require_cluster, &doc.cluster);
    if (s.ok()) s = StringField(object, "topic", false, &doc.topic);
    if (!s.ok()) return where(s.message());
    docs.push_back(std::move(doc));
  }
  if (in.bad()) return Status::IOError(path + ": read error");
  *out = std::move(docs);
  return Status::OK();
}

}  // namespace simdex
