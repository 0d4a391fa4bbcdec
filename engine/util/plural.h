// Counts in messages (the commands', IndexFile::VerifySummary's): "1 cluster",
// "2 clusters", "0 clusters".
#ifndef SIMDEX_ENGINE_UTIL_PLURAL_H_
#define SIMDEX_ENGINE_UTIL_PLURAL_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace simdex::io {

// n and the noun, singular for n == 1; the plural is singular + "s" unless
// given ("index", "indexes"; "entry", "entries").
inline std::string Count(uint64_t n, std::string_view singular, std::string_view plural = {}) {
  std::string out = std::to_string(n);
  out.push_back(' ');
  if (n == 1) return out.append(singular);
  if (!plural.empty()) return out.append(plural);
  return out.append(singular).append("s");
}

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_UTIL_PLURAL_H_
