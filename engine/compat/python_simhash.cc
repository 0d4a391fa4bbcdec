// The features and feature hash of the Python `simhash` package: the tokens
// of python_text.h, a sliding window of 4 code points, MD5 per feature (the
// Fingerprinter votes per bit).
#include "engine/compat/python_simhash.h"

#include <algorithm>
#include <cassert>
#include <limits>

#include "engine/compat/md5.h"
#include "engine/compat/python_text.h"

namespace simdex::compat {
namespace {

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

}  // namespace simdex::compat
