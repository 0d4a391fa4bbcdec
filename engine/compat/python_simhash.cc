// Simhash(text).value and Simhash(features).value of the Python `simhash`
// package: the tokens of python_text.h, a sliding window of 4 code points,
// MD5 per feature and the +w/-w vote per bit.
#include "engine/compat/python_simhash.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <limits>

#include "engine/compat/md5.h"
#include "engine/compat/python_text.h"

namespace simdex::compat {
namespace {

constexpr int kBits = 64;
constexpr int kWindow = 4;

// _slide(content, 4): calls fn on each window of 4 code points of the UTF-8
// `kept`, or on the whole of it when it has fewer than 4 (and nothing when it
// is empty).
template <typename Fn>
void ForEachWindow(std::string_view kept, Fn&& fn) {
  size_t starts[kWindow];  // start offsets of the last kWindow code points
  uint64_t count = 0;
  for (size_t pos = 0; pos < kept.size(); ++count) {
    starts[count % kWindow] = pos;
    const auto lead = static_cast<uint8_t>(kept[pos]);
    pos += lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    if (count + 1 >= kWindow) {
      const size_t first = starts[(count + 1) % kWindow];
      fn(kept.substr(first, pos - first));
    }
  }
  if (count > 0 && count < kWindow) fn(kept);
}

// A window holds at most 4 code points, so at most 16 bytes, and never a 0
// byte (U+0000 is not a token character). Its key is those bytes as two
// big-endian words padded with zeros: keys compare as the windows do byte by
// byte, which is code point order, without a memcmp call per comparison.
struct WindowKey {
  uint64_t hi = 0;
  uint64_t lo = 0;

  explicit WindowKey(std::string_view w) {
    assert(w.size() <= 16);
    for (size_t i = 0; i < 16; ++i) {
      const uint64_t byte = i < w.size() ? static_cast<uint8_t>(w[i]) : 0;
      (i < 8 ? hi : lo) |= byte << (8 * (7 - i % 8));
    }
  }
  std::string Text() const {
    std::string text;
    for (size_t i = 0; i < 16; ++i) {
      const auto byte = static_cast<char>((i < 8 ? hi : lo) >> (8 * (7 - i % 8)));
      if (byte == 0) break;
      text.push_back(byte);
    }
    return text;
  }
  auto operator<=>(const WindowKey&) const = default;
};

// Scratch buffers above this capacity are released after use.
constexpr size_t kKeptScratchBytes = size_t{16} << 20;

thread_local std::string t_kept;
thread_local std::vector<WindowKey> t_windows;

void AddSaturated(uint64_t n, uint32_t* counter) {
  if (counter == nullptr) return;
  const uint64_t sum = *counter + n;
  *counter = static_cast<uint32_t>(std::min<uint64_t>(sum, std::numeric_limits<uint32_t>::max()));
}

// The tokens of `text` concatenated, in t_kept.
std::string_view KeptText(std::string_view utf8_text, uint32_t* invalid_utf8) {
  t_kept.clear();
  AddSaturated(KeepPythonTokenChars(utf8_text, &t_kept), invalid_utf8);
  return t_kept;
}

void ReleaseLargeScratch() {
  if (t_kept.capacity() > kKeptScratchBytes) t_kept = std::string();
  if (t_windows.capacity() * sizeof(WindowKey) > kKeptScratchBytes) t_windows = {};
}

// The fingerprint whose bit i is set iff positive(i): Python's `if v[i] > 0`.
template <typename Fn>
uint64_t BitsWhere(Fn&& positive) {
  uint64_t value = 0;
  for (int i = 0; i < kBits; ++i) {
    if (positive(i)) value |= uint64_t{1} << i;
  }
  return value;
}

// For each bit position, how many of the added hashes have that bit set.
// Eight positions share a word as byte counters (kSpread turns a byte of the
// hash into one 0/1 byte per bit), flushed before a counter can overflow:
// eight additions per hash instead of 64.
class BitCounter {
 public:
  void Add(uint64_t hash) {
    for (int j = 0; j < 8; ++j) lanes_[j] += kSpread[(hash >> (8 * j)) & 0xFF];
    ++total_;
    if (++pending_ == 255) Flush();
  }
  uint64_t total() const { return total_; }
  // Bit i is set iff more than half of the hashes have it set: Python's
  // sum of +1/-1 per hash is 2 * ones - total.
  uint64_t Majority() {
    Flush();
    return BitsWhere([&](int i) { return 2 * ones_[i] > total_; });
  }

 private:
  static constexpr std::array<uint64_t, 256> kSpread = [] {
    std::array<uint64_t, 256> t{};
    for (uint64_t x = 0; x < 256; ++x) {
      for (int b = 0; b < 8; ++b) t[x] |= ((x >> b) & 1) << (8 * b);
    }
    return t;
  }();

  void Flush() {
    for (int j = 0; j < 8; ++j) {
      for (int b = 0; b < 8; ++b) ones_[8 * j + b] += (lanes_[j] >> (8 * b)) & 0xFF;
      lanes_[j] = 0;
    }
    pending_ = 0;
  }

  uint64_t lanes_[8] = {};
  uint64_t ones_[kBits] = {};
  uint64_t total_ = 0;
  int pending_ = 0;
};

// Python's vote with integer weights: sum_i = 2 * ones_i - total, where
// ones_i adds the weights of the features whose hash has bit i set.
struct IntegerVote {
  int64_t ones[kBits] = {};
  int64_t total = 0;

  void Add(uint64_t hash, int64_t weight) {
    for (int i = 0; i < kBits; ++i) ones[i] += weight * static_cast<int64_t>((hash >> i) & 1);
    total += weight;
  }
  uint64_t Value() const {
    return BitsWhere([&](int i) { return 2 * ones[i] > total; });
  }
};

// True when Python computes the same exact sums for these weights whether
// they are ints or floats: every weight is integral and their magnitudes add
// up to less than 2^53, so no partial sum is inexact as a double (and twice
// any sum fits an int64_t). Rounding in `magnitude` is monotone, so a true
// total of 2^53 or more is never let through.
bool WeightsAreSmallIntegers(const std::vector<WeightedCompatFeature>& features) {
  double magnitude = 0;
  for (const auto& f : features) {
    if (!std::isfinite(f.weight) || std::trunc(f.weight) != f.weight) return false;
    magnitude += std::fabs(f.weight);
    if (magnitude >= 9007199254740992.0) return false;  // 2^53, exact as a double
  }
  return true;
}

}  // namespace

uint64_t PythonSimhashFeatureHash(std::string_view utf8_feature) {
  const Md5Digest d = Md5(utf8_feature);
  uint64_t h = 0;
  for (int i = 8; i < 16; ++i) h = h << 8 | d[i];
  return h;
}

void PythonSimhashFeatures(std::string_view utf8_text, std::vector<CountedFeature>* out,
                           uint32_t* invalid_utf8) {
  const std::string_view kept = KeptText(utf8_text, invalid_utf8);
  std::vector<WindowKey>& windows = t_windows;
  windows.clear();
  ForEachWindow(kept, [&](std::string_view w) { windows.emplace_back(w); });
  // Python sorts the features (code point order) before grouping them.
  std::sort(windows.begin(), windows.end());
  for (size_t i = 0; i < windows.size();) {
    size_t j = i + 1;
    while (j < windows.size() && windows[j] == windows[i]) ++j;
    const uint64_t count = j - i;
    out->push_back({windows[i].Text(),
                    static_cast<uint32_t>(std::min<uint64_t>(count, std::numeric_limits<uint32_t>::max()))});
    i = j;
  }
  ReleaseLargeScratch();
}

bool PythonSimhashOfText(std::string_view utf8_text, uint64_t* value, uint32_t* invalid_utf8) {
  // Hashing every window, repeats included, gives the package's sums: it adds
  // each distinct feature's count once, which is the same integer.
  BitCounter counter;
  ForEachWindow(KeptText(utf8_text, invalid_utf8),
                [&](std::string_view w) { counter.Add(PythonSimhashFeatureHash(w)); });
  ReleaseLargeScratch();
  if (counter.total() == 0) return false;
  *value = counter.Majority();
  return true;
}

bool PythonSimhashOfFeatures(const std::vector<WeightedCompatFeature>& features, uint64_t* value) {
  if (features.empty()) return false;
  if (WeightsAreSmallIntegers(features)) {
    IntegerVote vote;
    for (const auto& f : features) vote.Add(PythonSimhashFeatureHash(f.text), static_cast<int64_t>(f.weight));
    *value = vote.Value();
    return true;
  }
  // Python's float arithmetic: v[i] += w or -w, feature by feature, in order.
  double sums[kBits] = {};
  for (const auto& f : features) {
    const uint64_t h = PythonSimhashFeatureHash(f.text);
    for (int i = 0; i < kBits; ++i) sums[i] += ((h >> i) & 1) != 0 ? f.weight : -f.weight;
  }
  *value = BitsWhere([&](int i) { return sums[i] > 0; });
  return true;
}

}  // namespace simdex::compat
