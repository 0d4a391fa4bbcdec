// Fingerprint profiles (include/simdex/profile.h): recording and comparing
// them. The descriptor itself is written by Fingerprinter::Create
// (fingerprinter.cc, DescribeProfile).
#include "simdex/profile.h"

#include <string>

namespace simdex {

Status FingerprintProfile(const FingerprintOptions& o, std::string* out) {
  // Create checks the options and describes them ("python-simhash" for the
  // compatibility profile, whose pipeline none of the options changes).
  std::unique_ptr<Fingerprinter> check;
  SIMDEX_RETURN_IF_ERROR(Fingerprinter::Create(o, &check));
  *out = check->profile();
  return Status::OK();
}

Status CheckProfileText(std::string_view profile) {
  if (profile.size() > kMaxProfileLength) {
    return Status::InvalidArgument("fingerprint profile of " + std::to_string(profile.size()) +
                                   " bytes (at most " + std::to_string(kMaxProfileLength) + ")");
  }
  for (size_t i = 0; i < profile.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(profile[i]);
    if (c < 0x20 || c > 0x7e) {
      return Status::InvalidArgument("fingerprint profile has a byte that is not printable ASCII at offset " +
                                     std::to_string(i));
    }
  }
  return Status::OK();
}

namespace {

// Profile 3's code is profile 4's with no weight cap (version 4 changed the
// default max_share alone, and a profile 3 descriptor names no cap): a
// version 3 descriptor is read as the version 4 one of the same options, so
// that files of version 3 are compared with fingerprints made with
// --max-share 0 and refused against capped ones.
std::string Canonical(std::string_view profile) {
  constexpr std::string_view kThree = "simdex-fp/3 ";
  if (!profile.starts_with(kThree)) return std::string(profile);
  return "simdex-fp/4 " + std::string(profile.substr(kThree.size()));
}

}  // namespace

Status CheckSameProfile(std::string_view stored_where, std::string_view stored, std::string_view used_where,
                        std::string_view used) {
  if (stored.empty() || used.empty() || Canonical(stored) == Canonical(used)) return Status::OK();
  return Status::InvalidArgument("fingerprint profiles differ, and fingerprints of different profiles are not "
                                 "comparable: " + std::string(stored_where) + " has \"" + std::string(stored) +
                                 "\", " + std::string(used_where) + " \"" + std::string(used) + "\"");
}

Status ProfileCheck::Add(std::string_view where, std::string_view profile) {
  SIMDEX_RETURN_IF_ERROR(CheckSameProfile(where_, profile_, where, profile));
  if (profile_.empty() && !profile.empty()) {
    where_.assign(where);
    profile_.assign(profile);
  }
  return Status::OK();
}

}  // namespace simdex
