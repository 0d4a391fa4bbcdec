#include "bench/harness/json_writer.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>

namespace simdex::bench {
namespace {

std::string NumberText(double value) {
  if (!std::isfinite(value)) return "null";
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof(buf), value);
  return std::string(buf, r.ptr);
}

}  // namespace

std::string JsonQuote(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static const char kHex[] = "0123456789abcdef";
          out += "\\u00";
          out += kHex[(c >> 4) & 0xf];
          out += kHex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::string& JsonObject::Key(std::string_view key) {
  if (!body_.empty()) body_ += ", ";
  body_ += JsonQuote(key);
  body_ += ": ";
  return body_;
}

JsonObject& JsonObject::AddString(std::string_view key, std::string_view value) {
  Key(key) += JsonQuote(value);
  return *this;
}

JsonObject& JsonObject::AddNumber(std::string_view key, double value) {
  Key(key) += NumberText(value);
  return *this;
}

JsonObject& JsonObject::AddInt(std::string_view key, int64_t value) {
  Key(key) += std::to_string(value);
  return *this;
}

JsonObject& JsonObject::AddUint(std::string_view key, uint64_t value) {
  Key(key) += std::to_string(value);
  return *this;
}

JsonObject& JsonObject::AddBool(std::string_view key, bool value) {
  Key(key) += value ? "true" : "false";
  return *this;
}

JsonObject& JsonObject::AddNull(std::string_view key) {
  Key(key) += "null";
  return *this;
}

JsonObject& JsonObject::AddObject(std::string_view key, const JsonObject& value) {
  Key(key) += value.str();
  return *this;
}

JsonObject& JsonObject::AddNumbers(std::string_view key, std::span<const double> values) {
  AddArray(key, values, NumberText);
  return *this;
}

JsonObject& JsonObject::AddStrings(std::string_view key, std::span<const std::string> values) {
  AddArray(key, values, [](const std::string& v) { return JsonQuote(v); });
  return *this;
}

JsonObject& JsonObject::AddFields(const JsonObject& other) {
  if (other.body_.empty()) return *this;
  if (!body_.empty()) body_ += ", ";
  body_ += other.body_;
  return *this;
}

JsonLinesWriter::~JsonLinesWriter() {
  if (owned_) std::fclose(file_);
}

Status JsonLinesWriter::Open(const std::string& path) {
  if (path == "-") {
    file_ = stdout;
    name_ = "<stdout>";
    return Status::OK();
  }
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) return Status::IOError(path + ": cannot open for writing: " + std::strerror(errno));
  owned_ = true;
  name_ = path;
  return Status::OK();
}

Status JsonLinesWriter::Write(const JsonObject& object) {
  const std::string line = object.str() + "\n";
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0) {
    return Status::IOError(name_ + ": write failed: " + std::strerror(errno));
  }
  return Status::OK();
}

}  // namespace simdex::bench
