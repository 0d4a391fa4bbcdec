// Built-in stop-word lists and the stop-word file reader.
#include <string>
#include <string_view>
#include <vector>

#include "engine/text/list_file.h"
#include "simdex/fingerprint.h"

namespace simdex {
namespace {

// Function words of English: articles, pronouns, auxiliaries, prepositions,
// conjunctions and the commonest adverbs (the core of the usual IR lists).
// Contractions appear as ICU segments them ("don't" is one word).
constexpr std::string_view kEnglish[] = {
    "a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any",
    "are", "as", "at", "be", "because", "been", "before", "being", "below", "between",
    "both", "but", "by", "can", "could", "did", "do", "does", "doing", "don't", "down",
    "during", "each", "few", "for", "from", "further", "had", "has", "have", "having",
    "he", "her", "here", "hers", "herself", "him", "himself", "his", "how", "i", "if",
    "in", "into", "is", "it", "it's", "its", "itself", "just", "me", "more", "most", "my",
    "myself", "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other",
    "our", "ours", "ourselves", "out", "over", "own", "same", "she", "should", "so",
    "some", "such", "than", "that", "the", "their", "theirs", "them", "themselves",
    "then", "there", "these", "they", "this", "those", "through", "to", "too", "under",
    "until", "up", "very", "was", "we", "were", "what", "when", "where", "which", "while",
    "who", "whom", "why", "will", "with", "would", "you", "your", "yours", "yourself",
    "yourselves",
};

// Common Chinese function words: particles, pronouns, prepositions,
// conjunctions and a few adverbs, as ICU's dictionary segments them.
constexpr std::string_view kChinese[] = {
    "的", "了", "是", "在", "和", "与", "及", "或", "而", "也", "就", "都", "还", "又",
    "很", "着", "过", "把", "被", "让", "给", "向", "从", "到", "对", "于", "以", "为",
    "之", "其", "此", "这", "那", "这个", "那个", "这些", "那些", "个", "些", "我", "你",
    "他", "她", "它", "我们", "你们", "他们", "她们", "它们", "自己", "吗", "呢", "吧",
    "啊", "呀", "么", "但", "但是", "并", "并且", "因为", "所以", "如果", "虽然", "然而",
    "可以", "已经", "一个", "没有", "不", "等", "等等", "则", "即", "由",
};

}  // namespace

std::vector<std::string> BuiltinStopWords(std::string_view lang) {
  std::vector<std::string> out;
  if (lang == "en") {
    out.assign(std::begin(kEnglish), std::end(kEnglish));
  } else if (lang == "zh") {
    out.assign(std::begin(kChinese), std::end(kChinese));
  }
  return out;
}

std::vector<std::string> DefaultStopWords() {
  std::vector<std::string> out = BuiltinStopWords("en");
  out.insert(out.end(), std::begin(kChinese), std::end(kChinese));
  return out;
}

Status LoadStopWords(const std::string& path, std::vector<std::string>* out) {
  std::vector<std::string> words;
  SIMDEX_RETURN_IF_ERROR(text::ForEachListLine(path, [&](std::string_view line, size_t) {
    words.emplace_back(text::TrimBlanks(line));
    return Status::OK();
  }));
  *out = std::move(words);
  return Status::OK();
}

}  // namespace simdex
