#include "engine/text/list_file.h"

#include <fstream>
#include <sstream>

#include "engine/util/pending_file.h"  // ErrnoError

namespace simdex::text {

std::string_view TrimBlanks(std::string_view line) {
  size_t b = 0, e = line.size();
  while (b < e && (line[b] == ' ' || line[b] == '\t')) ++b;
  while (e > b && (line[e - 1] == ' ' || line[e - 1] == '\t')) --e;
  return line.substr(b, e - b);
}

Status ForEachListLine(const std::string& path, const std::function<Status(std::string_view, size_t)>& fn,
                       const std::function<Status(std::string_view, size_t)>& comment) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return util::ErrnoError(path + ": cannot open");
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) return Status::IOError(path + ": read failed");
  const std::string data = contents.str();
  std::string_view rest(data);
  size_t line_number = 0;
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::string_view trimmed = TrimBlanks(line);
    if (!trimmed.empty() && trimmed.front() == '#' && comment) {
      SIMDEX_RETURN_IF_ERROR(comment(line.substr(line.find('#')), line_number));
    }
    if (trimmed.empty() || trimmed.front() == '#') continue;
    SIMDEX_RETURN_IF_ERROR(fn(line, line_number));
  }
  return Status::OK();
}

}  // namespace simdex::text
