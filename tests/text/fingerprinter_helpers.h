// Helpers shared by the fingerprinter tests: a Fingerprinter the options
// must give, and FromFeatures of weights the rule must accept (a failure is
// the test's, named by the status).
#ifndef SIMDEX_TESTS_TEXT_FINGERPRINTER_HELPERS_H_
#define SIMDEX_TESTS_TEXT_FINGERPRINTER_HELPERS_H_

#include <gtest/gtest.h>

#include <memory>
#include <span>

#include "simdex/fingerprint.h"

namespace simdex::testing {

inline std::unique_ptr<Fingerprinter> MakeFingerprinter(const FingerprintOptions& options) {
  std::unique_ptr<Fingerprinter> fp;
  const Status s = Fingerprinter::Create(options, &fp);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return fp;
}

inline FingerprintResult FromFeatures(Fingerprinter* fp, std::span<const WeightedFeature> features) {
  FingerprintResult r;
  const Status s = fp->FromFeatures(features, &r);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return r;
}

}  // namespace simdex::testing

#endif  // SIMDEX_TESTS_TEXT_FINGERPRINTER_HELPERS_H_
