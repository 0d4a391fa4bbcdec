// The feature pipeline; see feature_extractor.h and docs/fingerprint.md.
#include "engine/text/feature_extractor.h"

#include <unicode/uchar.h>
#include <unicode/utf16.h>

// Features are short: inlining XXH3 lets its 1-16 byte paths be specialized
// at the call site instead of going through the shared library.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>

namespace simdex::text {
namespace {

// End of the window that starts at `start`.
size_t WindowEnd(std::string_view text, size_t start, size_t window) {
  if (text.size() - start <= window) return text.size();
  size_t limit = start + window;
  // ASCII white space is a word break and a normalization boundary, and ASCII
  // bytes never occur inside a multi-byte sequence: cutting before it is exact.
  for (size_t p = limit; p > start + window / 2; --p) {
    if (util::IsAsciiSpace(text[p])) return p;
  }
  size_t p = limit;
  for (int k = 0; k < 3 && p > start + 1 && (static_cast<unsigned char>(text[p]) & 0xC0) == 0x80;
       ++k) {
    --p;
  }
  return p;
}

// Character n-grams keep letters, marks and numbers (general categories L*,
// M*, N*) and drop everything else: white space and separators (Z*, and the
// White_Space controls), punctuation (P*), symbols (S*, which include U+FFFD)
// and other controls, format characters, private-use and unassigned code
// points (C*).
constexpr uint32_t kKeptCategories = U_GC_L_MASK | U_GC_M_MASK | U_GC_N_MASK;

struct AsciiKept {
  bool of[128];
  constexpr AsciiKept() : of() {
    for (int c = 0; c < 128; ++c) {
      of[c] = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
  }
};
constexpr AsciiKept kAsciiKept;

// Whether some code point of s[0, n) is a letter (general category L*).
bool HasLetter(const char16_t* s, size_t n) {
  for (size_t i = 0; i < n;) {
    UChar32 c = s[i++];
    if (c < 0x80) {
      if (static_cast<unsigned>((c | 32) - 'a') < 26u) return true;
      continue;
    }
    if (U16_IS_LEAD(c) && i < n && U16_IS_TRAIL(s[i])) c = U16_GET_SUPPLEMENTARY(c, s[i++]);
    if ((U_GET_GC_MASK(c) & U_GC_L_MASK) != 0) return true;
  }
  return false;
}

}  // namespace

Status FeatureExtractor::Create(const ExtractorConfig& config,
                                std::unique_ptr<FeatureExtractor>* out) {
  std::unique_ptr<WordSegmenter> segmenter;
  if (config.tokenizer != Tokenizer::kCharNgrams) {
    SIMDEX_RETURN_IF_ERROR(WordSegmenter::Create(&segmenter));
  }
  std::unique_ptr<FeatureExtractor> extractor(new FeatureExtractor(config, std::move(segmenter)));
  SIMDEX_RETURN_IF_ERROR(extractor->normalizer_.Init());
  *out = std::move(extractor);
  return Status::OK();
}

FeatureExtractor::FeatureExtractor(const ExtractorConfig& config,
                                   std::unique_ptr<WordSegmenter> segmenter)
    : config_(config), segmenter_(std::move(segmenter)) {}

std::unique_ptr<FeatureExtractor> FeatureExtractor::Clone() const {
  std::unique_ptr<FeatureExtractor> copy(
      new FeatureExtractor(config_, segmenter_ ? segmenter_->Clone() : nullptr));
  copy->normalizer_ = normalizer_;
  return copy;
}

uint64_t FeatureExtractor::Hash(std::string_view bytes) const {
  return XXH3_64bits_withSeed(bytes.data(), bytes.size(), config_.seed);
}

// Stop words are counted like any feature and dropped by EndText, once per
// distinct feature instead of once per occurrence: the same features, counts
// and order, with fewer probes of the stop list.
inline void FeatureExtractor::Emit(std::string_view bytes) {
  ++stats_->candidates;
  ++stats_->occurrences;
  table_->Add(Hash(bytes), bytes);
}

// A number stop word is dropped here rather than by EndText, which would
// take back only the one occurrence the table counted.
inline void FeatureExtractor::EmitNumber(std::string_view bytes) {
  ++stats_->candidates;
  const uint64_t hash = Hash(bytes);
  if (IsStopWord(hash)) return;
  ++stats_->occurrences;
  table_->AddOnce(hash, bytes);
}

void FeatureExtractor::Extract(std::string_view utf8_text, FeatureTable* table,
                               ExtractStats* stats) {
  table->Clear();
  *stats = ExtractStats();
  if (config_.clean_text) {
    const std::string_view cleaned = cleaner_.Clean(utf8_text);
    // Cleaning changes only text that held markup, a reference, an escape or
    // a link: text, even when nothing is left of it.
    if (cleaned.data() != utf8_text.data()) stats->has_text = true;
    utf8_text = cleaned;
  }
  table_ = table;
  stats_ = stats;
  units_.clear();
  units_seen_ = 0;
  size_t window = std::max<size_t>(config_.window_bytes, 16);
  for (size_t start = 0; start < utf8_text.size();) {
    size_t end = WindowEnd(utf8_text, start, window);
    ProcessWindow(utf8_text.substr(start, end - start));
    start = end;
  }
  EndText();
  table_ = nullptr;
  stats_ = nullptr;
}

void FeatureExtractor::ProcessWindow(std::string_view window) {
  stats_->invalid_utf8 += util::DecodeUtf8(window, &decoded_);
  const char16_t* text = decoded_.data();
  size_t n = decoded_.size();
  if (!stats_->has_text) {
    for (size_t i = 0; i < n; ++i) {
      if (!u_isUWhiteSpace(text[i])) {  // surrogates are not white space either
        stats_->has_text = true;
        break;
      }
    }
    if (!stats_->has_text) return;
  }
  if (config_.normalize) {
    normalizer_.Normalize(text, n, config_.plain, &normalized_);
    text = normalized_.data();
    n = normalized_.size();
  }
  if (config_.tokenizer == Tokenizer::kCharNgrams) {
    AddCodePoints(text, n);
  } else {
    segmenter_->Segment(text, n, config_.plain, &words_);
    AddWords(text);
  }
  EndWindow();
}

void FeatureExtractor::AddWords(const char16_t* text) {
  for (const WordSpan& w : words_) {
    scratch_.clear();
    util::AppendUtf8(text + w.begin, w.end - w.begin, &scratch_);
    if (config_.tokenizer == Tokenizer::kWords) {
      if (config_.cap_numbers && !HasLetter(text + w.begin, w.end - w.begin)) {
        EmitNumber(scratch_);
      } else {
        Emit(scratch_);
      }
    } else {
      AddToShingles(scratch_);
    }
  }
}

// Word shingles are formed over the words that are not stop words.
void FeatureExtractor::AddToShingles(std::string_view word) {
  if (IsStopWord(Hash(word))) {
    ++stats_->candidates;
    return;
  }
  size_t slot = units_seen_ % kRing;
  unit_start_[slot] = units_.size();
  units_.append(word);
  unit_end_[slot] = units_.size();
  ++units_seen_;
  size_t n = static_cast<size_t>(config_.ngram);
  if (units_seen_ >= n) EmitWordsFrom(units_seen_ - n);
}

void FeatureExtractor::EmitWordsFrom(uint64_t first) {
  scratch_.clear();
  for (uint64_t u = first; u < units_seen_; ++u) {
    if (u != first) scratch_.push_back(' ');
    size_t s = u % kRing;
    scratch_.append(units_, unit_start_[s], unit_end_[s] - unit_start_[s]);
  }
  Emit(scratch_);
}

void FeatureExtractor::AddCodePoints(const char16_t* text, size_t n) {
  const size_t gram = static_cast<size_t>(config_.ngram);
  char16_t any = 0;
  for (size_t i = 0; i < n; ++i) any |= text[i];
  if (any < 0x80 && units_.size() == std::min<uint64_t>(units_seen_, gram - 1)) {
    AddAsciiCodePoints(text, n);
    return;
  }
  // Room for every unit at 4 bytes; trimmed to what was written at the end.
  size_t used = units_.size();
  units_.resize(used + 4 * n);
  char* buf = units_.data();
  for (size_t i = 0; i < n;) {
    uint32_t c = text[i++];
    if (c < 0x80) {
      if (!kAsciiKept.of[c]) continue;
    } else {
      if (U16_IS_LEAD(c) && i < n && U16_IS_TRAIL(text[i])) c = U16_GET_SUPPLEMENTARY(c, text[i++]);
      if (U16_IS_SURROGATE(c) || (U_MASK(u_charType(c)) & kKeptCategories) == 0) continue;
    }
    size_t slot = units_seen_ % kRing;
    unit_start_[slot] = used;
    used += util::EncodeUtf8(c, buf + used);
    unit_end_[slot] = used;
    ++units_seen_;
    if (units_seen_ >= gram) {
      size_t first = unit_start_[(units_seen_ - gram) % kRing];
      Emit(std::string_view(buf + first, used - first));
    }
  }
  units_.resize(used);
}

namespace {

// Hashes and counts the ASCII n-grams buf[end - n, end) for end in
// [first_end, last_end] (stop words too: see Emit). N > 0
// fixes the length at compile time so that XXH3's length dispatch folds away
// (flatten inlines XXH3 into the loop); N == 0 takes it from n.
template <size_t N>
__attribute__((flatten)) void HashAsciiGrams(const char* buf, size_t n, size_t first_end,
                                             size_t last_end, uint64_t seed, FeatureTable* table) {
  const size_t len = N > 0 ? N : n;
  for (size_t end = first_end; end <= last_end; ++end) {
    const char* gram = buf + end - len;
    table->Add(XXH3_64bits_withSeed(gram, len, seed), std::string_view(gram, len));
  }
}

}  // namespace

// All units carried over and all of text are ASCII: unit k sits at byte k.
void FeatureExtractor::AddAsciiCodePoints(const char16_t* text, size_t n) {
  const size_t gram = static_cast<size_t>(config_.ngram);
  const size_t carried = units_.size();
  const uint64_t seen_before = units_seen_ - carried;  // units no longer in units_
  units_.resize(carried + n);
  char* buf = units_.data();
  size_t used = carried;
  for (size_t i = 0; i < n; ++i) {
    char16_t c = text[i];
    buf[used] = static_cast<char>(c);
    used += kAsciiKept.of[c];
  }
  units_.resize(used);
  size_t first_end = std::max(carried + 1, gram > seen_before ? gram - seen_before : 1);
  if (first_end <= used) {
    constexpr decltype(&HashAsciiGrams<0>) kHash[] = {&HashAsciiGrams<0>, &HashAsciiGrams<1>, &HashAsciiGrams<2>,
                                                     &HashAsciiGrams<3>, &HashAsciiGrams<4>, &HashAsciiGrams<5>};
    const auto hash = kHash[gram < std::size(kHash) ? gram : 0];
    stats_->candidates += used - first_end + 1;
    stats_->occurrences += used - first_end + 1;
    hash(buf, gram, first_end, used, config_.seed, table_);
  }
  units_seen_ = seen_before + used;
  for (uint64_t u = std::max<uint64_t>(units_seen_ - std::min<uint64_t>(units_seen_, kRing),
                                       seen_before + carried);
       u < units_seen_; ++u) {
    unit_start_[u % kRing] = static_cast<size_t>(u - seen_before);
    unit_end_[u % kRing] = static_cast<size_t>(u - seen_before + 1);
  }
}

// Keeps only the last ngram - 1 units, which later n-grams still need.
void FeatureExtractor::EndWindow() {
  if (config_.tokenizer == Tokenizer::kWords) return;
  uint64_t keep = std::min<uint64_t>(units_seen_, static_cast<uint64_t>(config_.ngram - 1));
  size_t from = keep == 0 ? units_.size() : unit_start_[(units_seen_ - keep) % kRing];
  if (from == 0) return;
  units_.erase(0, from);
  for (uint64_t u = units_seen_ - keep; u < units_seen_; ++u) {
    unit_start_[u % kRing] -= from;
    unit_end_[u % kRing] -= from;
  }
}

// A text with fewer units than n gives one feature: all of them. Then the
// stop words leave the table (see Emit).
void FeatureExtractor::EndText() {
  if (config_.tokenizer != Tokenizer::kWords && units_seen_ > 0 &&
      units_seen_ < static_cast<uint64_t>(config_.ngram)) {
    if (config_.tokenizer == Tokenizer::kCharNgrams) {
      Emit(units_);
    } else {
      EmitWordsFrom(0);
    }
  }
  if (config_.stop_words != nullptr) {
    stats_->occurrences -= table_->DropFeaturesIn(*config_.stop_words);
  }
}

}  // namespace simdex::text
