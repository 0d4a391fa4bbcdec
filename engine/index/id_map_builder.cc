#include "engine/index/id_map_builder.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace simdex::index {

uint64_t IdMapBuilder::Intern(std::string_view id) {
  const auto [it, inserted] = numbers_.try_emplace(std::string(id), by_number_.size());
  if (inserted) by_number_.push_back(&it->first);
  return it->second;
}

void IdMapBuilder::Finish() {
  std::vector<uint64_t> order(by_number_.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [this](uint64_t a, uint64_t b) { return *by_number_[a] < *by_number_[b]; });
  rank_.assign(order.size(), 0);
  sorted_.clear();
  for (uint64_t r = 0; r < order.size(); ++r) {
    rank_[order[r]] = r;
    sorted_.push_back(*by_number_[order[r]]);
  }
}

Status ReaddAsDecimalStrings(ExternalSorter<FingerprintIdPair>* numeric, IdMapBuilder* map,
                             ExternalSorter<FingerprintIdPair>* strings) {
  SIMDEX_RETURN_IF_ERROR(strings->status());
  SIMDEX_RETURN_IF_ERROR(numeric->Finish());
  std::vector<FingerprintIdPair> batch(4096);
  for (size_t got = 0;;) {
    SIMDEX_RETURN_IF_ERROR(numeric->Read(batch.data(), batch.size(), &got));
    if (got == 0) return Status::OK();
    for (size_t i = 0; i < got; ++i) batch[i].id = map->Intern(std::to_string(batch[i].id));
    SIMDEX_RETURN_IF_ERROR(strings->Add(batch.data(), got));
  }
}

}  // namespace simdex::index
