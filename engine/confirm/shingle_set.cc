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

double Jaccard(std::span<const uint64_t> a, std::span<const uint64_t> b) {
  size_t common = 0;
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] < b[j]) {
      ++i;
    } else if (b[j] < a[i]) {
      ++j;
    } else {
      ++common, ++i, ++j;
    }
  }
  const size_t all = a.size() + b.size() - common;
  return all == 0 ? 0.0 : static_cast<double>(common) / static_cast<double>(all);
}

}  // namespace simdex::confirm
