// ShingleMaker (include/simdex/shingles.h): a text's set of word or character
// shingles as sorted distinct 64-bit hashes, the unit of the pairwise truth.
// The rules are spelled out in shingles.h; this file follows them step by step.
#include <algorithm>
#include <string_view>

#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf16.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "engine/text/normalizer.h"
#include "engine/util/utf.h"
#include "simdex/shingles.h"

namespace simdex {
namespace {

constexpr uint64_t kWordSeed = 1;
constexpr uint64_t kCharSeed = 2;

// \w of Unicode Technical Standard #18, Annex C (ICU's regular expressions'
// [\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\u200c\u200d]). Letters are all
// Alphabetic: the general category answers for most characters, and the
// properties are asked only of the others.
bool UnicodeWordChar(UChar32 c) {
  if (U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_M_MASK | U_GC_ND_MASK | U_GC_PC_MASK)) return true;
  return u_hasBinaryProperty(c, UCHAR_ALPHABETIC) || u_hasBinaryProperty(c, UCHAR_JOIN_CONTROL);
}

// ICU's answers for the ASCII characters, looked up once: most text is
// ASCII, and asking ICU for each character took most of the time.
struct AsciiProperties {
  uint32_t category[128];
  bool space[128];
  bool word[128];
  AsciiProperties() {
    for (UChar32 c = 0; c < 128; ++c) {
      category[c] = U_GET_GC_MASK(c);
      space[c] = u_isUWhiteSpace(c);
      word[c] = UnicodeWordChar(c);
    }
  }
};
const AsciiProperties kAscii;

uint32_t Category(UChar32 c) { return c < 128 ? kAscii.category[c] : U_GET_GC_MASK(c); }
bool WhiteSpace(UChar32 c) { return c < 128 ? kAscii.space[c] : u_isUWhiteSpace(c); }
bool WordChar(UChar32 c) { return c < 128 ? kAscii.word[c] : UnicodeWordChar(c); }

// Scripts written without spaces between words (ASCII letters are Latin).
bool Unspaced(UChar32 c) {
  if (c < 128) return false;
  UErrorCode status = U_ZERO_ERROR;
  switch (uscript_getScript(c, &status)) {
    case USCRIPT_HAN:
    case USCRIPT_HIRAGANA:
    case USCRIPT_KATAKANA:
    case USCRIPT_THAI:
    case USCRIPT_LAO:
    case USCRIPT_KHMER:
    case USCRIPT_MYANMAR:
    case USCRIPT_TIBETAN:
      return true;
    default:
      return false;
  }
}

}  // namespace

const char* ShingleWordsName(ShingleWords words) {
  return words == ShingleWords::kWordChars ? "word-chars" : "space-split";
}

bool ParseShingleWords(std::string_view name, ShingleWords* out) {
  for (ShingleWords w : {ShingleWords::kWordChars, ShingleWords::kSpaceSplit}) {
    if (name == ShingleWordsName(w)) {
      *out = w;
      return true;
    }
  }
  return false;
}

struct ShingleMaker::Rep {
  ShingleOptions options;
  text::CaseFoldNormalizer normalizer;
  util::U16Buffer decoded, normalized;
  std::string collapsed;         // UTF-8, white space collapsed (spaced) or removed (unspaced)
  std::vector<uint32_t> starts;  // byte offset of each unit (word or code point), then the end
};

ShingleMaker::ShingleMaker(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
ShingleMaker::~ShingleMaker() = default;

Status ShingleMaker::Create(const ShingleOptions& options, std::unique_ptr<ShingleMaker>* out) {
  if (options.word_n < 1 || options.word_n > 64 || options.char_n < 1 || options.char_n > 64) {
    return Status::InvalidArgument("shingles: n must be 1..64");
  }
  if (options.words != ShingleWords::kSpaceSplit && options.words != ShingleWords::kWordChars) {
    return Status::InvalidArgument("shingles: unknown word definition");
  }
  if (!(options.unspaced_share > 0 && options.unspaced_share <= 1)) {
    return Status::InvalidArgument("shingles: the unspaced share must be in (0, 1]");
  }
  auto rep = std::make_unique<Rep>();
  rep->options = options;
  SIMDEX_RETURN_IF_ERROR(rep->normalizer.Init());
  out->reset(new ShingleMaker(std::move(rep)));
  return Status::OK();
}

ShingleKind ShingleMaker::Make(std::string_view utf8_text, std::vector<uint64_t>* out) {
  Rep& r = *rep_;
  out->clear();
  util::DecodeUtf8(utf8_text, &r.decoded);
  r.normalizer.Normalize(r.decoded.data(), r.decoded.size(), /*plain=*/false, &r.normalized);
  const char16_t* s = r.normalized.data();
  const int32_t n = static_cast<int32_t>(r.normalized.size());

  // Step 2: units of unspaced scripts against words of the others.
  uint64_t unspaced_units = 0, word_units = 0;
  bool in_word = false;
  for (int32_t i = 0; i < n;) {
    UChar32 c;
    U16_NEXT(s, i, n, c);
    const uint32_t category = Category(c);
    if (category & U_GC_L_MASK) {
      if (Unspaced(c)) {
        ++unspaced_units;
        in_word = false;
      } else if (!in_word) {
        ++word_units;
        in_word = true;
      }
    } else if (!(category & U_GC_M_MASK)) {  // a combining mark stays inside its word
      in_word = false;
    }
  }
  const uint64_t units = unspaced_units + word_units;
  const bool unspaced =
      units > 0 && static_cast<double>(unspaced_units) >= r.options.unspaced_share * static_cast<double>(units);

  // Step 3: the units, in UTF-8; under word-chars, spaced text's words are
  // separated (and the separators dropped) as space-split's are by spaces.
  r.collapsed.clear();
  r.starts.clear();
  const bool word_chars = !unspaced && r.options.words == ShingleWords::kWordChars;
  bool space_before = true;  // trims leading space
  for (int32_t i = 0; i < n;) {
    UChar32 c;
    const int32_t at = i;
    U16_NEXT(s, i, n, c);
    if (word_chars ? !WordChar(c) : WhiteSpace(c)) {
      space_before = true;
      continue;
    }
    if (unspaced) {
      r.starts.push_back(static_cast<uint32_t>(r.collapsed.size()));
    } else if (space_before) {
      if (!r.starts.empty()) r.collapsed.push_back(' ');
      r.starts.push_back(static_cast<uint32_t>(r.collapsed.size()));
    }
    space_before = false;
    if (c < 128) {
      r.collapsed.push_back(static_cast<char>(c));
    } else {
      util::AppendUtf8(s + at, static_cast<size_t>(i - at), &r.collapsed);
    }
  }
  const size_t count = r.starts.size();
  if (count == 0) return ShingleKind::kNone;
  // The end of unit u is where unit u + 1 starts, less the joining space.
  const int width = unspaced ? r.options.char_n : r.options.word_n;
  const size_t gap = unspaced ? 0 : 1;
  r.starts.push_back(static_cast<uint32_t>(r.collapsed.size() + gap));
  const uint64_t seed = unspaced ? kCharSeed : kWordSeed;
  const size_t windows = count >= static_cast<size_t>(width) ? count - static_cast<size_t>(width) + 1 : 1;
  const size_t span = std::min(count, static_cast<size_t>(width));
  out->reserve(windows);
  for (size_t w = 0; w < windows; ++w) {
    const uint32_t begin = r.starts[w];
    const uint32_t end = r.starts[w + span] - static_cast<uint32_t>(gap);
    out->push_back(XXH3_64bits_withSeed(r.collapsed.data() + begin, end - begin, seed));
  }
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
  return unspaced ? ShingleKind::kChars : ShingleKind::kWords;
}

}  // namespace simdex
