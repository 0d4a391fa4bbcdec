// The pretty JSON of IndexFile::InspectJson (`simdex inspect`): one member
// a line at a fixed indent, keys in the order written, ratios with four
// decimals or null.
#ifndef SIMDEX_ENGINE_UTIL_INSPECT_JSON_H_
#define SIMDEX_ENGINE_UTIL_INSPECT_JSON_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace simdex::util {

// Writes the members of one JSON object, one per line, at a fixed indent.
class JsonObject {
 public:
  JsonObject(std::string* out, int indent) : out_(out), indent_(indent) { out_->append("{"); }

  void Int(const char* key, uint64_t v) { Key(key).append(std::to_string(v)); }
  void Bool(const char* key, bool v) { Key(key).append(v ? "true" : "false"); }
  void String(const char* key, const std::string& v) { Key(key).append("\"").append(v).append("\""); }
  void IntArray(const char* key, const std::vector<int>& v) {
    std::string& out = Key(key);
    out.append("[");
    for (size_t i = 0; i < v.size(); ++i) out.append(i > 0 ? ", " : "").append(std::to_string(v[i]));
    out.append("]");
  }
  // A ratio num / den with 4 decimals, or null when den is 0.
  void Ratio(const char* key, double num, double den) {
    if (den == 0) {
      Key(key).append("null");
      return;
    }
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.4f", num / den);
    Key(key).append(buf);
  }
  // Starts a member whose value the caller appends; returns the output.
  std::string& Key(const char* key) {
    out_->append(first_ ? "\n" : ",\n").append(indent_ + 2, ' ');
    first_ = false;
    return out_->append("\"").append(key).append("\": ");
  }
  void Close() { out_->append("\n").append(indent_, ' ').append("}"); }

 private:
  std::string* out_;
  int indent_;
  bool first_ = true;
};

// The members about ids and the format, the same for every kind of index
// (an IndexInfo or an LshIndexInfo).
template <class Info>
void IdMembers(const Info& info, JsonObject* root) {
  root->Int("id_bytes", info.id_bytes);
  root->Int("id_width", static_cast<uint64_t>(info.id_width));
  root->Bool("string_ids", info.string_ids);
  root->Int("id_map_strings", info.id_map_strings);
  root->Int("id_map_bytes", info.id_map_bytes);
  root->Int("format_version", info.format_version);
}

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_INSPECT_JSON_H_
