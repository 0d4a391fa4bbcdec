// The set of a text's shingles (n words or n code points after NFKC + case
// folding), as sorted distinct 64-bit hashes, and the Jaccard similarity of
// two such sets. Built on the fingerprints' feature extractor, so a shingle
// is exactly a feature of the word or char n-gram tokenizer.
#ifndef SIMDEX_ENGINE_CONFIRM_SHINGLE_SET_H_
#define SIMDEX_ENGINE_CONFIRM_SHINGLE_SET_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "engine/text/feature_extractor.h"
#include "engine/text/feature_table.h"
#include "simdex/confirm.h"
#include "simdex/shingles.h"

namespace simdex::confirm {

// Thread safety: not safe for concurrent use; Clone() one per thread.
class ShingleSetMaker {
 public:
  // REQUIRES: 1 <= n <= 16.
  static Status Create(ShingleUnit unit, int n, std::unique_ptr<ShingleSetMaker>* out);
  std::unique_ptr<ShingleSetMaker> Clone() const;

  // Replaces *out with the sorted distinct shingle hashes of utf8_text.
  void Make(std::string_view utf8_text, std::vector<uint64_t>* out);

 private:
  explicit ShingleSetMaker(std::unique_ptr<text::FeatureExtractor> extractor) : extractor_(std::move(extractor)) {}
  std::unique_ptr<text::FeatureExtractor> extractor_;
  text::FeatureTable table_;
};

// |a ∩ b| / |a ∪ b| of two sorted distinct lists; 0 when both are empty.
double Jaccard(std::span<const uint64_t> a, std::span<const uint64_t> b);

// Jaccard(a, b) >= threshold, and then *similarity = Jaccard(a, b) (the
// same double). Stops as soon as the common hashes cannot reach the count
// the threshold needs: at once when the smaller list is too short, else
// when the common ones so far and the rest of the shorter remainder fall
// short. *similarity is untouched when the answer is false.
bool JaccardReaches(std::span<const uint64_t> a, std::span<const uint64_t> b, double threshold,
                    double* similarity);

// The shingle options of a ConfirmOptions of unit kTruthShingles: word and
// character n-shingles of its n, cut into words by its word definition.
ShingleOptions TruthShingleOptions(const ConfirmOptions& options);

}  // namespace simdex::confirm

#endif  // SIMDEX_ENGINE_CONFIRM_SHINGLE_SET_H_
