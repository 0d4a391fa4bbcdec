#include "tests/index/test_data.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_set>

namespace simdex::testing {

namespace {

constexpr uint64_t kMaxId = std::numeric_limits<uint64_t>::max();

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "test_data: %s\n", what.c_str());
  std::abort();
}

// A mask of the low `bits` bits (0..64).
uint64_t LowMask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

}  // namespace

std::vector<uint64_t> UniformFingerprints(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> out(n);
  for (uint64_t& f : out) f = rng();
  return out;
}

std::vector<uint64_t> ClusterFingerprints(size_t clusters, size_t members, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> out;
  out.reserve(clusters * (members + 1));
  for (size_t c = 0; c < clusters; ++c) {
    const uint64_t centre = rng();
    out.push_back(centre);
    for (size_t m = 0; m < members; ++m) out.push_back(FlipRandomBits(centre, static_cast<int>(m % 5), rng));
  }
  return out;
}

std::vector<uint64_t> RepeatedFingerprints(std::span<const size_t> run_lengths, size_t others,
                                           uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> out;
  for (size_t run : run_lengths) out.insert(out.end(), run, rng());
  for (size_t i = 0; i < others; ++i) out.push_back(rng());
  return out;
}

std::vector<uint64_t> ConstantPrefixFingerprints(size_t n, int constant_bits, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint64_t low = LowMask(64 - constant_bits);
  const uint64_t prefix = rng() & ~low;
  std::vector<uint64_t> out(n);
  for (uint64_t& f : out) f = prefix | (rng() & low);
  return out;
}

std::vector<uint64_t> LowBitsFingerprints(size_t n, int varying_bits, uint64_t seed) {
  return ConstantPrefixFingerprints(n, 64 - varying_bits, seed);
}

std::vector<Entry> AssignIds(std::span<const uint64_t> fingerprints, IdStyle style, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::unordered_set<uint64_t> used;
  std::vector<Entry> out;
  out.reserve(fingerprints.size());
  for (size_t i = 0; i < fingerprints.size(); ++i) {
    uint64_t id = 0;
    switch (style) {
      case IdStyle::kSequential:
        id = i;
        break;
      case IdStyle::kNearMax:
        // 40503 is odd, so i -> i * 40503 mod 2^16 is a bijection: distinct ids.
        if (i >= (size_t{1} << 16)) Die("kNearMax supports at most 2^16 entries");
        id = kMaxId - ((i * 40503) & 0xFFFF);
        break;
      case IdStyle::kFullRange:
        if (i == 0) {
          id = kMaxId;
        } else if (i == 1) {
          id = 0;
        } else {
          do id = rng(); while (used.count(id));
        }
        used.insert(id);
        break;
      case IdStyle::kAllEqual:
        id = kMaxId - 15;
        break;
    }
    out.push_back(Entry{id, fingerprints[i]});
  }
  return out;
}

std::vector<DataSet> StandardDataSets(size_t divisor) {
  std::vector<DataSet> sets;
  auto add = [&](std::string name, const std::vector<uint64_t>& fps, IdStyle style) {
    sets.push_back(DataSet{std::move(name), AssignIds(fps, style, sets.size() + 1000)});
  };
  const uint64_t lone = 0x9E3779B97F4A7C15ULL;
  add("empty", {}, IdStyle::kSequential);
  add("one", {lone}, IdStyle::kNearMax);
  add("two", {lone, lone ^ 0x8000000100000001ULL}, IdStyle::kFullRange);
  add("two_equal_pairs", {lone, lone}, IdStyle::kAllEqual);
  add("uniform", UniformFingerprints(1000 / divisor, 1), IdStyle::kSequential);
  add("clusters", ClusterFingerprints(60 / divisor, 9, 2), IdStyle::kNearMax);
  // A 64-byte block holds at most 465 values (the head and 58 bytes of
  // one-bit codes): runs of 500 and more span blocks.
  const size_t long_runs[] = {100, 500};
  add("equal_runs", RepeatedFingerprints(long_runs, 200 / divisor, 3), IdStyle::kFullRange);
  const size_t runs_with_equal_ids[] = {100, 500};
  add("equal_runs_equal_ids", RepeatedFingerprints(runs_with_equal_ids, 50, 4), IdStyle::kAllEqual);
  add("prefix20", ConstantPrefixFingerprints(600 / divisor, 20, 5), IdStyle::kFullRange);
  add("prefix40", ConstantPrefixFingerprints(600 / divisor, 40, 6), IdStyle::kSequential);
  add("low12", LowBitsFingerprints(500 / divisor, 12, 7), IdStyle::kAllEqual);
  return sets;
}

uint64_t FlipRandomBits(uint64_t x, int count, std::mt19937_64& rng) {
  if (count < 0 || count > 64) Die("FlipRandomBits: count out of range");
  uint64_t flipped = 0;
  while (std::popcount(flipped) < count) flipped |= uint64_t{1} << (rng() % 64);
  return x ^ flipped;
}

void Shuffle(std::vector<Entry>* entries, std::mt19937_64& rng) {
  for (size_t i = entries->size(); i > 1; --i) std::swap((*entries)[i - 1], (*entries)[rng() % i]);
}

std::vector<Match> BruteForceSearch(std::span<const Entry> entries, uint64_t query, int k) {
  std::vector<Match> out;
  for (const Entry& e : entries) {
    const int d = std::popcount(e.fingerprint ^ query);
    if (d <= k) out.push_back(Match{e.id, e.fingerprint, d});
  }
  std::sort(out.begin(), out.end(), [](const Match& a, const Match& b) {
    if (a.distance != b.distance) return a.distance < b.distance;
    if (a.id != b.id) return a.id < b.id;
    return a.fingerprint < b.fingerprint;
  });
  return out;
}

ScopedTempDir::ScopedTempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "simdex-test-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) Die("mkdtemp failed for " + pattern);
  path_ = pattern;
}

ScopedTempDir::~ScopedTempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string ScopedTempDir::File(const std::string& name) const { return path_ + "/" + name; }

std::vector<std::string> ScopedTempDir::List() const {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(path_)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string ReadFileOrDie(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Die("cannot open " + path);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void WriteFileOrDie(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) Die("cannot write " + path);
}

Status BuildIndex(const std::string& path, const BuildOptions& options,
                  std::span<const Entry> entries, BuildStats* stats) {
  std::unique_ptr<IndexBuilder> builder;
  SIMDEX_RETURN_IF_ERROR(IndexBuilder::Create(path, options, &builder));
  const size_t half = entries.size() / 2;
  for (size_t i = 0; i < half; ++i) {
    SIMDEX_RETURN_IF_ERROR(builder->Add(entries[i].id, entries[i].fingerprint));
  }
  std::vector<uint64_t> ids, fingerprints;
  for (size_t i = half; i < entries.size(); ++i) {
    ids.push_back(entries[i].id);
    fingerprints.push_back(entries[i].fingerprint);
  }
  SIMDEX_RETURN_IF_ERROR(builder->Add(ids, fingerprints));
  Status s = builder->Finish();
  if (stats != nullptr) *stats = builder->stats();
  return s;
}

Scheme SchemeOrDie(const std::string& spec) {
  Scheme scheme;
  Status s = Scheme::Parse(spec, &scheme);
  if (!s.ok()) Die("bad scheme " + spec + ": " + s.ToString());
  return scheme;
}

}  // namespace simdex::testing
