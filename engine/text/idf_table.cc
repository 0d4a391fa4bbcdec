// IdfTable: idf values by term, loaded from `term<TAB>idf` files.
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/text/list_file.h"
#include "engine/text/normalizer.h"
#include "simdex/fingerprint.h"
#include "simdex/front_end_text.h"

namespace simdex {
namespace {

// Lets the map be probed with a string_view without building a string.
struct TermHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};

// A number (1e400, out of a double's range, is not one), then the weight
// rule. A refusal names "<path>:<line>: " and the term's idf, or the
// #default-idf line when term is null.
Status ParseIdf(std::string_view value, const std::string& path, size_t number, const std::string_view* term,
                double* idf) {
  auto what = [&] {
    return path + ":" + std::to_string(number) + ": " + (term ? "idf of " + Quoted(*term) : "#default-idf");
  };
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), *idf);
  if (ec != std::errc() || end != value.data() + value.size()) {
    return Status::InvalidArgument(what() + " is " + Quoted(value) + ", not a number");
  }
  return CheckWeight(*idf, {}).ok() ? Status::OK() : CheckWeight(*idf, what());
}

}  // namespace

struct IdfTable::Rep {
  std::unordered_map<std::string, double, TermHash, std::equal_to<>> idf;
  // FromHashes: sorted by hash.
  bool keyed_by_hash = false;
  uint64_t seed = 0;
  std::vector<std::pair<uint64_t, double>> by_hash;
};

IdfTable::IdfTable() : rep_(new Rep) {}
IdfTable::~IdfTable() = default;
IdfTable::IdfTable(IdfTable&&) noexcept = default;
IdfTable& IdfTable::operator=(IdfTable&&) noexcept = default;

void IdfTable::Set(std::string term, double idf) { rep_->idf[std::move(term)] = idf; }

double IdfTable::Lookup(std::string_view term) const {
  auto it = rep_->idf.find(term);
  return it == rep_->idf.end() ? default_idf_ : it->second;
}

IdfTable IdfTable::KeyedByHash(uint64_t seed) const {
  if (rep_->keyed_by_hash) return FromHashes(rep_->by_hash, rep_->seed, default_idf_);
  std::vector<std::pair<uint64_t, double>> keyed;
  keyed.reserve(rep_->idf.size());
  for (const auto& [term, idf] : rep_->idf) keyed.emplace_back(XXH3_64bits_withSeed(term.data(), term.size(), seed), idf);
  std::sort(keyed.begin(), keyed.end());
  return FromHashes(std::move(keyed), seed, default_idf_);
}

uint64_t IdfTable::ContentHash(uint64_t seed) const {
  const IdfTable hashed = KeyedByHash(seed);
  const std::vector<std::pair<uint64_t, double>>& keyed = hashed.rep_->by_hash;
  // Little-endian u64s: default idf's bits, then (key, idf bits) pairs.
  std::string bytes;
  bytes.reserve(8 + 16 * keyed.size());
  auto put64 = [&bytes](uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<char>(v >> (8 * i)));
  };
  put64(std::bit_cast<uint64_t>(default_idf_));
  for (const auto& [key, idf] : keyed) {
    put64(key);
    put64(std::bit_cast<uint64_t>(idf));
  }
  return XXH3_64bits(bytes.data(), bytes.size());
}

Status IdfTable::Check() const {
  // Each entry is named only when refused (a table may hold millions).
  SIMDEX_RETURN_IF_ERROR(CheckWeight(default_idf_, "default idf"));
  for (const auto& [term, idf] : rep_->idf) {
    if (!CheckWeight(idf, {}).ok()) return CheckWeight(idf, "idf of " + Quoted(term));
  }
  for (const auto& [hash, idf] : rep_->by_hash) {
    if (!CheckWeight(idf, {}).ok()) return CheckWeight(idf, "idf of feature hash " + FormatHexFingerprint(hash));
  }
  return Status::OK();
}

size_t IdfTable::size() const { return rep_->keyed_by_hash ? rep_->by_hash.size() : rep_->idf.size(); }

IdfTable IdfTable::FromHashes(std::vector<std::pair<uint64_t, double>> idf, uint64_t seed, double default_idf) {
  IdfTable table;
  table.rep_->keyed_by_hash = true;
  table.rep_->seed = seed;
  table.rep_->by_hash = std::move(idf);
  table.default_idf_ = default_idf;
  return table;
}

std::span<const std::pair<uint64_t, double>> IdfTable::hash_entries() const { return rep_->by_hash; }

bool IdfTable::keyed_by_hash() const { return rep_->keyed_by_hash; }
uint64_t IdfTable::hash_seed() const { return rep_->seed; }

double IdfTable::LookupHash(uint64_t hash) const {
  const auto& v = rep_->by_hash;
  auto it = std::lower_bound(v.begin(), v.end(), hash,
                             [](const std::pair<uint64_t, double>& e, uint64_t h) { return e.first < h; });
  return it != v.end() && it->first == hash ? it->second : default_idf_;
}

Status IdfTable::Load(const std::string& path, bool normalize, IdfTable* out) {
  text::CaseFoldNormalizer normalizer;
  if (normalize) SIMDEX_RETURN_IF_ERROR(normalizer.Init());
  IdfTable table;
  table.default_idf_ = out->default_idf_;
  // A value given twice is refused, naming both lines: the last one used to
  // win silently. The views point at the table's keys, which stay put.
  std::unordered_map<std::string_view, size_t> first_line;
  size_t default_line = 0;
  auto repeated = [&](std::string_view what, size_t first, size_t number) {
    return Status::InvalidArgument(path + ":" + std::to_string(number) + ": " + std::string(what) +
                                   " is given again (first at line " + std::to_string(first) + ")");
  };
  auto comment = [&](std::string_view line, size_t number) {
    constexpr std::string_view kDefault = "#default-idf\t";
    if (!line.starts_with(kDefault)) return Status::OK();
    if (default_line != 0) return repeated("#default-idf", default_line, number);
    default_line = number;
    return ParseIdf(text::TrimBlanks(line.substr(kDefault.size())), path, number, nullptr, &table.default_idf_);
  };
  SIMDEX_RETURN_IF_ERROR(text::ForEachListLine(path, [&](std::string_view line, size_t number) {
    auto where = [&] { return path + ":" + std::to_string(number) + ": "; };
    size_t tab = line.rfind('\t');
    if (tab == std::string_view::npos) {
      return Status::InvalidArgument(where() + "expected term<TAB>idf");
    }
    std::string_view term = line.substr(0, tab);
    std::string_view value = text::TrimBlanks(line.substr(tab + 1));
    if (term.empty()) return Status::InvalidArgument(where() + "empty term");
    double idf = 0;
    const Status parsed = ParseIdf(value, path, number, &term, &idf);
    if (!parsed.ok()) return parsed;
    auto [it, added] = table.rep_->idf.try_emplace(normalize ? normalizer.NormalizeUtf8(term) : std::string(term), idf);
    if (!added) {
      return repeated("term " + Quoted(term) + (it->first == term ? "" : " (" + Quoted(it->first) + ")"),
                      first_line[it->first], number);
    }
    first_line.emplace(it->first, number);
    return Status::OK();
  }, comment));
  *out = std::move(table);
  return Status::OK();
}

}  // namespace simdex
