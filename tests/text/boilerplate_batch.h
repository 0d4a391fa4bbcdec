// A batch in which unrelated documents share a long boilerplate block (a
// licence-like paragraph), the case `--idf auto` is for: each document is a
// short body of random words, then the block. Deterministic.
#ifndef SIMDEX_TESTS_TEXT_BOILERPLATE_BATCH_H_
#define SIMDEX_TESTS_TEXT_BOILERPLATE_BATCH_H_

#include <random>
#include <string>
#include <vector>

namespace simdex::testdata {

// `documents` texts: body_words random words of a 20,000-word vocabulary (8 by default),
// then the same block of 600 words of a 150-word vocabulary.
inline std::vector<std::string> BoilerplateBatch(int documents, int body_words = 8) {
  std::mt19937 rng(20);
  std::string block;
  for (int i = 0; i < 600; ++i) block.append(" licence").append(std::to_string(rng() % 150));
  std::vector<std::string> out;
  for (int d = 0; d < documents; ++d) {
    std::string text;
    for (int i = 0; i < body_words; ++i) text.append(i > 0 ? " body" : "body").append(std::to_string(rng() % 20000));
    out.push_back(text + block);
  }
  return out;
}

}  // namespace simdex::testdata

#endif  // SIMDEX_TESTS_TEXT_BOILERPLATE_BATCH_H_
