// The line shape that the text fingerprint file and the MinHash signature
// file share (docs/fingerprint-files.md): "<id>\t<value>" for a document,
// "<id>\t-\t<reason>" for one without a value, the id an unsigned 64-bit
// decimal or else a string id (include/simdex/front_end_text.h); and the header lines
// that open them. Each format parses and writes its own value; the id, the
// empty-document form and the header markers are parsed and written here,
// once.
#ifndef SIMDEX_ENGINE_IO_TEXT_RECORD_H_
#define SIMDEX_ENGINE_IO_TEXT_RECORD_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/util/json_text.h"  // the values' hex digits: kHexValue, AppendHex
#include "simdex/status.h"

namespace simdex::io {

// The first line of a text fingerprint file that records its profile.
inline constexpr std::string_view kTextProfilePrefix{"#simdex-profile\t"};
// The first line of every MinHash signature file: the prefix, then the
// signature profile (MinHashProfile, include/simdex/minhash.h).
inline constexpr std::string_view kSignatureHeaderPrefix{"#simdex-signatures\t"};

// One line split into its fields; the views point into the line.
struct TextRecord {
  uint64_t id = 0;              // the id when it is numeric
  std::string_view id_string;   // the id when it is a string; empty when numeric
  bool empty = false;           // "<id>\t-\t<reason>"
  std::string_view reason;      // when empty
  std::string_view value;       // when !empty: everything after the first tab
};

// Splits a line (without its end of line). `value_name` names the value in
// messages ("fingerprint", "signature"). InvalidArgument, without file or
// line, for a line without a tab, a bad string id, or a '-' not followed by
// "<TAB><reason>".
Status SplitTextRecord(std::string_view line, std::string_view value_name, TextRecord* out);

// Whether a string id is the name of a header line ("#simdex-profile",
// "#simdex-signatures"): an id anywhere but on a text file's first line,
// where a reader takes it for the header.
bool IsHeaderName(std::string_view id);

// Appends "<id>\t": the decimal id when id_string is null, else the string
// id (REQUIRES: CheckStringId(*id_string) passed). first_line: nothing
// precedes it in the file. Readers drop a byte order mark (U+FEFF) at the
// very start of a file, so a first string id that begins with one gets one
// more in front; a first id that readers would take for a header line
// ("#simdex-profile", "#simdex-signatures") is refused.
Status AppendIdField(uint64_t id, const std::string_view* id_string, bool first_line, std::string* out);

// Appends "-\t<reason>\n". REQUIRES: reason is not empty and holds no tab,
// '\r' or '\n'.
void AppendEmptyFields(std::string_view reason, std::string* out);

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_TEXT_RECORD_H_
