// Word segmentation with ICU and an exact ASCII fast path.
//
// ICU 72's root word rules (UAX #29 with CLDR tailoring) restricted to ASCII
// text without white space, as the fast path implements them:
//   letters   L = [A-Za-z@]   ('@' is ALetter in the CLDR tailoring)
//   digits    D = [0-9]
//   '_'       U  (ExtendNumLet)
//   [.']      MidNumLet / Single_Quote
//   [,;]      MidNum
//   anything else (including ':', which CLDR removes from MidLetter) breaks.
// A word is a maximal run of L, D and U in which a single [.'] may stand
// between two letters (WB6/7) and a single [.',;] between two digits
// (WB11/12). Its rule status is a word status unless it is a lone '_'.
// Runs of other characters have status UBRK_WORD_NONE and are dropped.
// UAX #29 always breaks before an ASCII white-space character and after it
// (unless Extend/Format/ZWJ follows), so text cut at ASCII white space can be
// segmented piece by piece; the non-ASCII pieces keep that one unit of
// context when they go to ICU.
#include "engine/text/word_segmenter.h"

#include <unicode/brkiter.h>
#include <unicode/ubrk.h>
#include <unicode/utext.h>

namespace simdex::text {
namespace {

enum AsciiClass : uint8_t { kOther, kSpace, kLetter, kDigit, kUnderscore, kMidNumLet, kMidNum };

struct AsciiClasses {
  uint8_t of[128];
  constexpr AsciiClasses() : of() {
    for (int c = 0; c < 128; ++c) of[c] = kOther;
    for (int c = 'a'; c <= 'z'; ++c) of[c] = kLetter;
    for (int c = 'A'; c <= 'Z'; ++c) of[c] = kLetter;
    of[static_cast<int>('@')] = kLetter;
    for (int c = '0'; c <= '9'; ++c) of[c] = kDigit;
    of[static_cast<int>('_')] = kUnderscore;
    of[static_cast<int>('.')] = kMidNumLet;
    of[static_cast<int>('\'')] = kMidNumLet;
    of[static_cast<int>(',')] = kMidNum;
    of[static_cast<int>(';')] = kMidNum;
    for (int c : {' ', '\t', '\n', '\v', '\f', '\r'}) of[c] = kSpace;
  }
};
constexpr AsciiClasses kAscii;

inline bool IsAsciiSpace(char16_t c) { return c < 0x80 && kAscii.of[c] == kSpace; }

// Segments text[begin, end), which is ASCII without white space.
void SegmentAscii(const char16_t* text, size_t begin, size_t end, std::vector<WordSpan>* words) {
  size_t i = begin;
  while (i < end) {
    uint8_t c = kAscii.of[text[i]];
    if (c != kLetter && c != kDigit && c != kUnderscore) {
      ++i;
      continue;
    }
    size_t start = i;
    bool has_alnum = c != kUnderscore;
    uint8_t last = c;
    ++i;
    while (i < end) {
      c = kAscii.of[text[i]];
      if (c == kLetter || c == kDigit) {  // WB5, WB8-10, WB13b
        has_alnum = true;
        last = c;
        ++i;
      } else if (c == kUnderscore) {  // WB13a
        last = c;
        ++i;
      } else if (c == kMidNumLet && last == kLetter && i + 1 < end &&
                 kAscii.of[text[i + 1]] == kLetter) {  // WB6/7
        i += 2;
      } else if ((c == kMidNumLet || c == kMidNum) && last == kDigit && i + 1 < end &&
                 kAscii.of[text[i + 1]] == kDigit) {  // WB11/12
        i += 2;
      } else {
        break;
      }
    }
    if (has_alnum || i - start >= 2) {
      words->push_back({static_cast<uint32_t>(start), static_cast<uint32_t>(i)});
    }
  }
}

}  // namespace

Status WordSegmenter::Create(std::unique_ptr<WordSegmenter>* out) {
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<icu::BreakIterator> iter(
      icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), status));
  if (U_FAILURE(status) || iter == nullptr) {
    return Status::NotSupported(std::string("ICU word break iterator unavailable: ") +
                                u_errorName(status));
  }
  out->reset(new WordSegmenter(std::move(iter)));
  return Status::OK();
}

WordSegmenter::WordSegmenter(std::unique_ptr<icu::BreakIterator> iter)
    : iter_(std::move(iter)), utext_(nullptr) {}

WordSegmenter::~WordSegmenter() {
  if (utext_ != nullptr) utext_close(utext_);
}

std::unique_ptr<WordSegmenter> WordSegmenter::Clone() const {
  return std::unique_ptr<WordSegmenter>(
      new WordSegmenter(std::unique_ptr<icu::BreakIterator>(iter_->clone())));
}

void WordSegmenter::SegmentIcu(const char16_t* text, size_t begin, size_t end,
                               std::vector<WordSpan>* words) {
  UErrorCode status = U_ZERO_ERROR;
  utext_ = utext_openUChars(utext_, reinterpret_cast<const UChar*>(text + begin),
                            static_cast<int64_t>(end - begin), &status);
  if (U_FAILURE(status)) return;
  iter_->setText(utext_, status);
  if (U_FAILURE(status)) return;
  int32_t start = iter_->first();
  for (int32_t stop = iter_->next(); stop != icu::BreakIterator::DONE;
       start = stop, stop = iter_->next()) {
    if (iter_->getRuleStatus() != UBRK_WORD_NONE) {
      words->push_back({static_cast<uint32_t>(begin + start), static_cast<uint32_t>(begin + stop)});
    }
  }
}

void WordSegmenter::Segment(const char16_t* text, size_t n, bool plain,
                            std::vector<WordSpan>* words) {
  words->clear();
  if (plain) {
    SegmentIcu(text, 0, n, words);
    return;
  }
  // Consecutive non-ASCII pieces are gathered into one ICU call.
  constexpr size_t kNone = ~size_t{0};
  size_t icu_begin = kNone, icu_end = 0;
  auto flush_icu = [&] {
    if (icu_begin == kNone) return;
    SegmentIcu(text, icu_begin > 0 ? icu_begin - 1 : 0, icu_end < n ? icu_end + 1 : n, words);
    icu_begin = kNone;
  };
  size_t i = 0;
  for (;;) {
    while (i < n && IsAsciiSpace(text[i])) ++i;
    if (i == n) break;
    size_t piece = i;
    char16_t any = 0;
    while (i < n && !IsAsciiSpace(text[i])) any |= text[i++];
    if (any < 0x80) {
      flush_icu();
      SegmentAscii(text, piece, i, words);
    } else {
      if (icu_begin == kNone) icu_begin = piece;
      icu_end = i;
    }
  }
  flush_icu();
}

}  // namespace simdex::text
