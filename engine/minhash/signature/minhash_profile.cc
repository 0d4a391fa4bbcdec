// MinHashProfile / ParseMinHashProfile (include/simdex/minhash.h). The
// shingle share is written in the shortest form that reads back to the
// same double, so that a profile round-trips exactly.
#include <charconv>
#include <sstream>
#include <vector>

#include "engine/util/json_text.h"
#include "simdex/minhash.h"

namespace simdex {

namespace {

constexpr char kVersion[] = "simdex-minhash/1";
constexpr char kNormalization[] = "nfkc-casefold";

// Reads "<key>:<value>" from `token` into *value; false if it is not that.
template <class T>
bool ReadField(const std::string& token, std::string_view key, T* value) {
  if (token.size() <= key.size() + 1 || token.compare(0, key.size(), key) != 0 || token[key.size()] != ':') {
    return false;
  }
  const char* begin = token.data() + key.size() + 1;
  const char* end = token.data() + token.size();
  const auto r = std::from_chars(begin, end, *value);
  return r.ec == std::errc() && r.ptr == end;
}

}  // namespace

std::string MinHashProfile(const MinHashOptions& o) {
  // space-split writes no word field: the profile of every signature made
  // before word-chars existed.
  const std::string words =
      o.shingles.words == ShingleWords::kSpaceSplit ? "" : std::string(" ") + ShingleWordsName(o.shingles.words);
  return std::string(kVersion) + " words:" + std::to_string(o.shingles.word_n) +
         " chars:" + std::to_string(o.shingles.char_n) + " unspaced:" + util::ShortestDecimal(o.shingles.unspaced_share) +
         " " + kNormalization + words + " perm:" + std::to_string(o.num_perm) + " seed:" + std::to_string(o.seed);
}

Status ParseMinHashProfile(std::string_view profile, MinHashOptions* out) {
  std::istringstream in{std::string(profile)};
  std::vector<std::string> t;
  for (std::string token; in >> token;) t.push_back(token);
  MinHashOptions o;
  // The word definition's field sits between the normalisation and perm;
  // without it the words are space-split.
  const bool has_words = t.size() == 8;
  const size_t p = has_words ? 6 : 5;
  bool ok = (t.size() == 7 || has_words) && t[0] == kVersion && t[4] == kNormalization &&
            (!has_words || (ParseShingleWords(t[5], &o.shingles.words) && o.shingles.words != ShingleWords::kSpaceSplit));
  if (!has_words) o.shingles.words = ShingleWords::kSpaceSplit;
  ok = ok && ReadField(t[1], "words", &o.shingles.word_n) && ReadField(t[2], "chars", &o.shingles.char_n) &&
       ReadField(t[3], "unspaced", &o.shingles.unspaced_share) && ReadField(t[p], "perm", &o.num_perm) &&
       ReadField(t[p + 1], "seed", &o.seed) && MinHashProfile(o) == profile;
  if (!ok) {
    return Status::InvalidArgument("signature profile '" + std::string(profile.substr(0, 200)) +
                                   "' is not one this build makes (" + kVersion + " ...)");
  }
  *out = o;
  return Status::OK();
}

}  // namespace simdex
