// Fingerprint profiles (include/simdex/profile.h): the descriptor of the
// options that decide a fingerprint. docs/fingerprint.md ("Profiles")
// defines each word; tests/text/profile_test.cc pins the default's.
#include "simdex/profile.h"

#include <xxhash.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/text/normalizer.h"
#include "engine/text/profile.h"
#include "engine/util/json_text.h"

namespace simdex {
namespace {

// The stop words as the fingerprinter compares them (normalized by
// `normalizer` unless it is null), sorted and distinct.
std::vector<std::string> StopSet(const std::vector<std::string>& words, const text::CaseFoldNormalizer* normalizer) {
  std::vector<std::string> out;
  for (const std::string& word : words) {
    std::string key = normalizer != nullptr ? normalizer->NormalizeUtf8(word) : word;
    if (!key.empty()) out.push_back(std::move(key));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// "stop:none", "stop:en+zh", "stop:en", "stop:zh" for the built-in lists,
// else "stop:" and 16 hex digits of XXH3-64 over the sorted set.
Status StopWord(const FingerprintOptions& o, std::string* out) {
  text::CaseFoldNormalizer normalizer;
  if (o.normalize) SIMDEX_RETURN_IF_ERROR(normalizer.Init());
  const text::CaseFoldNormalizer* norm = o.normalize ? &normalizer : nullptr;
  const std::vector<std::string> set = StopSet(o.stop_words, norm);
  if (set.empty()) {
    *out = "stop:none";
    return Status::OK();
  }
  const std::pair<const char*, std::vector<std::string>> builtins[] = {
      {"en+zh", DefaultStopWords()}, {"en", BuiltinStopWords("en")}, {"zh", BuiltinStopWords("zh")}};
  for (const auto& [name, words] : builtins) {
    if (StopSet(words, norm) == set) {
      *out = std::string("stop:") + name;
      return Status::OK();
    }
  }
  std::string joined;
  for (const std::string& w : set) joined.append(w).push_back('\0');
  *out = "stop:" + FormatHexFingerprint(XXH3_64bits(joined.data(), joined.size()));
  return Status::OK();
}

const char* TokenizerWord(Tokenizer t) {
  switch (t) {
    case Tokenizer::kWords: return "words";
    case Tokenizer::kCharNgrams: return "char-ngrams:";
    case Tokenizer::kWordNgrams: return "word-ngrams:";
  }
  return "?";
}

std::string WeightingWord(const FingerprintOptions& o) {
  switch (o.weighting) {
    case Weighting::kTermFrequency: return "tf";
    case Weighting::kBinary: return "binary";
    case Weighting::kLogTf: return "log-tf";
    case Weighting::kTfIdf: return "tf-idf:" + FormatHexFingerprint(o.idf->ContentHash(o.seed));
    case Weighting::kLogTfIdf: return "log-tf-idf:" + FormatHexFingerprint(o.idf->ContentHash(o.seed));
  }
  return "?";
}

}  // namespace

Status FingerprintProfile(const FingerprintOptions& o, std::string* out) {
  // Create checks the options and describes them ("python-simhash" for the
  // compatibility profile, whose pipeline none of the options changes).
  std::unique_ptr<Fingerprinter> check;
  SIMDEX_RETURN_IF_ERROR(Fingerprinter::Create(o, &check));
  *out = check->profile();
  return Status::OK();
}

namespace text {

// Fingerprinter::Create calls this once with validated options.
Status DescribeProfile(const FingerprintOptions& o, std::string* out) {
  std::string stop;
  SIMDEX_RETURN_IF_ERROR(StopWord(o, &stop));
  std::string d = "simdex-fp/" + std::to_string(kDefaultFingerprintProfileVersion) + " ";
  d += TokenizerWord(o.tokenizer);
  if (o.tokenizer != Tokenizer::kWords) d += std::to_string(o.ngram);
  d += o.normalize ? " nfkc-casefold" : " no-normalize";
  d += o.clean_text ? " clean" : " no-clean";
  // cap_numbers applies to the word tokenizer alone.
  if (o.tokenizer == Tokenizer::kWords) d += o.cap_numbers ? " cap-numbers" : " no-cap-numbers";
  d += " " + stop + " " + WeightingWord(o);
  // Written only when set and where they can change a weight (binary's are
  // equal, capped or not; a share of 1 caps nothing), so that the profiles
  // without them read as before.
  if (o.weighting != Weighting::kBinary) {
    if (o.tf_cap != 0) d += " tf-cap:" + std::to_string(o.tf_cap);
    if (o.max_share != 0 && o.max_share < 1) d += " max-share:" + util::ShortestDecimal(o.max_share);
  }
  d += " seed:" + std::to_string(o.seed);
  *out = std::move(d);
  return Status::OK();
}

}  // namespace text

Status CheckProfileText(std::string_view profile) {
  if (profile.size() > kMaxProfileLength) {
    return Status::InvalidArgument("fingerprint profile of " + std::to_string(profile.size()) +
                                   " bytes (at most " + std::to_string(kMaxProfileLength) + ")");
  }
  for (size_t i = 0; i < profile.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(profile[i]);
    if (c < 0x20 || c > 0x7e) {
      return Status::InvalidArgument("fingerprint profile has a byte that is not printable ASCII at offset " +
                                     std::to_string(i));
    }
  }
  return Status::OK();
}

namespace {

// Profile 3's code is profile 4's with no weight cap (version 4 changed the
// default max_share alone, and a profile 3 descriptor names no cap): a
// version 3 descriptor is read as the version 4 one of the same options, so
// that files of version 3 are compared with fingerprints made with
// --max-share 0 and refused against capped ones.
std::string Canonical(std::string_view profile) {
  constexpr std::string_view kThree = "simdex-fp/3 ";
  if (!profile.starts_with(kThree)) return std::string(profile);
  return "simdex-fp/4 " + std::string(profile.substr(kThree.size()));
}

}  // namespace

Status CheckSameProfile(std::string_view stored_where, std::string_view stored, std::string_view used_where,
                        std::string_view used) {
  if (stored.empty() || used.empty() || Canonical(stored) == Canonical(used)) return Status::OK();
  return Status::InvalidArgument("fingerprint profiles differ, and fingerprints of different profiles are not "
                                 "comparable: " + std::string(stored_where) + " has \"" + std::string(stored) +
                                 "\", " + std::string(used_where) + " \"" + std::string(used) + "\"");
}

Status ProfileCheck::Add(std::string_view where, std::string_view profile) {
  SIMDEX_RETURN_IF_ERROR(CheckSameProfile(where_, profile_, where, profile));
  if (profile_.empty() && !profile.empty()) {
    where_.assign(where);
    profile_.assign(profile);
  }
  return Status::OK();
}

}  // namespace simdex
