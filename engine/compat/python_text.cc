// Decode, lowercase and filter, one piece of the input at a time: ICU works on
// UTF-16 with int32_t lengths, and bounded pieces keep the per-thread scratch
// buffers small whatever the document size.
#include "engine/compat/python_text.h"

#include <unicode/uchar.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <cassert>

#include "engine/util/utf.h"

namespace simdex::compat {
namespace {

// Scratch buffers above this size are released after use.
constexpr size_t kKeptScratchUnits = size_t{4} << 20;

struct Scratch {
  std::u16string utf16;
  std::u16string lower;
};

thread_local Scratch t_scratch;

bool IsAsciiTokenChar(uint8_t c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

// Final_Sigma is the only context-dependent lowercase mapping of the root
// locale, and its search for a cased letter stops at the first code point
// that is not case-ignorable. A code point that is neither cased nor
// case-ignorable therefore separates the text into parts that lowercase
// independently.
bool IsContextBarrier(UChar32 c) {
  return !u_hasBinaryProperty(c, UCHAR_CASED) && !u_hasBinaryProperty(c, UCHAR_CASE_IGNORABLE);
}

// Returns the end of the piece of `s` that starts at `begin`.
size_t PieceEnd(std::string_view s, size_t begin, PieceSizes sizes) {
  if (s.size() - begin <= sizes.target) return s.size();
  const size_t stop = std::min(s.size(), begin + sizes.limit);
  for (size_t i = begin + sizes.target; i < stop;) {
    // A well-formed sequence is a safe cut for decoding too: an ill-formed
    // subsequence before it cannot extend into it.
    const size_t at = i;
    UChar32 c;
    U8_NEXT(s.data(), i, stop, c);
    if (c >= 0 && IsContextBarrier(c)) return at;
  }
  if (stop == s.size()) return stop;
  // No barrier: cut before a lead or ASCII byte, which no earlier sequence
  // can contain. If the four bytes up to s[stop] are all trail bytes, s[stop]
  // is not part of any sequence that starts before it.
  for (size_t cut = stop; cut + 3 >= stop; --cut) {
    if (!U8_IS_TRAIL(s[cut])) return cut;
  }
  return stop;
}

uint64_t KeepPiece(std::string_view piece, std::string* kept) {
  if (std::all_of(piece.begin(), piece.end(), [](char b) { return static_cast<uint8_t>(b) < 0x80; })) {
    // ASCII lowercases to ASCII and needs no decoding.
    for (char b : piece) {
      const auto c = static_cast<uint8_t>(b);
      if (IsAsciiTokenChar(c)) kept->push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c));
    }
    return 0;
  }
  Scratch& s = t_scratch;
  s.utf16.resize(piece.size());  // never more UTF-16 units than UTF-8 bytes
  int32_t units = 0;
  int32_t substitutions = 0;
  UErrorCode status = U_ZERO_ERROR;
  u_strFromUTF8WithSub(s.utf16.data(), static_cast<int32_t>(s.utf16.size()), &units, piece.data(),
                       static_cast<int32_t>(piece.size()), 0xFFFD, &substitutions, &status);
  assert(U_SUCCESS(status));
  if (U_FAILURE(status)) return 0;
  PythonLower(std::u16string_view(s.utf16.data(), static_cast<size_t>(units)), &s.lower);
  const char16_t* p = s.lower.data();
  const auto n = static_cast<int32_t>(s.lower.size());
  for (int32_t i = 0; i < n;) {
    UChar32 c;
    U16_NEXT(p, i, n, c);
    char bytes[4];
    if (IsPythonSimhashTokenChar(static_cast<char32_t>(c))) kept->append(bytes, util::EncodeUtf8(c, bytes));
  }
  return static_cast<uint64_t>(substitutions);
}

}  // namespace

bool IsPythonSimhashTokenChar(char32_t c) {
  if (c < 0x80) return IsAsciiTokenChar(static_cast<uint8_t>(c));
  if (c >= 0x4E00 && c <= 0x9FCC) return true;
  const auto cp = static_cast<UChar32>(c);
  if ((U_GET_GC_MASK(cp) & U_GC_L_MASK) != 0) return true;
  return u_getIntPropertyValue(cp, UCHAR_NUMERIC_TYPE) != U_NT_NONE;
}

void PythonLower(std::u16string_view text, std::u16string* out) {
  // Almost every mapping keeps the length; the rare longer result is redone
  // with the size ICU reports.
  out->resize(text.size() + 16);
  const auto len = static_cast<int32_t>(text.size());
  UErrorCode status = U_ZERO_ERROR;
  int32_t n = u_strToLower(out->data(), static_cast<int32_t>(out->size()), text.data(), len, "", &status);
  if (status == U_BUFFER_OVERFLOW_ERROR) {
    out->resize(static_cast<size_t>(n));
    status = U_ZERO_ERROR;
    n = u_strToLower(out->data(), n, text.data(), len, "", &status);
  }
  assert(U_SUCCESS(status));
  out->resize(U_SUCCESS(status) ? static_cast<size_t>(n) : 0);
}

uint64_t KeepPythonTokenChars(std::string_view utf8, std::string* kept, PieceSizes pieces) {
  assert(pieces.target >= 4 && pieces.target <= pieces.limit && pieces.limit <= (size_t{1} << 28));
  uint64_t substitutions = 0;
  for (size_t begin = 0; begin < utf8.size();) {
    const size_t end = PieceEnd(utf8, begin, pieces);
    substitutions += KeepPiece(utf8.substr(begin, end - begin), kept);
    begin = end;
  }
  Scratch& s = t_scratch;
  if (s.utf16.capacity() > kKeptScratchUnits || s.lower.capacity() > kKeptScratchUnits) s = Scratch();
  return substitutions;
}

}  // namespace simdex::compat
