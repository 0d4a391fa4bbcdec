// Word segmentation: ICU's word break iterator (root locale; Chinese and
// Japanese by ICU's dictionary), keeping the segments whose rule status is
// not UBRK_WORD_NONE, with an exact fast path for ASCII.
#ifndef SIMDEX_ENGINE_TEXT_WORD_SEGMENTER_H_
#define SIMDEX_ENGINE_TEXT_WORD_SEGMENTER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <unicode/uversion.h>

#include "simdex/status.h"

U_NAMESPACE_BEGIN
class BreakIterator;
U_NAMESPACE_END
struct UText;

namespace simdex::text {

// A word: units [begin, end) of the segmented UTF-16 text.
struct WordSpan {
  uint32_t begin;
  uint32_t end;
};

// Thread safety: not safe for concurrent use (it owns an ICU iterator);
// Clone() one per thread.
class WordSegmenter {
 public:
  static Status Create(std::unique_ptr<WordSegmenter>* out);
  ~WordSegmenter();
  std::unique_ptr<WordSegmenter> Clone() const;

  // Replaces *words with the words of text[0, n), in order.
  //
  // Fast path (plain == false): the text is cut at ASCII white space, where
  // UAX #29 always breaks. A piece that is all ASCII is segmented by a small
  // state machine that implements ICU 72's root word rules for ASCII (see
  // word_segmenter.cc); the other pieces go to ICU with one unit of context
  // on each side. plain == true runs ICU over the whole text. Both give the
  // same words (tests compare them on random and real text).
  // REQUIRES: n <= UINT32_MAX.
  void Segment(const char16_t* text, size_t n, bool plain, std::vector<WordSpan>* words);

 private:
  explicit WordSegmenter(std::unique_ptr<icu::BreakIterator> iter);
  // Appends the ICU words of text[begin, end).
  void SegmentIcu(const char16_t* text, size_t begin, size_t end, std::vector<WordSpan>* words);

  std::unique_ptr<icu::BreakIterator> iter_;
  UText* utext_;
};

}  // namespace simdex::text

#endif  // SIMDEX_ENGINE_TEXT_WORD_SEGMENTER_H_
