// The docId service's JSON: an article in, an answer out.
//
// An article is a JSON object with string fields "url", "title" and
// "content" (required; empty strings allowed), an optional "id" (a string
// or an unsigned 64-bit integer; null counts as absent), and any other
// fields, which are kept with the article as its representative copy. With
// a keep field, that field must be a number or null when present.
//
// Ids are compared as their canonical JSON text: a string with its escapes
// normalized ("a\u0041" is "aA"), an integer in decimal (so 7 and "7" are
// two ids). Other numbers (1.0, 1e0, -1, -0, 2^64) are refused: as doubles,
// 1 and 1.0 were two ids while 1.0 and 1e0 were one, and -0 was 0. A key
// given twice in an article is refused (every lookup took the first).
#ifndef SIMDEX_ENGINE_SERVICE_ARTICLE_JSON_H_
#define SIMDEX_ENGINE_SERVICE_ARTICLE_JSON_H_

#include <string>
#include <string_view>

#include "simdex/service.h"
#include "simdex/status.h"

namespace simdex::service {

// An article parsed from JSON, owning its strings; view() points into it.
struct ParsedArticle {
  std::string id_json;  // the id as compact JSON text ("42", "\"a-1\""), "" if absent
  std::string url, title, content;
  double score = 0;
  std::string json;  // the article as received

  Article view() const;
};

// Parses one article. InvalidArgument with a one-line reason ("field
// 'title' is missing", "field 'url' must be a string", "field 'url' is
// given twice", "field 'id' 18446744073709551616 is out of range for an
// unsigned 64-bit id ...", "not valid JSON: ...") when the text is not an
// article.
Status ParseArticle(std::string_view json, const std::string& keep_field, ParsedArticle* out);

// The canonical text of an id given as JSON text (`GET /v1/article?id=`),
// as an article's "id" (see above), and -0 and integers past 2^64 - 1 refused by name (the
// parser reads -0 as 0 and calls 2^64 "not valid JSON").
Status ParseArticleId(std::string_view text, std::string_view what, std::string* out);

// The string field "content" of an article's JSON (as stored for a
// representative); Corruption when the text is not such an article.
Status ContentOf(std::string_view json, std::string* content);

// {"docId":"<16 hex>","status":"success","filterStatus":"good"|"duplicate",
//  "filterReason":"new"|"url"|"title"|"content"[,"matched":{"id":..,"distance":d}][,"replayed":true]}
// where a MinHash content match says "similarity":<estimated J> instead of "distance".
void AppendAnswer(std::string* out, const DocIdAnswer& answer);

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_ARTICLE_JSON_H_
