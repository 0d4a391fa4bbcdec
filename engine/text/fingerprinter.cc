// Fingerprinter: options, their profile, weighting, the combine and the
// empty reasons, over the feature pipeline of feature_extractor.h.
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/compat/python_simhash.h"
#include "engine/text/bit_sums.h"
#include "engine/text/feature_extractor.h"
#include "engine/text/feature_table.h"
#include "engine/text/normalizer.h"
#include "engine/text/share_cap.h"
#include "engine/util/json_text.h"
#include "engine/util/utf.h"
#include "simdex/fingerprint.h"
#include "simdex/front_end_text.h"

namespace simdex {
namespace {

Status ValidateOptions(const FingerprintOptions& o) {
  switch (o.tokenizer) {
    case Tokenizer::kWords:
    case Tokenizer::kCharNgrams:
    case Tokenizer::kWordNgrams:
      break;
    default:
      return Status::InvalidArgument("fingerprint options: unknown tokenizer " +
                                     std::to_string(static_cast<int>(o.tokenizer)));
  }
  switch (o.weighting) {
    case Weighting::kTermFrequency:
    case Weighting::kBinary:
    case Weighting::kLogTf:
      break;
    case Weighting::kTfIdf:
    case Weighting::kLogTfIdf:
      if (o.idf == nullptr) {
        return Status::InvalidArgument(std::string("fingerprint options: weighting ") +
                                       (o.weighting == Weighting::kTfIdf ? "tf-idf" : "log-tf-idf") +
                                       " needs an idf table");
      }
      SIMDEX_RETURN_IF_ERROR(o.idf->Check().WithContext("fingerprint options"));
      if (o.idf->keyed_by_hash() && o.idf->hash_seed() != o.seed) {
        return Status::InvalidArgument("fingerprint options: the idf table is keyed by hashes of seed " +
                                       std::to_string(o.idf->hash_seed()) + ", not the options' seed " +
                                       std::to_string(o.seed));
      }
      break;
    default:
      return Status::InvalidArgument("fingerprint options: unknown weighting " +
                                     std::to_string(static_cast<int>(o.weighting)));
  }
  // Written so that NaN, which compares false, is refused.
  if (!(o.max_share == 0 || (o.max_share > 0 && o.max_share <= 1))) {
    return Status::InvalidArgument("fingerprint options: max_share must be 0 (no cap) or in (0, 1], got " +
                                   std::to_string(o.max_share));
  }
  if (o.ngram < 1 || o.ngram > 16) {
    return Status::InvalidArgument("fingerprint options: ngram must be in 1..16, got " +
                                   std::to_string(o.ngram));
  }
  return Status::OK();
}

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

// The profile's words (include/simdex/profile.h; docs/fingerprint.md,
// "Profiles", defines each; tests/text/profile_test.cc pins the default's).
// "stop:none", "stop:en+zh", "stop:en", "stop:zh" for the built-in lists,
// else "stop:" and 16 hex digits of XXH3-64 over the sorted set.
std::string StopWordsWord(const std::vector<std::string>& set, const text::CaseFoldNormalizer* normalizer) {
  if (set.empty()) return "stop:none";
  const std::pair<const char*, std::vector<std::string>> builtins[] = {
      {"en+zh", DefaultStopWords()}, {"en", BuiltinStopWords("en")}, {"zh", BuiltinStopWords("zh")}};
  for (const auto& [name, words] : builtins) {
    if (StopSet(words, normalizer) == set) return std::string("stop:") + name;
  }
  std::string joined;
  for (const std::string& w : set) joined.append(w).push_back('\0');
  return "stop:" + FormatHexFingerprint(XXH3_64bits(joined.data(), joined.size()));
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

// The profile of validated options (compat kNone) whose stop words are `stop`.
std::string DescribeProfile(const FingerprintOptions& o, const std::string& stop) {
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
  return d;
}

uint32_t Saturate32(uint64_t v) {
  return v > std::numeric_limits<uint32_t>::max() ? std::numeric_limits<uint32_t>::max()
                                                  : static_cast<uint32_t>(v);
}

}  // namespace

struct Fingerprinter::Rep {
  FingerprintOptions options;
  std::string profile;  // include/simdex/profile.h
  // Exactly one of the two feature sources: the simdex pipeline, or the
  // python-simhash profile (options.compat == kPythonSimhash).
  std::unique_ptr<text::FeatureExtractor> extractor;
  std::vector<compat::CountedFeature> compat_features;
  text::FeatureTable table;
  // options.idf keyed by feature hash (IdfTable::KeyedByHash), shared by clones.
  std::shared_ptr<const IdfTable> idf;
  text::IntegerBitSums integer_sums;
  text::RealBitSums real_sums;
  // FromFeatures scratch: distinct hashes in first-occurrence order with
  // their summed weights, and where each hash sits in that list.
  std::vector<WeightedHash> merged;
  std::unordered_map<uint64_t, size_t> merged_index;
  // The weights of the table's entries, in their order, and CapShare's scratch.
  std::vector<double> weights;
  std::vector<double> share_scratch;

  // The count the weighting's tf sees: capped at options.tf_cap.
  uint64_t TfOf(const text::FeatureEntry& e) const {
    return options.tf_cap != 0 && e.count > options.tf_cap ? options.tf_cap : e.count;
  }

  double WeightOf(const text::FeatureEntry& e) const {
    const double tf = static_cast<double>(TfOf(e));
    switch (options.weighting) {
      case Weighting::kTermFrequency: return tf;
      case Weighting::kBinary: return 1.0;
      case Weighting::kLogTf: return 1.0 + std::log(tf);
      case Weighting::kTfIdf: return tf * IdfOf(e);
      case Weighting::kLogTfIdf: return (1.0 + std::log(tf)) * IdfOf(e);
    }
    return 0.0;
  }

  // False when the integral weights of tf or binary are within the share
  // cap, as in most long documents: they are summed exactly as integers.
  bool ShareCapApplies(const std::vector<text::FeatureEntry>& entries) const {
    if (options.max_share == 0 || options.weighting == Weighting::kBinary) return false;
    uint64_t total = 0, heaviest = 0;
    for (const text::FeatureEntry& e : entries) {
      const uint64_t tf = TfOf(e);
      total += tf;
      heaviest = std::max(heaviest, tf);
    }
    // CapShare's own test, in the same doubles.
    return static_cast<double>(heaviest) > options.max_share * static_cast<double>(total);
  }

  // WeightOf every entry into `weights`, then the share cap if asked.
  void Weigh(const std::vector<text::FeatureEntry>& entries) {
    weights.clear();
    for (const text::FeatureEntry& e : entries) weights.push_back(WeightOf(e));
    if (options.max_share > 0) text::CapShare(options.max_share, weights, &share_scratch);
  }

  double IdfOf(const text::FeatureEntry& e) const { return idf->LookupHash(e.hash); }

  bool python_compat() const { return options.compat == Compat::kPythonSimhash; }

  // *r holding the fingerprint of `sums` over `features` distinct features.
  template <typename Sums>
  static FingerprintResult Voted(Sums& sums, uint64_t features, FingerprintResult* r) {
    r->features = Saturate32(features);
    r->fingerprint = sums.Fingerprint(64);
    r->reason = EmptyReason::kNotEmpty;
    return *r;
  }

  // *r holding the real-weight vote of the (hash, weight) pairs that
  // for_each(add) passes to add, zero weights left out: kZeroWeight when
  // no weight is positive.
  template <typename ForEach>
  FingerprintResult VoteReal(ForEach&& for_each, FingerprintResult* r) {
    real_sums.Clear();
    uint64_t contributing = 0;
    bool any_positive = false;
    for_each([&](uint64_t hash, double w) {
      if (w == 0) return;
      any_positive |= w > 0;
      ++contributing;
      real_sums.Add(hash, w);
    });
    if (!any_positive) {
      r->reason = EmptyReason::kZeroWeight;
      return *r;
    }
    return Voted(real_sums, contributing, r);
  }

  // Fills the table with the features of utf8_text, and their texts if asked.
  text::ExtractStats Extract(std::string_view utf8_text, bool keep_text) {
    table.set_keep_text(keep_text);
    text::ExtractStats stats;
    extractor->Extract(utf8_text, &table, &stats);
    return stats;
  }

  // Weights and combines the table filled by the extractor.
  FingerprintResult Finish(const text::ExtractStats& stats);
  // The python-simhash profile: its features, weight = count, its hash.
  FingerprintResult FingerprintPythonCompat(std::string_view utf8_text);
};

// Text with no features is "no-text" when it is only ASCII white space.
static bool HasText(std::string_view utf8_text) {
  return !std::all_of(utf8_text.begin(), utf8_text.end(), util::IsAsciiSpace);
}

FingerprintResult Fingerprinter::Rep::FingerprintPythonCompat(std::string_view utf8_text) {
  FingerprintResult r;
  compat_features.clear();
  compat::PythonSimhashFeatures(utf8_text, &compat_features, &r.invalid_utf8);
  if (compat_features.empty()) {
    r.reason = HasText(utf8_text) ? EmptyReason::kNoFeatures : EmptyReason::kNoText;
    return r;
  }
  integer_sums.Clear();
  uint64_t occurrences = 0;
  for (const compat::CountedFeature& f : compat_features) {
    integer_sums.Add(compat::PythonSimhashFeatureHash(f.text), f.count);
    occurrences += f.count;
  }
  r.occurrences = Saturate32(occurrences);
  return Voted(integer_sums, compat_features.size(), &r);
}

FingerprintResult Fingerprinter::Rep::Finish(const text::ExtractStats& stats) {
  FingerprintResult r;
  r.invalid_utf8 = stats.invalid_utf8;
  r.occurrences = Saturate32(stats.occurrences);
  if (!stats.has_text) {
    r.reason = EmptyReason::kNoText;
    return r;
  }
  if (stats.candidates == 0) {
    r.reason = EmptyReason::kNoFeatures;
    return r;
  }
  if (stats.occurrences == 0) {
    r.reason = EmptyReason::kAllStopWords;
    return r;
  }
  const auto& entries = table.entries();
  if ((options.weighting == Weighting::kTermFrequency || options.weighting == Weighting::kBinary) &&
      !ShareCapApplies(entries)) {
    // Integral weights: exact integer sums, in any order.
    integer_sums.Clear();
    bool binary = options.weighting == Weighting::kBinary;
    for (const text::FeatureEntry& e : entries) integer_sums.Add(e.hash, binary ? 1 : TfOf(e));
    return Voted(integer_sums, entries.size(), &r);
  }
  Weigh(entries);
  return VoteReal([&](auto add) {
    for (size_t i = 0; i < entries.size(); ++i) add(entries[i].hash, weights[i]);
  }, &r);
}

const char* EmptyReasonName(EmptyReason reason) {
  switch (reason) {
    case EmptyReason::kNotEmpty: return "";
    case EmptyReason::kNoText: return "no-text";
    case EmptyReason::kNoFeatures: return "no-features";
    case EmptyReason::kAllStopWords: return "all-stop-words";
    case EmptyReason::kZeroWeight: return "zero-weight";
  }
  return "unknown";
}

Status Fingerprinter::Create(const FingerprintOptions& options,
                             std::unique_ptr<Fingerprinter>* out) {
  if (options.compat == Compat::kPythonSimhash) {
    auto rep = std::make_unique<Rep>();
    rep->options = options;
    rep->profile = "python-simhash";
    out->reset(new Fingerprinter(std::move(rep)));
    return Status::OK();
  }
  if (options.compat != Compat::kNone) {
    return Status::InvalidArgument("fingerprint options: unknown compat profile " +
                                   std::to_string(static_cast<int>(options.compat)));
  }
  SIMDEX_RETURN_IF_ERROR(ValidateOptions(options));
  // Stop words are compared, and hashed as the extractor hashes features,
  // normalized.
  text::CaseFoldNormalizer normalizer;
  if (options.normalize) SIMDEX_RETURN_IF_ERROR(normalizer.Init());
  const text::CaseFoldNormalizer* norm = options.normalize ? &normalizer : nullptr;
  const std::vector<std::string> stop = StopSet(options.stop_words, norm);
  text::ExtractorConfig config;
  config.tokenizer = options.tokenizer;
  config.ngram = options.ngram;
  config.normalize = options.normalize;
  config.clean_text = options.clean_text;
  config.cap_numbers = options.cap_numbers;
  config.seed = options.seed;
  if (!stop.empty()) {
    auto set = std::make_shared<text::HashSet64>();
    for (const std::string& word : stop) set->Insert(XXH3_64bits_withSeed(word.data(), word.size(), options.seed));
    config.stop_words = std::move(set);
  }
  auto rep = std::make_unique<Rep>();
  rep->options = options;
  rep->idf = options.idf == nullptr || options.idf->keyed_by_hash()
                 ? options.idf
                 : std::make_shared<const IdfTable>(options.idf->KeyedByHash(options.seed));
  rep->profile = DescribeProfile(options, StopWordsWord(stop, norm));
  SIMDEX_RETURN_IF_ERROR(text::FeatureExtractor::Create(config, &rep->extractor));
  out->reset(new Fingerprinter(std::move(rep)));
  return Status::OK();
}

Fingerprinter::Fingerprinter(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
Fingerprinter::~Fingerprinter() = default;

std::unique_ptr<Fingerprinter> Fingerprinter::Clone() const {
  auto rep = std::make_unique<Rep>();
  rep->options = rep_->options;
  rep->idf = rep_->idf;
  rep->profile = rep_->profile;
  if (rep_->extractor) rep->extractor = rep_->extractor->Clone();
  return std::unique_ptr<Fingerprinter>(new Fingerprinter(std::move(rep)));
}

const FingerprintOptions& Fingerprinter::options() const { return rep_->options; }
const std::string& Fingerprinter::profile() const { return rep_->profile; }

FingerprintResult Fingerprinter::Fingerprint(std::string_view utf8_text) {
  if (rep_->python_compat()) return rep_->FingerprintPythonCompat(utf8_text);
  return rep_->Finish(rep_->Extract(utf8_text, /*keep_text=*/false));
}

void Fingerprinter::FeatureHashes(std::string_view utf8_text, std::vector<uint64_t>* hashes,
                                  std::vector<std::string>* texts) {
  hashes->clear();
  if (texts != nullptr) texts->clear();
  if (rep_->python_compat()) return;
  rep_->Extract(utf8_text, texts != nullptr);
  for (const text::FeatureEntry& e : rep_->table.entries()) {
    hashes->push_back(e.hash);
    if (texts != nullptr) texts->emplace_back(rep_->table.text(e));
  }
}

void Fingerprinter::ExtractFeatures(std::string_view utf8_text, std::vector<WeightedFeature>* out) {
  out->clear();
  if (rep_->python_compat()) {
    rep_->compat_features.clear();
    compat::PythonSimhashFeatures(utf8_text, &rep_->compat_features, nullptr);
    for (const auto& f : rep_->compat_features) out->push_back({f.text, static_cast<double>(f.count)});
    return;
  }
  rep_->Extract(utf8_text, /*keep_text=*/true);
  const std::vector<text::FeatureEntry>& entries = rep_->table.entries();
  rep_->Weigh(entries);
  for (size_t i = 0; i < entries.size(); ++i) {
    out->push_back({std::string(rep_->table.text(entries[i])), rep_->weights[i]});
  }
}

uint64_t Fingerprinter::HashFeature(std::string_view feature) const {
  if (rep_->python_compat()) return compat::PythonSimhashFeatureHash(feature);
  return rep_->extractor->Hash(feature);
}

Status Fingerprinter::FromFeatures(std::span<const WeightedFeature> features, FingerprintResult* out) {
  for (const WeightedFeature& f : features) {
    // The feature is named only for a refusal: quoting every one would cost
    // more than the check.
    if (!CheckWeight(f.weight, {}).ok()) return CheckWeight(f.weight, "weight of feature " + Quoted(f.text));
  }
  *out = FromCheckedFeatures(features);
  return Status::OK();
}

FingerprintResult Fingerprinter::FromCheckedFeatures(std::span<const WeightedFeature> features) {
  FingerprintResult r;
  r.reason = EmptyReason::kNoFeatures;
  if (features.empty()) return r;
  rep_->merged.clear();
  rep_->merged_index.clear();
  uint64_t occurrences = 0;
  for (const WeightedFeature& f : features) {
    if (f.weight == 0) continue;
    ++occurrences;
    uint64_t hash = HashFeature(f.text);
    auto [it, added] = rep_->merged_index.emplace(hash, rep_->merged.size());
    if (added) rep_->merged.push_back({hash, 0.0});
    rep_->merged[it->second].weight += f.weight;
  }
  r.occurrences = Saturate32(occurrences);
  return rep_->VoteReal([&](auto add) {
    for (const WeightedHash& h : rep_->merged) add(h.hash, h.weight);
  }, &r);
}

}  // namespace simdex
