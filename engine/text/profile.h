// The profile descriptor of validated fingerprint options
// (include/simdex/profile.h); Fingerprinter::Create records it once.
#ifndef SIMDEX_ENGINE_TEXT_PROFILE_H_
#define SIMDEX_ENGINE_TEXT_PROFILE_H_

#include <string>

#include "simdex/fingerprint.h"
#include "simdex/status.h"

namespace simdex::text {

// REQUIRES: options passed Fingerprinter::Create's checks; compat is kNone.
Status DescribeProfile(const FingerprintOptions& options, std::string* out);

}  // namespace simdex::text

#endif  // SIMDEX_ENGINE_TEXT_PROFILE_H_
