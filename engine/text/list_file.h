// Reading the small line-oriented list files (stop words, idf tables).
#ifndef SIMDEX_ENGINE_TEXT_LIST_FILE_H_
#define SIMDEX_ENGINE_TEXT_LIST_FILE_H_

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "simdex/status.h"

namespace simdex::text {

// Calls fn(line, line_number) for every line of the file that is neither
// blank nor a comment (first non-blank character '#'); line numbers start at
// 1 and the line excludes its "\n" or "\r\n". Stops at and returns the first
// error fn returns; an unreadable file is an IOError naming the path. With
// `comment`, the comment lines go to it (trimmed of leading blanks), so
// that a file can carry settings old readers skip.
Status ForEachListLine(const std::string& path,
                       const std::function<Status(std::string_view line, size_t line_number)>& fn,
                       const std::function<Status(std::string_view line, size_t line_number)>& comment = nullptr);

// line without leading and trailing spaces and tabs.
std::string_view TrimBlanks(std::string_view line);

}  // namespace simdex::text

#endif  // SIMDEX_ENGINE_TEXT_LIST_FILE_H_
