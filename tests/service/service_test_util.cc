#include "tests/service/service_test_util.h"

#include <gtest/gtest.h>

#include <barrier>
#include <bit>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

namespace simdex::servicetest {

const char* const kSeedTitle = "計算機應用與軟件";
const char* const kSeedContent =
    "《計算機應用與軟件》是由上海市計算技術研究所和上海計算機軟件技術開發中心主辦的學術期刊，創刊於一九八四年，"
    "每月出版一期。期刊主要報道計算機在各個領域的應用成果、軟件技術的研究進展以及信息系統的設計與實現，欄目包括"
    "軟件技術與研究、數據工程、人工智能與識別、圖像處理與應用、網絡與通信、安全技術等。期刊面向從事計算機科學研究、"
    "軟件開發與系統集成的科研人員、工程技術人員和高等院校師生，注重理論與實踐相結合，既刊登具有創新性的學術論文，"
    "也刊登具有推廣價值的工程應用文章。多年來，期刊堅持嚴格的同行評審制度，被多個重要數據庫收錄，在國內計算機應用"
    "領域具有較高的學術影響力。編輯部熱忱歡迎廣大作者投稿，來稿請通過期刊官方網站的投稿系統提交，並註明作者的聯繫方式。";
// The same article as another site reprinted it: one phrase's wording
// changed (2 bits from the original at the default fingerprint options).
const char* const kSeedContentEdited =
    "《計算機應用與軟件》是由上海市計算技術研究所和上海計算機軟件技術開發中心主辦的學術期刊，創刊於一九八四年，"
    "每月出版一期。期刊主要報道計算機在各個領域的應用成果、軟件技術的研究進展以及信息系統的設計與實現，欄目包括"
    "軟件技術與研究、數據工程、人工智能與識別、圖像處理與應用、網絡與通信、安全技術等。期刊面向從事計算機科學研究、"
    "軟件開發與系統集成的科研人員、工程技術人員和高等院校師生，注重理論與實踐相結合，既刊登具有創新性的學術論文，"
    "也刊登具有推廣價值的工程應用文章。多年來，期刊堅持嚴格的同行評審制度，被多個重要數據庫收錄，在國內計算機應用"
    "領域具有很高的學術影響力。編輯部熱忱歡迎廣大作者投稿，來稿請通過期刊官方網站的投稿系統提交，並註明作者的聯繫方式。";
const char* const kUnrelatedTitle = "颱風今晚登陸沿海地區";
const char* const kUnrelatedContent =
    "氣象台今天下午發布颱風紅色預警，預計第十二號颱風將於今晚在沿海地區登陸，登陸時中心附近最大風力可達十四級。"
    "受其影響，沿海地區將出現大暴雨到特大暴雨，部分地區可能引發山洪和城市內澇。當地政府已經啟動防汛應急響應，"
    "轉移危險區域群眾三萬餘人，中小學和幼兒園停課一天，部分航班和列車停運。氣象專家提醒市民盡量減少外出，遠離"
    "廣告牌和臨時搭建物，注意收聽最新的天氣預報。";

namespace {

// 4,096 distinct pronounceable words: three consonant-vowel syllables.
const std::vector<std::string>& Vocabulary() {
  static const std::vector<std::string> words = [] {
    const char* const consonants = "bdfgklmnprstvz";
    const char* const vowels = "aeiou";
    std::vector<std::string> w;
    std::mt19937_64 rng(2024);
    while (w.size() < 4096) {
      std::string word;
      for (int s = 0; s < 3; ++s) {
        word.push_back(consonants[rng() % 14]);
        word.push_back(vowels[rng() % 5]);
      }
      w.push_back(word);
    }
    return w;
  }();
  return words;
}

std::vector<std::string> Split(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::string Join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out.push_back(' ');
    out += w;
  }
  return out;
}

}  // namespace

std::string RandomText(uint64_t seed, int words) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 1);
  std::vector<std::string> out;
  for (int i = 0; i < words; ++i) out.push_back(Vocabulary()[rng() % Vocabulary().size()]);
  return Join(out);
}

std::string EditWords(const std::string& text, uint64_t seed, int edits) {
  std::mt19937_64 rng(seed + 77);
  std::vector<std::string> words = Split(text);
  for (int i = 0; i < edits && !words.empty(); ++i) {
    words[rng() % words.size()] = Vocabulary()[rng() % Vocabulary().size()];
  }
  return Join(words);
}

std::string NearCopy(const DocIdService& service, const std::string& text, uint64_t seed, int max_bits) {
  const uint64_t fp = service.FingerprintText(text).fingerprint;
  for (uint64_t s = seed * 1000; s < seed * 1000 + 10000; ++s) {
    std::string copy = EditWords(text, s, 1);
    const int d = std::popcount(service.FingerprintText(copy).fingerprint ^ fp);
    if (d >= 1 && d <= max_bits) return copy;
  }
  ADD_FAILURE() << "no one-word edit of the text moves its fingerprint by 1 to " << max_bits << " bits";
  return text;
}

std::vector<DocIdAnswer> SubmitAtOnce(DocIdService& service, const std::vector<Article>& articles) {
  std::vector<DocIdAnswer> answers(articles.size());
  std::barrier start(static_cast<std::ptrdiff_t>(articles.size()));
  std::vector<std::thread> threads;
  for (size_t t = 0; t < articles.size(); ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      EXPECT_TRUE(service.Submit(articles[t], &answers[t]).ok());
    });
  }
  for (auto& th : threads) th.join();
  return answers;
}

void ExpectOneDocIdWhenSubmittedAtOnce(DocIdService& service, const std::vector<Article>& articles, int round) {
  const std::vector<DocIdAnswer> answers = SubmitAtOnce(service, articles);
  int made = 0;
  for (const DocIdAnswer& a : answers) {
    made += !a.duplicate;
    EXPECT_EQ(a.doc_id, answers[0].doc_id) << "round " << round;
  }
  EXPECT_EQ(made, 1) << "round " << round;
}

}  // namespace simdex::servicetest
