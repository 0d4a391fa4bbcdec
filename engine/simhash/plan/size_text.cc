// SizeText (include/simdex/plan.h).
#include <cstdint>
#include <cstdio>
#include <string>

#include "simdex/plan.h"

namespace simdex {

std::string SizeText(uint64_t bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  if (unit == 0) std::snprintf(text, sizeof(text), "%llu B", static_cast<unsigned long long>(bytes));
  else if (value == static_cast<double>(static_cast<uint64_t>(value))) std::snprintf(text, sizeof(text), "%.0f %s", value, kUnits[unit]);
  else std::snprintf(text, sizeof(text), value < 10 ? "%.2f %s" : value < 100 ? "%.1f %s" : "%.0f %s", value, kUnits[unit]);
  return text;
}

}  // namespace simdex
