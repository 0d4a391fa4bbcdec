#include "engine/pipeline/document_ids.h"

#include "engine/util/json_text.h"

namespace simdex::pipeline {

void DocumentIds::Add(uint64_t id, std::string_view id_string) {
  if (!id_string.empty() && offsets_.empty()) offsets_.assign(size_ + 1, 0);
  if (!offsets_.empty()) {
    arena_.append(id_string);
    offsets_.push_back(arena_.size());
  }
  // A string id leaves the numeric rule as it is (its number is unused).
  if (!id_string.empty()) id = size_ == 0 ? 0 : (sequential_ ? base_ + size_ : 0);
  if (size_ == 0) base_ = id;
  if (sequential_ && id != base_ + size_) {
    sequential_ = false;
    numbers_.reserve(size_ + 1);
    for (uint64_t i = 0; i < size_; ++i) numbers_.push_back(base_ + i);
  }
  if (!sequential_) numbers_.push_back(id);
  ++size_;
}

bool DocumentIds::IsString(uint64_t ordinal) const {
  return !offsets_.empty() && offsets_[ordinal + 1] > offsets_[ordinal];
}

uint64_t DocumentIds::Number(uint64_t ordinal) const { return sequential_ ? base_ + ordinal : numbers_[ordinal]; }

std::string_view DocumentIds::String(uint64_t ordinal) const {
  return std::string_view(arena_).substr(offsets_[ordinal], offsets_[ordinal + 1] - offsets_[ordinal]);
}

void DocumentIds::AppendJson(uint64_t ordinal, std::string* out) const {
  util::AppendJsonId(out, Number(ordinal), IsString(ordinal) ? String(ordinal) : std::string_view());
}

void DocumentIds::AppendText(uint64_t ordinal, std::string* out) const {
  if (IsString(ordinal)) out->append(String(ordinal));
  else util::AppendDecimal(out, Number(ordinal));
}

}  // namespace simdex::pipeline
