// CheckWeight (include/simdex/fingerprint.h): the one rule every weight a
// caller supplies passes, so that no per-bit sum can overflow.
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

#include "simdex/fingerprint.h"

namespace simdex {

Status CheckWeight(double weight, std::string_view what) {
  // Written so that NaN, which compares false, is refused.
  if (std::isfinite(weight) && weight >= 0 && weight <= kMaxFeatureWeight) return Status::OK();
  char value[32], bound[32];
  std::snprintf(value, sizeof(value), "%g", weight);
  std::snprintf(bound, sizeof(bound), "%g", kMaxFeatureWeight);
  return Status::InvalidArgument(std::string(what) + " is " + value + ": a weight must be a finite number from 0 to " +
                                 bound);
}

}  // namespace simdex
