// IdfTable: idf values by term, loaded from `term<TAB>idf` files.
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <unordered_map>

#include "engine/text/list_file.h"
#include "engine/text/normalizer.h"
#include "simdex/fingerprint.h"

namespace simdex {
namespace {

// Lets the map be probed with a string_view without building a string.
struct TermHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};

}  // namespace

struct IdfTable::Rep {
  std::unordered_map<std::string, double, TermHash, std::equal_to<>> idf;
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

size_t IdfTable::size() const { return rep_->idf.size(); }

Status IdfTable::Load(const std::string& path, bool normalize, IdfTable* out) {
  text::CaseFoldNormalizer normalizer;
  if (normalize) SIMDEX_RETURN_IF_ERROR(normalizer.Init());
  IdfTable table;
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
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), idf);
    if (ec != std::errc() || end != value.data() + value.size() || !std::isfinite(idf) ||
        idf < 0) {
      return Status::InvalidArgument(where() + "idf '" + std::string(value) +
                                     "' is not a finite number >= 0");
    }
    table.Set(normalize ? normalizer.NormalizeUtf8(term) : std::string(term), idf);
    return Status::OK();
  }));
  table.default_idf_ = out->default_idf_;
  *out = std::move(table);
  return Status::OK();
}

}  // namespace simdex
