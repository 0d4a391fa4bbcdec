// Cleans the text of web pages, mail and documentation before it is
// tokenized (docs/fingerprint.md, step 0 "Clean"): markup goes, character
// references and percent-escapes are decoded, URLs become their host and path
// words, e-mail addresses one word each.
#ifndef SIMDEX_ENGINE_TEXT_TEXT_CLEANER_H_
#define SIMDEX_ENGINE_TEXT_TEXT_CLEANER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace simdex::text {

// Buffers a cleaning pass reuses from one text to the next.
struct CleanerScratch {
  std::string bytes;
  std::vector<size_t> starts;
};

// The code point of an HTML 4.01 named character reference (or XML's
// "apos"), case-sensitive, without '&' and ';'; 0 when the name is not one.
uint32_t HtmlEntityCodePoint(std::string_view name);

// Thread safety: not safe for concurrent use (it owns scratch buffers); one
// per FeatureExtractor.
class TextCleaner {
 public:
  // The cleaned text: `utf8` itself when none of the four passes applies,
  // else a view of a buffer of this cleaner valid until the next call. The
  // passes work on bytes and match ASCII only, so any byte sequence is
  // accepted and UTF-8 sequences are never split; the result is never longer
  // than the input.
  std::string_view Clean(std::string_view utf8);

 private:
  std::string first_, second_;
  CleanerScratch scratch_;
};

// The passes, in the order Clean() runs them (exposed for tests): ApplyPass
// replaces *out with the output of `pass` for `in`.
enum class CleanerPass { kRemoveMarkup, kDecodeCharacterReferences, kDecodePercentEscapes, kRewriteLinks };
void ApplyPass(CleanerPass pass, std::string_view in, std::string* out);

}  // namespace simdex::text

#endif  // SIMDEX_ENGINE_TEXT_TEXT_CLEANER_H_
