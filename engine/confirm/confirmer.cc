// Confirmer (include/simdex/confirm.h): Jaccard of shingle sets or
// edit-distance similarity of two texts.
#include <algorithm>
#include <cmath>

#include "engine/confirm/edit_distance.h"
#include "engine/confirm/shingle_set.h"
#include "simdex/confirm.h"
#include "simdex/shingles.h"

namespace simdex {

struct Confirmer::Rep {
  ConfirmOptions options;
  // kJaccard: the ICU words or code points of the fingerprints' tokenizers,
  // or the Jaccard truth's shingles (kTruthShingles).
  std::unique_ptr<confirm::ShingleSetMaker> shingles;
  std::unique_ptr<ShingleMaker> truth_shingles;
  std::unique_ptr<confirm::EditText> edit_text;  // kEditDistance
  std::vector<uint64_t> set_a, set_b;
  std::vector<char32_t> text_a, text_b;

  Status Init() {
    if (options.measure == ConfirmMeasure::kJaccard && options.unit == ShingleUnit::kTruthShingles) {
      return ShingleMaker::Create(confirm::TruthShingleOptions(options), &truth_shingles);
    }
    if (options.measure == ConfirmMeasure::kJaccard) {
      return confirm::ShingleSetMaker::Create(options.unit, options.n, &shingles);
    }
    edit_text = std::make_unique<confirm::EditText>();
    return edit_text->Init();
  }

  void Shingles(std::string_view text, std::vector<uint64_t>* out) {
    if (truth_shingles) {
      truth_shingles->Make(text, out);
    } else {
      shingles->Make(text, out);
    }
  }

  // The similarity, or any value below `floor` once it is known to be below.
  double Similarity(std::string_view a, std::string_view b, double floor) {
    if (options.measure == ConfirmMeasure::kJaccard) {
      Shingles(a, &set_a);
      Shingles(b, &set_b);
      const size_t small = std::min(set_a.size(), set_b.size()), large = std::max(set_a.size(), set_b.size());
      // |A ∩ B| / |A ∪ B| <= min / max.
      if (large == 0 || static_cast<double>(small) / static_cast<double>(large) < floor) {
        return large == 0 ? 0.0 : static_cast<double>(small) / static_cast<double>(large);
      }
      return confirm::Jaccard(set_a, set_b);
    }
    edit_text->Prepare(a, &text_a);
    edit_text->Prepare(b, &text_b);
    const size_t longest = std::max(text_a.size(), text_b.size());
    if (longest == 0) return 0.0;
    // similarity >= floor  <=>  d <= (1 - floor) * longest.
    const double slack = (1.0 - floor) * static_cast<double>(longest);
    const size_t max_distance = floor <= 0 ? longest : static_cast<size_t>(std::floor(slack + 1e-9));
    const size_t d = confirm::EditDistance(text_a, text_b, max_distance);
    return 1.0 - static_cast<double>(std::min(d, longest)) / static_cast<double>(longest);
  }
};

Status Confirmer::Create(const ConfirmOptions& options, std::unique_ptr<Confirmer>* out) {
  if (options.n < 1 || options.n > 16) {
    return Status::InvalidArgument("confirm options: n must be in 1..16, got " + std::to_string(options.n));
  }
  if (!(options.threshold >= 0 && options.threshold <= 1)) {
    return Status::InvalidArgument("confirm options: threshold must be in [0, 1]");
  }
  if (options.measure != ConfirmMeasure::kJaccard && options.measure != ConfirmMeasure::kEditDistance) {
    return Status::InvalidArgument("confirm options: unknown measure");
  }
  if (options.unit != ShingleUnit::kWords && options.unit != ShingleUnit::kCodePoints &&
      options.unit != ShingleUnit::kTruthShingles) {
    return Status::InvalidArgument("confirm options: unknown shingle unit");
  }
  auto rep = std::make_unique<Rep>();
  rep->options = options;
  SIMDEX_RETURN_IF_ERROR(rep->Init());
  out->reset(new Confirmer(std::move(rep)));
  return Status::OK();
}

Confirmer::Confirmer(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
Confirmer::~Confirmer() = default;

std::unique_ptr<Confirmer> Confirmer::Clone() const {
  auto rep = std::make_unique<Rep>();
  rep->options = rep_->options;
  if (rep_->shingles) {
    rep->shingles = rep_->shingles->Clone();
  } else {
    (void)rep->Init();  // succeeded for the original
  }
  return std::unique_ptr<Confirmer>(new Confirmer(std::move(rep)));
}

const ConfirmOptions& Confirmer::options() const { return rep_->options; }

double Confirmer::Similarity(std::string_view a, std::string_view b) { return rep_->Similarity(a, b, 0.0); }

bool Confirmer::Confirms(std::string_view a, std::string_view b) {
  return rep_->Similarity(a, b, rep_->options.threshold) >= rep_->options.threshold;
}

void Confirmer::Shingles(std::string_view text, std::vector<uint64_t>* out) { rep_->Shingles(text, out); }

double Confirmer::JaccardOfShingles(std::span<const uint64_t> a, std::span<const uint64_t> b) {
  return confirm::Jaccard(a, b);
}

}  // namespace simdex
