// ForEachJsonObject (engine/eval/json_lines.h).
#include "engine/eval/json_lines.h"

#include <fstream>

namespace simdex::eval {

Status ForEachJsonObject(const std::string& path, const std::function<Status(simdjson::dom::object)>& fn) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError(path + ": cannot open");
  simdjson::dom::parser parser;
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
    if (Status s = fn(object); !s.ok()) return where(s.message());
  }
  if (in.bad()) return Status::IOError(path + ": read error");
  return Status::OK();
}

}  // namespace simdex::eval
