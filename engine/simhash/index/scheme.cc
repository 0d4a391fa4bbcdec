// Schemes and their block permutations (see include/simdex/scheme.h).
#include "simdex/scheme.h"

#include <algorithm>
#include <charconv>

namespace simdex {

namespace {

struct Preset {
  const char* name;
  std::vector<int> widths;
  int k;
};

const std::vector<Preset>& Presets() {
  static const std::vector<Preset> kPresets = {
      {"t4", {16, 16, 16, 16}, 3},
      {"t10", {16, 12, 12, 12, 12}, 3},
      {"t20", {11, 11, 11, 11, 10, 10}, 3},
  };
  return kPresets;
}

uint64_t LowMask(int bits) { return bits >= 64 ? ~0ULL : (1ULL << bits) - 1; }

// All size-r subsets of {0..n-1} in lexicographic order.
std::vector<std::vector<int>> Combinations(int n, int r) {
  std::vector<std::vector<int>> out;
  std::vector<int> c(r);
  for (int i = 0; i < r; ++i) c[i] = i;
  while (true) {
    out.push_back(c);
    int i = r - 1;
    while (i >= 0 && c[i] == n - r + i) --i;
    if (i < 0) break;
    ++c[i];
    for (int j = i + 1; j < r; ++j) c[j] = c[j - 1] + 1;
  }
  return out;
}

// Greedy set cover: tables (by leading-block sets) such that every agreeing
// set of `agree` blocks contains some chosen table's leading blocks.
std::vector<int> CoverTables(int num_blocks, int agree, const std::vector<BlockPermutation>& tables) {
  auto as_mask = [](const std::vector<int>& blocks) {
    uint32_t m = 0;
    for (int b : blocks) m |= 1u << b;
    return m;
  };
  std::vector<uint32_t> uncovered;
  for (const auto& s : Combinations(num_blocks, agree)) uncovered.push_back(as_mask(s));
  std::vector<uint32_t> lead;
  for (const auto& t : tables) lead.push_back(as_mask(t.leading_blocks()));

  std::vector<int> chosen;
  while (!uncovered.empty()) {
    int best = -1;
    size_t best_count = 0;
    for (size_t t = 0; t < lead.size(); ++t) {
      size_t count = std::count_if(uncovered.begin(), uncovered.end(),
                                   [&](uint32_t s) { return (s & lead[t]) == lead[t]; });
      if (count > best_count) best = static_cast<int>(t), best_count = count;
    }
    chosen.push_back(best);
    std::erase_if(uncovered, [&](uint32_t s) { return (s & lead[best]) == lead[best]; });
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace

uint64_t BlockPermutation::Apply(uint64_t fingerprint) const {
  uint64_t out = 0;
  for (const Move& m : moves_) out |= ((fingerprint >> m.from) & m.mask) << m.to;
  return out;
}

uint64_t BlockPermutation::Invert(uint64_t permuted) const {
  uint64_t out = 0;
  for (const Move& m : moves_) out |= ((permuted >> m.to) & m.mask) << m.from;
  return out;
}

Status Scheme::Create(const std::vector<int>& widths, int k, Scheme* out) {
  const int b = static_cast<int>(widths.size());
  if (b < 1 || b > kMaxBlocks) {
    return Status::InvalidArgument("a scheme needs 1 to " + std::to_string(kMaxBlocks) +
                                   " blocks, got " + std::to_string(b));
  }
  int sum = 0;
  for (int w : widths) {
    if (w < 1 || w > 64) return Status::InvalidArgument("block width " + std::to_string(w) + " is not in 1..64");
    sum += w;
  }
  if (sum != 64) return Status::InvalidArgument("block widths sum to " + std::to_string(sum) + ", not 64");
  if (k < 0 || k >= b) {
    return Status::InvalidArgument("k = " + std::to_string(k) + " needs at least k + 1 = " +
                                   std::to_string(k + 1) + " blocks; the scheme has " + std::to_string(b));
  }

  Scheme s;
  s.widths_ = widths;
  s.k_ = k;
  std::vector<int> shift(b);  // shift of block j in the fingerprint (block 0 = most significant)
  for (int j = 0, used = 0; j < b; ++j) {
    used += widths[j];
    shift[j] = 64 - used;
  }
  for (const auto& leading : Combinations(b, b - k)) {
    BlockPermutation p;
    p.leading_ = leading;
    std::vector<int> order = leading;
    for (int j = 0; j < b; ++j) {
      if (!std::binary_search(leading.begin(), leading.end(), j)) order.push_back(j);
    }
    int used = 0;
    for (int j : order) {
      used += widths[j];
      p.moves_.push_back({LowMask(widths[j]), static_cast<uint8_t>(shift[j]), static_cast<uint8_t>(64 - used)});
    }
    for (int j : leading) p.key_bits_ += widths[j];
    s.tables_.push_back(std::move(p));
  }
  for (int d = 0; d <= k; ++d) s.tables_for_distance_.push_back(CoverTables(b, b - d, s.tables_));
  *out = std::move(s);
  return Status::OK();
}

Status Scheme::Parse(std::string_view spec, Scheme* out) {
  for (const Preset& p : Presets()) {
    if (spec == p.name) return Create(p.widths, p.k, out);
  }
  const size_t colon = spec.find(':');
  if (colon == std::string_view::npos) {
    return Status::InvalidArgument("unknown scheme '" + std::string(spec) +
                                   "': use t4, t10, t20 or widths and k as W,W,...:K");
  }
  std::vector<int> widths;
  std::string_view list = spec.substr(0, colon);
  while (true) {
    const size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    int w = 0;
    auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), w);
    if (ec != std::errc() || ptr != item.data() + item.size()) {
      return Status::InvalidArgument("scheme '" + std::string(spec) + "': '" + std::string(item) +
                                     "' is not a block width");
    }
    widths.push_back(w);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  std::string_view ks = spec.substr(colon + 1);
  int k = 0;
  auto [ptr, ec] = std::from_chars(ks.data(), ks.data() + ks.size(), k);
  if (ks.empty() || ec != std::errc() || ptr != ks.data() + ks.size()) {
    return Status::InvalidArgument("scheme '" + std::string(spec) + "': '" + std::string(ks) + "' is not a k");
  }
  return Create(widths, k, out);
}

Status Scheme::Covering(int k, Scheme* out) {
  if (k < 0) return Status::InvalidArgument("no scheme covers a negative distance");
  if (k <= 3) return Parse("t10", out);
  const int blocks = std::min(kMaxBlocks, k + 3);
  if (k >= blocks) return Status::InvalidArgument("no scheme covers k " + std::to_string(k) + " (at most 15)");
  std::vector<int> widths(static_cast<size_t>(blocks), 64 / blocks);
  for (int i = 0; i < 64 % blocks; ++i) ++widths[static_cast<size_t>(i)];
  return Create(widths, k, out);
}

Scheme Scheme::Default() {
  Scheme s;
  Status st = Parse("t10", &s);
  (void)st;
  return s;
}

std::string Scheme::Name() const {
  for (const Preset& p : Presets()) {
    if (p.widths == widths_ && p.k == k_) return p.name;
  }
  std::string out;
  for (size_t i = 0; i < widths_.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(widths_[i]);
  }
  return out + ":" + std::to_string(k_);
}

}  // namespace simdex
