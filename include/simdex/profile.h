// Fingerprint profiles: what made a fingerprint, recorded wherever
// fingerprints are stored, so that fingerprints made by different options
// are never compared.
//
// A profile is a one-line descriptor of the options that decide a
// fingerprint, e.g. the default:
//   "simdex-fp/4 words nfkc-casefold clean cap-numbers stop:en+zh tf max-share:0.1 seed:0"
// (docs/fingerprint.md, "Profiles", defines each word). Two option sets
// with equal descriptors give equal fingerprints for every text; a change
// of the code or of a default that changes any fingerprint raises the
// version after "simdex-fp/" (kDefaultFingerprintProfileVersion), so files
// of the old version are refused, not silently compared. (Version 3 differs
// from 4 only in the default max_share, which a version 3 descriptor does
// not name: CheckSameProfile reads "simdex-fp/3 X" as "simdex-fp/4 X".)
//
// Index files (BuildOptions::profile), fingerprint files
// (FingerprintFileWriter::SetProfile) and the docId service's state record
// it. A profile of "" means unrecorded (files written before profiles, or
// fingerprints from another tool): it is compatible with every profile.
#ifndef SIMDEX_PROFILE_H_
#define SIMDEX_PROFILE_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "simdex/fingerprint.h"
#include "simdex/status.h"

namespace simdex {

// The longest profile a file records.
inline constexpr size_t kMaxProfileLength = 4096;

// The descriptor of the fingerprints `options` give (the same as
// Fingerprinter::profile() of a fingerprinter made from them). Fails only
// when the options are invalid (Fingerprinter::Create's checks).
Status FingerprintProfile(const FingerprintOptions& options, std::string* out);

// OK when `profile` can be recorded: at most kMaxProfileLength bytes of
// printable ASCII (0x20-0x7e). Else InvalidArgument saying why.
Status CheckProfileText(std::string_view profile);

// OK when the profiles are equal (a version 3 one read as version 4, above)
// or either is "" (unrecorded). Else
// InvalidArgument naming both, e.g. with ("idx.sdx", A, "the query's options", B):
//   fingerprint profiles differ, and fingerprints of different profiles are
//   not comparable: idx.sdx has "simdex-fp/3 ... seed:0", the query's options "simdex-fp/3 ... seed:7"
Status CheckSameProfile(std::string_view stored_where, std::string_view stored, std::string_view used_where,
                        std::string_view used);

// The one profile that everything a command compares must share: Add each
// source (an index, a fingerprint file, the text options) with its name;
// the first recorded profile is kept, and a later source with another is
// refused by CheckSameProfile, naming it and the first.
//
//   ProfileCheck check;
//   check.Add("idx.sdx", index->profile());
//   check.Add(reader->name(), reader->profile());   // may fail
class ProfileCheck {
 public:
  Status Add(std::string_view where, std::string_view profile);
  // The first recorded profile ("" while none is).
  const std::string& profile() const { return profile_; }

 private:
  std::string where_;
  std::string profile_;
};

}  // namespace simdex

#endif  // SIMDEX_PROFILE_H_
