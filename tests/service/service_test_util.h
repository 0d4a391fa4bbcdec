// Helpers shared by the service tests: texts with planted near-duplicates,
// the seed's example articles, and a scratch directory.
#ifndef SIMDEX_TESTS_SERVICE_SERVICE_TEST_UTIL_H_
#define SIMDEX_TESTS_SERVICE_SERVICE_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "simdex/service.h"

namespace simdex::servicetest {

// The source document's example: two articles of 計算機應用與軟件 (the
// second a lightly edited copy of the first, under the same title) and an
// unrelated article.
extern const char* const kSeedTitle;
extern const char* const kSeedContent;
extern const char* const kSeedContentEdited;
extern const char* const kUnrelatedTitle;
extern const char* const kUnrelatedContent;

// An English text of `words` words drawn from a fixed vocabulary by `seed`
// (different seeds give unrelated texts).
std::string RandomText(uint64_t seed, int words);
// `text` with `edits` words replaced (a near-duplicate of it).
std::string EditWords(const std::string& text, uint64_t seed, int edits);
// A copy of `text` with one word replaced whose content fingerprint (by
// `service`'s options) is 1 to max_bits bits from the text's: up to 10,000
// edits are tried, from `seed` on (the test fails if none is).
std::string NearCopy(const DocIdService& service, const std::string& text, uint64_t seed, int max_bits);

// Submits articles[t] on thread t, all released at once; the answers.
std::vector<DocIdAnswer> SubmitAtOnce(DocIdService& service, const std::vector<Article>& articles);

// Submits articles[t] on thread t, all released at once: every answer has
// the same docId, and exactly one article made it (the serialized
// check-and-insert). `round` names the failure.
void ExpectOneDocIdWhenSubmittedAtOnce(DocIdService& service, const std::vector<Article>& articles, int round);

}  // namespace simdex::servicetest

#endif  // SIMDEX_TESTS_SERVICE_SERVICE_TEST_UTIL_H_
