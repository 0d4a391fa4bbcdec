#include "tools/size_argument.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string_view>

namespace simdex::tools {

bool ParseSize(std::string text, size_t* out) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (text.ends_with("IB")) text.resize(text.size() - 2);
  else if (text.size() > 1 && text.ends_with("B")) text.pop_back();
  int shift = 0;
  if (!text.empty()) {
    const size_t unit = std::string_view("KMGT").find(text.back());
    if (unit != std::string_view::npos) {
      shift = 10 * static_cast<int>(unit + 1);
      text.pop_back();
    }
  }
  if (text.empty() || text.size() > 15 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  const uint64_t value = std::stoull(text);
  if (shift > 0 && value > (~uint64_t{0} >> shift)) return false;
  *out = static_cast<size_t>(value << shift);
  return true;
}

}  // namespace simdex::tools
