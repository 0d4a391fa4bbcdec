// ReadReportedPairs (include/simdex/eval.h): the pairs of `simdex dedup
// --pairs` (or any JSON Lines of {"a": id, "b": id}) as places in a set.
#include <algorithm>
#include <unordered_map>

#include <simdjson.h>

#include "engine/eval/json_lines.h"
#include "simdex/eval.h"

namespace simdex {
namespace {

// The id in `field` as the set spells it: a string as it is, an integer as
// its decimal text.
bool IdOf(simdjson::dom::object object, const char* field, std::string* out) {
  simdjson::dom::element value;
  if (object[field].get(value) != simdjson::SUCCESS) return false;
  std::string_view s;
  uint64_t u = 0;
  int64_t i = 0;
  if (value.get(s) == simdjson::SUCCESS) {
    out->assign(s);
  } else if (value.get(u) == simdjson::SUCCESS) {
    *out = std::to_string(u);
  } else if (value.get(i) == simdjson::SUCCESS) {
    *out = std::to_string(i);
  } else {
    return false;
  }
  return true;
}

}  // namespace

Status ReadReportedPairs(const std::string& path, std::span<const LabelledDocument> docs, std::vector<uint64_t>* out) {
  std::unordered_map<std::string_view, uint32_t> place;
  place.reserve(docs.size());
  for (size_t i = 0; i < docs.size(); ++i) {
    if (!place.emplace(docs[i].id, static_cast<uint32_t>(i)).second) {
      return Status::InvalidArgument(path + ": the set holds the id '" + docs[i].id +
                                     "' twice, so its pairs cannot be placed");
    }
  }
  std::vector<uint64_t> pairs;
  std::string a, b;
  SIMDEX_RETURN_IF_ERROR(eval::ForEachJsonObject(path, [&](simdjson::dom::object object) {
    if (!IdOf(object, "a", &a) || !IdOf(object, "b", &b)) {
      return Status::InvalidArgument("no id (a string or an integer) in 'a' and 'b'");
    }
    const auto x = place.find(a), y = place.find(b);
    if (x == place.end() || y == place.end()) {
      return Status::InvalidArgument("the set holds no document '" + (x == place.end() ? a : b) + "'");
    }
    if (x->second == y->second) return Status::InvalidArgument("a pair of one document, '" + a + "'");
    pairs.push_back(PackPair(std::min(x->second, y->second), std::max(x->second, y->second)));
    return Status::OK();
  }));
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  *out = std::move(pairs);
  return Status::OK();
}

}  // namespace simdex
