#include "engine/index/batch_ids.h"

#include <algorithm>

#include "simdex/front_end_text.h"

namespace simdex::index {

void BatchIds::AddNumber(uint64_t id) {
  if (!checking()) return;
  if (string_ids_) strings_.push_back(std::to_string(id));
  else numbers_.push_back(id);
}

void BatchIds::AddString(std::string_view id) {
  if (!checking()) return;
  uint64_t number = 0;
  if (string_ids_) strings_.emplace_back(id);
  else if (ParseDecimalUint64(id, &number) && std::to_string(number) == id) numbers_.push_back(number);
}

void BatchIds::Seal() {
  std::sort(numbers_.begin(), numbers_.end());
  numbers_.erase(std::unique(numbers_.begin(), numbers_.end()), numbers_.end());
  std::sort(strings_.begin(), strings_.end());
  strings_.erase(std::unique(strings_.begin(), strings_.end()), strings_.end());
  seen_.assign(string_ids_ ? strings_.size() : numbers_.size(), false);
}

bool BatchIds::Holds(uint64_t id) const { return std::binary_search(numbers_.begin(), numbers_.end(), id); }

bool BatchIds::Find(uint64_t id) {
  const auto it = std::lower_bound(numbers_.begin(), numbers_.end(), id);
  if (it == numbers_.end() || *it != id) return false;
  const size_t at = static_cast<size_t>(it - numbers_.begin());
  if (!seen_[at]) Found(std::to_string(id));
  seen_[at] = true;
  return true;
}

bool BatchIds::Find(std::string_view id) {
  const auto it = std::lower_bound(strings_.begin(), strings_.end(), id,
                                   [](std::string_view a, std::string_view b) { return a < b; });
  if (it == strings_.end() || *it != id) return false;
  const size_t at = static_cast<size_t>(it - strings_.begin());
  if (!seen_[at]) Found(id);
  seen_[at] = true;
  return true;
}

void BatchIds::Found(std::string_view name) {
  if (found_++ == 0) first_.assign(name);
}

Status BatchIds::Refusal() const {
  if (found_ == 0 || policy_ != ExistingIds::kRefuse) return Status::OK();
  std::string more;
  if (found_ > 1) {
    more = " (and " + std::to_string(found_ - 1) + " more id" + (found_ > 2 ? "s" : "") + " of the batch " +
           (found_ > 2 ? "are" : "is") + ")";
  }
  return Status::InvalidArgument("id " + simdex::Quoted(first_) + " is in the old index already" + more +
                                 ": each would be stored twice");
}

}  // namespace simdex::index
