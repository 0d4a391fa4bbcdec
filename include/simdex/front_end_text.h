// The text rules a front end shares with the library, so that what it
// prints and reads agrees with simdex's own messages and records: input
// quoted in one-line messages, counts, JSON strings and ids, the rule for
// string ids, decimal ids, and the name of an input in messages. The
// `simdex` command line and the docId service use these.
//
// Thread safety: every function is pure (CanReadTwice asks the file system).
#ifndef SIMDEX_FRONT_END_TEXT_H_
#define SIMDEX_FRONT_END_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "simdex/status.h"

namespace simdex {

// Text from outside (a line, an id, an argument) as it may appear in a
// one-line message: every control byte (0x00-0x1F, 0x7F) written as an
// escape (\t, \n, \r or \xNN), other bytes (UTF-8 included) as they are, so
// that none reaches a terminal or a log unescaped. When s is longer than
// max_bytes, only its first max_bytes bytes (fewer, to end at a UTF-8
// character boundary) are kept, followed by "...".
std::string Printable(std::string_view s, size_t max_bytes = std::string_view::npos);

// Printable(s, 40) in single quotes: "'9f3a0c71z'", for the excerpts of bad
// input that error messages quote.
std::string Quoted(std::string_view s);

// n and the noun, singular for n == 1; the plural is singular + "s" unless
// given ("index", "indexes"; "entry", "entries"): "1 cluster", "2 clusters",
// "0 clusters", as the commands' messages and IndexFile::VerifySummary count.
inline std::string Count(uint64_t n, std::string_view singular, std::string_view plural = {}) {
  std::string out = std::to_string(n);
  out.push_back(' ');
  if (n == 1) return out.append(singular);
  if (!plural.empty()) return out.append(plural);
  return out.append(singular).append("s");
}

// Appends `text` as a quoted JSON string (RFC 8259): '"' and '\' are
// escaped, control characters below U+0020 become \n, \t, \r, \b, \f or
// \u00XX, and every byte that is not part of valid UTF-8 becomes U+FFFD
// (JSON text is UTF-8).
void AppendJsonString(std::string* out, std::string_view text);

// Appends a document id as simdex's records write it: `id_string` as a
// JSON string when it is not empty, else `id` as a JSON number.
void AppendJsonId(std::string* out, uint64_t id, std::string_view id_string);

// The rule for string ids, shared by every reader of ids (JSONL records,
// fingerprint files, id lists): a string id is 1 to kMaxStringIdBytes bytes
// of valid UTF-8 without control characters (U+0000..U+001F, U+007F), so
// that it can be written back in a text line or a JSON string unchanged.
inline constexpr size_t kMaxStringIdBytes = 4096;

// OK, or InvalidArgument naming what is wrong ("id is empty", "id is not
// valid UTF-8 at byte 3", "id holds control character 0x09 at byte 5").
Status CheckStringId(std::string_view id);

// Parses 1 to 20 ASCII digits (leading zeros allowed; no sign, space or
// other character) into *out, as numeric ids are read. Returns false,
// leaving *out untouched, when s is not such a number or exceeds 2^64 - 1.
inline bool ParseDecimalUint64(std::string_view s, uint64_t* out) {
  if (s.empty() || s.size() > 20) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

// The name of an input in messages: path, or "<stdin>" for "-".
std::string DisplayName(const std::string& path);

// True when path is a regular file, which can be read again from the start
// (not standard input, a pipe, a device): what options that read their
// input twice require.
bool CanReadTwice(const std::string& path);

}  // namespace simdex

#endif  // SIMDEX_FRONT_END_TEXT_H_
