#include "engine/confirm/shingle_set.h"

#include <algorithm>

namespace simdex::confirm {

Status ShingleSetMaker::Create(ShingleUnit unit, int n, std::unique_ptr<ShingleSetMaker>* out) {
  text::ExtractorConfig config;
  config.tokenizer = unit == ShingleUnit::kWords ? Tokenizer::kWordNgrams : Tokenizer::kCharNgrams;
  config.ngram = n;
  config.normalize = true;
  std::unique_ptr<text::FeatureExtractor> extractor;
  SIMDEX_RETURN_IF_ERROR(text::FeatureExtractor::Create(config, &extractor));
  out->reset(new ShingleSetMaker(std::move(extractor)));
  return Status::OK();
}

std::unique_ptr<ShingleSetMaker> ShingleSetMaker::Clone() const {
  return std::unique_ptr<ShingleSetMaker>(new ShingleSetMaker(extractor_->Clone()));
}

void ShingleSetMaker::Make(std::string_view utf8_text, std::vector<uint64_t>* out) {
  text::ExtractStats stats;
  extractor_->Extract(utf8_text, &table_, &stats);
  out->clear();
  for (const text::FeatureEntry& e : table_.entries()) out->push_back(e.hash);
  std::sort(out->begin(), out->end());  // distinct already: the table counts by hash
}

namespace {

// common / (|a| + |b| - common), 0 for two empty lists: the one formula of
// Jaccard and JaccardReaches, so that both give the same double.
double Ratio(size_t common, size_t sizes) {
  const size_t all = sizes - common;
  return all == 0 ? 0.0 : static_cast<double>(common) / static_cast<double>(all);
}

}  // namespace

double Jaccard(std::span<const uint64_t> a, std::span<const uint64_t> b) {
  size_t common = 0;
  // Without branches on the comparison, which a merge of random hashes
  // mispredicts half the time.
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    const uint64_t x = a[i], y = b[j];
    common += x == y;
    i += x <= y;
    j += y <= x;
  }
  return Ratio(common, a.size() + b.size());
}

bool JaccardReaches(std::span<const uint64_t> a, std::span<const uint64_t> b, double threshold,
                    double* similarity) {
  const size_t sizes = a.size() + b.size(), most = std::min(a.size(), b.size());
  if (!(threshold > 0 && threshold <= 1)) {  // no count to reach, or none that can
    const double j = Jaccard(a, b);
    if (!(j >= threshold)) return false;
    *similarity = j;
    return true;
  }
  // need: the least common count whose Ratio reaches the threshold (Ratio
  // rises with the count), from the real-valued t * sizes / (1 + t).
  size_t need = std::min(most, static_cast<size_t>(threshold * static_cast<double>(sizes) / (1 + threshold)));
  while (need > 0 && Ratio(need - 1, sizes) >= threshold) --need;
  while (need <= most && Ratio(need, sizes) < threshold) ++need;
  if (need > most) return false;
  size_t common = 0;
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (common + std::min(a.size() - i, b.size() - j) < need) return false;
    const uint64_t x = a[i], y = b[j];
    common += x == y;
    i += x <= y;
    j += y <= x;
  }
  if (common < need) return false;
  *similarity = Ratio(common, sizes);
  return true;
}

ShingleOptions TruthShingleOptions(const ConfirmOptions& options) {
  ShingleOptions truth;
  truth.word_n = truth.char_n = options.n;
  truth.words = options.words;
  return truth;
}

}  // namespace simdex::confirm
