// Turns UTF-8 text into counted, hashed features: decoding, normalization,
// tokenization, stop words, n-gram formation and XXH3 hashing. Weighting and
// the combine live in the Fingerprinter.
#ifndef SIMDEX_ENGINE_TEXT_FEATURE_EXTRACTOR_H_
#define SIMDEX_ENGINE_TEXT_FEATURE_EXTRACTOR_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/text/feature_table.h"
#include "engine/text/normalizer.h"
#include "engine/text/text_cleaner.h"
#include "engine/text/word_segmenter.h"
#include "engine/util/utf.h"
#include "simdex/fingerprint.h"

namespace simdex::text {

struct ExtractorConfig {
  Tokenizer tokenizer = Tokenizer::kWords;
  int ngram = 3;  // 1..16
  bool normalize = true;
  // Step 0 of docs/fingerprint.md: markup, references, escapes and links
  // cleaned before decoding (text_cleaner.h).
  bool clean_text = false;
  // kWords only: a word without a letter counts once however often it occurs.
  bool cap_numbers = false;
  uint64_t seed = 0;
  // XXH3 hashes (with seed) of the normalized stop words; may be null.
  std::shared_ptr<const HashSet64> stop_words;
  // Forces ICU for normalization and segmentation (the fast paths are exact;
  // tests compare both).
  bool plain = false;
  // Texts are processed in windows of at most this many bytes, cut before
  // ASCII white space when there is some in the window's second half (then
  // the result is exactly that of one window), else at a code point
  // boundary. Bounds scratch memory and keeps ICU's int32 lengths safe.
  size_t window_bytes = size_t{1} << 20;
};

struct ExtractStats {
  uint32_t invalid_utf8 = 0;
  bool has_text = false;     // some code point is not White_Space
  uint64_t candidates = 0;   // feature units before stop words (words or n-grams)
  uint64_t occurrences = 0;  // feature occurrences added to the table
};

// Thread safety: not safe for concurrent use; Clone() one per thread.
class FeatureExtractor {
 public:
  static Status Create(const ExtractorConfig& config, std::unique_ptr<FeatureExtractor>* out);
  std::unique_ptr<FeatureExtractor> Clone() const;
  const ExtractorConfig& config() const { return config_; }

  // Clears *table and adds every feature occurrence of utf8_text.
  void Extract(std::string_view utf8_text, FeatureTable* table, ExtractStats* stats);

  // XXH3-64 of the bytes with the configured seed.
  uint64_t Hash(std::string_view bytes) const;

 private:
  FeatureExtractor(const ExtractorConfig& config, std::unique_ptr<WordSegmenter> segmenter);
  void ProcessWindow(std::string_view window);
  void AddWords(const char16_t* text);
  void AddCodePoints(const char16_t* text, size_t n);
  void AddAsciiCodePoints(const char16_t* text, size_t n);
  void AddToShingles(std::string_view word);
  // Emits the carried words from unit `first` to the last, joined by spaces.
  void EmitWordsFrom(uint64_t first);
  void EndWindow();
  void EndText();
  bool IsStopWord(uint64_t hash) const {
    return config_.stop_words != nullptr && config_.stop_words->Contains(hash);
  }
  // Counts one candidate feature and adds it; EndText drops the stop words.
  void Emit(std::string_view bytes);
  // Emit for a word without a letter when numbers are capped: counted, but
  // added to the table only once.
  void EmitNumber(std::string_view bytes);

  ExtractorConfig config_;
  CaseFoldNormalizer normalizer_;
  TextCleaner cleaner_;
  std::unique_ptr<WordSegmenter> segmenter_;

  // Per-call state and scratch, reused across calls.
  FeatureTable* table_ = nullptr;
  ExtractStats* stats_ = nullptr;
  util::U16Buffer decoded_;
  util::U16Buffer normalized_;
  std::vector<WordSpan> words_;
  std::string scratch_;
  // The last code points (kCharNgrams) or words (kWordNgrams) carried from
  // one window to the next: their UTF-8 bytes and a ring of [start, end)
  // offsets into those bytes, indexed by unit number modulo kRing.
  static constexpr size_t kRing = 16;
  std::string units_;
  size_t unit_start_[kRing];
  size_t unit_end_[kRing];
  uint64_t units_seen_ = 0;
};

}  // namespace simdex::text

#endif  // SIMDEX_ENGINE_TEXT_FEATURE_EXTRACTOR_H_
